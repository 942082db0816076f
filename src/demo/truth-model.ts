import type { Population } from '../synthesis/census/population.ts';
import { ABS_CODE_ORDER, age5pOfAge, agepOfAge, catalogueIndices, variablesOf } from '../synthesis/census/variables.ts';
import type { Rng } from '../synthesis/synthesizer/rng.ts';
import { attainmentWeights } from './archetype-leans.ts';
import { drawIndex } from './cdf.ts';
import { drawChildAges } from './child-ages.ts';
import { buildDemoGeography, type DemoSuburb } from './geography.ts';
import { normalCdf, normalQuantile } from './normal.ts';
import type { Archetype } from './places.ts';
import { AGES, LABOUR, adultBandOf, roleBandOf, ROLE_BANDS } from './real-tables.ts';
import { createTruthModel, type SuburbParams, type TruthModel } from './truth-params.ts';

/** The model draws schooling, qualification and English in the ABS's code order (highest first); the catalogue lists them low to high. */
const FROM_ABS_ORDER = {
  HSCP: catalogueIndices('HSCP', ABS_CODE_ORDER.HSCP),
  HEAP: catalogueIndices('HEAP', ABS_CODE_ORDER.HEAP),
  ENGLP: catalogueIndices('ENGLP', ABS_CODE_ORDER.ENGLP),
};

/**
 * The hidden "truth" of the demo: a plausible linked population per suburb, drawn household by
 * household so that every structural rule holds by construction (partners of opposite sex in
 * 98% of couples, children at least 18 years younger than their parents, household income the
 * sum of its members' incomes, rent only for renters …). Calibrated to the real 2021 Census
 * tables of the suburb's state (calibration.ts, truth-params.ts): who lives alone, in a group,
 * as a partner, lone parent, child or relative, at what age and sex; household sizes and family
 * types; registered marital status, labour force status and income by age and sex. Suburbs
 * differ by archetype around those shares. What the calibration does not cover (birthplace,
 * language, religion, education, dwellings, rents …) is invented, shaped to look Australian.
 * Category indices follow src/synthesis/census/variables.ts.
 */

type Weights = readonly number[];
const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

const OVERSEAS: Readonly<Record<Archetype, number>> = { I: 0.45, M: 0.3, F: 0.35, R: 0.18, T: 0.1, X: 0.06 };
const INDIGENOUS: Readonly<Record<Archetype, number>> = { I: 0.012, M: 0.015, F: 0.03, R: 0.03, T: 0.07, X: 0.45 };
// Country-of-birth regions (BPLP 1‥9) for people born overseas.
const REGIONS: Readonly<Record<Archetype, Weights>> = {
  I: [0, 0.06, 0.16, 0.08, 0.06, 0.16, 0.22, 0.18, 0.06, 0.02],
  M: [0, 0.07, 0.22, 0.14, 0.05, 0.14, 0.18, 0.12, 0.05, 0.03],
  F: [0, 0.08, 0.12, 0.08, 0.1, 0.18, 0.12, 0.24, 0.04, 0.04],
  R: [0, 0.1, 0.45, 0.15, 0.03, 0.08, 0.06, 0.05, 0.05, 0.03],
  T: [0, 0.12, 0.35, 0.12, 0.04, 0.12, 0.08, 0.1, 0.04, 0.03],
  X: [0, 0.2, 0.35, 0.08, 0.03, 0.14, 0.06, 0.08, 0.04, 0.02],
};
// Language group (LANP 0‥9) by birth region (index = BPLP category).
const LANGUAGE_BY_REGION: readonly Weights[] = [
  // Australian-born non-Indigenous persons speak an Indigenous language very rarely (2021: ~0.05%).
  [0.95, 0.002, 0.01, 0.005, 0.01, 0.005, 0.005, 0.008, 0.0005, 0.002],
  [0.75, 0, 0, 0, 0, 0.03, 0.02, 0, 0, 0.2],
  [0.82, 0.14, 0, 0, 0, 0, 0, 0, 0, 0.04],
  [0.3, 0, 0.45, 0.23, 0, 0, 0, 0, 0, 0.02],
  [0.15, 0, 0, 0, 0.83, 0, 0, 0, 0, 0.02],
  [0.25, 0, 0, 0, 0, 0, 0.72, 0.02, 0, 0.01],
  [0.12, 0, 0, 0, 0, 0, 0.02, 0.85, 0, 0.01],
  [0.2, 0, 0, 0, 0.05, 0.74, 0, 0, 0, 0.01],
  [0.5, 0, 0.35, 0, 0, 0, 0, 0.02, 0, 0.13],
  [0.7, 0, 0, 0, 0.05, 0, 0, 0, 0, 0.25],
];
// Religion (RELP 0‥6) by birth region; RELP 7 = not stated is drawn separately.
const RELIGION_BY_REGION: readonly Weights[] = [
  [0.005, 0.44, 0.005, 0.01, 0.004, 0.01, 0.52],
  [0.01, 0.7, 0.05, 0.02, 0, 0.02, 0.2],
  [0.01, 0.45, 0.005, 0.01, 0.02, 0.01, 0.5],
  [0.005, 0.7, 0.005, 0.05, 0.01, 0.01, 0.22],
  [0.005, 0.3, 0.005, 0.55, 0.03, 0.01, 0.1],
  [0.3, 0.4, 0.01, 0.05, 0, 0.01, 0.23],
  [0.22, 0.2, 0.005, 0.005, 0, 0.02, 0.55],
  [0.05, 0.15, 0.5, 0.1, 0, 0.15, 0.05],
  [0.01, 0.6, 0.01, 0.01, 0.02, 0.01, 0.34],
  [0.01, 0.75, 0.01, 0.1, 0.02, 0.01, 0.1],
];
// Dwelling structure (STRD 0‥8) by archetype; STRD 9 = not stated drawn separately.
const STRUCTURE: Readonly<Record<Archetype, Weights>> = {
  I: [0.12, 0.08, 0.12, 0.16, 0.12, 0.18, 0.2, 0.01, 0.01],
  M: [0.62, 0.08, 0.1, 0.12, 0.04, 0.03, 0.005, 0.005, 0.005],
  F: [0.86, 0.04, 0.05, 0.03, 0.005, 0.005, 0, 0.005, 0.01],
  R: [0.7, 0.08, 0.05, 0.08, 0.02, 0.01, 0.005, 0.005, 0.05],
  T: [0.82, 0.05, 0.02, 0.06, 0.01, 0.005, 0, 0.01, 0.025],
  X: [0.72, 0.05, 0.01, 0.04, 0.005, 0, 0, 0.02, 0.15],
};
const RENT_MEDIAN: Readonly<Record<Archetype, number>> = { I: 480, M: 450, F: 420, R: 380, T: 300, X: 160 };
const MORTGAGE_MEDIAN: Readonly<Record<Archetype, number>> = { I: 2600, M: 2400, F: 2100, R: 1700, T: 1500, X: 1300 };
// Method of travel to work (MTWP 0‥12, 13 worked at home, 14 did not go) by archetype.
const TRAVEL: Readonly<Record<Archetype, Weights>> = {
  I: [0.12, 0.07, 0.005, 0.05, 0.01, 0.32, 0.02, 0.003, 0.005, 0.04, 0.01, 0.08, 0.03, 0.16, 0.07],
  M: [0.07, 0.04, 0.002, 0.02, 0.005, 0.5, 0.03, 0.005, 0.005, 0.015, 0.01, 0.03, 0.02, 0.16, 0.08],
  F: [0.05, 0.02, 0, 0.005, 0.005, 0.64, 0.04, 0.01, 0.005, 0.005, 0.01, 0.015, 0.02, 0.09, 0.08],
  R: [0.01, 0.01, 0, 0, 0.005, 0.6, 0.04, 0.01, 0.01, 0.01, 0.01, 0.04, 0.01, 0.12, 0.11],
  T: [0.002, 0.005, 0, 0, 0.005, 0.65, 0.05, 0.02, 0.01, 0.01, 0.01, 0.05, 0.01, 0.08, 0.1],
  X: [0, 0.01, 0, 0, 0.005, 0.45, 0.08, 0.04, 0.01, 0.01, 0.03, 0.15, 0.01, 0.06, 0.15],
};
// Industry (INDP 0‥18) preferences by occupation major group (OCCP 0‥7).
const INDUSTRY_BY_OCCUPATION: readonly Weights[] = [
  [4, 2, 6, 1, 6, 4, 8, 5, 4, 2, 5, 2, 6, 2, 6, 3, 6, 2, 2],
  [0.5, 2, 3, 1, 3, 1, 1, 0.5, 1, 3, 6, 0.5, 14, 1, 6, 16, 18, 2, 1],
  [2, 4, 9, 3, 20, 3, 3, 5, 3, 2, 0.5, 0.5, 4, 2, 2, 1, 4, 1, 12],
  [0.2, 0.2, 0.5, 0.2, 0.3, 0.2, 1, 8, 0.5, 0.5, 0.3, 0.3, 0.5, 2, 6, 9, 30, 5, 4],
  [1, 1, 4, 1.5, 4, 5, 3, 1, 5, 2, 10, 3, 8, 5, 10, 5, 9, 1, 2],
  [0.2, 0.1, 2, 0.2, 0.5, 8, 40, 5, 1, 1, 3, 4, 1, 1, 0.5, 0.5, 1, 1, 1],
  [2, 8, 14, 2, 8, 6, 3, 1, 30, 0.5, 0.2, 1, 0.5, 2, 2, 0.5, 2, 0.5, 2],
  [6, 2, 12, 1, 14, 4, 8, 16, 6, 0.5, 0.2, 1, 1, 8, 2, 1, 4, 2, 3],
];
// Personal income thresholds (INCP bands 1‥14 start at these weekly dollars).
const INCP_FROM = [1, 150, 300, 400, 500, 650, 800, 1000, 1250, 1500, 1750, 2000, 3000, 3500];
const HH_FROM = [1, 150, 300, 400, 500, 650, 800, 1000, 1250, 1500, 1750, 2000, 2500, 3000, 3500, 4000];
const HIED_FROM = [1, 300, 500, 650, 800, 1000, 1250, 1750, 2500];
const RENT_FROM = [1, 75, 100, 150, 200, 225, 275, 350, 450, 550, 650, 750, 850, 950];
const MORTGAGE_FROM = [0, 300, 450, 600, 800, 1000, 1400, 1800, 2400, 3000, 4000];

/** Index of the last threshold ≤ value (-1 below the first). */
const bandIndex = (value: number, from: readonly number[]) => {
  let b = -1;
  for (let i = 0; i < from.length && value >= from[i]!; i++) b = i;
  return b;
};

/** Growable column store; frozen into a Population at the end. */
class Columns {
  private readonly arrays: number[][];
  count = 0;
  constructor(private readonly codes: readonly string[]) {
    this.arrays = codes.map(() => []);
  }
  add(row: Readonly<Record<string, number>>): number {
    for (let k = 0; k < this.codes.length; k++) {
      const v = row[this.codes[k]!];
      if (v === undefined) throw new Error(`truth model left ${this.codes[k]} unset`);
      this.arrays[k]!.push(v);
    }
    return this.count++;
  }
  column(code: string): readonly number[] {
    return this.arrays[this.codes.indexOf(code)]!;
  }
  freeze(): Record<string, Uint8Array> {
    return Object.fromEntries(this.codes.map((code, k) => [code, Uint8Array.from(this.arrays[k]!)]));
  }
}

const PERSON_CODES = variablesOf('persons').map((v) => v.code);
const FAMILY_CODES = variablesOf('families').map((v) => v.code);
const DWELLING_CODES = variablesOf('dwellings').map((v) => v.code);

type Role = 'partnerReg' | 'partnerDf' | 'loneParent' | 'child' | 'relative' | 'unrelated' | 'group' | 'lone';
type FamilyKind = 'coupleNoKids' | 'coupleKids' | 'oneParent' | 'other';

interface Member {
  readonly index: number;
  readonly age: number;
  readonly sex: number;
  readonly role: Role;
  /** Weekly dollars; NaN when not stated; 0 for children under 15. */
  readonly income: number;
  readonly lfsp: number;
  readonly origin: Origin;
}

/** What a family hands on: Indigenous status, birthplace region, language and religion (category indices). */
interface Origin {
  readonly indigenous: number;
  readonly region: number;
  readonly lanp: number;
  readonly relp: number;
  /** HEAP, which partners share more often than chance. */
  readonly heap: number;
}

/**
 * How a person's origin follows a relative's: a child's from the parent's (language and
 * religion about 85% of the time; born overseas with a migrant parent more often the older the
 * child), a partner's from the other partner's (about two couples in three share birthplace,
 * language and religion: ABS marriages 2021, both partners born in the same country ~70%).
 */
interface Inherit {
  readonly from: Origin;
  readonly as: 'child' | 'partner';
}
const CHILD_KEEPS = 0.85;
const PARTNERS_ALIKE = 0.68;
const PARTNERS_SAME_EDUCATION = 0.35;
/** Same-sex couples, of all couples (2021 Census: about 1.5%). */
const SAME_SEX_COUPLES = 0.015;
/** A group household's other members come from the first one's age band this often (housemates are mostly of an age). */
const HOUSEMATES_OF_AN_AGE = 0.6;
/**
 * Income rank: a Gaussian copula of labour force status (its rank among the band's and sex's
 * statuses) and qualification, the rest noise. The ranks are read off the state's real income
 * distribution of the person's age band and sex (G17), so incomes keep their real distribution
 * and follow work and education within it.
 */
const INCOME_BY_LABOUR = 0.75;
const INCOME_BY_QUALIFICATION = 0.3;
const INCOME_NOISE = Math.sqrt(1 - INCOME_BY_LABOUR ** 2 - INCOME_BY_QUALIFICATION ** 2);
/** Nil or negative incomes that are negative (a business loss). */
const NEGATIVE_OF_NIL = 0.1;
/** The open top band ($3,500 or more) is Pareto with this tail index. */
const TOP_INCOME_TAIL = 2.5;

let defaultModel: TruthModel | undefined;
/** The truth model of the default demo geography (300 suburbs, seed 2021), for callers that draw suburbs one by one. */
export function defaultTruthModel(): TruthModel {
  return (defaultModel ??= createTruthModel(buildDemoGeography('demo', 2021).suburbs));
}

/**
 * Draws one suburb's linked truth population of about `suburb.persons` usual residents, with the
 * parameters `model` gives its state and archetype (generate.ts builds the model of the whole
 * geography, so that the suburbs together have the real shares).
 */
export function drawSuburbPopulation(suburb: DemoSuburb, rng: Rng, model: TruthModel = defaultTruthModel()): Population {
  const a = suburb.archetype;
  const params: SuburbParams = model.params(suburb.state, a);
  const calibration = params.calibration;
  const persons = new Columns(PERSON_CODES);
  const families = new Columns(FAMILY_CODES);
  const dwellings = new Columns(DWELLING_CODES);
  const rlhpColumn = persons.column('RLHP');
  const ages: number[] = [];
  const personDwelling: number[] = [];
  const personFamily: number[] = [];
  const familyDwelling: number[] = [];

  const yes = (p: number) => rng.next() < p;
  /** A uniform draw strictly inside (lo, hi) ⊆ [0, 1], for normalQuantile. */
  const within = (lo: number, hi: number) => Math.min(1 - 1e-12, Math.max(1e-12, lo + (hi - lo) * rng.next()));
  /** An (age, sex) from weights over age * 2 + sex. */
  const ageSex = (cdf: Float64Array): [number, number] => {
    const i = drawIndex(cdf, rng.next());
    return [i >> 1, i & 1];
  };
  /** The same, within one G27 age band (unconditional when the band is empty). */
  const ageSexInBand = (cdf: Float64Array, band: number): [number, number] => {
    const [lo, hi] = ROLE_BANDS[band]!;
    const from = lo * 2 > 0 ? cdf[lo * 2 - 1]! : 0;
    const to = cdf[Math.min(hi, AGES - 1) * 2 + 1]!;
    if (!(to > from)) return ageSex(cdf);
    const i = drawIndex(cdf, from + (to - from) * rng.next());
    return [i >> 1, i & 1];
  };

  /** `student`: a child aged 15–24 who is a dependent (full-time) student. */
  const person = (age: number, sex: number, role: Role, dwelling: number, family: number, inherit?: Inherit, student = false): Member => {
    const adult = age >= 15;
    const alike = inherit ? yes(inherit.as === 'child' ? CHILD_KEEPS : PARTNERS_ALIKE) : false;
    const parent = inherit?.as === 'child' ? inherit.from : undefined;
    let indigenous = yes(INDIGENOUS[a]) ? 1 + rng.pick([0.9, 0.05, 0.05]) : yes(0.015) ? 4 : 0;
    // Indigenous status passes to children (ABS: almost all children of an Indigenous parent are counted Indigenous).
    if (parent) indigenous = parent.indigenous > 0 && parent.indigenous < 4 ? (yes(0.92) ? parent.indigenous : 0) : indigenous > 0 && indigenous < 4 && yes(0.7) ? 0 : indigenous;
    // A migrant parent's child is born overseas more often the older the child; otherwise in Australia.
    const migrantParent = parent !== undefined && parent.region > 0 && parent.region < 10;
    const overseas = indigenous === 0 && age > 0 && (migrantParent ? yes(Math.min(0.8, 0.1 + age * 0.03)) : !parent && yes(OVERSEAS[a] * (age < 15 ? 0.35 : 1)));
    let region = overseas ? (migrantParent ? parent!.region : rng.pick(REGIONS[a])) : yes(0.01) ? 10 : 0;
    if (inherit?.as === 'partner' && alike && indigenous === 0) region = inherit.from.region;
    const langRow = region === 10 ? LANGUAGE_BY_REGION[0]! : LANGUAGE_BY_REGION[region]!;
    let lanp = yes(0.015) ? 10 : rng.pick(langRow);
    if (indigenous > 0 && indigenous < 4 && a === 'X' && yes(0.45)) lanp = 8;
    else if (indigenous > 0 && indigenous < 4 && yes(0.02)) lanp = 8; // outside remote areas, about 2%
    if (inherit && alike && inherit.from.lanp !== 10) lanp = inherit.from.lanp;
    const englp = age < 5 || lanp === 0 ? 5 : yes(0.04) ? 4 : rng.pick([0.5, 0.27, 0.17, 0.06]);
    const citp = region === 10 || yes(0.01) ? 2 : region > 0 ? (yes(0.55) ? 0 : 1) : 0;
    const relRow = RELIGION_BY_REGION[region === 10 ? 0 : region]!;
    const christianLift = age >= 60 ? 1.5 : 1;
    let relp = yes(0.07) ? 7 : rng.pick(relRow.map((w, i) => (i === 1 ? w * christianLift : w)));
    if (inherit && alike && inherit.from.relp !== 7) relp = inherit.from.relp;

    // Education: attending, school level, qualification. A child aged 15–24 attends full-time
    // exactly when a dependent student (secondary school to 17 mostly, then university or TAFE).
    let typp = 7;
    if (age >= 3 && age <= 4 && yes(0.6)) typp = 0;
    else if (age >= 5 && age <= 11) typp = 1;
    else if (role === 'child' && age >= 15 && age <= 24) typp = !student ? 7 : age <= 17 ? (yes(0.92) ? 2 : 3) : age === 18 && yes(0.3) ? 2 : yes(0.7) ? 4 : 3;
    else if (age >= 12 && age <= 17) typp = yes(age <= 15 ? 0.97 : 0.82) ? 2 : yes(0.4) ? 3 : 7;
    else if (age >= 18 && age <= 24) typp = yes(a === 'I' ? 0.55 : 0.32) ? 4 : yes(0.12) ? 3 : 7;
    else if (age >= 25 && age <= 45) typp = yes(0.06) ? 4 : yes(0.05) ? 3 : 7;
    if (typp === 7 && age >= 5 && age <= 17 && yes(0.02)) typp = 6; // not stated
    let heap = 10;
    if (adult) {
      if (age < 20) heap = rng.pick([0, 0, 0, 0.002, 0.06, 0.85, 0.08, 0.003, 0.005, 0.03]);
      else if (age < 25) heap = rng.pick([0.01, 0.01, 0.2, 0.09, 0.2, 0.44, 0.02, 0.003, 0.01, 0.03]);
      else heap = rng.pick(attainmentWeights(a, age));
      // Partners marry within their education more often than chance (assortative mating).
      if (inherit?.as === 'partner' && age >= 25 && inherit.from.heap <= 8 && yes(PARTNERS_SAME_EDUCATION)) heap = inherit.from.heap;
    }
    let hscp = 7;
    if (adult && typp !== 2) {
      if (heap <= 2) hscp = 0;
      else if (heap === 9) hscp = yes(0.7) ? 6 : 0;
      else if (heap === 7) hscp = 5;
      else if (heap === 6) hscp = yes(0.6) ? 3 : 4;
      else hscp = rng.pick(age > 60 ? [0.35, 0.12, 0.35, 0.1, 0.05, 0.003, 0.03] : [0.7, 0.1, 0.15, 0.02, 0.01, 0.002, 0.02]);
    }

    // Labour force status: the state's real shares by age band and sex (G46), leaned by
    // archetype; a school student works part-time if at all.
    let lfsp = 8;
    const band = adultBandOf(age);
    /** The status as drawn ranks the person's income, so incomes keep their real distribution. */
    let drawnLfsp = 8;
    if (adult) {
      lfsp = drawnLfsp = drawIndex(params.labour[band]![sex]!, rng.next());
      if (typp === 2 && lfsp === 0) lfsp = 1;
    }
    const employed = lfsp <= 3;
    const hrsp = !employed ? 9 : lfsp === 0 ? 4 + rng.pick([0.25, 0.35, 0.2, 0.2]) : lfsp === 1 ? 1 + rng.pick([0.35, 0.35, 0.3]) : lfsp === 2 ? 0 : 8;
    let occp = 9;
    let indp = 20;
    let mtwp = 16;
    if (employed) {
      occp = yes(0.015)
        ? 8
        : rng.pick(heap <= 2 ? [0.2, 0.5, 0.06, 0.06, 0.1, 0.04, 0.01, 0.03] : heap <= 4 ? [0.12, 0.1, 0.27, 0.15, 0.13, 0.08, 0.07, 0.08] : [0.09, 0.05, 0.12, 0.14, 0.13, 0.15, 0.1, 0.22]);
      indp = occp === 8 ? 19 : yes(0.015) ? 19 : rng.pick(INDUSTRY_BY_OCCUPATION[occp]!);
      mtwp = yes(0.01) ? 15 : rng.pick(TRAVEL[a]);
      if (lfsp === 2) mtwp = 14; // away from work: did not go to work
    }

    // Income: the state's real distribution for the age band and sex (G17), ranked by labour
    // force status and qualification (INCOME_BY_LABOUR …), in weekly dollars within the band.
    let income = 0;
    let incp = 16;
    if (adult) {
      const real = calibration.income[band]![sex]!;
      if (yes(real.notStated)) {
        income = Number.NaN;
        incp = 15;
      } else {
        const labourRank = params.labourRank[band]![sex]!;
        const byLabour = normalQuantile(within(labourRank[drawnLfsp]!, labourRank[LABOUR + drawnLfsp]!));
        const attainmentRank = params.attainmentRank[age > 70 ? 1 : 0];
        const byQualification = age >= 25 && heap <= 9 ? normalQuantile(within(attainmentRank[heap]!, attainmentRank[10 + heap]!)) : rng.normal();
        const rank = normalCdf(INCOME_BY_LABOUR * byLabour + INCOME_BY_QUALIFICATION * byQualification + INCOME_NOISE * rng.normal());
        incp = drawIndex(real.cdf, rank);
        if (incp === 0) income = yes(NEGATIVE_OF_NIL) ? -50 : 0;
        else if (incp === INCP_FROM.length) income = INCP_FROM[incp - 1]! * (1 - rng.next()) ** (-1 / TOP_INCOME_TAIL);
        else income = INCP_FROM[incp - 1]! + (INCP_FROM[incp]! - INCP_FROM[incp - 1]!) * rng.next();
      }
    }

    const assnp = yes(0.035) ? 2 : yes(age < 65 ? 0.025 : age < 80 ? 0.09 : 0.32) ? 0 : 1;
    const pNone = clamp(0.82 - age * 0.006, 0.3, 0.82);
    const lthp = yes(0.06) ? 4 : rng.pick([pNone, 0.6 * (1 - pNone), 0.25 * (1 - pNone), 0.15 * (1 - pNone)]);
    const uai5p = !adult ? 3 : yes(0.06) ? 2 : yes(age >= 40 && age < 70 ? 0.17 : 0.09) ? 0 : 1;
    const volwp = !adult ? 3 : yes(0.06) ? 2 : yes(a === 'R' || a === 'T' || a === 'X' ? 0.22 : 0.14) ? 0 : 1;

    // Relationship and marital status follow the role the household gave the person.
    const rlhp =
      role === 'partnerReg' ? 0 : role === 'partnerDf' ? 1 : role === 'loneParent' ? 2
        : role === 'child' ? (age < 15 ? 3 : student ? 4 : 5)
        : role === 'relative' ? 6 : role === 'unrelated' ? 7 : role === 'group' ? 8 : 9;
    let mstp = 5;
    if (adult) {
      // The state's real statuses by age band and sex (G05), shared out between roles
      // (calibration.ts): registered partners are married, nobody under 18 has been.
      const real = calibration.marital[band]![sex]!;
      if (role === 'partnerReg') mstp = 4;
      else if (age < 18) mstp = 0;
      else mstp = rng.pick(role === 'partnerDf' ? real.deFacto : real.other);
    }
    const mdcp = !adult ? 3 : role === 'partnerReg' ? 0 : role === 'partnerDf' ? 1 : 2;

    const index = persons.add({
      AGE5P: age5pOfAge(age),
      AGEP: agepOfAge(age),
      SEXP: sex,
      RLHP: rlhp,
      MSTP: mstp,
      MDCP: mdcp,
      INGP: indigenous,
      BPLP: region,
      CITP: citp,
      LANP: lanp,
      ENGLP: FROM_ABS_ORDER.ENGLP[englp]!,
      RELP: relp,
      TYPP: typp,
      HSCP: FROM_ABS_ORDER.HSCP[hscp]!,
      HEAP: FROM_ABS_ORDER.HEAP[heap]!,
      INCP: incp,
      ASSNP: assnp,
      LTHP: lthp,
      UAI5P: uai5p,
      VOLWP: volwp,
      LFSP: lfsp,
      HRSP: hrsp,
      OCCP: occp,
      INDP: indp,
      MTWP: mtwp,
    });
    ages.push(age);
    personDwelling.push(dwelling);
    personFamily.push(family);
    return { index, age, sex, role, income: adult ? income : 0, lfsp, origin: { indigenous, region, lanp, relp, heap } };
  };

  /**
   * The children living with a parent (the younger partner's age for a couple), drawn by the
   * process calibration.ts fitted (child-ages.ts); each 15–24-year-old a dependent student by
   * the state's real rates. `from` is the parent whose origin they follow.
   */
  const children = (from: Member, parentAge: number, stay: number, dwelling: number, family: number): Member[] =>
    drawChildAges(rng, parentAge, stay).map((age) => {
      const sex = yes(calibration.childMale) ? 0 : 1;
      const student = age >= 15 && age <= 24 && yes(calibration.dependentStudent[sex]![age - 15]!);
      return person(age, sex, 'child', dwelling, family, { from: from.origin, as: 'child' }, student);
    });

  const sumIncome = (members: readonly Member[]) => {
    let sum = 0;
    let adults = 0;
    let missing = 0;
    for (const m of members) {
      if (m.age < 15) continue;
      adults++;
      if (Number.isNaN(m.income)) missing++;
      else sum += m.income;
    }
    return { sum, adults, missing };
  };
  const incomeBand = (members: readonly Member[], partial: number, none: number) => {
    const { sum, adults, missing } = sumIncome(members);
    if (adults > 0 && missing === adults) return none;
    if (missing > 0) return partial;
    return sum <= 0 ? 0 : bandIndex(sum, HH_FROM) + 1;
  };

  /**
   * A couple: the woman's age from `women`, the man's by rank among the state's real partners
   * (partner-ages.ts; a same-sex couple is drawn the same way); married or de facto by the
   * woman's age band. Either may be the household's reference person. The second partner's
   * origin follows the first's.
   */
  const couple = (women: Float64Array, dwelling: number, family: number): Member[] => {
    const woman = drawIndex(women, rng.next());
    const man = calibration.partnerAges.draw(rng, woman);
    const sameSex = yes(SAME_SEX_COUPLES) ? 1 + rng.int(2) : 0; // 1: two men, 2: two women
    const role: Role = yes(calibration.registered[roleBandOf(Math.min(woman, man))]!) ? 'partnerReg' : 'partnerDf';
    const pair = [
      { age: woman, sex: sameSex === 1 ? 0 : 1 },
      { age: man, sex: sameSex === 2 ? 1 : 0 },
    ];
    const [x, y] = rng.int(2) === 0 ? [pair[0]!, pair[1]!] : [pair[1]!, pair[0]!];
    const first = person(x.age, x.sex, role, dwelling, family);
    return [first, person(y.age, y.sex, role, dwelling, family, { from: first.origin, as: 'partner' })];
  };

  const addFamily = (members: Member[], kind: FamilyKind, dwelling: number, familiesInHousehold: number) => {
    const kids = members.filter((m) => m.role === 'child');
    const dependent = kids.filter((m) => m.age < 15 || (m.age <= 24 && rlhpColumn[m.index] === 4)).length;
    const under15 = kids.some((m) => m.age < 15);
    const fmcf = kind === 'coupleNoKids' ? 0 : kind === 'coupleKids' ? (under15 ? 1 : 2) : kind === 'oneParent' ? (under15 ? 3 : 4) : 5;
    const parents = members.filter((m) => m.role === 'partnerReg' || m.role === 'partnerDf' || m.role === 'loneParent');
    const emp = (m: Member) => (m.lfsp === 7 ? 3 : m.lfsp === 0 ? 0 : m.lfsp <= 3 ? 1 : 2);
    let lfsf = 10;
    if (parents.length === 2) {
      const x = Math.min(emp(parents[0]!), emp(parents[1]!));
      const y = Math.max(emp(parents[0]!), emp(parents[1]!));
      lfsf = y === 3 ? 5 : x === 0 && y === 0 ? 0 : x === 0 && y === 1 ? 1 : x === 1 && y === 1 ? 2 : x <= 1 && y === 2 ? 3 : 4;
    } else if (parents.length === 1) {
      const e = emp(parents[0]!);
      lfsf = e === 3 ? 9 : e === 0 ? 6 : e === 1 ? 7 : 8;
    }
    const sscf = parents.length === 2 ? (parents[0]!.sex !== parents[1]!.sex ? 0 : parents[0]!.sex === 0 ? 1 : 2) : 3;
    const fblf = kind === 'coupleKids' ? rng.pick([0.85, 0.07, 0.05, 0.015, 0.008, 0.007]) : 7;
    const ref = parents[0] ?? members[0]!;
    families.add({
      FMCF: fmcf,
      CDCF: Math.min(6, dependent),
      CACF: Math.min(6, kids.length),
      NPRF: Math.min(6, members.length - 2),
      FINF: incomeBand(members, 17, 18),
      LFSF: lfsf,
      SSCF: sscf,
      FBLF: fblf,
      FMHD: Math.min(2, familiesInHousehold - 1),
      AGFRF: clamp(Math.floor((ref.age - 15) / 10), 0, 7),
    });
    familyDwelling.push(dwelling);
  };

  /** One family of the state's real types (leaned by archetype), with its members. */
  const drawFamily = (dwelling: number, f: number): readonly [Member[], FamilyKind] => {
    const type = drawIndex(params.familyTypes, rng.next());
    if (type === 0) return [couple(params.womenNoChildren, dwelling, f), 'coupleNoKids'];
    if (type === 1) {
      const fam = couple(params.mothers, dwelling, f);
      // The children's origin follows the mother's where there is one (the first partner otherwise).
      const mother = fam.find((m) => m.sex === 1) ?? fam[0]!;
      fam.push(...children(mother, Math.min(fam[0]!.age, fam[1]!.age), calibration.childStay, dwelling, f));
      return [fam, fam.length > 2 ? 'coupleKids' : 'coupleNoKids'];
    }
    if (type === 2) {
      const [age, sex] = ageSex(params.loneParent);
      const parent = person(age, sex, 'loneParent', dwelling, f);
      return [[parent, ...children(parent, age, calibration.loneParentStay, dwelling, f)], 'oneParent'];
    }
    // Other family: related adults (siblings, a grandparent and grandchild …) without a couple or parent.
    const fam: Member[] = [];
    const size = 2 + (yes(calibration.otherFamilyThird) ? 1 : 0);
    for (let k = 0; k < size; k++) {
      const [age, sex] = ageSex(params.relative);
      fam.push(person(age, sex, 'relative', dwelling, f));
    }
    return [fam, 'other'];
  };

  // Households until the suburb reaches its size: lone person, group or family (G35, G27, G29).
  while (ages.length < suburb.persons) {
    const dwelling = dwellings.count;
    const kind = drawIndex(params.householdKinds, rng.next());
    const members: Member[] = [];
    const familyKinds: (readonly [Member[], FamilyKind])[] = [];
    const nextFamily = () => families.count + familyKinds.length;
    if (kind === 0) {
      const [age, sex] = ageSex(params.lone);
      members.push(person(age, sex, 'lone', dwelling, -1));
    } else if (kind === 1) {
      const n = 2 + drawIndex(params.groupSizes, rng.next());
      const [age, sex] = ageSex(params.group);
      members.push(person(age, sex, 'group', dwelling, -1));
      for (let k = 1; k < n; k++) {
        const [mateAge, mateSex] = yes(HOUSEMATES_OF_AN_AGE) ? ageSexInBand(params.group, roleBandOf(age)) : ageSex(params.group);
        members.push(person(mateAge, mateSex, 'group', dwelling, -1));
      }
    } else {
      const first = drawFamily(dwelling, nextFamily());
      familyKinds.push(first);
      members.push(...first[0]);
      if (yes(params.secondFamily)) {
        const second = drawFamily(dwelling, nextFamily());
        familyKinds.push(second);
        members.push(...second[0]);
      }
      // Other related individuals join the first family (a parent, a sibling …); unrelated ones live beside it.
      if (yes(calibration.relativeRate)) {
        const [age, sex] = ageSex(params.relative);
        first[0].push(person(age, sex, 'relative', dwelling, families.count));
        members.push(first[0].at(-1)!);
      }
      if (yes(calibration.unrelatedRate)) {
        const [age, sex] = ageSex(params.unrelated);
        members.push(person(age, sex, 'unrelated', dwelling, -1));
      }
    }
    for (const [fam, kind] of familyKinds) addFamily(fam, kind, dwelling, familyKinds.length);
    addDwelling(members, familyKinds.map(([, k]) => k));
  }

  function addDwelling(members: readonly Member[], kinds: readonly string[]) {
    const n = members.length;
    const ref = members[0]!;
    const hhcd = kinds.length > 0 ? 0 : n === 1 ? 1 : 2;
    const small = n <= 2 && (a === 'I' || a === 'M');
    let strd = yes(0.015) ? 9 : rng.pick(STRUCTURE[a]!.map((w, i) => (small && i >= 3 && i <= 6 ? w * 1.8 : !small && n >= 4 && i === 0 ? w * 1.6 : w)));
    if (strd === 9 && yes(0.5)) strd = 0;
    const need = Math.max(1, Math.ceil((n - 1) / 2) + (n >= 3 ? 1 : 0));
    let bedrd: number;
    if (yes(0.012)) bedrd = 7;
    else if (strd === 0) bedrd = clamp(Math.max(need, rng.pick([0, 0.01, 0.08, 0.46, 0.34, 0.09, 0.02])), 1, 6);
    else if (strd <= 2) bedrd = clamp(Math.max(need, rng.pick([0, 0.05, 0.4, 0.45, 0.1])), 1, 6);
    else if (strd <= 7) bedrd = clamp(Math.max(need - 1, rng.pick([0.05, 0.35, 0.5, 0.1])), 0, 6);
    else bedrd = clamp(rng.pick([0.15, 0.45, 0.3, 0.1]), 0, 6);

    const young = ref.age < 35;
    let tend = yes(0.04) ? 4 : yes(0.02) ? 3 : -1;
    if (tend < 0) {
      const w = young ? [0.05, 0.33, 0.62] : ref.age < 55 ? [0.17, 0.5, 0.33] : ref.age < 70 ? [0.52, 0.24, 0.24] : [0.75, 0.07, 0.18];
      // Tenure follows income: mortgages need one, renters' incomes are lower (2021 Census:
      // median weekly household income of mortgagors about twice that of renters).
      const weekly = sumIncome(members).sum;
      if (weekly < 800) {
        w[1]! *= 0.35;
        w[2]! *= 1.5;
      } else if (weekly >= 2500) {
        w[1]! *= 1.7;
        w[2]! *= 0.6;
      }
      if (a === 'I') w[2]! *= 1.8;
      if (a === 'X') w[2]! *= 2.2;
      if (strd >= 3 && strd <= 7) w[2]! *= 1.6;
      tend = rng.pick(w);
    }
    const lldd = tend !== 2 ? 6 : rng.pick(a === 'X' ? [0.3, 0.35, 0.08, 0.17, 0.08, 0.02] : [0.6, 0.1, 0.04, 0.19, 0.05, 0.02]);
    let rntrd = 15;
    if (tend === 2) {
      const rent = RENT_MEDIAN[a] * (lldd === 1 || lldd === 2 ? 0.5 : 1) * Math.exp(0.35 * rng.normal()) * (0.8 + 0.1 * bedrd);
      rntrd = yes(0.03) ? 14 : clamp(bandIndex(rent, RENT_FROM), 0, 13);
    }
    let mrerd = 12;
    if (tend === 1) {
      const repay = MORTGAGE_MEDIAN[a] * Math.exp(0.4 * rng.normal());
      mrerd = yes(0.03) ? 11 : clamp(bandIndex(repay, MORTGAGE_FROM), 0, 10);
    }
    const adults = members.filter((m) => m.age >= 17).length;
    const carBase = a === 'I' ? 0.6 : a === 'X' ? 1.2 : 1.5;
    const vehrd = yes(0.03) ? 5 : clamp(Math.round(carBase * Math.min(adults, 3) * (0.6 + 0.5 * rng.next()) - (a === 'I' ? 0.4 : 0)), 0, 4);
    const hind = incomeBand(members, 17, 18);
    const { sum } = sumIncome(members);
    const kids = members.filter((m) => m.age < 15).length;
    const equivalent = 1 + 0.5 * Math.max(0, n - kids - 1) + 0.3 * kids;
    const hied = hind === 17 ? 10 : hind === 18 ? 11 : sum <= 0 ? 0 : bandIndex(sum / equivalent, HIED_FROM) + 1;
    const primary = kinds[0];
    const typeIndex = primary === 'coupleNoKids' ? 0 : primary === 'coupleKids' ? 1 : primary === 'oneParent' ? 2 : 3;
    const hcfmd = kinds.length === 0 ? (n === 1 ? 8 : 9) : kinds.length === 1 ? typeIndex : 4 + typeIndex;
    dwellings.add({
      DWTD: 0, // the truth model houses everyone in occupied private dwellings
      STRD: strd,
      TEND: tend,
      LLDD: lldd,
      BEDRD: bedrd,
      VEHRD: vehrd,
      NPRD: Math.min(7, n - 1),
      HHCD: hhcd,
      HCFMD: hcfmd,
      HIND: hind,
      HIED: hied,
      RNTRD: rntrd,
      MRERD: mrerd,
      NFMD: Math.min(3, kinds.length),
      DLOD: suburb.remoteness,
    });
  }

  return {
    persons: {
      count: persons.count,
      age: Uint8Array.from(ages),
      dwelling: Uint32Array.from(personDwelling),
      family: Int32Array.from(personFamily),
      variables: persons.freeze(),
    },
    families: { count: families.count, dwelling: Uint32Array.from(familyDwelling), variables: families.freeze() },
    dwellings: { count: dwellings.count, variables: dwellings.freeze() },
  };
}
