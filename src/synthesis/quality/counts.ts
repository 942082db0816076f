/**
 * The counting every realism measure shares: rates kept as numerator over denominator and
 * histograms, both of which add over suburbs, so that figures are computed once from pooled
 * counts (never averaged over suburbs); and the named columns a measure reads.
 */
import type { Population } from '../census/population.ts';
import { categoryIndex } from '../census/variables.ts';

/** A rate kept as numerator over denominator, so that suburbs pool by adding. */
export interface Rate {
  numerator: number;
  denominator: number;
}

export const emptyRate = (): Rate => ({ numerator: 0, denominator: 0 });

/** numerator / denominator; undefined when nothing was counted. */
export const rateOf = (r: Rate): number | undefined => (r.denominator > 0 ? r.numerator / r.denominator : undefined);

export function addRate(into: Rate, from: Rate): void {
  into.numerator += from.numerator;
  into.denominator += from.denominator;
}

export type Level = 'persons' | 'families' | 'dwellings';
export type Columns = Readonly<Record<string, Uint8Array>>;

/** The named columns of one level; a missing column is a programming error, hence a throw. */
export function columnsOf(pop: Population, level: Level, codes: readonly string[]): Columns {
  const out: Record<string, Uint8Array> = {};
  for (const code of codes) {
    const column = pop[level].variables[code];
    if (!column) throw new Error(`population has no ${level} column ${code}`);
    out[code] = column;
  }
  return out;
}

export const indices = (code: string, labels: readonly string[]): ReadonlySet<number> => new Set(labels.map((l) => categoryIndex(code, l)));

export function addHistogram(into: Float64Array, from: ArrayLike<number>): void {
  for (let i = 0; i < into.length; i++) into[i]! += from[i]!;
}

/**
 * Linear-interpolated quantile of a histogram of integer values (value = index − offset), the
 * same definition as metrics.quantile over the expanded list; undefined when empty.
 */
export function histogramQuantile(histogram: ArrayLike<number>, p: number, offset = 0): number | undefined {
  if (p < 0 || p > 1) throw new RangeError(`quantile p must be within [0, 1], got ${p}`);
  let n = 0;
  for (let i = 0; i < histogram.length; i++) n += histogram[i]!;
  if (n === 0) return undefined;
  const position = (n - 1) * p;
  const valueAt = (rank: number) => {
    let seen = 0;
    for (let i = 0; i < histogram.length; i++) {
      seen += histogram[i]!;
      if (rank < seen) return i - offset;
    }
    return histogram.length - 1 - offset;
  };
  const low = valueAt(Math.floor(position));
  const high = valueAt(Math.ceil(position));
  return low + (high - low) * (position - Math.floor(position));
}
