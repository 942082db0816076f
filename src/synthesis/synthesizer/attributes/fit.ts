/**
 * Fitting target variables to one table. Per stratum of the table's plan:
 *  1. the published (perturbed) cells are brought to the stratum's actual size by an equal
 *     shift and, where they are unreliable (a small area, or cells far short of the stratum),
 *     blended with the parent area's (borrow.ts: p = (n + k·p_parent)/(N + k)); units the table
 *     does not count (G15 counts attendees only) fill the categories its cells leave out;
 *  2. the result is rounded to whole units adding up to the stratum's size;
 *  3. optionally the stratum is split by a class of each unit (an age band, a marital status)
 *     with a prior of how likely each category is for that class: the class × cell table is
 *     raked to both margins (structural zeros stay zero) and rounded with exact row and
 *     column totals, so the table still holds exactly while 90-year-olds do not go to
 *     primary school;
 *  4. cards are dealt without replacement, at random or ranked by a score.
 */
import type { Rng } from '../rng.ts';
import { dealStrata } from './deal.ts';
import { controlledRound2D } from '../integerise.ts';
import { nestedIntegers } from '../nested.ts';
import type { StratumConsensus } from './consensus.ts';
import { rake } from '../../shared/rake.ts';
import type { ClassPrior } from '../../census/controls/priors.ts';
import { cellValue, strataOf, type PlanCell, type TablePlan } from './plan.ts';

export interface FitRequest {
  readonly plan: TablePlan;
  /** The suburb's values of the table (spec order of the cells the plan was built on). */
  readonly target: ArrayLike<number>;
  /** The parent area's values (LGA, else state), borrowed from where the area's cells are unreliable. */
  readonly parent?: ArrayLike<number> | undefined;
  readonly units: number;
  /** Category columns of plan.conditionVars, in that order. */
  readonly conditionColumns: readonly Uint8Array[];
  readonly age?: Uint8Array | undefined;
  /** Units allowed into the table's universe (e.g. the employed); others get the fallback. */
  readonly eligible?: Uint8Array | undefined;
  /** The area is small: every stratum borrows from the parent, however complete its cells look. */
  readonly small: boolean;
  /** How strongly unreliable strata borrow (borrow.ts k), chosen per table and size band; default BORROWING_PSEUDO_COUNT. */
  readonly pseudoCount?: number | undefined;
  /** Per stratum: estimates of cells and groups of cells that other tables count too (consensus.ts). */
  readonly consensus?: readonly (StratumConsensus | undefined)[] | undefined;
  /** Which categories are informative (not "Not stated"/"Not applicable"), per target. */
  readonly informative: readonly (readonly boolean[])[];
  /** Category units outside every stratum get, per target (usually "Not applicable"). */
  readonly fallback: readonly number[];
  /** Where a cell leaves a choice of categories: "Not applicable" first (G15's non-attendees). */
  readonly preferNotApplicable?: boolean | undefined;
  /** Weights of each first-target category when a cell leaves a choice (national shares). */
  readonly categoryWeights?: ArrayLike<number> | undefined;
  /** Chooses the first target's category within a cell's choice from the unit's other attributes. */
  readonly resolve?: ((unit: number, categories: readonly number[]) => number) | undefined;
  /** Split of each stratum by class (first target only). */
  readonly prior?: ClassPrior | undefined;
  /** Ranked dealing on the first target: unit score and the ordinal rank of each category. */
  readonly score?: Float64Array | undefined;
  readonly categoryRank?: ArrayLike<number> | undefined;
}

export interface FitResult {
  /** One column per target variable. */
  readonly values: Uint8Array[];
  readonly stratumOf: Int32Array;
  /** Units that had to take a category their class forbids (infeasible inputs only), then moved to an allowed one. */
  readonly forced: number;
}

export function fitTable(req: FitRequest, rng: Rng): FitResult {
  const { plan, units } = req;
  const stratumOf = strataOf(plan, units, req.conditionColumns, req.age, req.eligible);
  const strata = plan.strata.length;
  const cellsOf = plan.strata.map((st) =>
    st.uncovered.length > 0 ? [...st.cells, { pattern: st.uncovered, source: -1 } as PlanCell] : [...st.cells],
  );
  let width = 1;
  for (const list of cellsOf) width = Math.max(width, list.length);
  const classes = req.prior?.classes ?? 1;
  const sizes = new Int32Array(strata * classes);
  const sub = new Int32Array(units).fill(-1);
  for (let i = 0; i < units; i++) {
    const s = stratumOf[i]!;
    if (s < 0) continue;
    const k = s * classes + (req.prior ? req.prior.classOf[i]! : 0);
    sub[i] = k;
    sizes[k]!++;
  }
  const counts = new Int32Array(strata * classes * width);
  for (let s = 0; s < strata; s++) {
    let n = 0;
    for (let r = 0; r < classes; r++) n += sizes[s * classes + r]!;
    if (n === 0) continue;
    const columns = new Int32Array(width);
    columns.set(stratumCounts(req, cellsOf[s]!, n, req.consensus?.[s]));
    if (!req.prior) {
      counts.set(columns, s * width);
      continue;
    }
    const rows = sizes.subarray(s * classes, (s + 1) * classes);
    counts.set(splitByClass(req.prior, cellsOf[s]!, width, rows, columns), s * classes * width);
  }
  const cellRank = req.score && req.categoryRank ? cellRanks(cellsOf, width, classes, req.categoryRank) : undefined;
  const cellOf = dealStrata({ stratumOf: sub, strata: strata * classes, cells: width, counts, score: req.score, cellRank }, rng);

  const values = plan.targets.map((_, t) => new Uint8Array(units).fill(req.fallback[t]!));
  let forced = 0;
  for (let i = 0; i < units; i++) {
    const c = cellOf[i]!;
    if (c < 0) continue;
    const pattern = cellsOf[stratumOf[i]!]![c]!.pattern;
    for (let t = 0; t < pattern.length; t++) {
      const cats = pattern[t]!;
      values[t]![i] = cats.length === 1 ? cats[0]! : choose(req, t, i, cats, rng);
    }
    if (req.prior) {
      const cls = req.prior.classOf[i]!;
      if (req.prior.weight(cls, values[0]![i]!) <= 0) {
        forced++;
        values[0]![i] = mostLikely(req.prior, cls, req.informative[0]!.length);
      }
    }
  }
  return { values, stratumOf, forced };
}

/**
 * Whole units per cell of a stratum adding up to its size: the published cells, plus the fill
 * cell (the units beyond what the table counts), brought to the size and, where unreliable,
 * borrowed from the parent area (borrowedIntegers). Cells that cost nothing when they move
 * (`free`: remainders and the fill, which no published cell counts on its own) absorb the
 * difference first; empty cells may still receive units where the parent area has some. Cells
 * and groups of cells that other tables count too take the estimate of all those tables
 * (`consensus`), a group as one figure before its cells (nestedIntegers).
 */
function stratumCounts(req: FitRequest, cells: readonly PlanCell[], size: number, consensus: StratumConsensus | undefined): Int32Array {
  const published = cells.filter((c) => c.source >= 0);
  const values = new Float64Array(cells.length);
  let counted = 0;
  for (let j = 0; j < published.length; j++) {
    const cell = published[j]!;
    const shared = cell.minus ? undefined : consensus?.cells.get(cell.source);
    counted += values[j] = shared ?? cellValue(cell, req.target);
  }
  const parent = req.parent ? Float64Array.from(cells, (c) => (c.source >= 0 ? cellValue(c, req.parent!) : 0)) : undefined;
  const hasParent = parent !== undefined && parent.some((v) => v > 0);
  if (counted <= 0 && !hasParent) {
    // Nothing to go on: spread evenly over cells with an informative category.
    for (let j = 0; j < published.length; j++) values[j] = published[j]!.pattern.every((cats, t) => cats.some((k) => req.informative[t]![k])) ? 1 : 0;
    if (!values.some((x) => x > 0) && cells.length === published.length) values.fill(1);
    counted = 0;
    for (let j = 0; j < published.length; j++) counted += values[j]!;
  }
  // The fill cell: the units beyond what the table counts.
  if (cells.length > published.length) values[published.length] = Math.max(0, size - counted);
  const free = Uint8Array.from(cells, (c) => (c.source < 0 || c.minus ? 1 : 0));
  const positionOf = new Map<number, number>();
  cells.forEach((c, j) => { if (c.source >= 0 && !c.minus) positionOf.set(c.source, j); });
  const groups = (consensus?.groups ?? []).flatMap((g) => {
    const members = g.members.map((i) => positionOf.get(i) ?? -1);
    return members.every((j) => j >= 0) ? [{ members, value: g.value }] : [];
  });
  return nestedIntegers(values, size, groups, {
    free,
    small: req.small,
    ...(req.pseudoCount !== undefined ? { pseudoCount: req.pseudoCount } : {}),
    ...(hasParent ? { parent, open: Uint8Array.from(cells, (c, j) => (c.source < 0 || parent![j]! > 0 ? 1 : 0)) } : {}),
  });
}

/**
 * Class × cell counts with exact row (class sizes) and column (cards) totals: the prior
 * raked to both margins, then controlled rounding that respects its zeros where it can.
 */
function splitByClass(prior: ClassPrior, cells: readonly PlanCell[], width: number, rows: Int32Array, columns: Int32Array): Int32Array {
  const R = rows.length;
  const seed = new Float64Array(R * width);
  for (let r = 0; r < R; r++) {
    if (rows[r] === 0) continue;
    for (let j = 0; j < cells.length; j++) {
      let w = 0;
      for (const k of cells[j]!.pattern[0]!) w += prior.weight(r, k);
      seed[r * width + j] = w;
    }
  }
  const fitted = rake(seed, [R, width], [
    { dims: [0], target: rows },
    { dims: [1], target: columns },
  ], { maxIterations: 50, tolerance: 1e-6 });
  const allowed = Uint8Array.from(seed, (v) => (v > 0 ? 1 : 0));
  return controlledRound2D(fitted.values, R, width, rows, columns, allowed).cells;
}

function cellRanks(cellsOf: readonly (readonly PlanCell[])[], width: number, classes: number, categoryRank: ArrayLike<number>): Float64Array {
  const rank = new Float64Array(cellsOf.length * classes * width).fill(Number.NaN);
  cellsOf.forEach((cells, s) => {
    for (let j = 0; j < cells.length; j++) {
      const cats = cells[j]!.pattern[0]!;
      let sum = 0;
      for (const k of cats) sum += categoryRank[k]!;
      for (let r = 0; r < classes; r++) rank[(s * classes + r) * width + j] = sum / cats.length;
    }
  });
  return rank;
}

/** A category within a cell's choice. */
function choose(req: FitRequest, t: number, unit: number, cats: readonly number[], rng: Rng): number {
  if (t === 0 && req.resolve) return req.resolve(unit, cats);
  const informative = req.informative[t]!;
  if (req.preferNotApplicable) {
    const na = req.fallback[t]!;
    if (cats.includes(na)) return na;
  }
  // Weighted draw without allocating: total first, then walk.
  let total = 0;
  for (let j = 0; j < cats.length; j++) total += choiceWeight(req, t, unit, cats[j]!, informative);
  if (total <= 0) {
    let n = 0;
    for (const k of cats) if (informative[k]) n++;
    if (n === 0) return cats[rng.int(cats.length)]!;
    let pick = rng.int(n);
    for (const k of cats) if (informative[k] && pick-- === 0) return k;
  }
  let target = rng.next() * total;
  for (let j = 0; j < cats.length; j++) {
    target -= choiceWeight(req, t, unit, cats[j]!, informative);
    if (target < 0) return cats[j]!;
  }
  return cats[cats.length - 1]!;
}

function choiceWeight(req: FitRequest, t: number, unit: number, k: number, informative: readonly boolean[]): number {
  if (!informative[k]) return 0;
  let w = t === 0 && req.categoryWeights ? req.categoryWeights[k] ?? 0 : 1;
  if (t === 0 && req.prior) w *= req.prior.weight(req.prior.classOf[unit]!, k);
  return w;
}

function mostLikely(prior: ClassPrior, cls: number, categories: number): number {
  let best = 0;
  let bestWeight = -1;
  for (let k = 0; k < categories; k++) {
    const w = prior.weight(cls, k);
    if (w > bestWeight) {
      bestWeight = w;
      best = k;
    }
  }
  return best;
}
