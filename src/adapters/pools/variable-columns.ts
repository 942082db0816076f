/**
 * The variable columns of a downloaded file. A pool column holds a suburb's fine categories,
 * or its coarse ones where the suburb is small (docs/synthesis.md, "Coarsening"). A file never
 * mixes the two in one column: when any suburb of the file is coarsened for a variable, the
 * variable comes as two columns,
 *   CODE         its fine categories, empty (NULL) for every record of a coarsened suburb;
 *   CODE_coarse  its coarse categories, for every record of the file;
 * so a tabulation over the whole file uses CODE_coarse, and one over the suburbs that are not
 * small uses CODE. A file without a coarsened suburb has CODE alone, as before.
 *
 * Nor does a column mix substantive categories with missing-value codes (issue 38): CODE and
 * CODE_coarse hold only substantive categories, so an ordered reader's order, comparisons and
 * maximum never land on "Not stated"; where the record's value is a missing code they are empty
 * and CODE_missing (after CODE_coarse if present, else after CODE) holds the code as the ABS
 * names it. CODE_missing is there whenever the variable has missing codes, so every file of a
 * query (every implicate) has the same columns. Each column's labels are exactly the values that
 * can occur in it.
 */
import { LINKED_DATASETS, type DatasetType, type LinkedRecords } from '../../core/dataset.ts';
import { missingCodesOf, type MissingCodes } from '../../synthesis/census/missing-codes.ts';
import { VARIABLES } from '../../synthesis/census/variables.ts';
import type { Catalog, CatalogVariable } from './catalog.ts';
import { NULL_CODE } from './coded.ts';

export { NULL_CODE };

export const coarseColumnName = (code: string): string => `${code}_coarse`;
export const missingColumnName = (code: string): string => `${code}_missing`;

/** What a variable's file column holds: its (substantive) categories, its coarse ones, or the missing-value code. */
export type VariableColumnRole = 'variable' | 'coarse' | 'missing';

export interface VariableFileColumn {
  readonly name: string;
  readonly role: VariableColumnRole;
  readonly labels: readonly string[];
  /** Where the values come from: a dataset's variable (index into catalog.variables[dataset]), read at the record's own row or through a link column. */
  readonly source: { readonly dataset: DatasetType; readonly variable: number; readonly link?: string };
  /** Pool ENUM index → label index in this column (NULL_CODE: none). */
  readonly map: Uint8Array;
  /** By catalog suburb ordinal: 1 where the column is NULL for all the suburb's records. */
  readonly nullFor?: Uint8Array;
}

/**
 * The file's variable columns, given the catalog ordinals of the suburbs it draws from: the
 * dataset's own, then with linked records "joined" those of the records above it (LINKED_DATASETS:
 * family_* and dwelling_* columns, empty where a person has no family).
 */
export function variableFileColumns(catalog: Catalog, dataset: DatasetType, suburbOrdinals: Iterable<number>, linked: LinkedRecords = 'none'): VariableFileColumn[] {
  const ordinals = [...new Set(suburbOrdinals)];
  const sources = [{ dataset, link: undefined as string | undefined, prefix: '' }, ...(linked === 'joined' ? LINKED_DATASETS[dataset] : [])];
  return sources.flatMap((from) =>
    catalog.variables[from.dataset].flatMap((v, k): VariableFileColumn[] => {
      const source = { dataset: from.dataset, variable: k, ...(from.link ? { link: from.link } : {}) };
      const name = `${from.prefix}${v.code}`;
      const coarsenedIn = v.coarseCategories ? ordinals.filter((o) => catalog.suburbs[o]?.coarsened.includes(v.code)) : [];
      const toCoarse = coarsenedIn.length > 0 ? coarseMap(v) : undefined;
      const missing = missingLabelsOf(v);
      const missingColumn: VariableFileColumn[] = missing.length > 0 ? [{ name: missingColumnName(name), role: 'missing', labels: missing, source, map: Uint8Array.from(v.labels, (l) => indexOr(missing, l)) }] : [];
      if (!toCoarse) {
        // A release older than the fine-to-coarse map, whose categories this code no longer knows,
        // is served as it was built: coarse labels in the variable's own column (rebuild it to split them).
        // Without a coarsened suburb no record holds a coarse label, so the column has the fine categories alone.
        const labels = substantive(coarsenedIn.length > 0 ? v.labels : v.categories, missing);
        return [{ name, role: 'variable', labels, source, map: Uint8Array.from(v.labels, (l) => indexOr(labels, l)) }, ...missingColumn];
      }
      const nullFor = new Uint8Array(catalog.suburbs.length);
      for (const o of coarsenedIn) nullFor[o] = 1;
      const fine = substantive(v.categories, missing);
      const coarse = substantive(v.coarseCategories!, missing);
      const isMissing = (label: string) => missing.includes(label);
      return [
        { name, role: 'variable', labels: fine, source, map: Uint8Array.from(v.labels, (l, i) => (i < v.categories.length ? indexOr(fine, l) : NULL_CODE)), nullFor },
        { name: coarseColumnName(name), role: 'coarse', labels: coarse, source, map: Uint8Array.from(v.labels, (l, i) => (isMissing(l) ? NULL_CODE : indexOr(coarse, v.coarseCategories![toCoarse[i]!]!))) },
        ...missingColumn,
      ];
    }),
  );
}

/** A variable's missing-value codes by kind, over its fine and coarse categories: what files keep out of CODE and CODE_coarse, and what dictionaries list. */
export const missingCodesOfVariable = (v: CatalogVariable): MissingCodes => missingCodesOf([...new Set([...v.categories, ...(v.coarseCategories ?? [])])]);

/** A variable's missing-value codes (fine and coarse) in the order of its pool labels. */
function missingLabelsOf(v: CatalogVariable): string[] {
  const codes = missingCodesOfVariable(v);
  const all = new Set([...codes.not_applicable, ...codes.non_response, ...codes.partial_response]);
  return [...new Set(v.labels.filter((l) => all.has(l.trim())))];
}

const substantive = (labels: readonly string[], missing: readonly string[]): string[] => labels.filter((l) => !missing.includes(l));

/** The label's index in labels, or NULL_CODE where it has none (the column is empty for that value). */
function indexOr(labels: readonly string[], label: string): number {
  const i = labels.indexOf(label);
  return i < 0 ? NULL_CODE : i;
}

/**
 * Pool ENUM index → coarse label index: a fine label through the release's fine → coarse map
 * (older releases: this code's catalogue, if its categories are the release's; else undefined),
 * a coarse label to itself.
 */
function coarseMap(v: CatalogVariable): Uint8Array | undefined {
  const coarse = v.coarseCategories!;
  let ofFine = v.coarseOfFine;
  if (!ofFine) {
    const def = VARIABLES.find((d) => d.code === v.code);
    if (!def?.coarse || def.categories.join('\n') !== v.categories.join('\n') || def.coarse.categories.join('\n') !== coarse.join('\n')) return undefined;
    ofFine = def.coarse.fromFine;
  }
  return Uint8Array.from(v.labels, (label, i) => {
    if (i < v.categories.length) return ofFine[i]!;
    const j = coarse.indexOf(label);
    if (j < 0) throw new Error(`${v.code}: label "${label}" is neither a fine nor a coarse category`);
    return j;
  });
}

/** One record's value in a file column: its pool ENUM index mapped, or NULL_CODE. */
export function fileValue(column: VariableFileColumn, poolValue: number, suburbOrdinal: number): number {
  return column.nullFor?.[suburbOrdinal] ? NULL_CODE : column.map[poolValue]!;
}
