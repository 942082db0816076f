/**
 * Fitting target variables to one table. Per stratum of the table's plan:
 *  1. the published (perturbed) cells become weights, smoothed toward the parent area's for
 *     small suburbs (p = (n + k·p_parent)/(N + k)); units the table does not count (G15
 *     counts attendees only) fill the categories its cells leave out;
 *  2. the weights are integerised to the stratum's actual size by largest remainder, so the
 *     table's shares hold to within one unit per cell;
 *  3. optionally the stratum is split by a class of each unit (an age band, a marital status)
 *     with a prior of how likely each category is for that class: the class × cell table is
 *     raked to both margins (structural zeros stay zero) and rounded with exact row and
 *     column totals, so the table still holds exactly while 90-year-olds do not go to
 *     primary school;
 *  4. cards are dealt without replacement, at random or ranked by a score.
 */
import type { Rng } from '../rng.ts';
import { dealStrata } from './deal.ts';
import { controlledRound2D, nearestIntegers } from '../integerise.ts';
import { rake, smoothToward } from '../rake.ts';
import { cellValue, strataOf, type PlanCell, type TablePlan } from './plan.ts';

/** A prior over a target's categories for classes of units (weight 0 = impossible). */
export interface ClassPrior {
  /** Class of each unit (only read for units in a stratum). */
  readonly classOf: Uint8Array | Int32Array;
  readonly classes: number;
  /** Weight of category `category` for class `cls` (any non-negative scale). */
  weight(cls: number, category: number): number;
}

export interface FitRequest {
  readonly plan: TablePlan;
  /** The suburb's values of the table (spec order of the cells the plan was built on). */
  readonly target: ArrayLike<number>;
  /** The parent area's values (LGA, else state), for smoothing and empty strata. */
  readonly parent?: ArrayLike<number> | undefined;
  readonly units: number;
  /** Category columns of plan.conditionVars, in that order. */
  readonly conditionColumns: readonly Uint8Array[];
  readonly age?: Uint8Array | undefined;
  /** Units allowed into the table's universe (e.g. the employed); others get the fallback. */
  readonly eligible?: Uint8Array | undefined;
  /** Pseudo-count k of the parent's shares; 0 for suburbs that stand on their own. */
  readonly smoothing: number;
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
    const weights = stratumWeights(req, cellsOf[s]!, width, n);
    const columns = new Int32Array(width);
    columns.set(nearestIntegers(weights.values.subarray(0, cellsOf[s]!.length), n, weights));
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
 * Weights of a stratum's cells (padded to `width`), smoothed toward the parent's shares, with
 * the cells that cost nothing when they move (`free`: remainders and the fill cell, which no
 * published cell counts on its own) and the empty cells that may still receive units (`open`:
 * the parent area has some) for nearestIntegers.
 */
function stratumWeights(
  req: FitRequest,
  cells: readonly PlanCell[],
  width: number,
  size: number,
): { values: Float64Array; free: Uint8Array; open: Uint8Array | undefined; prefer?: Float64Array } {
  const published = cells.filter((c) => c.source >= 0);
  const own = Float64Array.from(published, (c) => cellValue(c, req.target));
  const parent = req.parent ? Float64Array.from(published, (c) => cellValue(c, req.parent!)) : undefined;
  let ownTotal = 0;
  for (const v of own) ownTotal += v;
  let parentTotal = 0;
  if (parent) for (const v of parent) parentTotal += v;
  const w = new Float64Array(width);
  if (ownTotal > 0) w.set(smoothToward(own, parent, req.smoothing));
  else if (parent && parentTotal > 0) w.set(parent.map((v) => (v * Math.min(size, parentTotal)) / parentTotal));
  else {
    // Nothing to go on: spread evenly over cells with an informative category.
    for (let j = 0; j < published.length; j++) w[j] = published[j]!.pattern.every((cats, t) => cats.some((k) => req.informative[t]![k])) ? 1 : 0;
    if (!w.some((x) => x > 0) && cells.length === published.length) w.fill(1, 0, published.length);
  }
  if (cells.length > published.length) {
    // The fill cell: the units beyond what the table counts.
    let counted = 0;
    for (let j = 0; j < published.length; j++) counted += w[j]!;
    w[published.length] = Math.max(0, size - counted);
  }
  const free = new Uint8Array(width);
  for (let j = 0; j < cells.length; j++) if (cells[j]!.source < 0 || cells[j]!.minus) free[j] = 1;
  let open: Uint8Array | undefined;
  if (parent) {
    open = new Uint8Array(width);
    for (let j = 0; j < published.length; j++) open[j] = parent[j]! > 0 ? 1 : 0;
    if (cells.length > published.length) open[published.length] = 1;
  }
  let prefer: Float64Array | undefined;
  if (req.smoothing > 0 && parent && parentTotal > 0) {
    prefer = new Float64Array(width);
    for (let j = 0; j < published.length; j++) prefer[j] = parent[j]! / parentTotal;
  }
  return { values: w, free, open, ...(prefer ? { prefer } : {}) };
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
