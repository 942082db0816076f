import { expectedChildAges, MIN_PARENT_GAP } from './child-ages.ts';
import { createPartnerAges, type PartnerAges } from './partner-ages.ts';
import {
  ADULT_BANDS,
  roleBandOf,
  AGES,
  INCOME_BANDS,
  MAX_AGE,
  ROLE_BANDS,
  realTables,
  type CalibrationArea,
  type RealTables,
} from './real-tables.ts';

/**
 * One state's (or Australia's) real household structure, ages, marital status, labour force and
 * incomes, turned into the parameters of the demo's household-by-household truth model, so that
 * the model's expected counts are the real tables' (src/demo/real-tables.ts):
 *
 * - every adult role of G27 (lone person, group member, lone parent, partner, other related or
 *   unrelated individual) gets its real number of persons by age band and sex;
 * - children are not drawn by age but follow their parents (child-ages.ts): the ages of the
 *   mothers in couples with children, and how often another child follows, are fitted so that
 *   the children of couples and lone parents together have G27's ages (under 15 by single year
 *   of G04, older ones by band) and couples with children number G29's;
 * - within a band, single years follow G04 once the children are taken out;
 * - marital status (G05), labour force status (G46) and income (G17) by band and sex are the real
 *   shares, the two marital ones split between roles so that registered partners are married.
 *
 * Archetype variation is added on top and rebalanced (truth-params.ts).
 */

/** Weights over (age, sex): index age * 2 + sex (sex 0 male, 1 female). */
export type AgeSexWeights = Float64Array;
export const ageSexIndex = (age: number, sex: number): number => age * 2 + sex;

export interface StateCalibration {
  readonly area: CalibrationArea;
  /** Households: lone person, group, family (persons of G27 in households of G35's sizes). */
  readonly householdKinds: readonly [number, number, number];
  /** Group households by size 2‥6 (G35's "six or more" as six). */
  readonly groupSizes: readonly number[];
  /** Families: couple without children, couple with children, one parent, other (G27's partners and lone parents, G29). */
  readonly familyTypes: readonly [number, number, number, number];
  /** Chance that a family household holds a second family (G29's families beyond G35's family households). */
  readonly secondFamily: number;
  /** Chance of a third member in an "other" family (G29's persons per other family, beyond two). */
  readonly otherFamilyThird: number;
  /** Per family household: chance of an other related individual, and of an unrelated one, beside its families (G27). */
  readonly relativeRate: number;
  readonly unrelatedRate: number;
  readonly lone: AgeSexWeights;
  readonly group: AgeSexWeights;
  readonly relative: AgeSexWeights;
  readonly unrelated: AgeSexWeights;
  readonly loneParent: AgeSexWeights;
  /** Ages (index age) of the woman — or first partner — of couples without and with children. */
  readonly womenNoChildren: Float64Array;
  readonly mothers: Float64Array;
  /** Children expected by age (both sexes, couples' and lone parents'), and per family. */
  readonly children: Float64Array;
  readonly childrenPerCouple: number;
  readonly childrenPerLoneParent: number;
  /** The man's age given the woman's (partner-ages.ts), from the real partners' ages. */
  readonly partnerAges: PartnerAges;
  /** By the younger partner's G27 band: chance that a couple is married (registered) rather than de facto. */
  readonly registered: readonly number[];
  /** The children process's chance of another child, fitted for couples and for lone parents. */
  readonly childStay: number;
  readonly loneParentStay: number;
  /** Share of boys among children. */
  readonly childMale: number;
  /** [sex][age 15‥24]: chance that a child of that age is a dependent (full-time) student. */
  readonly dependentStudent: readonly (readonly number[])[];
  /** [adult band][sex]: registered marital status (MSTP 0‥4) of de facto partners, and of everyone not a partner. */
  readonly marital: readonly (readonly { readonly deFacto: readonly number[]; readonly other: readonly number[] }[])[];
  /** [adult band][sex]: labour force status LFSP 0‥7 shares. */
  readonly labour: readonly (readonly (readonly number[])[])[];
  /** [adult band][sex]: the share not stating an income, and the cumulative shares of INCP 0‥14 among those who did. */
  readonly income: readonly (readonly { readonly notStated: number; readonly cdf: Float64Array }[])[];
}

const RM = 0, DF = 1, LONE_PARENT = 2, CHILD_U15 = 3, DEP_STUDENT = 4, NON_DEP_CHILD = 5, OTHER_RELATED = 6, UNRELATED = 7, GROUP = 8, LONE = 9;
/** No more than this share of couples of any age has children at home (assumed; some never have any). */
const MAX_WITH_CHILDREN = 0.95;
/**
 * Relative chance by age 15‥24 that a child at home is a full-time student: all but a few at
 * school age, then fewer each year as courses end (assumed shape; its level is fitted to G27's
 * dependent students).
 */
const STUDENT_SHAPE = [1, 1, 1, 0.62, 0.52, 0.44, 0.37, 0.3, 0.24, 0.19];

const sum = (xs: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s;
};
const normalised = (xs: readonly number[]) => {
  const total = sum(xs);
  if (!(total > 0)) throw new Error('calibration: a real distribution with no one in it');
  return xs.map((x) => x / total);
};
const bandAges = ([lo, hi]: readonly [number, number]) => Array.from({ length: Math.min(hi, MAX_AGE) - lo + 1 }, (_, i) => lo + i);

/** Spreads `total` over `ages` in proportion to `shape` (evenly when the shape is empty there). */
function spread(out: Float64Array, index: (age: number) => number, total: number, ages: readonly number[], shape: (age: number) => number): void {
  if (!(total > 0)) return;
  const w = ages.map((a) => Math.max(0, shape(a)));
  const s = sum(w);
  ages.forEach((a, i) => (out[index(a)]! += (total * (s > 0 ? w[i]! : 1)) / (s > 0 ? s : ages.length)));
}

/** Expected children by age of a couple, by the woman's age, through the younger partner's age. */
function coupleChildKernel(partners: PartnerAges, women: Float64Array, stay: number): Float64Array[] {
  const byParent = Array.from({ length: AGES }, (_, x) => (x >= MIN_PARENT_GAP ? expectedChildAges(x, stay) : new Float64Array(AGES)));
  return Array.from({ length: AGES }, (_, w) => {
    const k = new Float64Array(AGES);
    if (w < MIN_PARENT_GAP || women[w] === 0) return k;
    const men = partners.menGiven(w);
    for (let m = 0; m < AGES; m++) {
      if (men[m] === 0) continue;
      const e = byParent[Math.min(w, m)]!;
      for (let c = 0; c < AGES; c++) k[c]! += men[m]! * e[c]!;
    }
    return k;
  });
}

/**
 * The share of couples with children at home by the woman's age, π(w) ≤ MAX_WITH_CHILDREN, such
 * that Σ_w A[j][w]·women[w]·π(w) ≈ y[j]: Richardson–Lucy iterations from `start`, each capped
 * and lightly smoothed over neighbouring ages (the tables constrain ages only by band, and a
 * share that jumps from year to year would not be real). `a` is bins × ages, row-major.
 */
function fitShareWithChildren(a: Float64Array, y: readonly number[], women: Float64Array, start: Float64Array, iterations: number): Float64Array {
  const n = women.length;
  const bins = y.length;
  const share = Float64Array.from(start);
  const weighted = Float64Array.from(a, (x, i) => x * women[i % n]!);
  const colSum = new Float64Array(n);
  for (let j = 0; j < bins; j++) for (let w = 0; w < n; w++) colSum[w]! += weighted[j * n + w]!;
  const ratio = new Float64Array(bins);
  const next = new Float64Array(n);
  for (let it = 0; it < iterations; it++) {
    for (let j = 0; j < bins; j++) {
      let s = 0;
      for (let w = 0, o = j * n; w < n; w++) s += weighted[o + w]! * share[w]!;
      ratio[j] = s > 0 ? y[j]! / s : 0;
    }
    for (let w = 0; w < n; w++) {
      if (colSum[w] === 0 || share[w] === 0) continue;
      let s = 0;
      for (let j = 0; j < bins; j++) s += weighted[j * n + w]! * ratio[j]!;
      share[w] = Math.min(MAX_WITH_CHILDREN, (share[w]! * s) / colSum[w]!);
    }
    for (let w = 0; w < n; w++) {
      if (share[w] === 0) {
        next[w] = 0;
        continue;
      }
      const left = w > 0 && share[w - 1]! > 0 ? share[w - 1]! : share[w]!;
      const right = w + 1 < n && share[w + 1]! > 0 ? share[w + 1]! : share[w]!;
      next[w] = 0.15 * left + 0.7 * share[w]! + 0.15 * right;
    }
    share.set(next);
  }
  return share;
}

/**
 * The chance that a couple is married rather than de facto, by the younger partner's age band,
 * such that the partners of each band are married as often as G27's (the younger partner
 * decides: young couples are mostly de facto whatever the other's age). Multiplicative updates
 * over the couples' expected (woman, man) ages.
 */
function fitRegistered(women: Float64Array, partners: PartnerAges, marriedShare: (band: number) => number): number[] {
  const bands = ROLE_BANDS.length;
  /** [persons' band][younger partner's band]: expected persons. */
  const a = Array.from({ length: bands }, () => new Float64Array(bands));
  const total = sum(women);
  for (let w = 0; w < AGES; w++) {
    if (women[w] === 0) continue;
    partners.menGiven(w).forEach((p, m) => {
      if (p === 0) return;
      const n = (women[w]! / total) * p;
      const younger = roleBandOf(Math.min(w, m));
      a[roleBandOf(w)]![younger]! += n;
      a[roleBandOf(m)]![younger]! += n;
    });
  }
  const target = a.map((row, c) => sum(row) * marriedShare(c));
  const r = new Array<number>(bands).fill(0.5);
  for (let it = 0; it < 200; it++) {
    const model = a.map((row) => row.reduce((s, n, b) => s + n * r[b]!, 0));
    for (let b = 0; b < bands; b++) {
      let num = 0;
      let den = 0;
      for (let c = 0; c < bands; c++) {
        if (model[c]! > 0) num += (a[c]![b]! * target[c]!) / model[c]!;
        den += a[c]![b]!;
      }
      if (den > 0) r[b] = Math.min(1, (r[b]! * num) / den);
    }
  }
  return r;
}

/** Children by bin: single years 0‥14, then G27's bands 15-24 … 85+. */
const CHILD_BINS: readonly (readonly [number, number])[] = [...Array.from({ length: 15 }, (_, a) => [a, a] as const), ...ROLE_BANDS.slice(1)];
const binned = (byAge: ArrayLike<number>) => CHILD_BINS.map(([lo, hi]) => bandAges([lo, hi]).reduce((s, a) => s + byAge[a]!, 0));

export function calibrateState(t: RealTables): StateCalibration {
  const roles = t.rolesByAge();
  const g04 = t.ageBySex();
  const T = (role: number, band: number, sex: number) => roles[role]![band]![sex]!;
  const roleTotal = (role: number) => ROLE_BANDS.reduce((s, _, b) => s + T(role, b, 0) + T(role, b, 1), 0);

  // Persons by single year and sex: G27's band totals (occupied private dwellings) shaped by G04.
  const persons = [0, 1].map((sex) => {
    const out = new Float64Array(AGES);
    ROLE_BANDS.forEach((band, b) => {
      let total = 0;
      for (let r = 0; r < 10; r++) total += T(r, b, sex);
      spread(out, (a) => a, total, bandAges(band), (a) => g04[sex]![a]!);
    });
    return out;
  });
  /** The non-child roles' shape before the children are known: persons aged 18 and over (parents' minimum). */
  const adultShape = (sex: number) => (a: number) => (a >= MIN_PARENT_GAP ? persons[sex]![a]! : 0);

  // Marriages at 15-19 against 20-24 (G05) split G27's partners aged 15-24; none under 18.
  const marital = t.maritalByAge();
  const teenShare = [0, 1].map((sex) => marital[0]![sex]![4]! / (marital[0]![sex]![4]! + marital[1]![sex]![4]!));
  const partnersByAge = (sex: number, shape: (sex: number) => (a: number) => number) => {
    const out = new Float64Array(AGES);
    ROLE_BANDS.forEach((band, b) => {
      const total = T(RM, b, sex) + T(DF, b, sex);
      if (b === 1) {
        spread(out, (a) => a, total * teenShare[sex]!, [18, 19], shape(sex));
        spread(out, (a) => a, total * (1 - teenShare[sex]!), bandAges([20, 24]), shape(sex));
      } else spread(out, (a) => a, total, bandAges(band), shape(sex));
    });
    return out;
  };
  const womenPartners = partnersByAge(1, adultShape);
  const partnerAges = createPartnerAges(womenPartners, partnersByAge(0, adultShape));

  // Lone parents' ages (18 and over) and the children they bring.
  const loneParent = new Float64Array(AGES * 2);
  for (const sex of [0, 1]) ROLE_BANDS.forEach((band, b) => spread(loneParent, (a) => ageSexIndex(a, sex), T(LONE_PARENT, b, sex), bandAges(band).filter((a) => a >= MIN_PARENT_GAP), adultShape(sex)));
  const loneParents = sum(loneParent);

  // Children's targets: under 15 by single year, then dependent students and other children by band.
  const childTarget = CHILD_BINS.map(([age], j) =>
    j < 15 ? persons[0]![age]! + persons[1]![age]! : [0, 1].reduce((s, sex) => s + T(DEP_STUDENT, j - 14, sex) + T(NON_DEP_CHILD, j - 14, sex), 0),
  );
  const families = t.families();
  const couplesWithChildren = families.byType[1]! + families.byType[2]!;

  /** The stay (chance of another child) at which `count(stay)`, rising with it, reaches `target`. */
  const solveStay = (count: (stay: number) => number, target: number) => {
    let lo = 0.02;
    let hi = 0.98;
    for (let i = 0; i < 30; i++) {
      const mid = (lo + hi) / 2;
      if (count(mid) < target) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  };
  const childrenOf = (parents: (x: number) => number, stay: number) => {
    const out = new Float64Array(AGES);
    for (let x = MIN_PARENT_GAP; x < AGES; x++) {
      const n = parents(x);
      if (n === 0) continue;
      const e = expectedChildAges(x, stay);
      for (let c = 0; c < AGES; c++) out[c]! += n * e[c]!;
    }
    return out;
  };
  // Lone parents bring G29's children of one-parent families.
  const loneParentsAt = (x: number) => loneParent[ageSexIndex(x, 0)]! + loneParent[ageSexIndex(x, 1)]!;
  const loneParentChildren = families.byTypeMembers[3]! + families.byTypeMembers[4]! - families.byType[3]! - families.byType[4]!;
  const loneParentStay = solveStay((stay) => sum(childrenOf(loneParentsAt, stay)), loneParentChildren);
  const ofLoneParents = childrenOf(loneParentsAt, loneParentStay);
  const left = binned(ofLoneParents).map((n, j) => Math.max(0, childTarget[j]! - n));

  /**
   * For a chance of another child: the mothers fitted to what lone parents' children leave (from
   * the previous fit's shares), and the children of both.
   */
  let shares: Float64Array = Float64Array.from(womenPartners, (n, w) => (n > 0 && w >= MIN_PARENT_GAP ? 0.5 : 0));
  const fit = (stay: number, iterations: number) => {
    const kernel = coupleChildKernel(partnerAges, womenPartners, stay);
    const a = new Float64Array(CHILD_BINS.length * AGES);
    CHILD_BINS.forEach(([lo, hi], j) => {
      for (let w = 0; w < AGES; w++) for (let c = lo; c <= Math.min(hi, MAX_AGE); c++) a[j * AGES + w]! += kernel[w]![c]!;
    });
    shares = fitShareWithChildren(a, left, womenPartners, shares, iterations);
    const mothers = Float64Array.from(womenPartners, (n, w) => n * shares[w]!);
    const children = Float64Array.from(ofLoneParents);
    for (let w = 0; w < AGES; w++) for (let c = 0; c < AGES; c++) children[c]! += mothers[w]! * kernel[w]![c]!;
    return { mothers, children };
  };
  // More children per couple, fewer mothers: the stay that gives G29's number of couples with
  // children, by the secant method (each fit starting from the last one's shares).
  const excess = (stay: number) => sum(fit(stay, 150).mothers) / couplesWithChildren - 1;
  let [s0, s1] = [0.45, 0.6];
  let [f0, f1] = [excess(s0), excess(s1)];
  for (let i = 0; i < 20 && Math.abs(f1) > 1e-5 && f1 !== f0; i++) {
    const s2 = Math.min(0.97, Math.max(0.03, s1 - (f1 * (s1 - s0)) / (f1 - f0)));
    [s0, f0] = [s1, f1];
    [s1, f1] = [s2, excess(s2)];
  }
  const childStay = s1;
  const { mothers, children } = fit(childStay, 300);

  const childRoles = [CHILD_U15, DEP_STUDENT, NON_DEP_CHILD];
  const boys = childRoles.reduce((s, r) => s + ROLE_BANDS.reduce((x, _, b) => x + T(r, b, 0), 0), 0);
  const childMale = boys / childRoles.reduce((s, r) => s + roleTotal(r), 0);
  const childrenBySex = [childMale, 1 - childMale].map((share) => children.map((n) => n * share));
  // Within a band, the adults' single years: the persons of that age who are not children.
  const residualShape = (sex: number) => (a: number) => Math.max(0, persons[sex]![a]! - childrenBySex[sex]![a]!);
  const byRole = (role: number) => {
    const out = new Float64Array(AGES * 2);
    for (const sex of [0, 1]) ROLE_BANDS.forEach((band, b) => b > 0 && spread(out, (a) => ageSexIndex(a, sex), T(role, b, sex), bandAges(band), residualShape(sex)));
    return out;
  };
  // The women of couples without children: the women partners the mothers leave (on the shape
  // the partners' ages were matched on, so that the men's ages come out as the real ones).
  const womenNoChildren = Float64Array.from(womenPartners, (n, a) => Math.max(0, n - mothers[a]!));

  // Dependent students among children aged 15-24, by sex: the assumed shape scaled to G27.
  const dependentStudent = [0, 1].map((sex) => {
    const kids = STUDENT_SHAPE.map((_, i) => childrenBySex[sex]![15 + i]!);
    const target = T(DEP_STUDENT, 1, sex);
    const rate = (scale: number) => STUDENT_SHAPE.map((s) => Math.min(0.97, scale * s));
    let a = 0;
    let b = 1.5;
    for (let i = 0; i < 40; i++) {
      const mid = (a + b) / 2;
      if (rate(mid).reduce((s, p, k) => s + p * kids[k]!, 0) < target) a = mid;
      else b = mid;
    }
    return rate((a + b) / 2);
  });

  const registered = fitRegistered(womenPartners, partnerAges, (b) => {
    const married = T(RM, b, 0) + T(RM, b, 1);
    const all = married + T(DF, b, 0) + T(DF, b, 1);
    return all > 0 ? married / all : 0;
  });

  // Households and families, in persons consistent with G27.
  const sizes = t.householdSizes();
  const groupSizes = sizes.nonFamily.slice(1);
  const meanGroup = groupSizes.reduce((s, n, k) => s + n * (k + 2), 0) / sum(groupSizes);
  const partners = ROLE_BANDS.reduce((s, _, b) => s + T(RM, b, 0) + T(RM, b, 1) + T(DF, b, 0) + T(DF, b, 1), 0);
  const couplesWithout = Math.max(0, partners / 2 - couplesWithChildren);
  const otherFamilies = families.byType[5]!;
  const familyTypes = [couplesWithout, couplesWithChildren, loneParents, otherFamilies] as [number, number, number, number];
  const realFamilies = sum(families.byType);
  const familyHouseholdsReal = sum(sizes.family);
  const secondFamily = Math.max(0, realFamilies / familyHouseholdsReal - 1);
  const familyHouseholds = sum(familyTypes) / (1 + secondFamily);
  const otherFamilyThird = Math.min(1, Math.max(0, families.byTypeMembers[5]! / Math.max(1, otherFamilies) - 2));
  const relativesInOtherFamilies = otherFamilies * (2 + otherFamilyThird);
  const relativeRate = Math.min(1, Math.max(0, roleTotal(OTHER_RELATED) - relativesInOtherFamilies) / familyHouseholds);
  const unrelatedRate = Math.min(1, roleTotal(UNRELATED) / familyHouseholds);

  return {
    area: t.area,
    householdKinds: [roleTotal(LONE), roleTotal(GROUP) / meanGroup, familyHouseholds],
    groupSizes,
    familyTypes,
    secondFamily,
    otherFamilyThird,
    relativeRate,
    unrelatedRate,
    lone: byRole(LONE),
    group: byRole(GROUP),
    relative: byRole(OTHER_RELATED),
    unrelated: byRole(UNRELATED),
    loneParent,
    womenNoChildren,
    mothers,
    children,
    childrenPerCouple: (sum(children) - loneParentChildren) / couplesWithChildren,
    childrenPerLoneParent: loneParentChildren / loneParents,
    partnerAges,
    registered,
    childStay,
    loneParentStay,
    childMale,
    dependentStudent,
    marital: maritalByRole(marital, persons, teenShare, T),
    labour: t.labourForceByAge().map((bySex) => bySex.map(normalised)),
    income: t.incomeByAge().map((bySex) =>
      bySex.map((counts) => {
        const stated = counts.slice(0, INCOME_BANDS);
        let cum = 0;
        const total = sum(stated);
        return { notStated: counts[INCOME_BANDS]! / (total + counts[INCOME_BANDS]!), cdf: Float64Array.from(stated, (n) => (cum += n / total)) };
      }),
    ),
  };
}

/**
 * Registered marital status by role: registered partners are married; de facto partners have
 * the band's unmarried statuses in their real proportions; everyone else has what is left of
 * G05's counts (married persons whose spouse is elsewhere among them).
 */
function maritalByRole(
  marital: number[][][],
  persons: Float64Array[],
  teenShare: number[],
  T: (role: number, band: number, sex: number) => number,
): StateCalibration['marital'] {
  return ADULT_BANDS.map((band, b) =>
    [0, 1].map((sex) => {
      const inBand = bandAges(band).reduce((s, a) => s + persons[sex]![a]!, 0);
      // Adult bands 15-19 and 20-24 share G27's 15-24 partners as the marriages do.
      const part = b === 0 ? teenShare[sex]! : b === 1 ? 1 - teenShare[sex]! : 1;
      const roleBand = b <= 1 ? 1 : b;
      const rm = T(RM, roleBand, sex) * part;
      const df = T(DF, roleBand, sex) * part;
      const real = normalised(marital[b]![sex]!).map((p) => p * inBand);
      const unmarried = real.slice(0, 4);
      const deFacto = [...normalised(unmarried), 0];
      const share = Math.min(1, df / sum(unmarried));
      const other = [...unmarried.map((n) => n * (1 - share)), Math.max(0, real[4]! - rm)];
      if (!(sum(other) > 0)) other[0] = 1;
      return { deFacto, other: normalised(other) };
    }),
  );
}

let cache: Map<CalibrationArea, StateCalibration> | undefined;
/** A state's calibration, computed once per process. */
export function stateCalibration(area: CalibrationArea): StateCalibration {
  cache ??= new Map();
  let c = cache.get(area);
  if (!c) cache.set(area, (c = calibrateState(realTables(area))));
  return c;
}
