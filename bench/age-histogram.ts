/** Ages from grouped counts, for the benches that compare a release's median ages with the census's. */

export type AgeGroup = { readonly lo: number; readonly hi: number };

/** People by single year of age 0–109: each group's count spread evenly over its years. */
export function byYear(groups: readonly (AgeGroup & { readonly n: number })[]): Float64Array {
  const years = new Float64Array(110);
  for (const g of groups) for (let y = g.lo; y <= g.hi; y++) years[y]! += g.n / (g.hi - g.lo + 1);
  return years;
}

/** Median of a single-year histogram, interpolated within the year it falls in. */
export function medianAge(years: Float64Array): number {
  const total = years.reduce((a, b) => a + b, 0);
  let below = 0;
  for (let y = 0; y < years.length; y++) {
    if (below + years[y]! >= total / 2) return y + (total / 2 - below) / Math.max(years[y]!, 1e-12);
    below += years[y]!;
  }
  return Number.NaN;
}
