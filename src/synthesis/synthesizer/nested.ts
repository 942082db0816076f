/**
 * Whole units for cells that sit inside nested groups, top down: each group's count is settled
 * among its siblings first, then shared among its own cells and subgroups. A group is a set of
 * cells whose people the census also counts as one figure (an estimate of the group's size, e.g.
 * the employed among a stratum's labour force cells, which G54 and G60 also publish); so the
 * group's whole count follows that estimate rather than the sum of its perturbed cells.
 */
import { borrowedIntegers, type BorrowOptions } from './borrow.ts';

export interface CellGroup {
  /** Indices of the cells in the group (at least two). */
  readonly members: readonly number[];
  /** The estimated number of units in the group. */
  readonly value: number;
}

interface Node {
  readonly members: readonly number[];
  readonly value: number;
  readonly children: Node[];
}

/**
 * borrowedIntegers over `values` adding up to `total`, with every group's count decided as one
 * figure before its cells are. Groups must nest (a group crossing an earlier, larger one is left
 * out); free cells (options.free) are never in a group.
 */
export function nestedIntegers(values: ArrayLike<number>, total: number, groups: readonly CellGroup[], options: BorrowOptions): Int32Array {
  const out = new Int32Array(values.length);
  const isFree = (i: number) => (options.free ? (options.free[i] as number) > 0 : false);
  const root: Node = { members: Array.from({ length: values.length }, (_, i) => i), value: total, children: [] };
  const ordered = groups
    .filter((g) => g.members.length >= 2 && g.members.every((i) => i >= 0 && i < values.length && !isFree(i)))
    .sort((a, b) => b.members.length - a.members.length);
  const place = (node: Node, group: CellGroup): boolean => {
    for (const child of node.children) {
      const inside = group.members.filter((i) => child.members.includes(i)).length;
      if (inside === group.members.length) return place(child, group);
      if (inside > 0) return false; // crosses a group already placed
    }
    if (group.members.length >= node.members.length) return false; // the node itself
    node.children.push({ members: group.members, value: group.value, children: [] });
    return true;
  };
  for (const group of ordered) place(root, group);
  settle(root, total, values, options, out);
  return out;
}

function settle(node: Node, whole: number, values: ArrayLike<number>, options: BorrowOptions, out: Int32Array): void {
  if (node.children.length === 0) {
    const counts = borrowedIntegers(node.members.map((i) => values[i] as number), whole, sliceOptions(options, node.members));
    node.members.forEach((i, k) => (out[i] = counts[k] as number));
    return;
  }
  const grouped = new Set(node.children.flatMap((c) => c.members));
  const singles = node.members.filter((i) => !grouped.has(i));
  const parts: (Node | number)[] = [...node.children, ...singles];
  const own = parts.map((p) => (typeof p === 'number' ? Math.max(0, (values[p] as number) || 0) : Math.max(0, p.value)));
  const sumOf = (a: ArrayLike<number> | undefined, p: Node | number) =>
    a === undefined ? 0 : typeof p === 'number' ? (a[p] as number) : p.members.reduce((s, i) => s + Math.max(0, (a[i] as number) || 0), 0);
  const counts = borrowedIntegers(own, whole, {
    small: options.small,
    ...(options.pseudoCount !== undefined ? { pseudoCount: options.pseudoCount } : {}),
    free: parts.map((p) => (typeof p === 'number' && options.free ? (options.free[p] as number) : 0)),
    ...(options.open ? { open: parts.map((p) => (sumOf(options.open, p) > 0 ? 1 : 0)) } : {}),
    ...(options.parent ? { parent: parts.map((p) => sumOf(options.parent, p)) } : {}),
  });
  parts.forEach((p, k) => {
    if (typeof p === 'number') out[p] = counts[k] as number;
    else settle(p, counts[k] as number, values, options, out);
  });
}

function sliceOptions(options: BorrowOptions, members: readonly number[]): BorrowOptions {
  const pick = (a: ArrayLike<number> | undefined) => (a ? members.map((i) => a[i] as number) : undefined);
  const free = pick(options.free);
  const open = pick(options.open);
  const parent = pick(options.parent);
  return {
    small: options.small,
    ...(options.pseudoCount !== undefined ? { pseudoCount: options.pseudoCount } : {}),
    ...(free ? { free } : {}),
    ...(open ? { open } : {}),
    ...(parent ? { parent } : {}),
  };
}
