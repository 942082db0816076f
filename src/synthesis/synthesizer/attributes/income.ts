/**
 * Household and family income that agree with the persons in them. Each person's income band
 * (INCP) stands for a representative dollar amount (labels.ts); a dwelling's HIND and a
 * family's FINF are the band of the sum over members aged 15+, "Partial income stated" when
 * some but not all of those members stated theirs, "All incomes not stated" when none did.
 * HIED is the household sum divided by the OECD-modified scale (1 for the first person 15+,
 * 0.5 for each further one, 0.3 for each child under 15), banded the same way.
 *
 * Then `swapIncomes` moves INCP labels between persons of the same age × sex × labour-force
 * stratum when that lowers the error of HIND (and FINF) against their tables: the person
 * tables cannot move, the household ones come closer.
 */
import { categoryIndex } from '../../census/variables.ts';
import type { Rng } from '../rng.ts';
import { band, bandingOf, findLabel, notApplicableIndex, parseDollarBand, representativeDollars, type Banding } from '../../census/labels.ts';

/** How a set of income labels classifies an amount and the stated/not stated cases. */
export interface IncomeScale {
  readonly banding: Banding;
  readonly partial: number;
  readonly allNotStated: number;
  readonly notApplicable: number;
}

export function incomeScale(labels: readonly string[]): IncomeScale {
  const na = notApplicableIndex(labels);
  const allNotStated = findLabel(labels, /all incomes? not stated|not stated/i);
  const partial = findLabel(labels, /partial/i);
  return {
    banding: bandingOf(labels),
    partial: partial >= 0 ? partial : allNotStated,
    allNotStated: allNotStated >= 0 ? allNotStated : na,
    notApplicable: na >= 0 ? na : labels.length - 1,
  };
}

/** The category of a group's income from its sum and its stated / not stated members 15+. */
export function classifyIncome(scale: IncomeScale, sum: number, stated: number, notStated: number): number {
  if (stated + notStated === 0) return scale.notApplicable;
  if (notStated > 0) return stated === 0 ? scale.allNotStated : scale.partial;
  return band(scale.banding, sum);
}

/** OECD-modified equivalence scale of a household. */
export function oecdScale(adults: number, children: number): number {
  if (adults + children === 0) return 1;
  return adults > 0 ? 1 + 0.5 * (adults - 1) + 0.3 * children : 1 + 0.3 * (children - 1);
}

/** Per-group income tallies, kept in typed arrays so swaps update them in O(1). */
export interface IncomeTally {
  readonly sum: Float64Array;
  readonly stated: Int32Array;
  readonly notStated: Int32Array;
  /** Persons aged 15+ and under 15 (for the equivalence scale). */
  readonly adults: Int32Array;
  readonly children: Int32Array;
}

/**
 * Tallies INCP over groups (dwellings or families). `groupOf[i]` = the person's group or -1;
 * `dollars[c]` the representative amount of INCP category c, NaN when not stated; persons
 * whose INCP is `notApplicable` (under 15) count as children only. `absentGroupOf[i]` (when
 * given) is the group of a member who was away: counted, income not stated (15+) or as a child.
 */
export function tallyIncome(
  groups: number,
  groupOf: ArrayLike<number>,
  age: Uint8Array,
  incp: Uint8Array,
  dollars: Float64Array,
  absentGroupOf?: ArrayLike<number>,
): IncomeTally {
  const t: IncomeTally = {
    sum: new Float64Array(groups),
    stated: new Int32Array(groups),
    notStated: new Int32Array(groups),
    adults: new Int32Array(groups),
    children: new Int32Array(groups),
  };
  for (let i = 0; i < incp.length; i++) {
    const away = absentGroupOf?.[i] ?? -1;
    if (away >= 0) {
      if (age[i]! < 15) t.children[away]!++;
      else {
        t.adults[away]!++;
        t.notStated[away]!++;
      }
    }
    const g = groupOf[i]!;
    if (g < 0) continue;
    if (age[i]! < 15) {
      t.children[g]!++;
      continue;
    }
    t.adults[g]!++;
    const d = dollars[incp[i]!]!;
    if (Number.isNaN(d)) t.notStated[g]!++;
    else {
      t.stated[g]!++;
      t.sum[g]! += d;
    }
  }
  return t;
}

export function classifyAll(scale: IncomeScale, tally: IncomeTally, applies?: Uint8Array): Uint8Array {
  const out = new Uint8Array(tally.sum.length);
  for (let g = 0; g < out.length; g++) {
    out[g] = applies && !applies[g] ? scale.notApplicable : classifyIncome(scale, tally.sum[g]!, tally.stated[g]!, tally.notStated[g]!);
  }
  return out;
}

export function classifyEquivalised(scale: IncomeScale, tally: IncomeTally, applies?: Uint8Array): Uint8Array {
  const out = new Uint8Array(tally.sum.length);
  for (let g = 0; g < out.length; g++) {
    if (applies && !applies[g]) out[g] = scale.notApplicable;
    else {
      const eq = tally.sum[g]! / oecdScale(tally.adults[g]!, tally.children[g]!);
      out[g] = classifyIncome(scale, eq, tally.stated[g]!, tally.notStated[g]!);
    }
  }
  return out;
}

const VISITOR = categoryIndex('RLHP', 'Visitor (from within Australia)');
const RLHP_NA = categoryIndex('RLHP', 'Not applicable');
const NON_PRIVATE = categoryIndex('DWTD', 'Non-private dwelling or non-classifiable household');

/** Who makes each dwelling's household income (HIND, HIED). */
export interface HouseholdIncomeMembers {
  /** Dwelling of each resident at home in an occupied private dwelling, else -1. */
  readonly groupOf: Int32Array;
  /** Dwelling of each resident away on Census night whom the household counts, else -1. */
  readonly absentGroupOf: Int32Array;
  /** 1 for occupied private dwellings, 0 for the non-private one (HIND, HIED "Not applicable"). */
  readonly applies: Uint8Array;
}

/**
 * The household income's members: the residents at home on Census night. A resident away that
 * night (a visitor elsewhere, or in a non-private dwelling) is a member whose income the
 * household did not state, which makes its income "Partial income stated" (G33 footnote c: a
 * member 15+ "temporarily absent on Census Night"); a non-private dwelling has no household income.
 */
export function householdIncomeMembers(
  personDwelling: ArrayLike<number>,
  rlhp: Uint8Array,
  dwtd: Uint8Array,
): HouseholdIncomeMembers {
  const applies = Uint8Array.from(dwtd, (k) => (k === NON_PRIVATE ? 0 : 1));
  const groupOf = new Int32Array(rlhp.length).fill(-1);
  const absentGroupOf = new Int32Array(rlhp.length).fill(-1);
  for (let i = 0; i < rlhp.length; i++) {
    const d = personDwelling[i]!;
    if (!applies[d]) continue;
    if (rlhp[i] === VISITOR || rlhp[i] === RLHP_NA) absentGroupOf[i] = d;
    else groupOf[i] = d;
  }
  return { groupOf, absentGroupOf, applies };
}

/**
 * The family income's members: the members at home; a partner away on Census night counts as a
 * member who did not state an income ("Partial income stated": G32 footnote, a member 15+
 * temporarily absent).
 */
export function familyIncomeMembers(personFamily: Int32Array, rlhp: Uint8Array): { groupOf: Int32Array; absentGroupOf: Int32Array } {
  const groupOf = Int32Array.from(personFamily);
  const absentGroupOf = new Int32Array(rlhp.length).fill(-1);
  for (let i = 0; i < rlhp.length; i++) {
    if (personFamily[i]! >= 0 && (rlhp[i] === VISITOR || rlhp[i] === RLHP_NA)) {
      absentGroupOf[i] = personFamily[i]!;
      groupOf[i] = -1;
    }
  }
  return { groupOf, absentGroupOf };
}

/** Shape of the income density above the median: a Pareto tail of index α (labels.ts uses the same α for the open top band). */
export const INCOME_TAIL_ALPHA = 3.5;
/** Bands from here up lie above the median weekly personal income (2021: $805), where the density falls. */
const FALLING_DENSITY_FROM = 1000;

/**
 * Median of a Pareto(α) density within [lo, hi): the amount that splits the band's persons in
 * two when fewer people earn each dollar further up.
 */
export function paretoBandMedian(lo: number, hi: number, alpha = INCOME_TAIL_ALPHA): number {
  return (0.5 * (lo ** -alpha + hi ** -alpha)) ** (-1 / alpha);
}

/**
 * Dollars of INCP categories as the ABS sums them into HIND and FINF: one amount per range, the
 * persons' median within it (ABS Census dictionary, HIND: "median values are assigned to each
 * range using data from the Survey of Income and Housing"). Below $1,000 the middle of the band;
 * from $1,000 up the median of a falling (Pareto) density, so a person in $2,000-$2,999 stands
 * for $2,292, not its middle $2,499.5, which rounded into $2,500-$2,999 and put every lone
 * earner of that range in the wrong household band (G33's $2,000-$2,499 non-family households
 * came out 16% short). Whole dollars, so that sums moved by the swaps stay exact in floating
 * point. NaN for "Not stated" and "Not applicable".
 */
export function personDollars(incpLabels: readonly string[]): Float64Array {
  const out = representativeDollars(incpLabels);
  incpLabels.forEach((label, c) => {
    const range = parseDollarBand(label);
    if (range && Number.isFinite(range.hi) && range.lo >= FALLING_DENSITY_FROM) out[c] = Math.round(paretoBandMedian(range.lo, range.hi + 1));
  });
  return out;
}

/**
 * A table the swaps aim at: each group (dwelling or family) sits in a cell given by its
 * stratum (fixed) and its income category (moving). Targets are the table's cells scaled to
 * the synthetic stratum sizes, so only the shares matter.
 */
export interface SwapObjective {
  readonly scale: IncomeScale;
  readonly tally: IncomeTally;
  /** Cell (flat) of a group for each income category: cellOf[stratum × categories + category], -1 none. */
  readonly cellOf: Int32Array;
  readonly stratumOf: Int32Array;
  readonly categories: number;
  readonly target: Float64Array;
  readonly count: Float64Array;
  /** Current cell of each group (-1 outside the table). */
  readonly current: Int32Array;
}

export function makeObjective(
  scale: IncomeScale,
  tally: IncomeTally,
  stratumOf: Int32Array,
  categories: number,
  cellOf: Int32Array,
  target: Float64Array,
): SwapObjective {
  const count = new Float64Array(target.length);
  const current = new Int32Array(stratumOf.length).fill(-1);
  for (let g = 0; g < stratumOf.length; g++) {
    const c = cellFor(scale, tally, stratumOf, categories, cellOf, g);
    current[g] = c;
    if (c >= 0) count[c]!++;
  }
  return { scale, tally, cellOf, stratumOf, categories, target, count, current };
}

function cellFor(
  scale: IncomeScale,
  tally: IncomeTally,
  stratumOf: Int32Array,
  categories: number,
  cellOf: Int32Array,
  g: number,
): number {
  const s = stratumOf[g]!;
  if (s < 0) return -1;
  const k = classifyIncome(scale, tally.sum[g]!, tally.stated[g]!, tally.notStated[g]!);
  return cellOf[s * categories + k]!;
}

/** Σ |count − target| over the objective's cells. */
export function objectiveError(o: SwapObjective): number {
  let e = 0;
  for (let c = 0; c < o.target.length; c++) e += Math.abs(o.count[c]! - o.target[c]!);
  return e;
}

/** Re-classifies group g after its tally changed; returns the change in error. */
function refresh(o: SwapObjective, g: number): number {
  if (g < 0) return 0;
  const before = o.current[g]!;
  const after = cellFor(o.scale, o.tally, o.stratumOf, o.categories, o.cellOf, g);
  if (before === after) return 0;
  let delta = 0;
  if (before >= 0) {
    delta -= Math.abs(o.count[before]! - o.target[before]!);
    o.count[before]!--;
    delta += Math.abs(o.count[before]! - o.target[before]!);
  }
  if (after >= 0) {
    delta -= Math.abs(o.count[after]! - o.target[after]!);
    o.count[after]!++;
    delta += Math.abs(o.count[after]! - o.target[after]!);
  }
  o.current[g] = after;
  return delta;
}

function move(t: IncomeTally, g: number, fromDollars: number, toDollars: number): void {
  if (g < 0) return;
  if (Number.isNaN(fromDollars)) t.notStated[g]!--;
  else {
    t.stated[g]!--;
    t.sum[g]! -= fromDollars;
  }
  if (Number.isNaN(toDollars)) t.notStated[g]!++;
  else {
    t.stated[g]!++;
    t.sum[g]! += toDollars;
  }
}

/**
 * Person a's income moves from `aDollars` to `bDollars` and person b's the other way, in every
 * target's tallies (nothing changes for a group that holds both); returns the change in the
 * summed error.
 */
function exchange(targets: readonly SwapTarget[], a: number, b: number, aDollars: number, bDollars: number): number {
  let delta = 0;
  for (const t of targets) {
    const ga = t.groupOf[a]!;
    const gb = t.groupOf[b]!;
    if (ga === gb) continue; // the group's total does not change
    move(t.objective.tally, ga, aDollars, bDollars);
    move(t.objective.tally, gb, bDollars, aDollars);
    delta += refresh(t.objective, ga) + refresh(t.objective, gb);
  }
  return delta;
}

/** Starting temperature of the swap annealing, in units of the L1 error. */
export const ANNEALING_START = 0.6;

export interface SwapTarget {
  readonly objective: SwapObjective;
  /** Group of each person for this objective (dwelling or family), -1 none. */
  readonly groupOf: ArrayLike<number>;
}

export interface SwapReport {
  readonly proposals: number;
  readonly accepted: number;
  readonly errorBefore: number;
  readonly errorAfter: number;
}

/** Draws tried before a targeted proposal settles for the last one. */
const OVERFULL_TRIES = 8;

/**
 * A person (of members[from ‥ from+size)) whose group sits in a cell holding more groups than
 * its target, for some objective (the last one drawn when OVERFULL_TRIES draws find none). Half
 * the proposals pair two such persons: a uniform draw mostly picks persons whose households are
 * already where the table wants them, so the few moves that help (a "Not stated" joining another
 * in one household, which leaves two partial households one all-not-stated and one stated)
 * would wait for a lucky pair.
 */
function fromOverfull(targets: readonly SwapTarget[], members: Int32Array, rng: Rng, from = 0, size = members.length): number {
  let a = members[from + rng.int(size)]!;
  for (let tries = 1; tries < OVERFULL_TRIES && !overfull(targets, a); tries++) a = members[from + rng.int(size)]!;
  return a;
}

function overfull(targets: readonly SwapTarget[], person: number): boolean {
  for (const t of targets) {
    const g = t.groupOf[person]!;
    if (g < 0) continue;
    const c = t.objective.current[g]!;
    if (c >= 0 && t.objective.count[c]! > t.objective.target[c]! + 0.5) return true;
  }
  return false;
}

/**
 * Label swaps by simulated annealing: `proposalsPerPerson` × (persons in strata) pairs from the same stratum (half of them
 * two persons in over-full cells, fromOverfull); a swap stays when it does not raise the summed error of the
 * objectives, or early on with probability exp(−Δ/T) as the temperature T falls to zero. `stratumOf[i]` is the person's swap stratum (-1: never swapped). INCP is
 * updated in place, the tallies and objectives with it.
 */
export function swapIncomes(
  incp: Uint8Array,
  dollars: Float64Array,
  stratumOf: Int32Array,
  strata: number,
  targets: readonly SwapTarget[],
  rng: Rng,
  proposalsPerPerson = 4,
): SwapReport {
  const errorBefore = targets.reduce((e, t) => e + objectiveError(t.objective), 0);
  const start = new Int32Array(strata + 1);
  for (let i = 0; i < stratumOf.length; i++) if (stratumOf[i]! >= 0) start[stratumOf[i]! + 1]!++;
  for (let s = 0; s < strata; s++) start[s + 1]! += start[s]!;
  const members = new Int32Array(start[strata]!);
  const fill = start.slice(0, strata);
  for (let i = 0; i < stratumOf.length; i++) if (stratumOf[i]! >= 0) members[fill[stratumOf[i]!]!++] = i;
  let proposals = 0;
  let accepted = 0;
  const total = members.length;
  const rounds = total * proposalsPerPerson;
  // Annealing may end above where it started; the accepted swaps are logged so the search can
  // step back to the best state it visited, which is never worse than the start.
  const log: number[] = [];
  let current = errorBefore;
  let best = errorBefore;
  let bestLength = 0;
  for (let r = 0; r < rounds; r++) {
    // Annealing: early on a swap that costs a little may stay, so the search leaves local
    // minima; the temperature falls to zero, where only swaps that do not hurt stay.
    const temperature = ANNEALING_START * (1 - r / rounds) ** 2;
    const targeted = r % 2 === 1;
    const a = targeted ? fromOverfull(targets, members, rng) : members[rng.int(total)]!;
    const s = stratumOf[a]!;
    const size = start[s + 1]! - start[s]!;
    const b = targeted ? fromOverfull(targets, members, rng, start[s]!, size) : members[start[s]! + rng.int(size)]!;
    const la = incp[a]!;
    const lb = incp[b]!;
    if (la === lb) continue;
    proposals++;
    const da = dollars[la]!;
    const db = dollars[lb]!;
    const delta = exchange(targets, a, b, da, db);
    if (delta <= 0 || (temperature > 0 && rng.next() < Math.exp(-delta / temperature))) {
      incp[a] = lb;
      incp[b] = la;
      accepted++;
      log.push(a, b);
      current += delta;
      if (current < best - 1e-9) {
        best = current;
        bestLength = log.length;
      }
    } else {
      exchange(targets, a, b, db, da);
    }
  }
  for (let k = log.length - 2; k >= bestLength; k -= 2) {
    const a = log[k]!;
    const b = log[k + 1]!;
    const la = incp[a]!;
    const lb = incp[b]!;
    exchange(targets, a, b, dollars[la]!, dollars[lb]!);
    incp[a] = lb;
    incp[b] = la;
  }
  const errorAfter = targets.reduce((e, t) => e + objectiveError(t.objective), 0);
  return { proposals, accepted, errorBefore, errorAfter };
}
