import type { Population } from '../synthesis/census/population.ts';
import { ADULT_BANDS, INCOME_BANDS, LABOUR, MARITAL, ROLE_BANDS, ROLES, RealTables, adultBandOf, roleBandOf, type CalibrationArea, type RealTableValues } from './real-tables.ts';

/**
 * The shares the demo's hidden truth is calibrated to, measured the same way on the real tables
 * and on demo populations, so that the two can be compared figure by figure.
 */
export interface NationalShares {
  /** Persons aged 65 and over, of all persons. */
  readonly aged65: number;
  /** Persons by G27 age band, of all persons. */
  readonly ageBands: readonly number[];
  /** [band][role]: persons in each relationship in household (RLHP 0‥9), of the band's persons. */
  readonly roles: readonly (readonly number[])[];
  /** Partners (registered or de facto) of the persons aged 15–24. */
  readonly partners15to24: number;
  /** [adult band][MSTP 0‥4] of the band's persons. */
  readonly marital: readonly (readonly number[])[];
  /** [adult band][sex]: median weekly personal income of those who stated one, in dollars. */
  readonly medianIncome: readonly (readonly number[])[];
  /** [adult band][sex]: nil or negative income, of those who stated one. */
  readonly nilIncome: readonly (readonly number[])[];
  /** [adult band][sex][INCP 0‥14]: the income distribution of those who stated one. */
  readonly incomeBands: readonly (readonly (readonly number[])[])[];
  /** [adult band][sex]: employed (LFSP 0‥3), of the band's persons. */
  readonly employed: readonly (readonly number[])[];
  /** [adult band][sex]: not in the labour force (LFSP 6), of the band's persons. */
  readonly notInLabourForce: readonly (readonly number[])[];
  /** Households by persons usually resident 1‥5, 6+, of all households. */
  readonly householdSize: readonly number[];
  /** Lone-person and group households, of all households. */
  readonly lone: number;
  readonly group: number;
  /** Families by composition FMCF 0‥5, of all families. */
  readonly familyTypes: readonly number[];
}

/** Lower bounds of INCP 0‥14 in weekly dollars (nil/negative counts as 0). */
const INCOME_FROM = [0, 1, 150, 300, 400, 500, 650, 800, 1000, 1250, 1500, 1750, 2000, 3000, 3500];
/** The open top band's interpolation width. */
const INCOME_TOP = 5000;

/** Median of banded incomes, linear within the band that holds it. */
export function bandedMedian(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  let cum = 0;
  for (let k = 0; k < counts.length; k++) {
    const next = cum + counts[k]!;
    if (next >= total / 2) {
      if (k === 0) return 0;
      const lo = INCOME_FROM[k]!;
      const hi = INCOME_FROM[k + 1] ?? INCOME_TOP;
      return lo + ((total / 2 - cum) / counts[k]!) * (hi - lo);
    }
    cum = next;
  }
  return Number.NaN;
}

const share = (xs: readonly number[]) => {
  const total = xs.reduce((a, b) => a + b, 0);
  return xs.map((x) => x / total);
};

interface Counts {
  /** [band][role] */
  roles: number[][];
  /** [adult band][sex][MSTP] */
  marital: number[][][];
  /** [adult band][sex][INCP 0‥14] stated incomes only. */
  income: number[][][];
  /** [adult band][sex][LFSP 0‥7] */
  labour: number[][][];
  householdSize: number[];
  lone: number;
  group: number;
  families: number[];
}

function sharesOf(c: Counts, aged65: number, persons: number): NationalShares {
  const bandPersons = c.roles.map((r) => r.reduce((a, b) => a + b, 0));
  const bySex = <T>(f: (band: number, sex: number) => T) => ADULT_BANDS.map((_, b) => [0, 1].map((s) => f(b, s)));
  const labourTotal = (b: number, s: number) => c.labour[b]![s]!.reduce((x, y) => x + y, 0);
  const households = c.householdSize.reduce((a, b) => a + b, 0);
  return {
    aged65: aged65 / persons,
    ageBands: bandPersons.map((n) => n / persons),
    roles: c.roles.map(share),
    partners15to24: (c.roles[1]![0]! + c.roles[1]![1]!) / bandPersons[1]!,
    marital: ADULT_BANDS.map((_, b) => share([0, 1, 2, 3, 4].map((m) => c.marital[b]![0]![m]! + c.marital[b]![1]![m]!))),
    medianIncome: bySex((b, s) => bandedMedian(c.income[b]![s]!)),
    nilIncome: bySex((b, s) => c.income[b]![s]![0]! / c.income[b]![s]!.reduce((x, y) => x + y, 0)),
    incomeBands: bySex((b, s) => share(c.income[b]![s]!)),
    employed: bySex((b, s) => (c.labour[b]![s]![0]! + c.labour[b]![s]![1]! + c.labour[b]![s]![2]! + c.labour[b]![s]![3]!) / labourTotal(b, s)),
    notInLabourForce: bySex((b, s) => c.labour[b]![s]![6]! / labourTotal(b, s)),
    householdSize: c.householdSize.map((n) => n / households),
    lone: c.lone / households,
    group: c.group / households,
    familyTypes: share(c.families),
  };
}

const grid = (...dims: number[]): number[][][] => Array.from({ length: dims[0]! }, () => Array.from({ length: dims[1]! }, () => new Array<number>(dims[2]!).fill(0)));

/**
 * The real shares. Relationship, age and household figures are of persons in occupied private
 * dwellings (G27, visitors left out; G35; G29): the demo's truth has no one anywhere else.
 * Marital status, income and labour force (G05, G17, G46) are of all persons aged 15+.
 */
export function realShares(t: RealTables): NationalShares {
  const roles = t.rolesByAge();
  const byBandRole = ROLE_BANDS.map((_, b) => Array.from({ length: ROLES }, (_, r) => roles[r]![b]![0]! + roles[r]![b]![1]!));
  const persons = byBandRole.flat().reduce((a, b) => a + b, 0);
  const aged65 = byBandRole.slice(6).flat().reduce((a, b) => a + b, 0);
  const sizes = t.householdSizes();
  const income = t.incomeByAge().map((bySex) => bySex.map((counts) => counts.slice(0, INCOME_BANDS)));
  return sharesOf(
    {
      roles: byBandRole,
      marital: t.maritalByAge(),
      income,
      labour: t.labourForceByAge(),
      householdSize: sizes.family.map((n, k) => n + sizes.nonFamily[k]!),
      lone: sizes.nonFamily[0]!,
      group: sizes.nonFamily.slice(1).reduce((a, b) => a + b, 0),
      families: t.families().byType,
    },
    aged65,
    persons,
  );
}

/** The same shares of demo populations, pooled. */
export function demoShares(pops: Iterable<Population>): NationalShares {
  const c: Counts = {
    roles: ROLE_BANDS.map(() => new Array<number>(ROLES).fill(0)),
    marital: grid(ADULT_BANDS.length, 2, MARITAL),
    income: grid(ADULT_BANDS.length, 2, INCOME_BANDS),
    labour: grid(ADULT_BANDS.length, 2, LABOUR),
    householdSize: new Array<number>(6).fill(0),
    lone: 0,
    group: 0,
    families: new Array<number>(6).fill(0),
  };
  let persons = 0;
  let aged65 = 0;
  for (const pop of pops) {
    const v = pop.persons.variables;
    for (let p = 0; p < pop.persons.count; p++) {
      const age = pop.persons.age[p]!;
      const sex = v.SEXP![p]!;
      persons++;
      if (age >= 65) aged65++;
      const role = v.RLHP![p]!;
      if (role < ROLES) c.roles[roleBandOf(age)]![role]!++;
      if (age < 15) continue;
      const b = adultBandOf(age);
      c.marital[b]![sex]![v.MSTP![p]!]!++;
      if (v.INCP![p]! < INCOME_BANDS) c.income[b]![sex]![v.INCP![p]!]!++;
      c.labour[b]![sex]![v.LFSP![p]!]!++;
    }
    const d = pop.dwellings.variables;
    for (let k = 0; k < pop.dwellings.count; k++) {
      c.householdSize[Math.min(5, d.NPRD![k]!)]!++;
      if (d.HHCD![k] === 1) c.lone++;
      if (d.HHCD![k] === 2) c.group++;
    }
    const f = pop.families.variables;
    for (let k = 0; k < pop.families.count; k++) c.families[f.FMCF![k]!]!++;
  }
  return sharesOf(c, aged65, persons);
}

/**
 * The state tables added up with each state weighted by its persons in a demo geography rather
 * than its real persons: what a model calibrated state by state gives that geography in all.
 * NaN (not published) where every state has NaN.
 */
export function reweightedByState(values: RealTableValues, demoPersons: ReadonlyMap<CalibrationArea, number>): RealTables {
  const combined: Record<string, number[]> = {};
  for (const [area, persons] of demoPersons) {
    if (area === 'AUS' || persons === 0) continue;
    const [m, f] = new RealTables(values, area).ageBySex();
    const scale = persons / (m.reduce((a, b) => a + b, 0) + f.reduce((a, b) => a + b, 0));
    for (const [table, row] of Object.entries(values[area]!)) {
      const out = (combined[table] ??= row.map(() => Number.NaN));
      row.forEach((x, i) => {
        if (!Number.isNaN(x)) out[i] = (Number.isNaN(out[i]!) ? 0 : out[i]!) + x * scale;
      });
    }
  }
  return new RealTables({ AUS: combined }, 'AUS');
}
