/**
 * Fit figures of the build report. SRMSE of a (suburb, table) pair =
 * sqrt(mean over cells of (synthetic − target)²) / (mean over cells of target) (issue 2,
 * "How it is checked"). A table whose target cells are all zero has no scale: it scores 0
 * when the synthetic cells are all zero too, and is left out (undefined) otherwise, so that an
 * empty table never divides by zero nor hides behind a huge number.
 */
export function srmse(synthetic: ArrayLike<number>, target: ArrayLike<number>): number | undefined {
  if (synthetic.length !== target.length) throw new RangeError(`cell counts differ: ${synthetic.length} vs ${target.length}`);
  const cells = target.length;
  if (cells === 0) return undefined;
  let squared = 0;
  let targetSum = 0;
  let syntheticAbs = 0;
  for (let i = 0; i < cells; i++) {
    const s = synthetic[i]!;
    const t = target[i]!;
    squared += (s - t) * (s - t);
    targetSum += t;
    syntheticAbs += Math.abs(s);
  }
  if (targetSum <= 0) return syntheticAbs === 0 ? 0 : undefined;
  return Math.sqrt(squared / cells) / (targetSum / cells);
}

/** Σ |synthetic − target| over cells. */
export function totalAbsoluteError(synthetic: ArrayLike<number>, target: ArrayLike<number>): number {
  if (synthetic.length !== target.length) throw new RangeError(`cell counts differ: ${synthetic.length} vs ${target.length}`);
  let total = 0;
  for (let i = 0; i < target.length; i++) total += Math.abs(synthetic[i]! - target[i]!);
  return total;
}

/** Linear-interpolated quantile (p in [0, 1]) of the values; undefined for none. */
export function quantile(values: readonly number[], p: number): number | undefined {
  if (p < 0 || p > 1) throw new RangeError(`quantile p must be within [0, 1], got ${p}`);
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * p;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const lowValue = sorted[low]!;
  return lowValue + (sorted[high]! - lowValue) * (position - low);
}

export { SIZE_BANDS, sizeBand, type SizeBand } from '../census/size-bands.ts';
