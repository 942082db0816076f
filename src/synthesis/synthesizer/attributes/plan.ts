/**
 * A table plan: how one input table constrains a set of target variables, given the variables
 * already known. The relevant cells (those naming only targets and known variables) are split
 * into their *condition* (known variables plus an age range) and their *target pattern* (the
 * categories of the targets they count). Cells that are sums of other cells (totals,
 * subtotals) are not dealt; where a total holds more than the cells inside it (G01 counts
 * Aboriginal persons and all persons, not the non-Indigenous), the difference becomes a
 * *remainder* cell with the categories the inner cells leave out. Cells with the same
 * condition form a stratum; a unit belongs to the first stratum whose condition it meets, or
 * to none (outside the table's universe).
 *
 * Plans depend on the table spec only, never on a suburb, so they are built once and cached.
 */

import { MAX_AGE } from '../structure/model.ts';

/** The parts of a cell spec a plan reads (src/synthesis/census/table-spec.ts CellSpec fits it). */
export interface CellLike {
  readonly where: Readonly<Record<string, readonly number[]>>;
  /** Inclusive single-year age range. */
  readonly age?: readonly [number, number] | undefined;
  readonly count?: 'records' | 'members' | undefined;
}


/** A dealt cell: a published cell, or a remainder = aggregate − Σ inner cells. */
export interface PlanCell {
  /** Target categories per target variable. */
  readonly pattern: readonly (readonly number[])[];
  /** Index of the published cell, or of the aggregate for a remainder. */
  readonly source: number;
  /** For a remainder: the published cells subtracted from the aggregate. */
  readonly minus?: readonly number[];
}

export interface Stratum {
  /** Allowed categories mask per condition variable (plan.conditionVars order). */
  readonly masks: readonly Uint8Array[];
  readonly ageMin: number;
  readonly ageMax: number;
  readonly cells: readonly PlanCell[];
  /**
   * The target pattern no cell of the stratum counts (besides "Not applicable"), per target:
   * a table of attendees only (G15) leaves the non-attendees to it, G37 the renters of
   * landlords it does not name. The stratum's units beyond the table's count fill it. Empty
   * when the cells are complete (or what they leave out is not one box).
   */
  readonly uncovered: readonly (readonly number[])[];
}

export interface TablePlan {
  readonly tableId: string;
  readonly targets: readonly string[];
  readonly conditionVars: readonly string[];
  readonly usesAge: boolean;
  readonly strata: readonly Stratum[];
}

/** Categories of a variable: count and the "Not applicable" index (-1 when none). */
export interface CategoryInfo {
  readonly count: number;
  readonly notApplicable: number;
}

const cache = new WeakMap<readonly CellLike[], Map<string, TablePlan>>();

/**
 * The plan of a table's `cells` for `targets` given the `known` variables (memoised on the
 * cells array). Cells that name any other variable are not relevant and are left out, as are
 * cells counting members rather than records.
 */
export function planTable(
  tableId: string,
  cells: readonly CellLike[],
  targets: readonly string[],
  known: ReadonlySet<string>,
  info: (code: string) => CategoryInfo,
): TablePlan {
  const key = `${targets.join(',')}|${[...known].sort().join(',')}`;
  let byKey = cache.get(cells);
  if (!byKey) cache.set(cells, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit) return hit;
  const plan = buildPlan(tableId, cells, targets, known, info);
  byKey.set(key, plan);
  return plan;
}

interface Box {
  readonly index: number;
  readonly cond: Uint8Array[];
  readonly target: Uint8Array[];
  readonly ageMin: number;
  readonly ageMax: number;
}

function buildPlan(
  tableId: string,
  cells: readonly CellLike[],
  targets: readonly string[],
  known: ReadonlySet<string>,
  info: (code: string) => CategoryInfo,
): TablePlan {
  const { conditionVars, boxes } = relevantBoxes(cells, targets, known, info);
  const usesAge = boxes.some((b) => b.ageMin > 0 || b.ageMax < MAX_AGE);
  // A box is an aggregate when another, different box lies inside it; duplicates keep the first.
  const isLeaf = boxes.map((a, ai) => !boxes.some((b, bi) => bi !== ai && inside(b, a) && (!same(a, b) || bi < ai)));
  const { strata, byKey } = strataOfLeaves(boxes.filter((_, i) => isLeaf[i]));
  addRemainders(strata, byKey, boxes.filter((_, i) => !isLeaf[i]));
  return {
    tableId,
    targets: [...targets],
    conditionVars,
    usesAge,
    strata: strata.map((st) => ({
      masks: st.masks,
      ageMin: st.ageMin,
      ageMax: st.ageMax,
      cells: st.cells,
      uncovered: uncoveredOf(st.cells, targets.map(info)),
    })),
  };
}

/** The condition variables (the known ones that cells naming a target cross them with) and the relevant cells as boxes. */
function relevantBoxes(
  cells: readonly CellLike[],
  targets: readonly string[],
  known: ReadonlySet<string>,
  info: (code: string) => CategoryInfo,
): { conditionVars: string[]; boxes: Box[] } {
  const targetSet = new Set(targets);
  const seen = new Set<string>();
  for (const cell of cells) {
    const vars = Object.keys(cell.where);
    if (vars.some((v) => targetSet.has(v))) for (const v of vars) if (known.has(v) && !targetSet.has(v)) seen.add(v);
  }
  const conditionVars = [...seen];
  const relevant: number[] = [];
  cells.forEach((cell, i) => {
    if (cell.count === 'members') return;
    if (Object.keys(cell.where).every((v) => targetSet.has(v) || seen.has(v))) relevant.push(i);
  });
  const boxes: Box[] = relevant.map((i) => {
    const cell = cells[i]!;
    return {
      index: i,
      cond: conditionVars.map((v) => maskOf(cell.where[v], info(v).count)),
      target: targets.map((v) => maskOf(cell.where[v], info(v).count)),
      ageMin: cell.age?.[0] ?? 0,
      ageMax: cell.age?.[1] ?? MAX_AGE,
    };
  });
  return { conditionVars, boxes };
}

const inside = (b: Box, a: Box) =>
  b.ageMin >= a.ageMin && b.ageMax <= a.ageMax && masksInside(b.cond, a.cond) && masksInside(b.target, a.target);
const same = (a: Box, b: Box) =>
  a.ageMin === b.ageMin && a.ageMax === b.ageMax && masksEqual(a.cond, b.cond) && masksEqual(a.target, b.target);
const boxKey = (b: Box) => `${b.ageMin}-${b.ageMax}|${b.cond.map((m) => m.join('')).join('|')}`;

/** A stratum while the plan is made: its leaves (boxes) kept to find the remainders. */
interface StratumDraft {
  masks: Uint8Array[];
  ageMin: number;
  ageMax: number;
  cells: PlanCell[];
  boxes: Box[];
}

/** The strata: leaves with the same condition and age range, each leaf a cell of its stratum. */
function strataOfLeaves(leaves: readonly Box[]): { strata: StratumDraft[]; byKey: Map<string, number> } {
  const strata: StratumDraft[] = [];
  const byKey = new Map<string, number>();
  for (const leaf of leaves) {
    const key = boxKey(leaf);
    let s = byKey.get(key);
    if (s === undefined) {
      s = strata.length;
      byKey.set(key, s);
      strata.push({ masks: leaf.cond, ageMin: leaf.ageMin, ageMax: leaf.ageMax, cells: [], boxes: [] });
    }
    strata[s]!.cells.push({ pattern: leaf.target.map(indicesOf), source: leaf.index });
    strata[s]!.boxes.push(leaf);
  }
  return { strata, byKey };
}

/**
 * Remainders: an aggregate with the same condition as a stratum, whose inner leaves differ
 * from it in one target dimension only, adds a cell for the categories they leave out.
 */
function addRemainders(strata: StratumDraft[], byKey: ReadonlyMap<string, number>, aggregates: readonly Box[]): void {
  for (const agg of aggregates) {
    const s = byKey.get(boxKey(agg));
    if (s === undefined) continue;
    const st = strata[s]!;
    const inner = st.boxes.filter((b) => inside(b, agg));
    if (inner.length === 0) continue;
    const differing = new Set<number>();
    for (const b of inner) b.target.forEach((m, d) => { if (!masksEqual([m], [agg.target[d]!])) differing.add(d); });
    if (differing.size !== 1) continue;
    const d = [...differing][0]!;
    const left = Uint8Array.from(agg.target[d]!);
    for (const b of inner) b.target[d]!.forEach((on, k) => { if (on) left[k] = 0; });
    if (!left.some((x) => x)) continue;
    const pattern = agg.target.map((m, k) => (k === d ? indicesOf(left) : indicesOf(m)));
    st.cells.push({ pattern, source: agg.index, minus: inner.map((b) => b.index) });
  }
}

function uncoveredOf(cells: readonly PlanCell[], infos: readonly CategoryInfo[]): number[][] {
  if (infos.length === 1) {
    const info = infos[0]!;
    const covered = new Uint8Array(info.count);
    for (const c of cells) for (const k of c.pattern[0]!) covered[k] = 1;
    const out: number[] = [];
    for (let k = 0; k < info.count; k++) if (!covered[k]) out.push(k);
    // Only "Not applicable" missing: the cells are complete (n/a is outside the universe).
    return out.length === 0 || (out.length === 1 && out[0] === info.notApplicable) ? [] : [out];
  }
  // Several targets: the combinations (without "Not applicable") no cell holds, if they form a box.
  const axes = infos.map((info) => Array.from({ length: info.count }, (_, k) => k).filter((k) => k !== info.notApplicable));
  const size = axes.reduce((n, a) => n * a.length, 1);
  if (size > 65_536) return [];
  const sets = infos.map(() => new Set<number>());
  let missing = 0;
  const combo = new Array<number>(axes.length).fill(0);
  for (let flat = 0; flat < size; flat++) {
    let rest = flat;
    for (let d = axes.length - 1; d >= 0; d--) {
      combo[d] = axes[d]![rest % axes[d]!.length]!;
      rest = Math.floor(rest / axes[d]!.length);
    }
    if (cells.some((c) => c.pattern.every((cats, d) => cats.includes(combo[d]!)))) continue;
    missing++;
    combo.forEach((k, d) => sets[d]!.add(k));
  }
  const box = sets.reduce((n, s) => n * s.size, 1);
  return missing > 0 && box === missing ? sets.map((s) => [...s].sort((a, b) => a - b)) : [];
}

/** Value of a plan cell from the table's values (a remainder is never negative). */
export function cellValue(cell: PlanCell, values: ArrayLike<number>): number {
  let v = values[cell.source] ?? 0;
  if (cell.minus) for (const m of cell.minus) v -= Math.max(0, values[m] ?? 0);
  return Math.max(0, v);
}

function indicesOf(mask: Uint8Array): number[] {
  const out: number[] = [];
  for (let k = 0; k < mask.length; k++) if (mask[k]) out.push(k);
  return out;
}

function maskOf(cats: readonly number[] | undefined, size: number): Uint8Array {
  const m = new Uint8Array(size);
  if (!cats) m.fill(1);
  else for (const c of cats) if (c >= 0 && c < size) m[c] = 1;
  return m;
}

function masksInside(inner: readonly Uint8Array[], outer: readonly Uint8Array[]): boolean {
  for (let d = 0; d < inner.length; d++) {
    const a = inner[d]!;
    const b = outer[d]!;
    for (let k = 0; k < a.length; k++) if (a[k] && !b[k]) return false;
  }
  return true;
}

function masksEqual(x: readonly Uint8Array[], y: readonly Uint8Array[]): boolean {
  for (let d = 0; d < x.length; d++) {
    const a = x[d]!;
    const b = y[d]!;
    for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  }
  return true;
}

/**
 * Stratum of every unit (-1 when it meets no stratum's condition or is not eligible).
 * `columns` holds the condition variables' columns (plan.conditionVars order); `age` is read
 * when the plan uses age. Units are matched through a memo on their condition values, so the
 * cost is one map look-up per unit.
 */
export function strataOf(
  plan: TablePlan,
  units: number,
  columns: readonly Uint8Array[],
  age: Uint8Array | undefined,
  eligible?: Uint8Array,
): Int32Array {
  const out = new Int32Array(units).fill(-1);
  if (plan.strata.length === 0) return out;
  const radix = plan.strata[0]!.masks.map((m) => m.length + 1);
  const useAge = plan.usesAge && age !== undefined;
  const memo = new Map<number, number>();
  for (let i = 0; i < units; i++) {
    if (eligible && !eligible[i]) continue;
    let key = useAge ? age[i]! : 0;
    for (let d = 0; d < columns.length; d++) key = key * radix[d]! + columns[d]![i]!;
    let s = memo.get(key);
    if (s === undefined) {
      s = matchStratum(plan, columns, i, useAge ? age[i]! : -1);
      memo.set(key, s);
    }
    out[i] = s;
  }
  return out;
}

function matchStratum(plan: TablePlan, columns: readonly Uint8Array[], i: number, age: number): number {
  outer: for (let s = 0; s < plan.strata.length; s++) {
    const st = plan.strata[s]!;
    if (age >= 0 && (age < st.ageMin || age > st.ageMax)) continue;
    for (let d = 0; d < columns.length; d++) if (!st.masks[d]![columns[d]![i]!]) continue outer;
    return s;
  }
  return -1;
}
