/**
 * Sampled rows → file, O(n) whatever the pool size: the chosen rows are gathered from the
 * column files (each through a reader of its own, columns.ts) 2,048 rows at a time, as label
 * codes, and nothing is materialised whatever n. The chunks go straight to our streaming
 * writers: parquet.ts (dictionary pages of the labels, data pages of the codes), csv.ts (exactly
 * the bytes DuckDB's csv COPY would write) and xlsx.ts; docs/pool-store.md.
 */
import { stat, writeFile } from 'node:fs/promises';
import { HIERARCHICAL_COLUMNS, type DatasetType } from '../../core/dataset.ts';
import { fittedToText } from '../../core/provenance.ts';
import { missingCodesOf } from '../../synthesis/census/missing-codes.ts';
import { variableByCode, type Measurement } from '../../synthesis/census/variables.ts';
import type { ExportRequest, ExportResult } from '../../ports/pool-release.ts';
import { ID_DIGITS, ID_PREFIX, type Catalog, type CatalogSuburb, type CatalogVariable } from './catalog.ts';
import type { ColumnFile } from './columns.ts';
import { ID_COLUMNS } from './records-sql.ts';
import { writeCsv, type CsvColumn } from './csv.ts';
import { writeParquet, type ParquetColumn, type ParquetEncoding } from './parquet.ts';
import { writeXlsx, type XlsxColumn } from './xlsx.ts';
import { coarseColumnName, NULL_CODE, variableFileColumns, type VariableFileColumn } from './variable-columns.ts';


/** One dataset's columns: link columns by name, variables in catalog order (ENUM indices). */
export interface DatasetColumns {
  readonly links: Readonly<Record<string, ColumnFile>>;
  readonly variables: readonly ColumnFile[];
}

/** A selection's rows with the catalog ordinals of the suburbs it draws from. */
export interface ExportPart {
  readonly rows: Uint32Array;
  readonly suburbOrdinals: readonly number[];
  /** The selection the part answers, as the client wrote it (the `selection` column of a multi-selection file). */
  readonly label?: string;
}

/** A file answering several selections says which one each row answers, in a `selection` column after the ids. */
const hasSelectionColumn = (parts: readonly ExportPart[]): boolean => parts.length > 1;

/**
 * The dictionary shipped with every file: variable code → description and labels, ABS order.
 * Given the file's columns, it also says which are coarse: a variable with a CODE_coarse
 * companion names it and the suburbs whose records are empty in CODE (variable-columns.ts).
 */
export function dictionaryOf(catalog: Catalog, dataset: DatasetType, fileColumns?: readonly VariableFileColumn[], parts?: readonly ExportPart[], hierarchical = false) {
  return {
    version: catalog.version,
    fitted_to: fittedToText(catalog.fittedTo ?? 'demo'),
    dataset_type: dataset,
    ...(fileColumns ? { columns: describeColumns(catalog, dataset, fileColumns, parts ?? [], hierarchical) } : {}),
    ...(fileColumns?.some((c) => c.source.link) ? { linked_variables: linkedVariables(catalog, fileColumns) } : {}),
    ...(parts && hasSelectionColumn(parts)
      ? { selection_column: { description: 'The geography selection (as written in the request) that each record answers; a record is drawn once even where selections overlap.', values: selectionLabels(parts) } }
      : {}),
    variables: catalog.variables[dataset].map((v) => {
      const companion = fileColumns?.find((c) => c.name === coarseColumnName(v.code));
      const fine = fileColumns?.find((c) => c.name === v.code);
      const emptyIn = fine?.nullFor ? catalog.suburbs.flatMap((s, o) => (fine.nullFor![o] ? [s.suburbId] : [])) : [];
      return {
        code: v.code,
        description: v.description,
        measurement: measurementOf(v),
        categories: v.categories,
        // Missing-value codes, so readers order only the substantive levels (fine and coarse labels).
        missing: missingCodesOf([...new Set([...v.categories, ...(v.coarseCategories ?? [])])]),
        ...(v.coarseCategories ? { coarse_categories: v.coarseCategories } : {}),
        ...(companion
          ? {
              coarse_column: companion.name,
              coarse_note: `${v.code} is empty for records of small suburbs, whose records carry only coarse categories; ${companion.name} holds the coarse category of every record.`,
              empty_in_suburbs: emptyIn,
            }
          : {}),
      };
    }),
  };
}

/** A variable's measurement level: the catalog's, or (releases before measurement levels) the code's catalogue's. */
export const measurementOf = (v: CatalogVariable): Measurement => v.measurement ?? variableByCode(v.code).measurement;

const ID_MEANING: Readonly<Record<string, string>> = {
  person_id: 'The person record (P + 9 digits); text, keep the leading zeros',
  family_id: "The record's family (F + 9 digits), empty for persons in no family; joins the families file",
  dwelling_id: "The record's dwelling (D + 9 digits); joins the dwellings file",
};
const GEOGRAPHY_MEANING: Readonly<Record<string, string>> = {
  suburb_code:
    "The area whose pools the record comes from: ABS 2021 SAL code (SAL + 5 digits) for a suburb; the SA2's 9 digits, POA + 4 digits or LGA + 5 digits where the release fits SA2s, postal areas or LGAs to their own tables",
  suburb: 'The suburb as spq identifies it (decisions.md, "Geography identifiers"); empty for records of SA2, postal-area and LGA pools',
  postcode: "The suburb's main postcode, or the postal area (4 digits, text: keep the leading zero, e.g. 0800); empty for LGA pools",
  lga: "The suburb's main Local Government Area (the one holding most of its people), or the LGA; for postal-area and SA2 pools the LGA holding most of their people, from the ABS correspondences (empty where none places them)",
  gccsa: "The suburb's Greater Capital City Statistical Area; for postal-area and SA2 pools the one holding most of their people; empty for LGA pools",
  state: 'State or territory abbreviation',
};

const LINKED_OF: Readonly<Record<string, string>> = { family_row: "the record's family", dwelling_row: "the record's dwelling" };

/** Every column of the file, in file order, with what it holds (ids, selection, geography, variables, linked records' variables, coarse companions). */
function describeColumns(catalog: Catalog, dataset: DatasetType, fileColumns: readonly VariableFileColumn[], parts: readonly ExportPart[], hierarchical: boolean) {
  return [
    ...ID_COLUMNS[dataset].map((name) => ({ name, kind: 'id', description: ID_MEANING[name]! })),
    ...(hasSelectionColumn(parts) ? [{ name: 'selection', kind: 'selection', description: 'The geography selection (as written in the request) this record answers' }] : []),
    { name: 'suburb_code', kind: 'geography', description: GEOGRAPHY_MEANING['suburb_code']! },
    ...fileColumns.map((c) => {
      const v = catalog.variables[c.source.dataset][c.source.variable]!;
      const of = c.source.link ? `${v.description}, of ${LINKED_OF[c.source.link] ?? c.source.link} (empty where there is none)` : v.description;
      const kind = c.source.link ? 'linked' : 'variable';
      return c.name.endsWith('_coarse')
        ? { name: c.name, kind: 'coarse', description: `${of}: coarse categories for every record` }
        : { name: c.name, kind, description: c.nullFor ? `${of} (fine categories; empty for records of small suburbs: see ${coarseColumnName(c.name)})` : of };
    }),
    ...(hierarchical ? HIERARCHICAL_COLUMNS.map((name) => ({ name, kind: 'geography', description: GEOGRAPHY_MEANING[name]! })) : []),
  ];
}

/** The joined columns of linked records (family_*, dwelling_*) with their categories, as `variables` lists the record's own. */
function linkedVariables(catalog: Catalog, fileColumns: readonly VariableFileColumn[]) {
  return fileColumns
    .filter((c) => c.source.link && !c.name.endsWith('_coarse'))
    .map((c) => {
      const v = catalog.variables[c.source.dataset][c.source.variable]!;
      return { column: c.name, dataset_type: c.source.dataset, code: v.code, description: v.description, measurement: measurementOf(v), categories: v.categories };
    });
}

/** Where the csv export writes its dictionary: next to the file, `<destPath>.dictionary.json`. */
export const dictionaryPathOf = (csvPath: string): string => `${csvPath}.dictionary.json`;

const CHUNK = 2048;

/** A geography column coded per export: its distinct values, and each involved suburb's value index. */
interface GeoColumn {
  readonly name: string;
  readonly labels: readonly string[];
  /** local suburb index → label index */
  readonly valueOf: Uint32Array;
}

function geographyColumns(catalog: Catalog, parts: readonly ExportPart[], hierarchical: boolean): { localOf: Int32Array; columns: GeoColumn[] } {
  const localOf = new Int32Array(catalog.suburbs.length).fill(-1);
  const involved: CatalogSuburb[] = [];
  for (const p of parts) {
    for (const o of p.suburbOrdinals) {
      if (localOf[o] === -1) {
        localOf[o] = involved.length;
        involved.push(catalog.suburbs[o]!);
      }
    }
  }
  const pick: Record<string, (s: CatalogSuburb) => string> = {
    suburb_code: (s) => s.salCode,
    // A postal area's or LGA's pools belong to no one suburb.
    suburb: (s) => ((s.level ?? 'sal') === 'sal' ? s.suburbId : ''),
    postcode: (s) => s.postcode,
    lga: (s) => s.lga,
    gccsa: (s) => s.gccsa,
    state: (s) => s.state,
  };
  const names = ['suburb_code', ...(hierarchical ? HIERARCHICAL_COLUMNS : [])];
  const columns = names.map((name) => {
    const labels: string[] = [];
    const index = new Map<string, number>();
    const valueOf = Uint32Array.from(involved, (s) => {
      const v = pick[name]!(s);
      let i = index.get(v);
      if (i === undefined) {
        i = labels.push(v) - 1;
        index.set(v, i);
      }
      return i;
    });
    return { name, labels, valueOf };
  });
  return { localOf, columns };
}

/** Row chunks in file order: part by part, rows ascending within a part. */
function* rowChunks(parts: readonly ExportPart[]): Generator<{ readonly rows: Uint32Array; readonly part: number }> {
  for (const [part, p] of parts.entries()) {
    for (let start = 0; start < p.rows.length; start += CHUNK) yield { rows: p.rows.subarray(start, Math.min(start + CHUNK, p.rows.length)), part };
  }
}

/** The `selection` column's labels: each part's selection as written (or "selection N"). */
const selectionLabels = (parts: readonly ExportPart[]): string[] => parts.map((p, i) => p.label ?? `selection ${i + 1}`);

export async function exportRows(
  catalog: Catalog,
  dataset: DatasetType,
  columns: DatasetColumns,
  parts: readonly ExportPart[],
  request: ExportRequest,
  linked: LinkedColumns = {},
  parquetEncoding?: ParquetEncoding,
): Promise<ExportResult> {
  const { format, destPath } = request;
  const hierarchical = request.includeGeography === 'hierarchical';
  const fileColumns = variableFileColumns(catalog, dataset, parts.flatMap((p) => p.suburbOrdinals), request.linkedRecords ?? 'none');
  const dictionary = dictionaryOf(catalog, dataset, fileColumns, parts, hierarchical);
  const rows = parts.reduce((n, p) => n + p.rows.length, 0);
  const geo = geographyColumns(catalog, parts, hierarchical);

  const shape: FileShape = { dataset, columns, parts, geo, fileColumns, linked };
  if (format === 'xlsx') {
    await exportXlsx(catalog, shape, request);
  } else if (format === 'csv') {
    await exportCsv(shape, request);
    // csv has no place for it: the dictionary (and the query metadata) is a separate file.
    await writeFile(dictionaryPathOf(destPath), JSON.stringify({ ...dictionary, metadata: request.metadata }, null, 2) + '\n');
  } else {
    await exportParquet(catalog, shape, request, { ...request.metadata, dictionary: JSON.stringify(dictionary) }, parquetEncoding);
  }
  return { rows, bytes: (await stat(destPath)).size, ...(format === 'csv' ? { dictionaryPath: dictionaryPathOf(destPath) } : {}) };
}

/** Where each id column of a dataset's files comes from: the row itself, or a link column (−1 = none). */
function idSourcesOf(dataset: DatasetType, columns: DatasetColumns): { dataset: DatasetType; column: ColumnFile | undefined }[] {
  return ID_COLUMNS[dataset].map((name) => {
    const target = (name === 'person_id' ? 'persons' : name === 'family_id' ? 'families' : 'dwellings') as DatasetType;
    return { dataset: target, column: target === dataset ? undefined : columns.links[target === 'families' ? 'family_row' : 'dwelling_row'] };
  });
}

/**
 * The rows in file order as batches of numbers, one array per file column: ids as row numbers
 * (−1 = none), suburb_code, variables and hierarchical geography as label indices. The arrays
 * are reused batch after batch: a writer is done with a batch before it asks for the next.
 */
function* codedBatches(shape: FileShape): Generator<{ rowCount: number; columns: ArrayLike<number>[] }> {
  const { dataset, columns, parts, geo, fileColumns, linked } = shape;
  const idSources = idSourcesOf(dataset, columns);
  const idReaders = idSources.map(({ column }) => column?.reader());
  const ordinal = columns.links['suburb_ordinal']!.reader();
  const ids = idSources.map(({ column }) => (column === undefined ? undefined : new Int32Array(CHUNK)));
  const local = new Uint32Array(CHUNK);
  const ordinalScratch = new Uint32Array(CHUNK);
  const geoValues = geo.columns.map(() => new Uint32Array(CHUNK));
  const vars = fileColumns.map(() => new Uint8Array(CHUNK));
  const { sources, sourceOf } = poolSources(fileColumns, columns, linked);
  const selection = hasSelectionColumn(parts) ? new Uint32Array(CHUNK) : undefined;
  for (const { rows, part } of rowChunks(parts)) {
    const m = rows.length;
    const idColumns = idReaders.map((column, k) => {
      if (column === undefined) return rows;
      const out = ids[k]!;
      column.gather(rows, m, out);
      return out;
    });
    const ordinals = ordinalScratch;
    ordinal.gather(rows, m, ordinals);
    for (let i = 0; i < m; i++) local[i] = geo.localOf[ordinals[i]!]!;
    geo.columns.forEach((g, k) => {
      const out = geoValues[k]!;
      for (let i = 0; i < m; i++) out[i] = g.valueOf[local[i]!]!;
    });
    for (const source of sources) source.gather(rows, m);
    fileColumns.forEach((column, k) => fileValues(column, sources[sourceOf[k]!]!.values, ordinals, m, vars[k]!));
    selection?.fill(part, 0, m);
    yield { rowCount: m, columns: [...idColumns, ...(selection ? [selection] : []), geoValues[0]!, ...vars, ...geoValues.slice(1)] };
  }
}

/**
 * The pool columns a file's variables read, each once per chunk: a variable and its coarse
 * companion share one (the fine-to-coarse map is applied after), so the column is read once.
 */
function poolSources(fileColumns: readonly VariableFileColumn[], own: DatasetColumns, linked: LinkedColumns) {
  const keys: string[] = [];
  const sources: { readonly values: Int32Array; gather(rows: Uint32Array, m: number): void }[] = [];
  const sourceOf = fileColumns.map((column) => {
    const key = `${column.source.dataset}/${column.source.variable}/${column.source.link ?? ''}`;
    const known = keys.indexOf(key);
    if (known >= 0) return known;
    keys.push(key);
    sources.push(poolSource(column, own, linked));
    return sources.length - 1;
  });
  return { sources, sourceOf };
}

/** One pool column's values for a chunk's rows (−1 where a linked record has none). */
function poolSource(column: VariableFileColumn, own: DatasetColumns, linked: LinkedColumns) {
  const { dataset, variable, link } = column.source;
  const holder = link ? linked[dataset] : own;
  if (!holder) throw new Error(`export: no columns of ${dataset} to join`);
  const reader = holder.variables[variable]!.reader();
  const linkFile = link ? own.links[link] : undefined;
  if (link && !linkFile) throw new Error(`export: no link column ${link}`);
  const values = new Int32Array(CHUNK);
  if (!linkFile) return { values, gather: (rows: Uint32Array, m: number) => reader.gather(rows, m, values) };
  const linkReader = linkFile.reader();
  const at = new Int32Array(CHUNK);
  return {
    values,
    gather(rows: Uint32Array, m: number) {
      linkReader.gather(rows, m, at);
      for (let i = 0; i < m; i++) values[i] = at[i]! < 0 ? -1 : reader.get(at[i]!);
    },
  };
}

/** A file column's label indices from its pool column's values (fileValue for a batch; NULL where the value is −1). */
function fileValues(column: VariableFileColumn, values: Int32Array, ordinals: Uint32Array, m: number, out: Uint8Array): void {
  const { map, nullFor } = column;
  if (nullFor) for (let i = 0; i < m; i++) out[i] = values[i]! < 0 || nullFor[ordinals[i]!] ? NULL_CODE : map[values[i]!]!;
  else for (let i = 0; i < m; i++) out[i] = values[i]! < 0 ? NULL_CODE : map[values[i]!]!;
}

/** The file columns after the ids: suburb_code, the variables, then hierarchical geography; labels per column. */
function codedColumns(geo: { columns: GeoColumn[] }, fileColumns: readonly VariableFileColumn[], parts: readonly ExportPart[]): { name: string; labels: readonly string[] }[] {
  const [codeColumn, ...hierarchy] = geo.columns;
  return [
    ...(hasSelectionColumn(parts) ? [{ name: 'selection', labels: selectionLabels(parts) }] : []),
    { name: 'suburb_code', labels: codeColumn!.labels },
    ...fileColumns.map((c) => ({ name: c.name, labels: c.labels })),
    ...hierarchy.map((g) => ({ name: g.name, labels: g.labels })),
  ];
}

/** What a file is made of: its dataset's columns, the rows in parts, its geography and variable columns. */
interface FileShape {
  readonly dataset: DatasetType;
  readonly columns: DatasetColumns;
  readonly parts: readonly ExportPart[];
  readonly geo: { localOf: Int32Array; columns: GeoColumn[] };
  readonly fileColumns: readonly VariableFileColumn[];
  /** The other datasets' columns, for linked records' variables (joined). */
  readonly linked: LinkedColumns;
}

/** Every dataset's columns by dataset, as the release holds them open. */
export type LinkedColumns = Readonly<Partial<Record<DatasetType, DatasetColumns>>>;

/** The ids, then the coded columns (suburb_code, variables, hierarchy), as both streaming writers take them. */
function streamedColumns(shape: FileShape) {
  const idSources = idSourcesOf(shape.dataset, shape.columns);
  return [
    ...ID_COLUMNS[shape.dataset].map((name, k) => ({ name, kind: 'id' as const, prefix: ID_PREFIX[idSources[k]!.dataset], digits: ID_DIGITS })),
    ...codedColumns(shape.geo, shape.fileColumns, shape.parts).map((c) => ({ ...c, kind: 'coded' as const })),
  ];
}

const batchesOf = (shape: FileShape) => codedBatches(shape);

async function exportCsv(shape: FileShape, request: ExportRequest): Promise<void> {
  const csvColumns: CsvColumn[] = streamedColumns(shape);
  await writeCsv({ destPath: request.destPath, columns: csvColumns, batches: batchesOf(shape) });
}

/** The parquet file, written from the coded columns (parquet.ts); an ordinal variable's columns are ordered dictionaries. */
async function exportParquet(catalog: Catalog, shape: FileShape, request: ExportRequest, keyValue: Record<string, string>, encoding?: ParquetEncoding): Promise<void> {
  const ordinal = new Set(shape.fileColumns.filter((c) => measurementOf(catalog.variables[c.source.dataset][c.source.variable]!) === 'ordinal').map((c) => c.name));
  const columns: ParquetColumn[] = streamedColumns(shape).map((c) => (c.kind === 'coded' ? { ...c, ordered: ordinal.has(c.name) } : c));
  await writeParquet({ destPath: request.destPath, columns, batches: batchesOf(shape), keyValue, ...(encoding === undefined ? {} : { encoding }) });
}

async function exportXlsx(catalog: Catalog, shape: FileShape, request: ExportRequest): Promise<void> {
  const variables = catalog.variables[shape.dataset];
  const xlsxColumns: XlsxColumn[] = streamedColumns(shape);
  const fileColumns = shape.fileColumns;
  // `missing` names a label's missing-value kind (not_applicable, non_response, partial_response), else empty;
  // `measurement` the column's level (nominal, ordinal), as the json dictionary's.
  const dictionaryRows: (string | number)[][] = [['code', 'description', 'category_index', 'label', 'missing', 'measurement']];
  const missingKind = (categories: readonly string[]) => {
    const m = missingCodesOf(categories);
    return (label: string) => (['not_applicable', 'non_response', 'partial_response'] as const).find((k) => m[k].includes(label.trim())) ?? '';
  };
  for (const v of linkedVariables(catalog, fileColumns)) {
    const kind = missingKind(v.categories);
    v.categories.forEach((label, i) => dictionaryRows.push([v.column, `${v.description} (${v.dataset_type})`, i + 1, label, kind(label), v.measurement]));
  }
  for (const v of variables) {
    const kind = missingKind(v.categories);
    const measurement = measurementOf(v);
    v.categories.forEach((label, i) => dictionaryRows.push([v.code, v.description, i + 1, label, kind(label), measurement]));
    const companion = fileColumns.find((c) => c.name === coarseColumnName(v.code));
    if (companion) {
      const coarseKind = missingKind(companion.labels);
      companion.labels.forEach((label, i) =>
        dictionaryRows.push([companion.name, `${v.description} (coarse categories, every record; ${v.code} is empty for small suburbs)`, i + 1, label, coarseKind(label), measurement]),
      );
    }
  }
  await writeXlsx({
    destPath: request.destPath,
    sheetName: shape.dataset,
    columns: xlsxColumns,
    batches: batchesOf(shape),
    extraSheets: [
      { name: 'dictionary', rows: dictionaryRows },
      {
        name: 'columns',
        rows: [
          ['name', 'kind', 'description'],
          ...describeColumns(catalog, shape.dataset, shape.fileColumns, shape.parts, request.includeGeography === 'hierarchical').map((c) => [c.name, c.kind, c.description]),
        ],
      },
      { name: 'metadata', rows: [['key', 'value'], ...Object.entries(request.metadata).map(([k, v]) => [k, v])] },
    ],
  });
}
