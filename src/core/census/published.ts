/**
 * A DataPack cell the ABS does not publish (`..` in the files): structurally impossible cells
 * such as partners aged 0–14 or a one-person family household. Carried as NaN so that no
 * arithmetic silently turns it into a count; fillNotPublished (below) decides what it stands for.
 */
export const NOT_PUBLISHED = Number.NaN;

export const isPublished = (value: number): boolean => !Number.isNaN(value);

/** True when any cell of the table is not published. */
export function hasUnpublished(cells: ArrayLike<number>): boolean {
  for (let i = 0; i < cells.length; i++) if (Number.isNaN(cells[i]!)) return true;
  return false;
}

/**
 * The area's table with every unpublished cell estimated from the nearest parent area (LGA,
 * state, Australia: nearest first) that publishes it: the parent's share of that cell, among
 * the cells both publish, times the area's sum of those cells. A cell the parent publishes as 0
 * (Australia publishes every `..` cell of the 2021 GCP as 0: they are structural zeros) becomes 0;
 * a cell no parent publishes also becomes 0, and is counted in `unresolved` so a build reports it.
 * Published cells are returned unchanged.
 */
export function fillNotPublished(
  cells: Float64Array,
  parents: readonly (Float64Array | undefined)[],
): { readonly cells: Float64Array; readonly filled: number; readonly unresolved: number } {
  if (!hasUnpublished(cells)) return { cells, filled: 0, unresolved: 0 };
  const out = Float64Array.from(cells);
  let filled = 0;
  let unresolved = 0;
  for (let i = 0; i < out.length; i++) {
    if (isPublished(out[i]!)) continue;
    filled++;
    const parent = parents.find((p) => p !== undefined && p.length === cells.length && isPublished(p[i]!));
    if (!parent) {
      out[i] = 0;
      unresolved++;
      continue;
    }
    if (parent[i] === 0) {
      out[i] = 0;
      continue;
    }
    let areaSum = 0;
    let parentSum = 0;
    for (let j = 0; j < cells.length; j++) {
      if (!isPublished(cells[j]!) || !isPublished(parent[j]!)) continue;
      areaSum += cells[j]!;
      parentSum += parent[j]!;
    }
    out[i] = parentSum > 0 ? (parent[i]! * areaSum) / parentSum : 0;
  }
  return { cells: out, filled, unresolved };
}
