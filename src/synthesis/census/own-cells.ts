/**
 * A suburb's own published figures come first (issue 39). Where the SAL pack lacks some or all of
 * a table's part files, the table is taken from the suburb's parents (from-parents.ts); this
 * module then makes every figure the suburb publishes bind it, and leaves the parents' shares
 * only what its own figures leave open:
 *
 * 1. **Own.** A cell, total or subtotal the SAL pack holds for the suburb is its own (G04B's
 *    single years from 55, its age groups and its total).
 * 2. **Bound.** A figure of a table taken from parents that is exactly the sum of the suburb's
 *    own figures of a table counting the same people (the same universe and population, the
 *    same conditions, age ranges that tile it) takes that sum: G01's persons 55–64 are G04B's
 *    single years 55…64 summed; G01's males are G04B's males.
 * 3. **Derived.** Every other figure keeps the parents' shares, rescaled so that each own or
 *    bound figure is met by the figures inside it: G04's single years under 55 are scaled so that
 *    with the own years from 55 they add up to the suburb's own total, per sex; G01's age groups
 *    under 55 to the suburb's own persons less its own 55 and over. Iterative proportional
 *    scaling over the table's part–whole relations (its cells inside a subtotal, and figures of
 *    the same conditions whose age ranges tile a wider one), own and bound figures held fixed.
 *
 * Pure: the loader (census-input/load-sal.ts) calls it on the suburbs' tables.
 */
import type { CellSpec, TableSpec } from './table-spec.ts';
import { cellInside } from './gcp/table.ts';
import { roundKeepingTotal } from './from-parents.ts';
import { variableByCode } from './variables.ts';

/** Where a figure of a suburb's table comes from. */
export const SOURCE = { own: 0, bound: 1, derived: 2 } as const;
export type Source = (typeof SOURCE)[keyof typeof SOURCE];

/** Per table: each figure's source, cells (spec.cells order) then otherCells (spec.otherCells order). */
export interface TableSources {
  readonly cells: Uint8Array;
  readonly others: Uint8Array;
}

/** A table's figures for one area: cells, then its totals and subtotals. */
export interface AreaFigures {
  readonly cells: Float64Array;
  readonly others: Float64Array;
}

/** A part–whole relation among a table's figures (indices over cells then others). */
export interface PartWhole {
  readonly whole: number;
  readonly parts: readonly number[];
}

const MAX_AGE = 115;
const ageRange = (c: CellSpec): [number, number] => [c.age?.[0] ?? 0, Math.min(c.age?.[1] ?? MAX_AGE, MAX_AGE)];

/**
 * A table's figures as boxes comparable across tables: a condition that allows every category
 * of its variable dropped (G17's "all incomes"), and the ages the table's population starts at
 * made explicit (a table of persons aged 15 years and over counts no one younger, so its
 * figures without an age are ages 15 and over).
 */
function figureSpecs(spec: TableSpec): readonly CellSpec[] {
  const from = minAge(spec);
  const population = spec.population.where;
  // A condition every figure carries as its population's (G27's persons in private dwellings) says nothing of the figure.
  const implied = (code: string, allowed: readonly number[]) => population[code]?.length === allowed.length && allowed.every((v) => population[code]!.includes(v));
  return [...spec.cells, ...spec.otherCells].map((c) => {
    const where = Object.fromEntries(Object.entries(c.where).filter(([code, allowed]) => allowed.length < variableByCode(code).categories.length && !implied(code, allowed)));
    const [lo, hi] = ageRange(c);
    return { ...c, where, age: [Math.max(lo, from), hi] as const };
  });
}

/** "Persons aged 15 years and over" are the persons of 15 and over: the same people as "Persons" there. */
const minAge = (spec: TableSpec) => (/ aged 15 years and over$/.test(spec.population.label) ? 15 : 0);
const populationKey = (spec: TableSpec) =>
  `${spec.universe}|${spec.population.label.replace(/ aged 15 years and over$/, '')}|${JSON.stringify(spec.population.where)}|${JSON.stringify(spec.population.members ?? null)}`;

function sameConditions(a: CellSpec, b: CellSpec): boolean {
  if ((a.count ?? 'records') !== (b.count ?? 'records')) return false;
  const ka = Object.keys(a.where);
  if (ka.length !== Object.keys(b.where).length) return false;
  for (const k of ka) {
    const x = a.where[k]!;
    const y = b.where[k];
    if (!y || x.length !== y.length || x.some((v) => !y.includes(v))) return false;
  }
  return true;
}

function disjoint(a: CellSpec, b: CellSpec): boolean {
  const [a0, a1] = ageRange(a);
  const [b0, b1] = ageRange(b);
  if (a1 < b0 || b1 < a0) return true;
  for (const [k, xs] of Object.entries(a.where)) {
    const ys = b.where[k];
    if (ys && !xs.some((x) => ys.includes(x))) return true;
  }
  return false;
}

/**
 * Figures (by index into `candidates`) of `target`'s conditions whose age ranges tile its age
 * range, each the widest that starts where the last ended ('coarse') or the narrowest ('fine');
 * undefined when they do not tile it.
 */
export function ageTiling(target: CellSpec, candidates: readonly CellSpec[], usable: (i: number) => boolean, mode: 'coarse' | 'fine'): number[] | undefined {
  const [lo, hi] = ageRange(target);
  const starts = new Map<number, { i: number; end: number }[]>();
  candidates.forEach((c, i) => {
    if (!usable(i) || !sameConditions(c, target)) return;
    const [a, b] = ageRange(c);
    if (a < lo || b > hi || (a === lo && b === hi)) return;
    starts.set(a, [...(starts.get(a) ?? []), { i, end: b }]);
  });
  const out: number[] = [];
  for (let at = lo; at <= hi; ) {
    const options = starts.get(at);
    if (!options) return undefined;
    const pick = options.reduce((best, o) => ((mode === 'coarse' ? o.end > best.end : o.end < best.end) ? o : best));
    out.push(pick.i);
    at = pick.end + 1;
  }
  return out;
}

/**
 * A table's part–whole relations: each subtotal over the cells inside it where those cells are
 * disjoint and, summed over the level's areas (`figures`, as taken from parents), come within
 * 3% of it (so they cover it); and each figure over the figures of its conditions whose age
 * ranges tile its own (coarsest and finest tiling).
 */
export function partWholes(spec: TableSpec, figures: readonly AreaFigures[]): PartWhole[] {
  const all = figureSpecs(spec);
  const n = spec.cells.length;
  // Each figure summed over the areas in one pass (area by area, as a sum per figure would add them).
  const sums = new Float64Array(n + spec.otherCells.length);
  for (const f of figures) for (let i = 0; i < sums.length; i++) sums[i]! += nz(i < n ? f.cells[i]! : f.others[i - n]!);
  const sum = (i: number) => sums[i]!;
  const out: PartWhole[] = [];
  spec.otherCells.forEach((box, j) => {
    const leaves = spec.cells.flatMap((c, i) => (cellInside(c, box) ? [i] : []));
    if (leaves.length < 2) return;
    for (let a = 0; a < leaves.length; a++) for (let b = a + 1; b < leaves.length; b++) if (!disjoint(spec.cells[leaves[a]!]!, spec.cells[leaves[b]!]!)) return;
    const whole = sum(n + j);
    const parts = leaves.reduce((acc, i) => acc + sum(i), 0);
    if (whole > 0 && Math.abs(parts - whole) <= 0.03 * whole) out.push({ whole: n + j, parts: leaves });
  });
  const seen = new Set(out.map((r) => `${r.whole}:${r.parts.join(',')}`));
  all.forEach((target, w) => {
    for (const mode of ['coarse', 'fine'] as const) {
      const parts = ageTiling(target, all, (i) => i !== w, mode);
      if (!parts || parts.length < 2) continue;
      const key = `${w}:${parts.join(',')}`;
      if (!seen.has(key)) out.push({ whole: w, parts }), seen.add(key);
    }
  });
  // Wider wholes first, so each pass carries a change from the top down.
  const span = (w: number) => all.filter((c) => cellInside(c, all[w]!)).length;
  const spans = new Map(out.map((r) => [r.whole, span(r.whole)]));
  return out.sort((a, b) => spans.get(b.whole)! - spans.get(a.whole)! || a.whole - b.whole);
}

const nz = (v: number) => (Number.isFinite(v) ? v : 0);

/** One figure of another table counting the same people: its table and index (cells then others). */
export interface Binding {
  readonly tableId: string;
  readonly figures: readonly number[];
  /**
   * A table of part of the people (G27: persons in occupied private dwellings) is bound to the
   * whole population's own-first figures (G04's ages) in the proportion its parents show: the
   * figure is the whole's × (its parents' estimate / the whole's parents' estimate).
   */
  readonly ratio?: true;
}

/**
 * For each figure of `spec` that is not its own, the figures of another table counting the same
 * people (same universe and population) whose sum it is: the same conditions, age ranges tiling
 * its own (the coarsest tiling). Own figures first (of any table, `spec`'s own included); then
 * any figure of a table already put own-first (`resolved`), so that tables taken from parents
 * share the age and sex margins of the one resolved before them. `sources` gives each table's
 * own figures.
 */
export function bindings(spec: TableSpec, specs: readonly TableSpec[], sources: ReadonlyMap<string, TableSources>, resolved: ReadonlySet<string> = new Set()): Map<number, Binding> {
  const mine = sources.get(spec.id);
  const out = new Map<number, Binding>();
  if (!mine) return out;
  const key = populationKey(spec);
  const others = specs.filter((s) => sources.has(s.id) && populationKey(s) === key).map((other) => {
    const src = sources.get(other.id)!;
    const m = other.cells.length;
    const isOwn = (i: number) => (i < m ? src.cells[i] : src.others[i - m]) === SOURCE.own;
    return { other, figures: figureSpecs(other), isOwn, anyFigure: resolved.has(other.id) && other.id !== spec.id };
  });
  const all = figureSpecs(spec);
  const n = spec.cells.length;
  const find = (target: CellSpec, usableOf: (o: (typeof others)[number]) => ((i: number) => boolean) | undefined): Binding | undefined => {
    for (const o of others) {
      const usable = usableOf(o);
      if (!usable) continue;
      const [lo, hi] = ageRange(target);
      const exact = o.figures.findIndex((c, i) => usable(i) && sameConditions(c, target) && ageRange(c)[0] === lo && ageRange(c)[1] === hi);
      const tiles = exact >= 0 ? [exact] : ageTiling(target, o.figures, usable, 'coarse');
      if (tiles) return { tableId: o.other.id, figures: tiles };
    }
    return undefined;
  };
  // A table of part of the universe's people: bound by proportion to a resolved table of all of them.
  const whole = specs
    .filter((s) => resolved.has(s.id) && s.id !== spec.id && s.universe === spec.universe && s.population.label === 'Persons' && Object.keys(s.population.where).length === 0 && !s.population.members)
    .map((other) => ({ other, figures: figureSpecs(other), isOwn: () => false, anyFigure: true }));
  const part = whole.filter((o) => populationKey(o.other) !== key);
  all.forEach((target, w) => {
    if ((w < n ? mine.cells[w] : mine.others[w - n]) === SOURCE.own) return;
    const found = find(target, (o) => o.isOwn) ?? find(target, (o) => (o.anyFigure ? () => true : undefined));
    if (found) out.set(w, found);
    else if (part.length > 0 && (target.age?.[0] !== 0 || target.age?.[1] !== MAX_AGE || Object.keys(target.where).length > 0)) {
      const ratio = findIn(part, target);
      if (ratio) out.set(w, { ...ratio, ratio: true });
    }
  });
  return out;
}

function findIn(candidates: readonly { other: TableSpec; figures: readonly CellSpec[] }[], target: CellSpec): Binding | undefined {
  for (const o of candidates) {
    const [lo, hi] = ageRange(target);
    const exact = o.figures.findIndex((c) => sameConditions(c, target) && ageRange(c)[0] === lo && ageRange(c)[1] === hi);
    const tiles = exact >= 0 ? [exact] : ageTiling(target, o.figures, () => true, 'coarse');
    if (tiles) return { tableId: o.other.id, figures: tiles };
  }
  return undefined;
}

/** An own figure of another table that figures of this one tile: a whole this table's figures must add up to. */
export interface External {
  readonly tableId: string;
  readonly figure: number;
  readonly parts: readonly number[];
}

/**
 * The own figures of other tables counting the same people that two or more of `spec`'s figures
 * tile (G17C's persons aged 25–34, G04's 25–29 and 30–34): wholes outside the table its figures
 * are raked to, as its own subtotals are.
 */
export function externalWholes(spec: TableSpec, specs: readonly TableSpec[], sources: ReadonlyMap<string, TableSources>): External[] {
  const key = populationKey(spec);
  const mine = figureSpecs(spec);
  const out: External[] = [];
  for (const other of specs) {
    const src = sources.get(other.id);
    if (!src || other.id === spec.id || populationKey(other) !== key) continue;
    const m = other.cells.length;
    figureSpecs(other).forEach((whole, i) => {
      if ((i < m ? src.cells[i] : src.others[i - m]) !== SOURCE.own) return;
      const parts = ageTiling(whole, mine, () => true, 'fine');
      if (parts && parts.length >= 2) out.push({ tableId: other.id, figure: i, parts });
    });
  }
  return out;
}

/**
 * Each figure's cells: a cell itself; a subtotal whose cells cover it (a part–whole relation of
 * cells), or whose parts tile it and resolve to cells, those cells; undefined for a figure no
 * cells make up (G01's age groups: its cells cross other characteristics).
 */
export function baseCells(spec: TableSpec, relations: readonly PartWhole[]): (readonly number[] | undefined)[] {
  const n = spec.cells.length;
  const base: (readonly number[] | undefined)[] = [...Array(n + spec.otherCells.length)].map((_, i) => (i < n ? [i] : undefined));
  for (let changed = true; changed; ) {
    changed = false;
    for (const { whole, parts } of relations) {
      if (base[whole] || !parts.every((p) => base[p])) continue;
      base[whole] = parts.flatMap((p) => base[p]!);
      changed = true;
    }
  }
  return base;
}

/** baseCells per table, found once: ownFirst asks for it for every area (15,000 suburbs a table nationally). */
const baseCellsMemo = new WeakMap<readonly PartWhole[], { readonly spec: TableSpec; readonly base: readonly (readonly number[] | undefined)[] }>();
function baseCellsOnce(spec: TableSpec, relations: readonly PartWhole[]): readonly (readonly number[] | undefined)[] {
  const known = baseCellsMemo.get(relations);
  if (known?.spec === spec) return known.base;
  const base = baseCells(spec, relations);
  baseCellsMemo.set(relations, { spec, base });
  return base;
}

/**
 * Scales the free figures (`fixed` 0) so that every fixed whole is met by its parts as nearly
 * as the fixed parts allow: a whole's free parts share what its fixed parts leave of it, in the
 * proportions they had (iterative proportional scaling). Parts only follow wholes: a free
 * figure is no constraint. In place.
 */
export function rake(values: Float64Array, fixed: Uint8Array, relations: readonly PartWhole[], passes = 50): void {
  // What no pass changes is found once: fixed figures are never scaled and a figure not finite is
  // never scaled finite, so each whole's fixed parts' sum, and so what its free parts must share,
  // is a constant; each pass looks only at the free parts that started finite (in the same order,
  // so the figures are the same to the last bit as looking at every part each pass).
  const needs: number[] = [];
  const freeStart: number[] = [0];
  const free: number[] = [];
  for (const { whole, parts } of relations) {
    const target = values[whole]!;
    if (!fixed[whole] || !Number.isFinite(target)) continue;
    let fixedSum = 0;
    for (const p of parts) {
      const v = values[p]!;
      if (!Number.isFinite(v)) continue;
      if (fixed[p]) fixedSum += v;
      else free.push(p);
    }
    needs.push(Math.max(0, target - fixedSum));
    freeStart.push(free.length);
  }
  const freeParts = Int32Array.from(free);
  for (let pass = 0; pass < passes; pass++) {
    let moved = 0;
    for (let r = 0; r < needs.length; r++) {
      const from = freeStart[r]!;
      const to = freeStart[r + 1]!;
      let freeSum = 0;
      for (let k = from; k < to; k++) {
        const v = values[freeParts[k]!]!;
        if (Number.isFinite(v)) freeSum += v;
      }
      const need = needs[r]!;
      if (!(freeSum > 0) || Math.abs(need - freeSum) < 1e-9) continue;
      const factor = need / freeSum;
      for (let k = from; k < to; k++) if (Number.isFinite(values[freeParts[k]!]!)) values[freeParts[k]!]! *= factor;
      moved = Math.max(moved, Math.abs(need - freeSum));
    }
    if (moved < 0.01) return;
  }
}

/**
 * One area's table with its own figures first: bound figures set from the own figures of other
 * tables (`lookup`: an area's figures of a table), the rest raked to them, derived cells rounded
 * to whole people keeping their sum. Returns the figures and how many were bound.
 */
export function ownFirst(
  spec: TableSpec,
  area: AreaFigures,
  sources: TableSources,
  relations: readonly PartWhole[],
  bound: ReadonlyMap<number, Binding>,
  lookup: (tableId: string) => AreaFigures | undefined,
  externals: readonly External[] = [],
  lookupParents: (tableId: string) => AreaFigures | undefined = () => undefined,
): { figures: AreaFigures; bound: number } {
  const n = spec.cells.length;
  const size = n + spec.otherCells.length;
  // The table's figures, then the other tables' own wholes its figures tile (fixed).
  const values = new Float64Array(size + externals.length);
  values.set(area.cells, 0);
  values.set(area.others, n);
  const fixed = new Uint8Array(values.length);
  for (let i = 0; i < size; i++) fixed[i] = (i < n ? sources.cells[i] : sources.others[i - n]) === SOURCE.own ? 1 : 0;
  const figureOf = (tableId: string, figures: readonly number[], from = lookup) => {
    const other = from(tableId);
    if (!other) return Number.NaN;
    const m = other.cells.length;
    let s = 0;
    for (const i of figures) s += i < m ? other.cells[i]! : other.others[i - m]!;
    return s;
  };
  let boundCount = 0;
  for (const [w, b] of bound) {
    let s = figureOf(b.tableId, b.figures);
    if (b.ratio) {
      const whole = figureOf(b.tableId, b.figures, lookupParents);
      s = whole > 0 ? (s * values[w]!) / whole : Number.NaN;
    }
    if (!Number.isFinite(s)) continue;
    values[w] = s;
    fixed[w] = 1;
    boundCount++;
  }
  const base = baseCellsOnce(spec, relations);
  // A fixed whole is met by its cells where cells make it up, else by the figures tiling it.
  const partsOf = (parts: readonly number[]) => (parts.every((p) => base[p]) ? parts.flatMap((p) => base[p]!) : parts);
  const constraints: PartWhole[] = [];
  for (const r of relations) if (fixed[r.whole]) constraints.push({ whole: r.whole, parts: base[r.whole] ?? partsOf(r.parts) });
  externals.forEach((e, k) => {
    values[size + k] = figureOf(e.tableId, [e.figure]);
    fixed[size + k] = 1;
    constraints.push({ whole: size + k, parts: partsOf(e.parts) });
  });
  rake(values, fixed, constraints);
  const free = [...Array(n).keys()].filter((i) => !fixed[i] && Number.isFinite(values[i]!));
  const rounded = roundKeepingTotal(Float64Array.from(free, (i) => values[i]!));
  free.forEach((i, k) => (values[i] = rounded[k]!));
  // A free figure made of cells is their sum again; one no cells make up is rounded.
  for (let w = n; w < size; w++) {
    const cellsOf = base[w];
    if (fixed[w] || !Number.isFinite(values[w]!)) continue;
    if (!cellsOf) values[w] = Math.round(values[w]!);
    else values[w] = cellsOf.reduce((sum, i) => sum + (Number.isFinite(values[i]!) ? values[i]! : 0), 0);
  }
  const cells = values.slice(0, n);
  const others = values.slice(n, size);
  return { figures: { cells, others }, bound: boundCount };
}
