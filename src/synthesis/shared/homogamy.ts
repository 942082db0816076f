/**
 * How strongly partners resemble each other, as one number that does not depend on how common
 * each category is: the log *affinity* δ of the quasi-independence ("diagonal") model of partner
 * choice, P(i, j) ∝ a_i · b_j · exp(δ · [i and j alike]), fitted to both partners' margins.
 * δ = 0 is partners chosen independently of the trait; the share of alike couples it implies
 * rises with δ and depends on the margins (in an area where nearly everyone was born in
 * Australia, most couples are alike even at δ = 0). So a strength measured nationally transfers
 * to an area as δ, and the area's own margins turn it into the share of its couples that should
 * be alike (Kalmijn 1998, "Intermarriage and homogamy", Annual Review of Sociology 24, for the
 * model).
 */
import { rake } from './rake.ts';

/** Whether categories i and j count as alike: the same group of `groupOf` when given, else the same category. */
export const alikeBy = (groupOf?: ArrayLike<number>) => (i: number, j: number): boolean => (groupOf ? groupOf[i] === groupOf[j] : i === j);

/**
 * The expected couples table (row-major, rows × cols) under affinity δ with the given margins:
 * the seed exp(δ) on alike cells and 1 elsewhere, raked to both margins (the columns scaled to
 * the rows' total first, as IPF needs).
 */
export function affinityTable(rows: ArrayLike<number>, cols: ArrayLike<number>, logAffinity: number, alike: (i: number, j: number) => boolean): Float64Array {
  const r = rows.length;
  const c = cols.length;
  let rowTotal = 0;
  let colTotal = 0;
  for (let i = 0; i < r; i++) rowTotal += Math.max(0, rows[i]!);
  for (let j = 0; j < c; j++) colTotal += Math.max(0, cols[j]!);
  if (!(rowTotal > 0) || !(colTotal > 0)) return new Float64Array(r * c);
  const seed = new Float64Array(r * c);
  const boost = Math.exp(logAffinity);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) seed[i * c + j] = alike(i, j) ? boost : 1;
  const colTarget = Float64Array.from(cols, (x) => (Math.max(0, x) * rowTotal) / colTotal);
  return rake(seed, [r, c], [{ dims: [0], target: rows }, { dims: [1], target: colTarget }], { maxIterations: 500, tolerance: 1e-9 * rowTotal }).values;
}

/** Share of couples alike under affinity δ with these margins (0 when there are none). */
export function alikeShareUnderAffinity(rows: ArrayLike<number>, cols: ArrayLike<number>, logAffinity: number, alike: (i: number, j: number) => boolean): number {
  const table = affinityTable(rows, cols, logAffinity, alike);
  let total = 0;
  let same = 0;
  for (let i = 0; i < rows.length; i++) {
    for (let j = 0; j < cols.length; j++) {
      const x = table[i * cols.length + j]!;
      total += x;
      if (alike(i, j)) same += x;
    }
  }
  return total > 0 ? same / total : 0;
}

/** Share of couples alike if partners were chosen independently of the trait: Σ over alike cells of r_i · c_j. */
export function alikeShareUnderIndependence(rows: ArrayLike<number>, cols: ArrayLike<number>, alike: (i: number, j: number) => boolean): number {
  return alikeShareUnderAffinity(rows, cols, 0, alike);
}

/**
 * The δ at which `figure(δ)` reaches `target`, for a figure that rises with δ (bisection on
 * [−10, 20]); throws when the target lies outside what the figure can reach there, since a
 * strength that cannot reproduce its source is a wrong input, not a value to clamp.
 */
export function solveAffinity(figure: (logAffinity: number) => number, target: number): number {
  let lo = -10;
  let hi = 20;
  if (!(figure(lo) <= target && target <= figure(hi))) {
    throw new RangeError(`no affinity reaches ${target}: the figure runs from ${figure(lo)} to ${figure(hi)}`);
  }
  for (let k = 0; k < 80; k++) {
    const mid = (lo + hi) / 2;
    if (figure(mid) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Couples alike at two levels, the coarse level first: the coarse groups' table under affinity
 * `coarseAffinity` (English only or another language), then, within each group both partners
 * share, the categories' table at that group's margins under `fineAffinity` (which other
 * language). Returns the shares of couples alike in the coarse group and in the category. One
 * model for both targets, so the two never pull the climb apart (a category shared is a group
 * shared); a group of one category is alike in it whenever it is shared.
 */
export function nestedAlikeShares(
  rows: ArrayLike<number>,
  cols: ArrayLike<number>,
  groupOf: ArrayLike<number>,
  coarseAffinity: number,
  fineAffinity: number,
): { readonly coarse: number; readonly fine: number } {
  let groups = 0;
  for (let k = 0; k < rows.length; k++) if (rows[k]! > 0 || cols[k]! > 0) groups = Math.max(groups, groupOf[k]! + 1);
  const groupRows = new Float64Array(groups);
  const groupCols = new Float64Array(groups);
  for (let k = 0; k < rows.length; k++) {
    if (groupOf[k]! >= groups) continue;
    groupRows[groupOf[k]!]! += Math.max(0, rows[k]!);
    groupCols[groupOf[k]!]! += Math.max(0, cols[k]!);
  }
  const table = affinityTable(groupRows, groupCols, coarseAffinity, alikeBy());
  const total = table.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return { coarse: 0, fine: 0 };
  let coarse = 0;
  let fine = 0;
  for (let g = 0; g < groups; g++) {
    const both = table[g * groups + g]! / total;
    if (!(both > 0)) continue;
    const members = Array.from({ length: rows.length }, (_, k) => k).filter((k) => groupOf[k] === g);
    const within = alikeShareUnderAffinity(
      members.map((k) => Math.max(0, rows[k]!)),
      members.map((k) => Math.max(0, cols[k]!)),
      fineAffinity,
      alikeBy(),
    );
    coarse += both;
    fine += both * (members.length === 1 ? 1 : within);
  }
  return { coarse, fine };
}
