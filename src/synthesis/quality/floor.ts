/**
 * The census's own noise floor per (area, table), read from the published tables themselves
 * (issue 29, item 3). The ABS perturbs every published figure on its own — cells, and the
 * totals and subtotals of the same table — so a subtotal S* and the sum of the k cells it is
 * made of differ by the noise of k + 1 figures: D = S* − Σ c*_i, E[D²] = (k + 1) σ² when each
 * figure's noise has variance σ² (the perturbation adds a few units whatever the cell's size,
 * and zeroes small cells). Zeroing is a loss, not a symmetric noise: a cell's error has a mean
 * −b as well as a variance σ², so D_j has mean k_j·b and variance (k_j + 1)·σ², and summing k
 * zeroed cells grows D like k, not like √k. Pooled over a table's subtotals in one area,
 *
 *     b̂ = Σ_j D_j / Σ_j k_j,   σ̂² = Σ_j (D_j − k_j·b̂)² / Σ_j (k_j + 1),
 *
 * and a population that matched the true counts exactly would score about √(σ̂² + b̂²) / (mean
 * published cell) against the published cells: the SRMSE no synthesizer can beat on that table
 * there (quality/metrics.ts srmse). Figures that count the same people in two tables
 * (census/same-people.ts) are published as the same number, so they carry no noise to measure;
 * subtotals are where the perturbation shows.
 *
 * Which cells make a subtotal is read from the spec (a cell is within a subtotal when every
 * condition of the subtotal holds for it) and confirmed on the area's own records: the
 * subtotal tabulated from the records must equal the sum of those cells tabulated from the same
 * records (so a subtotal over categories the table does not fit cell by cell is left out).
 */
import type { TableSpec } from '../census/table-spec.ts';
import { cellsWithinSubtotals } from '../census/subtotals.ts';

export { cellsWithinSubtotals };

export interface FloorInputs {
  /** The table's cells as published (NaN where not published). */
  readonly published: ArrayLike<number>;
  /** Its totals and subtotals as published (otherCells order, NaN where not published). */
  readonly subtotals: ArrayLike<number>;
  /** The same cells and subtotals tabulated from the area's records (to confirm which cells make a subtotal). */
  readonly recordsCells: ArrayLike<number>;
  readonly recordsSubtotals: ArrayLike<number>;
}

/**
 * The noise floor SRMSE of one table in one area (see above); undefined where no subtotal of
 * two or more published cells can be checked, or the published cells are all zero.
 */
export function noiseFloorSrmse(spec: TableSpec, figures: FloorInputs): number | undefined {
  const checks = subtotalChecks(cellsWithinSubtotals(spec), figures);
  if (checks.length === 0) return undefined;
  let sumD = 0;
  let sumK = 0;
  for (const { d, k } of checks) {
    sumD += d;
    sumK += k;
  }
  const loss = sumD / sumK;
  let squared = 0;
  let weight = 0;
  for (const { d, k } of checks) {
    squared += (d - k * loss) ** 2;
    weight += k + 1;
  }
  let sum = 0;
  let n = 0;
  for (let i = 0; i < figures.published.length; i++) {
    const v = figures.published[i]!;
    if (!Number.isFinite(v)) continue;
    sum += v;
    n++;
  }
  if (!(sum > 0)) return undefined;
  return Math.sqrt(squared / weight + loss * loss) / (sum / n);
}

/** Each usable subtotal's D = published subtotal − Σ its published cells, with its k cells. */
function subtotalChecks(within: readonly (readonly number[])[], figures: FloorInputs): { readonly d: number; readonly k: number }[] {
  const checks: { d: number; k: number }[] = [];
  within.forEach((cells, j) => {
    if (cells.length < 2) return;
    const subtotal = figures.subtotals[j]!;
    const records = figures.recordsSubtotals[j]!;
    if (!Number.isFinite(subtotal) || !(records > 0)) return;
    let publishedSum = 0;
    let recordsSum = 0;
    for (const i of cells) {
      publishedSum += figures.published[i]!;
      recordsSum += figures.recordsCells[i]!;
    }
    if (!Number.isFinite(publishedSum) || recordsSum !== records) return;
    checks.push({ d: subtotal - publishedSum, k: cells.length });
  });
  return checks;
}
