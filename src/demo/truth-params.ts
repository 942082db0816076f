import type { StateAbbr } from '../core/dataset.ts';
import { ABS_CODE_OF_STATE } from '../census-names.ts';
import { AGE_LEAN, ARCHETYPES, HOUSEHOLD_LEAN, LABOUR_LEAN, MOTHERS_AGE_LEAN, attainmentWeights } from './archetype-leans.ts';
import { balanceLeans } from './balance.ts';
import { cumulative } from './cdf.ts';
import { stateCalibration, type StateCalibration } from './calibration.ts';
import type { Archetype } from './places.ts';
import type { CalibrationArea } from './real-tables.ts';

/**
 * The truth model's parameters for one state and archetype: the state's calibration
 * (calibration.ts) leaned the archetype's way (archetype-leans.ts) and rebalanced over the
 * geography's suburbs, so that each state's suburbs together keep the state's real shares.
 * Distributions are cumulative (last entry 1), ready for drawIndex (cdf.ts).
 */
export interface SuburbParams {
  readonly calibration: StateCalibration;
  /** Lone person, group, family household. */
  readonly householdKinds: Float64Array;
  /** Group households of 2‥6 persons. */
  readonly groupSizes: Float64Array;
  /** Couple without children, couple with children, one parent, other family. */
  readonly familyTypes: Float64Array;
  readonly secondFamily: number;
  /** Over age * 2 + sex. */
  readonly lone: Float64Array;
  readonly group: Float64Array;
  readonly relative: Float64Array;
  readonly unrelated: Float64Array;
  readonly loneParent: Float64Array;
  /** Over age: the woman (first partner) of a couple without, and with, children. */
  readonly womenNoChildren: Float64Array;
  readonly mothers: Float64Array;
  /** [adult band][sex] over LFSP 0‥7. */
  readonly labour: readonly (readonly Float64Array[])[];
  /**
   * [adult band][sex]: where each labour force status's persons rank by income among the state's
   * persons of that band and sex (lower bounds by LFSP, and the upper bound at index LABOUR + LFSP).
   */
  readonly labourRank: readonly (readonly Float64Array[])[];
  /** Rank bounds of qualification (HEAP in the ABS's code order, 0‥9) among the state's adults 25–70 and over 70, same layout. */
  readonly attainmentRank: readonly [Float64Array, Float64Array];
}

/** Labour force status from lowest to highest income: not in the labour force, not stated, unemployed, part-time, away, hours not stated, full-time. */
const LABOUR_BY_INCOME = [6, 7, 5, 4, 1, 2, 3, 0];
/** Qualification from lowest to highest income: none, year 9 or below, not stated, inadequately described, year 10+, certificate, diploma, bachelor, graduate diploma, postgraduate. */
const ATTAINMENT_BY_INCOME = [7, 6, 9, 8, 5, 4, 3, 2, 1, 0];

/** Rank bounds [lo by category, then hi by category] of categories ordered by income. */
function rankBounds(weights: ArrayLike<number>, order: readonly number[]): Float64Array {
  const out = new Float64Array(order.length * 2);
  let total = 0;
  for (const k of order) total += weights[k]!;
  let cum = 0;
  for (const k of order) {
    out[k] = cum;
    cum += weights[k]! / total;
    out[order.length + k] = Math.min(1, cum);
  }
  return out;
}

const ageLean = (lean: number, paired: boolean) => (length: number) =>
  Float64Array.from({ length }, (_, i) => Math.exp((lean * ((paired ? i >> 1 : i) - 45)) / 10));

/** The parameters of every archetype of one state, balanced with the archetypes' persons in the geography. */
function stateParams(area: CalibrationArea, persons: readonly number[]): SuburbParams[] {
  const c = stateCalibration(area);
  const meanGroup = c.groupSizes.reduce((s, n, k) => s + n * (k + 2), 0) / c.groupSizes.reduce((a, b) => a + b, 0);
  const familySize = [2, 2 + c.childrenPerCouple, 1 + c.childrenPerLoneParent, 2 + c.otherFamilyThird];
  // Households per archetype depend on household size, which depends on the mix: iterate.
  let households = persons.map((p) => p / 2.5);
  let kinds: Float64Array[] = [];
  let families: Float64Array[] = [];
  let second: Float64Array[] = [];
  for (let it = 0; it < 4; it++) {
    kinds = balanceLeans(c.householdKinds, ARCHETYPES.map((a) => HOUSEHOLD_LEAN[a].kinds), households);
    const familyHouseholds = households.map((h, a) => h * kinds[a]![2]!);
    second = balanceLeans([1 - c.secondFamily, c.secondFamily], ARCHETYPES.map((a) => [1, HOUSEHOLD_LEAN[a].secondFamily]), familyHouseholds);
    families = balanceLeans(c.familyTypes, ARCHETYPES.map((a) => HOUSEHOLD_LEAN[a].families), familyHouseholds.map((h, a) => h * (1 + second[a]![1]!)));
    households = persons.map((p, a) => {
      const perFamily = families[a]!.reduce((s, share, t) => s + share * familySize[t]!, 0);
      const family = (1 + second[a]![1]!) * perFamily + c.relativeRate + c.unrelatedRate;
      return p / (kinds[a]![0]! + kinds[a]![1]! * meanGroup + kinds[a]![2]! * family);
    });
  }
  const familiesOf = (a: number, type: number) => households[a]! * kinds[a]![2]! * (1 + second[a]![1]!) * families[a]![type]!;
  const leaned = (base: Float64Array, count: (a: number) => number, paired: boolean, scale = 1) =>
    balanceLeans(base, ARCHETYPES.map((a) => ageLean(AGE_LEAN[a] * scale, paired)(base.length)), ARCHETYPES.map((_, a) => count(a)));
  const familyHouseholdsOf = (a: number) => households[a]! * kinds[a]![2]!;
  const lone = leaned(c.lone, (a) => households[a]! * kinds[a]![0]!, true);
  const group = leaned(c.group, (a) => households[a]! * kinds[a]![1]! * meanGroup, true);
  const relative = leaned(c.relative, (a) => familyHouseholdsOf(a) * c.relativeRate + familiesOf(a, 3) * familySize[3]!, true);
  const unrelated = leaned(c.unrelated, (a) => familyHouseholdsOf(a) * c.unrelatedRate, true);
  const loneParent = leaned(c.loneParent, (a) => familiesOf(a, 2), true);
  const womenNoChildren = leaned(c.womenNoChildren, (a) => familiesOf(a, 0), false);
  const mothers = leaned(c.mothers, (a) => familiesOf(a, 1), false, MOTHERS_AGE_LEAN);
  const labour = c.labour.map((bySex) => bySex.map((shares) => balanceLeans(shares, ARCHETYPES.map((a) => LABOUR_LEAN[a]), persons)));
  const labourRank = c.labour.map((bySex) => bySex.map((shares) => rankBounds(shares, LABOUR_BY_INCOME)));
  const reference = (age: number) => {
    const w = new Float64Array(10);
    ARCHETYPES.forEach((a, k) => attainmentWeights(a, age).forEach((x, i) => (w[i]! += x * (persons[k]! || 1))));
    return rankBounds(w, ATTAINMENT_BY_INCOME);
  };
  const attainmentRank: [Float64Array, Float64Array] = [reference(40), reference(80)];
  return ARCHETYPES.map((_, a) => ({
    calibration: c,
    householdKinds: cumulative(kinds[a]!),
    groupSizes: cumulative(c.groupSizes),
    familyTypes: cumulative(families[a]!),
    secondFamily: second[a]![1]!,
    lone: cumulative(lone[a]!),
    group: cumulative(group[a]!),
    relative: cumulative(relative[a]!),
    unrelated: cumulative(unrelated[a]!),
    loneParent: cumulative(loneParent[a]!),
    womenNoChildren: cumulative(womenNoChildren[a]!),
    mothers: cumulative(mothers[a]!),
    labour: labour.map((bySex) => bySex.map((byArchetype) => cumulative(byArchetype[a]!))),
    labourRank,
    attainmentRank,
  }));
}

/** The truth model of one geography: parameters by state and archetype. */
export interface TruthModel {
  params(state: StateAbbr, archetype: Archetype): SuburbParams;
}

/**
 * The truth model for a geography's suburbs: each state calibrated to its own real tables, its
 * archetypes balanced by their persons among the suburbs, so that the suburbs of a state
 * together have that state's real shares however many of each archetype it has. States are
 * calibrated when first drawn.
 */
export function createTruthModel(suburbs: readonly { readonly state: StateAbbr; readonly archetype: Archetype; readonly persons: number }[]): TruthModel {
  const weights = new Map<StateAbbr, number[]>();
  for (const s of suburbs) {
    const w = weights.get(s.state) ?? weights.set(s.state, ARCHETYPES.map(() => 0)).get(s.state)!;
    w[ARCHETYPES.indexOf(s.archetype)]! += s.persons;
  }
  const byState = new Map<StateAbbr, SuburbParams[]>();
  return {
    params(state, archetype) {
      let params = byState.get(state);
      if (!params) byState.set(state, (params = stateParams(ABS_CODE_OF_STATE[state] as CalibrationArea, weights.get(state) ?? ARCHETYPES.map(() => 0))));
      return params[ARCHETYPES.indexOf(archetype)]!;
    },
  };
}
