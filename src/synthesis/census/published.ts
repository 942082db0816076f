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
 * The area's table with every unpublished cell resolved from its parent areas (as published:
 * LGA, state, Australia, nearest first):
 * - a cell no parent publishes either is a **structural zero**: the 2021 GCP writes `..` in the
 *   same cells at every level, Australia included, and they are the cells impossible by
 *   definition (partners aged 0–14, a child under 15 aged 15 or more, a one-person family
 *   household); it becomes 0 and is counted in `structural`;
 * - a cell the nearest parent publishes is **estimated**: the parent's share of that cell, among
 *   the cells both publish, times the area's sum of those cells; counted in `estimated`.
 * Published cells are returned unchanged.
 */
export function fillNotPublished(
  cells: Float64Array,
  parents: readonly (Float64Array | undefined)[],
): { readonly cells: Float64Array; readonly estimated: number; readonly structural: number } {
  if (!hasUnpublished(cells)) return { cells, estimated: 0, structural: 0 };
  const out = Float64Array.from(cells);
  let estimated = 0;
  let structural = 0;
  for (let i = 0; i < out.length; i++) {
    if (isPublished(out[i]!)) continue;
    const parent = parents.find((p) => p !== undefined && p.length === cells.length && isPublished(p[i]!));
    if (!parent) {
      out[i] = 0;
      structural++;
      continue;
    }
    estimated++;
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
  return { cells: out, estimated, structural };
}
