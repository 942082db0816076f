/**
 * Discrete distributions as cumulative weights, for drawing an index with one uniform number: the
 * demo's truth parameters (truth-params.ts) and the partners' ages (partner-ages.ts) both use them.
 */

/** Cumulative shares of the weights, the last entry exactly 1 (so no draw falls past the end). */
export function cumulative(weights: ArrayLike<number>): Float64Array {
  let total = 0;
  for (let i = 0; i < weights.length; i++) total += weights[i]!;
  let cum = 0;
  const out = Float64Array.from({ length: weights.length }, (_, i) => (cum += weights[i]! / total));
  out[out.length - 1] = 1;
  return out;
}

/** Index of the first cumulative weight above u (u in [0, 1)). */
export function drawIndex(cdf: Float64Array, u: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf[mid]! > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
