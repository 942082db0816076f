/**
 * What one exported file is made of, shared by the column reader (export.ts), the dictionary
 * (dictionary.ts) and the format writers (writers.ts): the rows in parts, the dataset's column
 * files, the geography and variable columns, and the file's columns in order with their labels.
 */
import { LINKED_DATASETS, type DatasetType } from '../../core/dataset.ts';
import { ID_DIGITS, ID_PREFIX } from './catalog.ts';
import type { ColumnFile } from './columns.ts';
import { ID_COLUMNS } from './records-sql.ts';
import type { VariableFileColumn } from './variable-columns.ts';

/** One dataset's columns: link columns by name, variables in catalog order (ENUM indices). */
export interface DatasetColumns {
  readonly links: Readonly<Record<string, ColumnFile>>;
  readonly variables: readonly ColumnFile[];
}

/** Every dataset's columns by dataset, as the release holds them open. */
export type LinkedColumns = Readonly<Partial<Record<DatasetType, DatasetColumns>>>;

/** A selection's rows with the catalog ordinals of the suburbs it draws from. */
export interface ExportPart {
  readonly rows: Uint32Array;
  readonly suburbOrdinals: readonly number[];
  /** The selection the part answers, as the client wrote it (the `selection` column of a multi-selection file). */
  readonly label?: string;
}

/** A geography column coded per export: its distinct values, and each involved suburb's value index. */
export interface GeoColumn {
  readonly name: string;
  readonly labels: readonly string[];
  /** local suburb index → label index */
  readonly valueOf: Uint32Array;
}

/** What a file is made of: its dataset's columns, the rows in parts, its geography and variable columns. */
export interface FileShape {
  readonly dataset: DatasetType;
  readonly columns: DatasetColumns;
  readonly parts: readonly ExportPart[];
  readonly geo: { localOf: Int32Array; columns: GeoColumn[] };
  readonly fileColumns: readonly VariableFileColumn[];
  /** The other datasets' columns, for linked records' variables (joined). */
  readonly linked: LinkedColumns;
}

/** A file answering several selections says which one each row answers, in a `selection` column after the ids. */
export const hasSelectionColumn = (parts: readonly ExportPart[]): boolean => parts.length > 1;

/** The `selection` column's labels: each part's selection as written (or "selection N"). */
export const selectionLabels = (parts: readonly ExportPart[]): string[] => parts.map((p, i) => p.label ?? `selection ${i + 1}`);

/** The record an id column names: the row's own (person_id of persons), or the one a link column points to. */
export function idTargetOf(dataset: DatasetType, idColumn: string): { readonly dataset: DatasetType; readonly link?: string } {
  const target: DatasetType = idColumn === 'person_id' ? 'persons' : idColumn === 'family_id' ? 'families' : 'dwellings';
  if (target === dataset) return { dataset };
  return { dataset: target, link: LINKED_DATASETS[dataset].find((l) => l.dataset === target)!.link };
}

/** The file columns after the ids: suburb_code, the variables, then hierarchical geography; labels per column. */
function codedColumns(shape: FileShape): { name: string; labels: readonly string[] }[] {
  const [codeColumn, ...hierarchy] = shape.geo.columns;
  return [
    ...(hasSelectionColumn(shape.parts) ? [{ name: 'selection', labels: selectionLabels(shape.parts) }] : []),
    { name: 'suburb_code', labels: codeColumn!.labels },
    ...shape.fileColumns.map((c) => ({ name: c.name, labels: c.labels })),
    ...hierarchy.map((g) => ({ name: g.name, labels: g.labels })),
  ];
}

/** The ids, then the coded columns (suburb_code, variables, hierarchy), as the streaming writers take them. */
export function streamedColumns(shape: FileShape) {
  return [
    ...ID_COLUMNS[shape.dataset].map((name) => ({ name, kind: 'id' as const, prefix: ID_PREFIX[idTargetOf(shape.dataset, name).dataset], digits: ID_DIGITS })),
    ...codedColumns(shape).map((c) => ({ ...c, kind: 'coded' as const })),
  ];
}
