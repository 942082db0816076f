import { categoryIndex } from '../synthesis/census/variables.ts';
import { gcpColumns, gcpPartsOf, gcpVocabulary } from '../synthesis/census/gcp/cells.ts';
import { REAL_TABLE_VALUES } from './calibration.generated.ts';

/**
 * The real national and state tables the demo's truth model is calibrated to (ABS 2021 Census
 * GCP DataPack, census/2021-gcp; extracted into calibration.generated.ts), read by what each
 * column counts — the synthesizer's own cell definitions from the ABS long headers
 * (src/synthesis/census/gcp) — rather than by short header, whose spelling the ABS varies.
 */

/** "AUS", or a state's ABS code: 1 NSW … 8 ACT, 9 Other Territories. */
export type CalibrationArea = 'AUS' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
export const CALIBRATION_AREAS: readonly CalibrationArea[] = ['AUS', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
/** Age by sex, marital status, income, relationship in household, families, household size, labour force. */
export const CALIBRATION_TABLES = ['G04', 'G05', 'G17', 'G27', 'G29', 'G35', 'G46'] as const;

/** Area → table → values in the metadata's column order (NaN: not published). */
export type RealTableValues = Readonly<Record<string, Readonly<Record<string, readonly number[]>>>>;

/** The oldest age the demo gives anyone; the ABS's open "100 years and over" is spread over 100‥MAX_AGE. */
export const MAX_AGE = 104;
export const AGES = MAX_AGE + 1;
/** G27's age bands (0-14, 15-24, … 85+): the bands of relationship in household. */
export const ROLE_BANDS: readonly (readonly [number, number])[] = [[0, 14], [15, 24], [25, 34], [35, 44], [45, 54], [55, 64], [65, 74], [75, 84], [85, 115]];
/** G05, G17 and G46's age bands (15-19, 20-24, 25-34, … 85+) for persons aged 15 and over. */
export const ADULT_BANDS: readonly (readonly [number, number])[] = [[15, 19], [20, 24], [25, 34], [35, 44], [45, 54], [55, 64], [65, 74], [75, 84], [85, 115]];

export const roleBandOf = (age: number): number => (age < 15 ? 0 : Math.min(8, Math.floor((age - 5) / 10)));
export const adultBandOf = (age: number): number => (age < 20 ? 0 : age < 25 ? 1 : Math.min(8, Math.floor((age - 5) / 10)));

/** Relationship in household categories (RLHP 0‥9) the demo draws: every one but visitors and not applicable. */
export const ROLES = 10;
/** Registered marital status (MSTP 0‥4): never married, widowed, divorced, separated, married. */
export const MARITAL = 5;
/** Personal income bands (INCP 0‥14: nil/negative … $3,500 or more); INCP 15 is "not stated". */
export const INCOME_BANDS = 15;
/** Labour force status (LFSP 0‥7), not stated included. */
export const LABOUR = 8;

type Where = Readonly<Record<string, readonly number[]>>;

const keyOf = (where: Where, age: readonly [number, number] | undefined, members: boolean) =>
  [...Object.entries(where)]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([v, cats]) => `${v}=${[...cats].sort((x, y) => x - y).join(',')}`)
    .join('&') + `|${age ? age.join('-') : ''}|${members ? 'members' : ''}`;

const COLUMN_INDEX = new Map<string, Map<string, number>>();

/** Key of a column definition → its position among the table's values. */
function columnIndex(table: string): Map<string, number> {
  let index = COLUMN_INDEX.get(table);
  if (index) return index;
  index = new Map();
  // The table's own population (G35: occupied private dwellings) is in every column's definition;
  // callers name only what tells the columns apart.
  const population = gcpVocabulary(table)?.where ?? {};
  for (const [i, c] of gcpPartsOf(table).flatMap((p) => gcpColumns(p)).entries()) {
    if (!c.cell) continue;
    const same = (v: string, cats: readonly number[]) => population[v] !== undefined && population[v]!.length === cats.length && population[v]!.every((x, k) => x === cats[k]);
    const own = Object.fromEntries(Object.entries(c.cell.where).filter(([v, cats]) => !same(v, cats)));
    const members = c.cell.count === 'members';
    index.set(keyOf(c.cell.where, c.cell.age, members), i);
    const short = keyOf(own, c.cell.age, members);
    if (!index.has(short)) index.set(short, i);
  }
  COLUMN_INDEX.set(table, index);
  return index;
}

/** One area's real tables. */
export class RealTables {
  constructor(
    private readonly values: RealTableValues,
    readonly area: CalibrationArea,
  ) {}

  /**
   * The count of the one column that counts exactly `where` (and `age`); NaN when the ABS does
   * not publish it. A definition no column has is a programming error.
   */
  count(table: string, where: Where, age?: readonly [number, number], members = false): number {
    const at = columnIndex(table).get(keyOf(where, age, members));
    const row = this.values[this.area]?.[table];
    if (at === undefined || !row) throw new Error(`${table} has no column counting ${keyOf(where, age, members)} for ${this.area}`);
    return row[at]!;
  }

  /**
   * A count where the ABS's ".." marks a structurally impossible cell (partners aged 0–14 in
   * G27, one-person family households in G35): nobody is counted there, so the model has
   * nobody there. Used only for such cells; anywhere else a missing value stays NaN.
   */
  impossibleAsNone(table: string, where: Where, age?: readonly [number, number]): number {
    const n = this.count(table, where, age);
    return Number.isNaN(n) ? 0 : n;
  }

  /** Persons by single year of age 0‥MAX_AGE (G04), [male, female]; five-year groups from 80 spread evenly. */
  ageBySex(): [Float64Array, Float64Array] {
    return [0, 1].map((sex) => {
      const out = new Float64Array(AGES);
      for (let a = 0; a < 80; a++) out[a] = this.count('G04', { SEXP: [sex] }, [a, a]);
      for (const [lo, hi] of [[80, 84], [85, 89], [90, 94], [95, 99], [100, 115]] as const) {
        const n = this.count('G04', { SEXP: [sex] }, [lo, hi]);
        const top = Math.min(hi, MAX_AGE);
        for (let a = lo; a <= top; a++) out[a] = n / (top - lo + 1);
      }
      return out;
    }) as [Float64Array, Float64Array];
  }

  /**
   * Persons in occupied private dwellings by relationship in household (RLHP 0‥9), G27 age band
   * and sex: [role][band][sex]. Visitors are left out (the demo's residents are all at home).
   */
  rolesByAge(): number[][][] {
    return Array.from({ length: ROLES }, (_, role) =>
      ROLE_BANDS.map((band) => [0, 1].map((sex) => this.impossibleAsNone('G27', { RLHP: [role], SEXP: [sex] }, band))),
    );
  }

  /** Families (G29) by composition FMCF 0‥5, and the persons in them. */
  families(): { readonly byType: number[]; readonly byTypeMembers: number[] } {
    return {
      byType: Array.from({ length: 6 }, (_, t) => this.count('G29', { FMCF: [t] })),
      byTypeMembers: Array.from({ length: 6 }, (_, t) => this.count('G29', { FMCF: [t] }, undefined, true)),
    };
  }

  /** Households (G35) by persons usually resident 1‥5 and 6 or more: family and non-family. */
  householdSizes(): { readonly family: number[]; readonly nonFamily: number[] } {
    const sizes = [[0], [1], [2], [3], [4], [5, 6, 7]];
    return {
      family: sizes.map((s) => this.impossibleAsNone('G35', { NPRD: s, HHCD: [0] })),
      nonFamily: sizes.map((s) => this.count('G35', { NPRD: s, HHCD: [1, 2] })),
    };
  }

  /** Persons aged 15+ by registered marital status (MSTP 0‥4), adult band and sex (G05): [band][sex][status]. */
  maritalByAge(): number[][][] {
    return ADULT_BANDS.map((band) => [0, 1].map((sex) => Array.from({ length: MARITAL }, (_, m) => this.count('G05', { MSTP: [m], SEXP: [sex] }, band))));
  }

  /**
   * Persons aged 15+ by weekly personal income (G17): [band][sex][INCP 0‥14, then not stated].
   */
  incomeByAge(): number[][][] {
    const notStated = categoryIndex('INCP', 'Not stated');
    return ADULT_BANDS.map((band) =>
      [0, 1].map((sex) => [...Array.from({ length: INCOME_BANDS }, (_, k) => this.count('G17', { INCP: [k], SEXP: [sex] }, band)), this.count('G17', { INCP: [notStated], SEXP: [sex] }, band)]),
    );
  }

  /** Persons aged 15+ by labour force status LFSP 0‥7 (G46): [band][sex][status]. */
  labourForceByAge(): number[][][] {
    return ADULT_BANDS.map((band) => [0, 1].map((sex) => Array.from({ length: LABOUR }, (_, k) => this.count('G46', { LFSP: [k], SEXP: [sex] }, band))));
  }
}

/** The committed real tables of an area. */
export const realTables = (area: CalibrationArea, values: RealTableValues = REAL_TABLE_VALUES): RealTables => new RealTables(values, area);
