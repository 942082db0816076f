/**
 * Prior shapes for what the GCP tables leave out: how a category varies with age (G46 gives
 * labour force status by sex only, so without a prior a 90-year-old is as likely to work
 * full-time as a 30-year-old), and the distribution of variables no input table carries
 * (hours worked, English proficiency, long-term conditions, unpaid assistance).
 *
 * The numbers are rough national shapes read off published 2021 Census summaries (rounded,
 * a few per cent at best). They only shape the joint: wherever a table exists, the dealt
 * counts still equal the table's, because the prior is raked to its margins (fit.ts). Rows
 * are classes, columns categories in catalogue order; a 0 is a structural zero. The controls'
 * rows (controls.ts) name them by PRIORS, at the end of this file.
 */
import { ABS_CODE_ORDER, categoryIndex, inCatalogueOrder, variableByCode } from '../variables.ts';

/** A prior over a target's categories for classes of units (weight 0 = impossible). */
export interface ClassPrior {
  /** Class of each unit (only read for units in a stratum). */
  readonly classOf: Uint8Array | Int32Array;
  readonly classes: number;
  /** Weight of category `category` for class `cls` (any non-negative scale). */
  weight(cls: number, category: number): number;
}

/** Age bands of the priors: index by single-year age. */
export const PRIOR_BANDS: readonly (readonly [number, number])[] = [
  [0, 4], [5, 9], [10, 14], [15, 19], [20, 24], [25, 34], [35, 44], [45, 54], [55, 64], [65, 74], [75, 84], [85, 115],
];
const BAND_OF_AGE = (() => {
  const out = new Uint8Array(116);
  PRIOR_BANDS.forEach(([lo, hi], b) => { for (let a = lo; a <= hi; a++) out[a] = b; });
  return out;
})();

export function bandOf(age: Uint8Array): Uint8Array {
  const out = new Uint8Array(age.length);
  for (let i = 0; i < age.length; i++) out[i] = BAND_OF_AGE[Math.min(age[i]!, 115)]!;
  return out;
}

/** A prior from a class × category matrix (rows given for some classes; missing rows = all zero). */
export function matrixPrior(classOf: Uint8Array | Int32Array, rows: readonly (readonly number[] | undefined)[]): ClassPrior {
  return {
    classOf,
    classes: rows.length,
    weight: (cls, k) => rows[cls]?.[k] ?? 0,
  };
}

/** Rows for the adult bands 15-19 … 85+ (bands 3‥11); children get no row. */
const adult = (...rows: (readonly number[])[]): (readonly number[] | undefined)[] => [undefined, undefined, undefined, ...rows];

// LFSP: FT, PT, away, hours n.s., unemployed FT, unemployed PT, not in LF, n.s., n/a
export const LFSP_BY_AGE = adult(
  [8, 30, 3, 1, 3, 5, 48, 2, 0],
  [35, 30, 4, 1, 4, 3, 20, 3, 0],
  [55, 18, 5, 1, 3, 2, 13, 3, 0],
  [52, 22, 5, 1, 2, 2, 13, 3, 0],
  [52, 20, 5, 1, 2, 2, 15, 3, 0],
  [38, 18, 4, 1, 2, 1, 33, 3, 0],
  [7, 8, 2, 0.5, 0.5, 0.5, 79, 3, 0],
  [1, 2, 0.5, 0.2, 0.05, 0.05, 93, 3, 0],
  [0.3, 0.5, 0.2, 0.05, 0.01, 0.01, 95, 4, 0],
);

// MSTP: never married, widowed, divorced, separated, married, n/a
export const MSTP_BY_AGE = adult(
  [99, 0.01, 0.05, 0.1, 1, 0],
  [90, 0.02, 0.5, 0.5, 9, 0],
  [55, 0.2, 2, 2, 41, 0],
  [25, 0.5, 7, 4, 63, 0],
  [15, 1.5, 13, 5, 65, 0],
  [10, 4, 16, 4, 66, 0],
  [6, 10, 14, 3, 67, 0],
  [4, 30, 9, 2, 55, 0],
  [4, 60, 5, 1, 30, 0],
);

/** Rows written in the ABS's code order (highest level first), put in catalogue order (low to high). */
const inAbsOrder =
  (code: keyof typeof ABS_CODE_ORDER) =>
  (...rows: (readonly number[])[]): (readonly number[])[] =>
    rows.map((row) => inCatalogueOrder(code, ABS_CODE_ORDER[code], row));

// HSCP (ABS order): Y12, Y11, Y10, Y9, Y8 or below, did not go to school, n.s., n/a
export const HSCP_BY_AGE = adult(...inAbsOrder('HSCP')(
  [25, 25, 35, 10, 2, 0.3, 3, 0],
  [80, 6, 8, 2, 1, 0.3, 3, 0],
  [78, 5, 10, 2, 1, 0.5, 3, 0],
  [70, 6, 15, 3, 2, 0.5, 3, 0],
  [55, 8, 25, 5, 3, 0.5, 4, 0],
  [45, 8, 28, 8, 6, 0.5, 5, 0],
  [35, 7, 28, 12, 12, 1, 6, 0],
  [25, 5, 22, 15, 25, 1, 7, 0],
  [20, 4, 18, 15, 33, 2, 8, 0],
));

// HEAP (ABS order): postgrad, grad dip, bachelor, adv dip, certificate, sec 10+, sec 9-, none, inadequate, n.s., n/a
export const HEAP_BY_AGE = adult(...inAbsOrder('HEAP')(
  [0, 0, 0, 1, 6, 85, 5, 0.1, 0.5, 2, 0],
  [0.5, 0.3, 15, 7, 17, 55, 1, 0.1, 1, 3, 0],
  [8, 2, 25, 10, 18, 30, 2, 0.5, 1, 4, 0],
  [8, 3, 22, 10, 20, 30, 3, 0.5, 1, 4, 0],
  [6, 3, 17, 10, 22, 35, 4, 0.5, 1, 4, 0],
  [4, 3, 13, 9, 22, 38, 6, 0.5, 1, 5, 0],
  [3, 2, 10, 8, 20, 40, 10, 1, 1, 5, 0],
  [2, 1, 7, 6, 15, 42, 20, 1, 1, 5, 0],
  [1, 1, 5, 5, 10, 40, 30, 2, 1, 5, 0],
));

// ASSNP: has need, no need, n.s. (all ages)
export const ASSNP_BY_AGE: readonly (readonly number[])[] = [
  [1, 93, 6], [4, 90, 6], [4, 90, 6], [2.5, 91, 6.5], [2, 91, 7], [2, 91, 7], [2.5, 91, 6.5], [3.5, 90, 6.5],
  [5, 89, 6], [7, 87, 6], [17, 77, 6], [45, 48, 7],
];

// VOLWP: volunteer, not a volunteer, n.s., n/a
export const VOLWP_BY_AGE = adult(
  [18, 75, 7, 0], [11, 82, 7, 0], [11, 82, 7, 0], [15, 78, 7, 0], [15, 78, 7, 0], [19, 74, 7, 0], [19, 74, 7, 0], [15, 77, 8, 0], [9, 82, 9, 0],
);

// LTHP (no table): none, one, two, three or more, n.s.
export const LTHP_BY_AGE: readonly (readonly number[])[] = [
  [92, 5, 0.5, 0.2, 2.3], [88, 8, 1.5, 0.5, 2], [86, 10, 2, 0.5, 1.5], [78, 14, 4, 1.5, 2.5], [74, 16, 5, 2, 3],
  [72, 17, 5, 2, 4], [68, 19, 6, 3, 4], [60, 23, 9, 4, 4], [50, 27, 12, 7, 4], [38, 30, 16, 11, 5], [27, 30, 20, 17, 6], [22, 28, 22, 21, 7],
];

// UAI5P (no table): provided, not provided, n.s., n/a
export const UAI5P_BY_AGE = adult(
  [7, 86, 7, 0], [8, 85, 7, 0], [10, 83, 7, 0], [11, 82, 7, 0], [15, 78, 7, 0], [17, 76, 7, 0], [13, 80, 7, 0], [10, 82, 8, 0], [8, 83, 9, 0],
);

/** TYPP's own classes: single-year ages matter around school entry. */
export const TYPP_BANDS: readonly (readonly [number, number])[] = [
  [0, 2], [3, 4], [5, 5], [6, 11], [12, 12], [13, 15], [16, 17], [18, 24], [25, 34], [35, 64], [65, 115],
];
// TYPP: pre-school, infants/primary, secondary, TAFE, university, other, n.s., n/a
export const TYPP_BY_CLASS: readonly (readonly number[])[] = [
  [0, 0, 0, 0, 0, 0, 1, 99],
  [60, 0, 0, 0, 0, 0, 2, 38],
  [20, 75, 0, 0, 0, 0, 2, 3],
  // School is compulsory to 15 (and to 17 unless working or training): few of school age attend nothing.
  [0, 96, 0, 0, 0, 0, 3, 0.1],
  [0, 40, 56, 0, 0, 0, 3, 0.1],
  [0, 0, 94, 0.5, 0, 0.3, 3, 0.2],
  [0, 0, 82, 4, 1, 0.7, 3, 9],
  [0, 0, 2, 7, 35, 2, 3, 51],
  [0, 0, 0, 4, 8, 1, 3, 84],
  [0, 0, 0, 2, 3, 0.5, 3, 91.5],
  [0, 0, 0, 0.3, 0.3, 0.2, 4, 95],
];

/**
 * TYPP classes = TYPP_BANDS × (dependent student?): a dependent student is by definition a
 * full-time student, so "Not applicable" (not attending) is a structural zero for them.
 */
export function typpPrior(age: Uint8Array, rlhp: Uint8Array | undefined): ClassPrior {
  const student = categoryIndex('RLHP', 'Dependent student (aged 15-24 years)');
  const na = categoryIndex('TYPP', 'Not applicable');
  const bands = classesOfBands(age, TYPP_BANDS);
  const cls = Uint8Array.from(bands, (b, i) => b + (rlhp && rlhp[i] === student ? TYPP_BANDS.length : 0));
  const attending = TYPP_BY_CLASS.map((row) => row.map((w, k) => (k === na ? 0 : w)));
  return matrixPrior(cls, [...TYPP_BY_CLASS, ...attending]);
}

export function classesOfBands(age: Uint8Array, bands: readonly (readonly [number, number])[]): Uint8Array {
  const lookup = new Uint8Array(116);
  bands.forEach(([lo, hi], b) => { for (let a = lo; a <= Math.min(hi, 115); a++) lookup[a] = b; });
  const out = new Uint8Array(age.length);
  for (let i = 0; i < age.length; i++) out[i] = lookup[Math.min(age[i]!, 115)]!;
  return out;
}

const LFSP = (label: string) => categoryIndex('LFSP', label);
const HRSP_CATS = variableByCode('HRSP').categories.length;
/** HRSP given LFSP (no table): full-time means 35+ hours, part-time 1–34, away from work none. */
export function hrspPrior(lfsp: Uint8Array): ClassPrior {
  const rows: number[][] = Array.from({ length: variableByCode('LFSP').categories.length }, () => new Array<number>(HRSP_CATS).fill(0));
  rows[LFSP('Employed, worked full-time')] = [0, 0, 0, 0, 30, 35, 17, 18, 0, 0];
  rows[LFSP('Employed, worked part-time')] = [0, 38, 32, 30, 0, 0, 0, 0, 0, 0];
  rows[LFSP('Employed, away from work')] = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  rows[LFSP('Employed, hours of work not stated')] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 0];
  return matrixPrior(lfsp, rows);
}

/** ENGLP given LANP (no table): English-only speakers are "Not applicable". */
export function englpPrior(lanp: Uint8Array): ClassPrior {
  const n = variableByCode('LANP').categories.length;
  const rows: number[][] = [];
  // ABS order: very well, well, not well, not at all, not stated, n/a.
  const [other, englishOnly, notStated] = inAbsOrder('ENGLP')([60, 24, 11, 3, 2, 0], [0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 1, 0]);
  for (let k = 0; k < n; k++) rows.push([...other!]);
  rows[categoryIndex('LANP', 'English only')] = [...englishOnly!];
  rows[categoryIndex('LANP', 'Not stated')] = [...notStated!];
  return matrixPrior(lanp, rows);
}

/**
 * INGP by age band (PRIOR_BANDS): G01 counts Indigenous persons by sex only, but the Indigenous
 * population is young (5.9% of children under 5, 1.1% of persons 65 and over), and dealt
 * without age Indigenous parents found too few Indigenous children. Persons non-Indigenous,
 * Indigenous and not stated by age: G07, Australia, 2021 (65 and over one group there); the
 * Indigenous split into Aboriginal, Torres Strait Islander and both as G01 (Australia): 742,882,
 * 33,765 and 36,083.
 */
export const INGP_BY_AGE: readonly (readonly number[])[] = (() => {
  const byBand: readonly (readonly [number, number, number])[] = [
    [1315352, 85941, 62519],
    [1421484, 89137, 75513],
    [1423529, 90473, 74053],
    [1311714, 79501, 66593],
    [1427477, 70555, 81509],
    [3310519, 117974, 196265],
    [3227094, 87912, 172665],
    [3012023, 81808, 153088],
    [2812530, 61758, 135730],
    [4114233, 47677, 216178],
    [4114233, 47677, 216178],
    [4114233, 47677, 216178],
  ];
  const split = [742882, 33765, 36083];
  const indigenous = split.reduce((a, b) => a + b, 0);
  return byBand.map(([non, ind, ns]) => [non, ...split.map((x) => (ind * x) / indigenous), ns]);
})();

/** Shares of the birthplace regions among the overseas-born (G01 lumps them). */
export const BPLP_OVERSEAS_SHARES = [0, 9, 22, 10, 6, 13, 14, 16, 5, 5, 0];
/** Shares of the language groups among persons speaking another language at home (G01 lumps them). */
export const LANP_OTHER_SHARES = [0, 3, 12, 5, 13, 17, 14, 25, 1, 10, 0];

/** CITP given birthplace (Australia / overseas / not stated): G01 counts citizens only. */
export function citpPrior(bplp: Uint8Array): ClassPrior {
  const australia = categoryIndex('BPLP', 'Australia');
  const notStated = categoryIndex('BPLP', 'Not stated');
  const cls = new Uint8Array(bplp.length);
  for (let i = 0; i < bplp.length; i++) cls[i] = bplp[i] === australia ? 0 : bplp[i] === notStated ? 2 : 1;
  return matrixPrior(cls, [[98.5, 1, 0.5], [62, 36, 2], [60, 10, 30]]);
}

/**
 * LANP given birthplace, Indigenous status and remoteness: most Australian-born speak English
 * only at home; Indigenous languages are spoken by Indigenous persons, and in remote and very
 * remote areas by about half of them (2021 Census), elsewhere by a few per cent.
 */
export function lanpPrior(bplp: Uint8Array, ingp: Uint8Array, remote: boolean): ClassPrior {
  const australia = categoryIndex('BPLP', 'Australia');
  const nonIndigenous = categoryIndex('INGP', 'Non-Indigenous');
  const notStated = categoryIndex('INGP', 'Not stated');
  const cls = new Uint8Array(bplp.length);
  for (let i = 0; i < bplp.length; i++) {
    const indigenous = ingp[i] !== nonIndigenous && ingp[i] !== notStated;
    cls[i] = indigenous ? 2 : bplp[i] === australia ? 0 : 1;
  }
  const indigenousLanguage = categoryIndex('LANP', 'Australian Indigenous languages');
  const other = (englishOnly: number, ns: number) => [englishOnly, ...LANP_OTHER_SHARES.slice(1, 10).map((s, k) => (k + 1 === indigenousLanguage ? 0.02 : s / 4)), ns];
  // Outside remote areas about 2% of Indigenous persons speak an Indigenous language at home and
  // a few per cent another language (2021 Census), about as often as other Australian-born.
  const indigenousRow = LANP_OTHER_SHARES.map((_, k) => (k === 0 ? (remote ? 45 : 92) : k === indigenousLanguage ? (remote ? 50 : 2) : k === 10 ? 3 : remote ? 0.05 : 0.3));
  return matrixPrior(cls, [other(92, 2), other(40, 3), indigenousRow]);
}

// RELP by birthplace region (BPLP order; rows: Buddhism, Christianity, Hinduism, Islam, Judaism,
// other religions, secular/no religion, not stated), rough 2021 Census shapes: Hinduism and
// Sikhism from Southern Asia, Islam from the Middle East, Buddhism from South-East and East Asia,
// no religion most common among the Australian- and East Asian-born.
const RELP_BY_REGION: readonly (readonly number[])[] = [
  [0.7, 42, 0.5, 1.3, 0.3, 0.8, 47, 7],
  [0.5, 55, 3, 0.5, 0.1, 1, 35, 5],
  [0.3, 50, 0.1, 0.3, 0.5, 0.7, 43, 5],
  [0.2, 75, 0.1, 3, 0.5, 0.5, 17, 4],
  [0.1, 40, 0.5, 45, 3, 2, 7, 3],
  [25, 45, 0.5, 5, 0, 0.7, 21, 3],
  [14, 22, 0.1, 0.2, 0, 1.5, 59, 3],
  [3, 14, 45, 14, 0, 15, 6, 3],
  [0.8, 55, 0.3, 0.5, 1.5, 1, 38, 3],
  [0.2, 70, 4, 6, 1.5, 0.6, 15, 3],
  [1, 30, 1, 2, 0.2, 1, 25, 40],
];
/** RELP given birthplace region: G14 is by sex only, so without this religion and birthplace would be independent. */
export function relpPrior(bplp: Uint8Array): ClassPrior {
  return matrixPrior(bplp, RELP_BY_REGION);
}

/** MSTP classes = age band × (registered marriage? 1 : 0): a registered partner is "Married". */
/** The age from which persons marry without a court's approval (Marriage Act 1961). */
const ADULT_MARRIAGE_AGE = 18;

export function mstpPrior(age: Uint8Array, mdcp: Uint8Array | undefined): ClassPrior {
  const registered = categoryIndex('MDCP', 'Married in a registered marriage');
  const married = categoryIndex('MSTP', 'Married');
  const band = bandOf(age);
  const bands = PRIOR_BANDS.length;
  const neverMarried = categoryIndex('MSTP', 'Never married');
  const minors = 2 * bands;
  const cls = new Uint8Array(age.length);
  for (let i = 0; i < age.length; i++) {
    const under18 = age[i]! < ADULT_MARRIAGE_AGE;
    cls[i] = mdcp && mdcp[i] === registered ? band[i]! + bands : under18 ? minors : band[i]!;
  }
  const rows = [
    ...MSTP_BY_AGE,
    ...MSTP_BY_AGE.map((row) => (row ? row.map((_, k) => (k === married ? 1 : 0)) : undefined)),
    // 15–17: never married (marriage under 18 needs a court's approval and is all but unknown).
    MSTP_BY_AGE[3]!.map((_, k) => (k === neverMarried ? 1 : 0)),
  ];
  return matrixPrior(cls, rows);
}

// STRD by NPRD (one person … eight or more): house, semi 1 storey, semi 2+, flat 1–2, flat 3,
// flat 4–8, flat 9+, flat attached to a house, other, n.s. Lone persons live in flats far more often.
export const STRD_BY_SIZE: readonly (readonly number[])[] = [
  [45, 6, 6, 13, 6, 8, 7, 1, 3, 5],
  [64, 5, 6, 7, 3, 5, 4, 0.7, 2.3, 3],
  [74, 4, 6, 4, 2, 3, 2.5, 0.5, 1.5, 2.5],
  [80, 3, 6, 2.5, 1, 2, 1.5, 0.3, 1.2, 2.5],
  [83, 2.5, 5, 2, 0.8, 1.5, 1, 0.3, 1.4, 2.5],
  [84, 2.5, 4.5, 1.8, 0.7, 1.3, 0.8, 0.3, 1.6, 2.5],
  [84, 2.5, 4.5, 1.8, 0.7, 1.3, 0.8, 0.3, 1.6, 2.5],
  [84, 2.5, 4.5, 1.8, 0.7, 1.3, 0.8, 0.3, 1.6, 2.5],
];

/**
 * TEND by the household's oldest member (under 35, 35–54, 55–69, 70+) × whether the dwelling is
 * a flat or apartment: outright owners are older, renters younger and more often in flats.
 * Categories: owned outright, mortgage, rented, other, n.s.
 */
const TEND_BY_AGE: readonly (readonly number[])[] = [
  [5, 33, 62, 2, 4],
  [17, 50, 33, 2, 4],
  [52, 24, 24, 2, 4],
  [75, 7, 18, 2, 4],
];
const TEND_FLAT_FACTOR = [0.8, 0.7, 1.6, 1, 1];
/**
 * TEND by weekly household income (under $800, $800–2,499, $2,500 or more): mortgages go with
 * higher incomes, renting with lower (2021 Census: mortgagor households' median weekly income is
 * about twice renters'). Outright owners are mostly older and on modest incomes; age covers them.
 */
const TEND_INCOME_FACTOR: readonly (readonly number[])[] = [
  [1, 0.35, 1.5, 1, 1],
  [1, 1, 1, 1, 1],
  [1, 1.7, 0.6, 1, 1],
];
const incomeClassOf = (weekly: number): number => (weekly < 800 ? 0 : weekly < 2500 ? 1 : 2);

export function tendPrior(oldest: Int32Array, flat: Uint8Array, weeklyIncome: ArrayLike<number>): ClassPrior {
  const incomes = TEND_INCOME_FACTOR.length;
  const cls = new Uint8Array(oldest.length);
  for (let d = 0; d < cls.length; d++) {
    const a = oldest[d]!;
    cls[d] = ((a < 35 ? 0 : a < 55 ? 1 : a < 70 ? 2 : 3) * 2 + (flat[d] ? 1 : 0)) * incomes + incomeClassOf(weeklyIncome[d]!);
  }
  const rows = TEND_BY_AGE.flatMap((row) =>
    [row, row.map((w, k) => w * TEND_FLAT_FACTOR[k]!)].flatMap((byAge) => TEND_INCOME_FACTOR.map((factor) => byAge.map((w, k) => w * factor[k]!))),
  );
  return matrixPrior(cls, rows);
}

/**
 * INDP given OCCP: G54 and G60 are by sex only, so without a link any occupation meets any
 * industry. Each occupation group gets a baseline of 1 for every industry and 6 for the
 * industries where most of its workers are (ANZSCO × ANZSIC, 2021 national picture).
 */
const INDUSTRY_OF_OCCUPATION: Readonly<Record<string, readonly string[]>> = {
  Managers: ['Agriculture, Forestry and Fishing', 'Retail Trade', 'Professional, Scientific and Technical Services', 'Public Administration and Safety', 'Accommodation and Food Services'],
  Professionals: ['Health Care and Social Assistance', 'Education and Training', 'Professional, Scientific and Technical Services', 'Financial and Insurance Services'],
  'Technicians and Trades Workers': ['Construction', 'Manufacturing', 'Other Services', 'Electricity, Gas, Water and Waste Services'],
  'Community and Personal Service Workers': ['Health Care and Social Assistance', 'Accommodation and Food Services', 'Education and Training', 'Public Administration and Safety'],
  'Clerical and Administrative Workers': ['Public Administration and Safety', 'Financial and Insurance Services', 'Health Care and Social Assistance', 'Administrative and Support Services'],
  'Sales Workers': ['Retail Trade', 'Wholesale Trade', 'Rental, Hiring and Real Estate Services'],
  'Machinery Operators and Drivers': ['Transport, Postal and Warehousing', 'Mining', 'Manufacturing', 'Construction'],
  Labourers: ['Manufacturing', 'Construction', 'Agriculture, Forestry and Fishing', 'Accommodation and Food Services', 'Administrative and Support Services'],
};
export function indpPrior(occp: Uint8Array): ClassPrior {
  const occupations = variableByCode('OCCP').categories;
  const industries = variableByCode('INDP').categories;
  const notStated = categoryIndex('INDP', 'Inadequately described/Not stated');
  const rows = occupations.map((occupation) => {
    const favoured = new Set((INDUSTRY_OF_OCCUPATION[occupation] ?? []).map((l) => categoryIndex('INDP', l)));
    const na = occupation === 'Not applicable';
    const stated = occupation !== 'Inadequately described/Not stated';
    return industries.map((label, k) => {
      if (label === 'Not applicable') return na ? 1 : 0;
      if (na) return 0;
      if (k === notStated) return stated ? 0.3 : 6;
      return favoured.has(k) ? 6 : 1;
    });
  });
  return matrixPrior(occp, rows);
}

/**
 * HEAP classes = age band × occupation: how much more (or less) likely each qualification level
 * is for an occupation than for the population of the same age. In 2021 about four in five
 * professionals held a bachelor degree or higher, a third of managers, a fifth of clerical
 * workers and few labourers or drivers; trades workers mostly hold certificates. G49 and G60 are
 * both by sex only, so without these factors qualification and occupation would pair at random.
 * Columns in the ABS's order: postgraduate, graduate diploma, bachelor, advanced diploma,
 * certificate, secondary 10+, secondary 9−, none, inadequately described, not stated, n/a.
 */
const HEAP_FACTOR_BY_OCCUPATION_ABS_ORDER: Readonly<Record<string, readonly number[]>> = {
  Managers: [1.4, 1.4, 1.3, 1.4, 0.9, 0.8, 0.5, 0.3, 1, 1, 1],
  Professionals: [3, 3, 2.6, 1, 0.35, 0.2, 0.08, 0.08, 1, 1, 1],
  'Technicians and Trades Workers': [0.15, 0.2, 0.3, 1, 3, 0.8, 0.6, 0.5, 1, 1, 1],
  'Community and Personal Service Workers': [0.4, 0.8, 0.8, 1.3, 1.8, 0.9, 0.6, 0.5, 1, 1, 1],
  'Clerical and Administrative Workers': [0.6, 0.9, 1, 1.4, 1.2, 1, 0.6, 0.4, 1, 1, 1],
  'Sales Workers': [0.2, 0.3, 0.6, 0.8, 0.9, 1.4, 0.8, 0.6, 1, 1, 1],
  'Machinery Operators and Drivers': [0.1, 0.1, 0.2, 0.4, 1.3, 1.4, 1.6, 1.2, 1, 1, 1],
  Labourers: [0.1, 0.15, 0.3, 0.4, 1, 1.4, 1.8, 1.5, 1, 1, 1],
};
const HEAP_FACTOR_BY_OCCUPATION = Object.fromEntries(
  Object.entries(HEAP_FACTOR_BY_OCCUPATION_ABS_ORDER).map(([occupation, row]) => [occupation, inCatalogueOrder('HEAP', ABS_CODE_ORDER.HEAP, row)]),
);
export function heapPrior(age: Uint8Array, occp: Uint8Array): ClassPrior {
  const band = bandOf(age);
  const occupations = variableByCode('OCCP').categories;
  const groups = occupations.length;
  const cls = Int32Array.from(band, (b, i) => b * groups + occp[i]!);
  const rows = HEAP_BY_AGE.flatMap((row) =>
    occupations.map((label) => {
      const factor = HEAP_FACTOR_BY_OCCUPATION[label];
      return row?.map((w, k) => w * (factor?.[k] ?? 1));
    }),
  );
  return matrixPrior(cls, rows);
}

// OCCP by age (adult bands 15–19 … 85+): managers, professionals, technicians and trades,
// community and personal service, clerical and administrative, sales, machinery operators and
// drivers, labourers, inadequately described/not stated, n/a. Young workers are in sales,
// hospitality and labouring; professionals start after study.
const OCCP_BY_AGE = adult(
  [2, 4, 12, 20, 7, 35, 3, 16, 1, 0],
  [5, 14, 16, 17, 11, 17, 4, 14, 2, 0],
  [11, 29, 14, 11, 12, 7, 5, 9, 2, 0],
  [16, 28, 13, 10, 12, 6, 6, 8, 2, 0],
  [17, 24, 13, 10, 14, 6, 7, 8, 2, 0],
  [17, 22, 12, 10, 15, 6, 8, 9, 2, 0],
  [20, 22, 11, 10, 14, 7, 7, 8, 2, 0],
  [22, 22, 10, 10, 14, 8, 6, 7, 2, 0],
  [22, 22, 10, 10, 14, 8, 6, 7, 2, 0],
);
/** Per occupation, its weight for the lower, middle and upper third of the latent advantage. */
const OCCP_BY_ADVANTAGE: readonly (readonly [number, number, number])[] = [
  [0.6, 1, 1.4],
  [0.25, 0.8, 2.2],
  [1.2, 1.1, 0.7],
  [1.2, 1, 0.8],
  [0.9, 1.1, 1],
  [1.3, 1, 0.7],
  [1.6, 0.9, 0.4],
  [1.7, 0.9, 0.4],
  [1, 1, 1],
  [1, 1, 1],
];
/** OCCP classes = age band × third of the latent advantage (which also ranks schooling, qualification and income). */
export function occpPrior(age: Uint8Array, latent: Float64Array): ClassPrior {
  const band = bandOf(age);
  const sorted = Float64Array.from(latent).sort();
  const lower = sorted[Math.floor(sorted.length / 3)] ?? 0;
  const upper = sorted[Math.floor((2 * sorted.length) / 3)] ?? 0;
  const cls = Uint8Array.from(band, (b, i) => b * 3 + (latent[i]! < lower ? 0 : latent[i]! < upper ? 1 : 2));
  const rows = OCCP_BY_AGE.flatMap((row) => [0, 1, 2].map((third) => row?.map((w, k) => w * OCCP_BY_ADVANTAGE[k]![third]!)));
  return matrixPrior(cls, rows);
}

// ------------------------------------------------------------------ the priors by name

/**
 * What a prior classes its units by: the level's columns dealt so far, and for persons their
 * single-year age, its PRIOR_BANDS band, the latent advantage and whether the area is remote;
 * for dwellings the oldest resident's age, flat or not, and the household's weekly dollars.
 */
export interface PriorInputs {
  readonly columns: Readonly<Record<string, Uint8Array>>;
  readonly age?: Uint8Array;
  readonly band?: Uint8Array;
  readonly latent?: Float64Array;
  readonly remote?: boolean;
  readonly oldest?: Int32Array;
  readonly flat?: Uint8Array;
  readonly weeklyIncome?: ArrayLike<number>;
}

/** An input a prior cannot do without: a phase that names the prior but does not pass it is a bug. */
function needs<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`this prior needs ${what}`);
  return value;
}
const column = (x: PriorInputs, code: string): Uint8Array => needs(x.columns[code], `the ${code} column`);
const byBand = (rows: readonly (readonly number[] | undefined)[]) => (x: PriorInputs): ClassPrior => matrixPrior(needs(x.band, 'age bands'), rows);

/**
 * Every prior the controls (controls.ts) name, as a function of what it classes units by. The
 * name says the variable and its classes.
 */
export const PRIORS = {
  LFSP_BY_AGE: byBand(LFSP_BY_AGE),
  HRSP_BY_LFSP: (x: PriorInputs) => hrspPrior(column(x, 'LFSP')),
  OCCP_BY_AGE_AND_ADVANTAGE: (x: PriorInputs) => occpPrior(needs(x.age, 'ages'), needs(x.latent, 'the latent advantage')),
  INDP_BY_OCCP: (x: PriorInputs) => indpPrior(column(x, 'OCCP')),
  TYPP_BY_AGE_AND_STUDENT: (x: PriorInputs) => typpPrior(needs(x.age, 'ages'), x.columns.RLHP),
  HSCP_BY_AGE: byBand(HSCP_BY_AGE),
  HEAP_BY_AGE_AND_OCCP: (x: PriorInputs) => heapPrior(needs(x.age, 'ages'), column(x, 'OCCP')),
  MSTP_BY_AGE_AND_REGISTRATION: (x: PriorInputs) => mstpPrior(needs(x.age, 'ages'), x.columns.MDCP),
  INGP_BY_AGE: byBand(INGP_BY_AGE),
  CITP_BY_BIRTHPLACE: (x: PriorInputs) => citpPrior(column(x, 'BPLP')),
  LANP_BY_ORIGIN_AND_REMOTENESS: (x: PriorInputs) => lanpPrior(column(x, 'BPLP'), column(x, 'INGP'), needs(x.remote, 'remoteness')),
  ENGLP_BY_LANP: (x: PriorInputs) => englpPrior(column(x, 'LANP')),
  RELP_BY_BIRTHPLACE: (x: PriorInputs) => relpPrior(column(x, 'BPLP')),
  ASSNP_BY_AGE: byBand(ASSNP_BY_AGE),
  LTHP_BY_AGE: byBand(LTHP_BY_AGE),
  UAI5P_BY_AGE: byBand(UAI5P_BY_AGE),
  VOLWP_BY_AGE: byBand(VOLWP_BY_AGE),
  STRD_BY_SIZE: (x: PriorInputs) => matrixPrior(column(x, 'NPRD'), STRD_BY_SIZE),
  TEND_BY_AGE_FLAT_AND_INCOME: (x: PriorInputs) => tendPrior(needs(x.oldest, 'the oldest residents'), needs(x.flat, 'flats'), needs(x.weeklyIncome, 'household incomes')),
} as const satisfies Record<string, (x: PriorInputs) => ClassPrior>;
export type PriorName = keyof typeof PRIORS;

/** Shares over a variable's categories that split what a table lumps (weights of a uniform draw within a cell). */
export const CATEGORY_SHARES = { BPLP_OVERSEAS_SHARES } as const satisfies Record<string, readonly number[]>;
export type SharesName = keyof typeof CATEGORY_SHARES;
