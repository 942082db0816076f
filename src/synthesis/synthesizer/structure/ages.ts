/**
 * Persons by sex × single-year age from every published age figure, top down.
 *
 * The ABS perturbs a figure by the records it counts, so "males aged 15–19" is the same number in
 * G01, G04, G05, G17, G18, G23 and G46, while the sum of G04's five single years of the same
 * males is another number (five perturbations, small ones zeroed). Every age × sex table the
 * persons are dealt into has its strata at G01's age groups, so those groups are what the persons
 * must match first: the sex total (the anchor) is split over G01's age groups, each group over
 * G04's five-year subtotals inside it, each five-year group over G04's single years. At every
 * step the published figures are brought to the whole above them by borrowedIntegers (equal
 * shift, then the parent area's shares where the figures are unreliable), so a small area whose
 * single years were zeroed still gets persons at every age its groups say it has.
 */
import { largestRemainder } from '../integerise.ts';
import { borrowedIntegers } from '../borrow.ts';
import { AGES, MAX_AGE } from './model.ts';

/** One published count of persons of one sex in an age range (inclusive). */
export interface AgeFigure {
  readonly sex: number;
  readonly lo: number;
  readonly hi: number;
  /** As published (NaN when not published). */
  readonly value: number;
  /** The parent area's count of the same persons (0 when unknown). */
  readonly parent: number;
}

interface AgeNode {
  readonly lo: number;
  readonly hi: number;
  readonly value: number;
  readonly parent: number;
  readonly children: AgeNode[];
}

/** Weights that spread an open top age group (e.g. 100+) over single years, thinning fast. */
function spreadWeights(lo: number, hi: number): number[] {
  const open = hi - lo > 10;
  return Array.from({ length: hi - lo + 1 }, (_, k) => (open ? 0.6 ** k : 1));
}

/**
 * The figures of one sex as a tree of nested age ranges under [0, MAX_AGE]. A figure whose range
 * crosses another's (neither inside the other) cannot be honoured with it and is left out, as is
 * a second figure for the same range (by the cell key it is the same number); earlier figures win.
 */
function ageTree(figures: readonly AgeFigure[], total: number): AgeNode {
  const root: AgeNode = { lo: 0, hi: MAX_AGE, value: total, parent: 0, children: [] };
  const ordered = figures
    .map((f, order) => ({ f, order }))
    .sort((a, b) => a.f.lo - b.f.lo || b.f.hi - a.f.hi || a.order - b.order);
  const stack: AgeNode[] = [root];
  for (const { f } of ordered) {
    const lo = Math.max(0, f.lo);
    const hi = Math.min(MAX_AGE, f.hi);
    if (hi < lo) continue;
    while (stack.length > 1 && stack[stack.length - 1]!.hi < lo) stack.pop();
    const top = stack[stack.length - 1]!;
    if (hi > top.hi) continue; // crosses a range already placed
    if (top !== root && top.lo === lo && top.hi === hi) continue; // the same range again
    const last = top.children[top.children.length - 1];
    if (last && last.hi >= lo) continue; // overlaps its elder sibling
    const node: AgeNode = { lo, hi, value: f.value, parent: f.parent, children: [] };
    top.children.push(node);
    stack.push(node);
  }
  return root;
}

/**
 * Whole persons of one node's range, placed into `out` (single years of one sex): the node's
 * children (published ranges inside it) get the node's count by borrowedIntegers; ages no child
 * covers form a gap child that no figure counts on its own (free: it takes the difference
 * first). A range without children is spread over its single years evenly (the open top group
 * thinning). Single years borrow with `singleYearStrength` (G04's k for the area's size band,
 * chosen where G04's single years are held out against its own age groups: borrow-strength.ts);
 * coarser ranges with the default.
 */
function place(node: AgeNode, whole: number, small: boolean, out: Float64Array, offset: number, singleYearStrength?: number): void {
  if (node.children.length === 0) {
    const split = node.lo === node.hi ? [whole] : largestRemainder(spreadWeights(node.lo, node.hi), whole);
    for (let a = node.lo; a <= node.hi; a++) out[offset + a] = (out[offset + a] as number) + (split[a - node.lo] as number);
    return;
  }
  const parts: AgeNode[] = [];
  let next = node.lo;
  for (const child of node.children) {
    if (child.lo > next) parts.push({ lo: next, hi: child.lo - 1, value: Number.NaN, parent: 0, children: [] });
    parts.push(child);
    next = child.hi + 1;
  }
  if (next <= node.hi) parts.push({ lo: next, hi: node.hi, value: Number.NaN, parent: 0, children: [] });
  const free = parts.map((p) => (Number.isNaN(p.value) ? 1 : 0));
  const own = parts.map((p) => (Number.isNaN(p.value) ? 0 : Math.max(0, p.value)));
  const parent = parts.map((p) => Math.max(0, p.parent));
  const hasParent = parent.some((v) => v > 0);
  const singleYears = node.children.every((c) => c.lo === c.hi);
  const counts = borrowedIntegers(own, whole, {
    free,
    ...(hasParent ? { parent, open: parent.map((v) => (v > 0 ? 1 : 0)) } : {}),
    small,
    ...(singleYears && singleYearStrength !== undefined ? { pseudoCount: singleYearStrength } : {}),
  });
  parts.forEach((p, i) => place(p, counts[i] as number, small, out, offset, singleYearStrength));
}

/**
 * Whole persons by sex × single-year age (index sex · AGES + age) adding up to each sex's total
 * exactly, from the published age figures (G01's age groups, G04's subtotals and single years:
 * coarser figures first, since where ranges cross the earlier one is kept).
 */
export function personsByAge(figures: readonly AgeFigure[], sexTotals: readonly [number, number], small: boolean, singleYearStrength?: number): Float64Array {
  const out = new Float64Array(2 * AGES);
  for (let sex = 0; sex < 2; sex++) {
    const total = Math.max(0, Math.round(sexTotals[sex]!));
    place(ageTree(figures.filter((f) => f.sex === sex), total), total, small, out, sex * AGES, singleYearStrength);
  }
  return out;
}
