import type { DatasetType } from '../../../census-names.ts';

/**
 * The catalogue of served variables: ABS 2021 Census Dictionary mnemonics as codes, category
 * labels in ABS order ("Not stated" / "Not applicable" last). Where a GCP DataPack table groups
 * categories more coarsely than the dictionary (G17 folds negative and nil income together,
 * G37 folds rent-free and life tenure into "Other tenure type", …), the categories follow the
 * table, so that every input-table cell is a conjunction of category sets (docs/inputs.md lists
 * each such choice). Category indices are stored in Uint8Array columns, so fewer than 256.
 */
export interface VariableDef {
  readonly code: string;
  readonly dataset: DatasetType;
  /**
   * Stevens' level of measurement: "ordinal" when the substantive categories run from low to
   * high in `categories` (ages, incomes, counts, schooling, remoteness), else "nominal". Readers
   * build ordered factors / categoricals only for ordinal variables (missing codes excluded).
   */
  readonly measurement: Measurement;
  readonly description: string;
  readonly categories: readonly string[];
  /** For small suburbs (confidentiality): coarser categories and the map fine index → coarse index. */
  readonly coarse?: { readonly categories: readonly string[]; readonly fromFine: readonly number[] };
}

/** Whether a variable's categories have an order (ordinal) or not (nominal). */
export const MEASUREMENTS = ['nominal', 'ordinal'] as const;
export type Measurement = (typeof MEASUREMENTS)[number];

/** The residual categories, last in every variable that has them. */
export const NS = 'Not stated';
export const NA = 'Not applicable';

/** Builds the coarse map from groups of fine labels; every fine label must appear in exactly one group. */
export function coarsen(fine: readonly string[], groups: readonly (readonly [string, readonly string[]])[]) {
  const fromFine = fine.map((label) => {
    const at = groups.findIndex(([, members]) => members.includes(label));
    if (at < 0) throw new Error(`coarsening misses category "${label}"`);
    return at;
  });
  return { categories: groups.map(([name]) => name), fromFine };
}

/** Coarse groups of consecutive fine categories given by their first fine index. */
export function coarsenByRuns(fine: readonly string[], runs: readonly (readonly [string, number])[]) {
  const fromFine = fine.map((_, i) => {
    let group = 0;
    for (let g = 0; g < runs.length; g++) if (i >= runs[g]![1]) group = g;
    return group;
  });
  return { categories: runs.map(([name]) => name), fromFine };
}
