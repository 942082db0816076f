/**
 * Structure recovered beyond independence (the realism section of the build report, "share of
 * the independence error removed").
 *
 * Definition. For a full validation cross-tab (age × sex × labour force, tenure × household
 * income …): 1 − Σ|x − truth| / Σ|independence(x) − truth|, where independence(x) is the product
 * of the records' own one-way margins. 1 = the truth's joint structure, 0 = no better than the
 * margins multiplied together, negative = worse. Per suburb, and pooled (each cross-tab summed
 * over suburbs first, what a researcher tabulating a region sees); over all cells and over stated
 * categories only.
 *
 * Reference figure. The oracle: a second, independent draw of the truth model, scored the same
 * way — what a synthesizer that knew the model could reach. On the demo it removes 70–90% of the
 * error per suburb on the linked tables and 92–99% pooled; the goals are ≥ 90% pooled for the
 * linked tables (docs/synthesis.md, "Joint realism"). Needs a truth: a build of demo inputs only.
 */
import type { TableSpec } from '../census/table-spec.ts';
import { variableByCode } from '../census/variables.ts';
import { isInformative } from './associations.ts';

/** The variables a full cross-tab crosses, in cell order (the last varies fastest), with their category counts and labels. */
export interface CrossTabLayout {
  readonly codes: readonly string[];
  readonly sizes: readonly number[];
  readonly labels: readonly (readonly string[])[];
}

/**
 * The layout of a cross-tab whose cells are every combination of its variables' categories, as
 * VALIDATION_TABLES builds them (cell i's where-condition names one category per variable, in
 * the order of the first cell's keys, the last varying fastest; headers `${id}_${code}${k}…`).
 * Throws for a table that is not such a full product (an input table, say).
 */
export function crossTabLayout(spec: Pick<TableSpec, 'id' | 'cells'> & { readonly population?: TableSpec['population'] }): CrossTabLayout {
  const first = spec.cells[0];
  if (!first) throw new Error(`${spec.id} has no cells`);
  // The table's population (e.g. occupied private dwellings) is a condition of every cell, not a dimension.
  const population = spec.population?.where ?? {};
  const codes = Object.keys(first.where).filter((code) => !(code in population));
  const labels = codes.map((code) => variableByCode(code).categories);
  const sizes = labels.map((l) => l.length);
  const cells = sizes.reduce((a, b) => a * b, 1);
  if (spec.cells.length !== cells) throw new Error(`${spec.id} has ${spec.cells.length} cells, not the ${cells} of ${codes.join(' × ')}`);
  spec.cells.forEach((cell, i) => {
    let rest = i;
    for (let k = codes.length - 1; k >= 0; k--) {
      const want = rest % sizes[k]!;
      rest = Math.floor(rest / sizes[k]!);
      const got = cell.where[codes[k]!];
      if (!got || got.length !== 1 || got[0] !== want || Object.keys(cell.where).length !== codes.length + Object.keys(population).length) {
        throw new Error(`${spec.id} cell ${cell.header} is not category ${want} of ${codes[k]} as a full cross-tab would have it`);
      }
    }
  });
  return { codes, sizes, labels };
}

/**
 * The independence baseline of a cross-tab: the product of its own one-way margins, scaled to
 * its total (cell = total · Π_k margin_k / total). `sizes` are the variables' category counts in
 * cell order, the last varying fastest; works for any number of variables (2- and 3-way here).
 */
export function independenceTable(table: ArrayLike<number>, sizes: readonly number[]): Float64Array {
  const cells = sizes.reduce((a, b) => a * b, 1);
  if (table.length !== cells) throw new RangeError(`table has ${table.length} cells, not the ${cells} of ${sizes.join(' × ')}`);
  const strides = sizes.map((_, k) => sizes.slice(k + 1).reduce((a, b) => a * b, 1));
  const margins = sizes.map((size) => new Float64Array(size));
  let total = 0;
  for (let i = 0; i < cells; i++) {
    const x = table[i]!;
    total += x;
    for (let k = 0; k < sizes.length; k++) margins[k]![Math.floor(i / strides[k]!) % sizes[k]!]! += x;
  }
  const out = new Float64Array(cells);
  if (total === 0) return out;
  for (let i = 0; i < cells; i++) {
    let x = total;
    for (let k = 0; k < sizes.length; k++) x *= margins[k]![Math.floor(i / strides[k]!) % sizes[k]!]! / total;
    out[i] = x;
  }
  return out;
}

/**
 * The sub-table over the categories `keep` accepts (by default the informative ones: no "Not
 * stated", "Not applicable" …), with its layout. Cells of structurally known categories (LFSP
 * "Not applicable" under 15, OCCP × INDP both "Not applicable" for the non-employed) would
 * otherwise credit any rule-abiding synthesizer with structure it was told.
 */
export function restrictCrossTab(table: ArrayLike<number>, layout: CrossTabLayout, keep: (label: string, code: string) => boolean = isInformative): { table: Float64Array; layout: CrossTabLayout } {
  const kept = layout.codes.map((code, k) => layout.labels[k]!.flatMap((label, c) => (keep(label, code) ? [c] : [])));
  const sizes = kept.map((k) => k.length);
  const strides = layout.sizes.map((_, k) => layout.sizes.slice(k + 1).reduce((a, b) => a * b, 1));
  const out = new Float64Array(sizes.reduce((a, b) => a * b, 1));
  for (let j = 0; j < out.length; j++) {
    let rest = j;
    let at = 0;
    for (let k = sizes.length - 1; k >= 0; k--) {
      at += kept[k]![rest % sizes[k]!]! * strides[k]!;
      rest = Math.floor(rest / sizes[k]!);
    }
    out[j] = table[at]!;
  }
  return { table: out, layout: { codes: layout.codes, sizes, labels: kept.map((k, i) => k.map((c) => layout.labels[i]![c]!)) } };
}

/** Errors of a candidate table against the truth: Σ|x − t| and Σ(x − t)², over cells. Both add over suburbs. */
export interface CellErrors {
  absolute: number;
  squared: number;
}

export const emptyCellErrors = (): CellErrors => ({ absolute: 0, squared: 0 });

export function cellErrors(candidate: ArrayLike<number>, truth: ArrayLike<number>): CellErrors {
  if (candidate.length !== truth.length) throw new RangeError(`cell counts differ: ${candidate.length} vs ${truth.length}`);
  let absolute = 0;
  let squared = 0;
  for (let i = 0; i < truth.length; i++) {
    const d = candidate[i]! - truth[i]!;
    absolute += Math.abs(d);
    squared += d * d;
  }
  return { absolute, squared };
}

/** One suburb's cross-tab of each source. `independence` is the synthetic table's own independence baseline. */
export interface RecoveryInput {
  readonly synthetic: ArrayLike<number>;
  readonly truth: ArrayLike<number>;
  readonly independence: ArrayLike<number>;
  /** A second, independent draw of the truth model: what a synthesizer that knew the model could reach. */
  readonly oracle?: ArrayLike<number>;
  /** The oracle's own independence baseline; when omitted the oracle is scored against `independence`. */
  readonly oracleIndependence?: ArrayLike<number>;
}

/** Errors against the truth, adding over suburbs. */
export interface RecoveryTally {
  synthetic: CellErrors;
  independence: CellErrors;
  oracle?: CellErrors;
  oracleIndependence?: CellErrors;
}

export function recoveryErrors(x: RecoveryInput): RecoveryTally {
  const out: RecoveryTally = { synthetic: cellErrors(x.synthetic, x.truth), independence: cellErrors(x.independence, x.truth) };
  if (x.oracle) {
    out.oracle = cellErrors(x.oracle, x.truth);
    out.oracleIndependence = x.oracleIndependence ? cellErrors(x.oracleIndependence, x.truth) : { ...out.independence };
  }
  return out;
}

const addErrors = (into: CellErrors, from: CellErrors) => {
  into.absolute += from.absolute;
  into.squared += from.squared;
};

export function addRecovery(into: RecoveryTally, from: RecoveryTally): void {
  addErrors(into.synthetic, from.synthetic);
  addErrors(into.independence, from.independence);
  if (from.oracle) addErrors((into.oracle ??= emptyCellErrors()), from.oracle);
  if (from.oracleIndependence) addErrors((into.oracleIndependence ??= emptyCellErrors()), from.oracleIndependence);
}

/** 1 − candidate error / independence error; undefined when independence is already exact. */
export function errorRemoved(candidateError: number, independenceError: number): number | undefined {
  return independenceError > 0 ? 1 - candidateError / independenceError : undefined;
}

/**
 * Share of the independence baseline's error that each source removes, against the truth:
 * 1 − err(source, truth) / err(independence, truth). 1 = the truth's joint structure, 0 = no
 * better than the source's own margins multiplied together, negative = worse.
 *
 * err is the sum of absolute cell differences (total absolute error): it adds over cells and
 * suburbs, weighs every misplaced person once whatever the cell's size, and is what the build
 * report already sums (metrics.totalAbsoluteError). The SRMSE variant is also given: within a
 * table SRMSE's scale (cells, truth's mean) is the same for source and baseline, so its ratio is
 * sqrt(Σ squared errors / Σ squared errors of independence); pooled over suburbs that is the
 * SRMSE of the stacked tables. It weighs large cells' errors more.
 */
export interface ErrorRemoved {
  synthetic: number | undefined;
  syntheticSrmse: number | undefined;
  oracle?: number | undefined;
  oracleSrmse?: number | undefined;
}

export function errorRemovedOf(t: RecoveryTally): ErrorRemoved {
  const srmseShare = (c: CellErrors, i: CellErrors) => (i.squared > 0 ? 1 - Math.sqrt(c.squared / i.squared) : undefined);
  const out: ErrorRemoved = {
    synthetic: errorRemoved(t.synthetic.absolute, t.independence.absolute),
    syntheticSrmse: srmseShare(t.synthetic, t.independence),
  };
  if (t.oracle) {
    const base = t.oracleIndependence ?? t.independence;
    out.oracle = errorRemoved(t.oracle.absolute, base.absolute);
    out.oracleSrmse = srmseShare(t.oracle, base);
  }
  return out;
}

/** The share of error removed for one cross-tab (one suburb, or tables already pooled). */
export function shareOfErrorRemoved(x: RecoveryInput): ErrorRemoved {
  return errorRemovedOf(recoveryErrors(x));
}
