/**
 * A small area's table where the ABS publishes none at its level, from the areas it lies in
 * (a suburb's SA2s and postcodes): each parent's table as shares of the parent's people, weighted
 * by the share of the area's people living in that parent, scaled to the area's own published
 * size. So a suburb of 900 persons, two thirds in one SA2 and a third in another, gets
 * 900 × (⅔ × the first SA2's shares + ⅓ × the second's).
 */

/** One parent: the share of the area's people in it, its table and its own size (the count the table is scaled by). */
export interface WeightedParent {
  readonly weight: number;
  readonly cells: Float64Array;
  readonly size: number;
}

/**
 * The area's cells from its parents, in counts summing to round(Σ) (largest remainders), so the
 * table is whole people as published tables are. Parents of size 0 carry no shares and are left
 * out, the other weights scaled up to 1; undefined when no parent is left. A cell a parent leaves
 * unpublished (NaN) is unpublished for the area too (then estimated as any `..` cell is).
 */
export function tableFromParents(parents: readonly WeightedParent[], size: number, rounding: 'keep total' | 'each' = 'keep total'): Float64Array | undefined {
  const usable = parents.filter((p) => p.weight > 0 && p.size > 0);
  const weights = usable.reduce((a, p) => a + p.weight, 0);
  if (usable.length === 0 || !(weights > 0)) return undefined;
  const length = usable[0]!.cells.length;
  const raw = new Float64Array(length);
  for (const p of usable) {
    const factor = (p.weight / weights) * (size / p.size);
    for (let i = 0; i < length; i++) raw[i]! += factor * p.cells[i]!;
  }
  return rounding === 'each' ? raw.map((v) => Math.round(v)) : roundKeepingTotal(raw);
}

/** One figure (a total) from the parents the same way, rounded. */
export function figureFromParents(parents: readonly { readonly weight: number; readonly value: number; readonly size: number }[], size: number): number {
  const cells = tableFromParents(parents.map((p) => ({ weight: p.weight, size: p.size, cells: Float64Array.of(p.value) })), size);
  return cells ? cells[0]! : 0;
}

/**
 * Non-negative reals to integers whose sum is the rounded sum (largest remainder method; ties by
 * position, so the result is deterministic). NaN cells stay NaN and count for nothing.
 */
export function roundKeepingTotal(values: Float64Array): Float64Array {
  const out = new Float64Array(values.length);
  let sum = 0;
  let floors = 0;
  // Indices and remainders in typed arrays, not an object per cell: it runs for every derived
  // table of every suburb (a national build: millions of times).
  const order: number[] = [];
  const remainder = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) {
      out[i] = Number.NaN;
      continue;
    }
    const f = Math.floor(Math.max(0, v));
    out[i] = f;
    sum += Math.max(0, v);
    floors += f;
    order.push(i);
    remainder[i] = Math.max(0, v) - f;
  }
  const left = Math.round(sum) - floors;
  if (left <= 0) return out;
  // Largest remainders first, ties by position: a total order, so the cells chosen are those of any stable sort.
  order.sort((a, b) => remainder[b]! - remainder[a]! || a - b);
  for (let k = 0; k < Math.min(left, order.length); k++) out[order[k]!]! += 1;
  return out;
}
