import type { Population } from '../census/population.ts';
import { RLHP } from '../synthesizer/rules.ts';
import { VALIDATION_TABLES } from '../census/tables.ts';
import type { TableSpec } from '../census/table-spec.ts';
import { tabulate } from '../census/tabulate.ts';
import { categoryIndex, variableByCode } from '../census/variables.ts';
import { sizeBand, SIZE_BANDS, type SizeBand } from './metrics.ts';
import { addResemblance, countResemblance, emptyResemblanceTally, resemblanceFigures, type ResemblanceFigures, type ResemblanceTally } from './resemblance.ts';

/**
 * Realism figures a researcher checks with a cross-tab rather than a table fit (issue 10, item 5):
 *
 * (a) how often a combination the census (nearly) never shows occurs: named checks, each a
 *     numerator over a denominator (IMPLAUSIBLE_CHECKS), plus couples' age gap and same-sex
 *     share, and mothers' age at their eldest child's birth;
 * (b) how strongly pairs of person variables go together (Cramér's V), over stated categories;
 * (c) how much of a validation cross-tab's joint structure the records recover beyond
 *     independence (the product of their own margins), against the truth, next to an oracle;
 * (d) all of it pooled over suburbs, overall and by suburb size band.
 *
 * Pure functions over populations, no I/O. Everything is tallied as counts that add over
 * suburbs (numerators and denominators, contingency tables, error sums), and rates, V and
 * shares are computed once from the pooled counts, never as averages of per-suburb figures.
 */

// ------------------------------------------------------------------ rates

/** A rate kept as numerator over denominator, so that suburbs pool by adding. */
export interface Rate {
  numerator: number;
  denominator: number;
}

export const emptyRate = (): Rate => ({ numerator: 0, denominator: 0 });

/** numerator / denominator; undefined when nothing was counted. */
export const rateOf = (r: Rate): number | undefined => (r.denominator > 0 ? r.numerator / r.denominator : undefined);

export function addRate(into: Rate, from: Rate): void {
  into.numerator += from.numerator;
  into.denominator += from.denominator;
}

export type Level = 'persons' | 'families' | 'dwellings';
type Columns = Readonly<Record<string, Uint8Array>>;

/** The named columns of one level; a missing column is a programming error, hence a throw. */
function columnsOf(pop: Population, level: Level, codes: readonly string[]): Columns {
  const out: Record<string, Uint8Array> = {};
  for (const code of codes) {
    const column = pop[level].variables[code];
    if (!column) throw new Error(`population has no ${level} column ${code}`);
    out[code] = column;
  }
  return out;
}

const indices = (code: string, labels: readonly string[]): ReadonlySet<number> => new Set(labels.map((l) => categoryIndex(code, l)));

const isPartner = (r: number) => r === RLHP.registered || r === RLHP.deFacto;
const INDIGENOUS = indices('INGP', ['Aboriginal', 'Torres Strait Islander', 'Both Aboriginal and Torres Strait Islander']);
const isChild = (r: number) => r === RLHP.under15 || r === RLHP.student || r === RLHP.nonDependent;
const FEMALE = categoryIndex('SEXP', 'Female');
const MALE = categoryIndex('SEXP', 'Male');
const MSTP = {
  married: categoryIndex('MSTP', 'Married'),
  widowed: categoryIndex('MSTP', 'Widowed'),
  everMarried: indices('MSTP', ['Married', 'Widowed', 'Divorced', 'Separated']),
  divorcedOrSeparated: indices('MSTP', ['Divorced', 'Separated']),
};
const TYPP = {
  notAttending: categoryIndex('TYPP', 'Not applicable'),
  tertiary: indices('TYPP', ['Technical or further education institution', 'University or other higher education']),
};
/** Bachelor degree or higher. */
const DEGREE = indices('HEAP', ['Postgraduate Degree Level', 'Graduate Diploma and Graduate Certificate Level', 'Bachelor Degree Level']);
/** A non-school qualification: certificate level or higher. */
const QUALIFICATION = indices('HEAP', [
  'Postgraduate Degree Level',
  'Graduate Diploma and Graduate Certificate Level',
  'Bachelor Degree Level',
  'Advanced Diploma and Diploma Level',
  'Certificate Level',
]);
const EMPLOYED = indices('LFSP', ['Employed, worked full-time', 'Employed, worked part-time', 'Employed, away from work', 'Employed, hours of work not stated']);
const PROFESSIONALS = categoryIndex('OCCP', 'Professionals');
const INCP = {
  nil: categoryIndex('INCP', 'Negative/Nil income'),
  notStated: categoryIndex('INCP', 'Not stated'),
  notApplicable: categoryIndex('INCP', 'Not applicable'),
  from1000: categoryIndex('INCP', '$1,000-$1,249'),
};
const RENTED = categoryIndex('TEND', 'Rented');
const MRERD_NA = categoryIndex('MRERD', 'Not applicable');
const BEDRD = { atMostOne: indices('BEDRD', ['None (includes studios)', 'One bedroom']) };
/** Income stated and positive (not nil, not stated, not applicable). */
const positiveIncome = (incp: number) => incp !== INCP.nil && incp !== INCP.notStated && incp !== INCP.notApplicable;

/** One implausible combination: among whom (denominator), how many show it (numerator). */
export interface ImplausibleCheck {
  readonly name: string;
  /** What the numerator and denominator count. */
  readonly level: Level;
  readonly description: string;
  /** Adds this population's counts to `into`. */
  count(pop: Population, into: Rate): void;
}

type PersonTest = (v: Columns, age: number, p: number) => boolean;
const aged = (lo: number, hi: number): PersonTest => (_v, age) => age >= lo && age <= hi;

/** A person-level check: persons meeting `who` form the denominator, those also meeting `flag` the numerator. */
function personCheck(name: string, description: string, codes: readonly string[], who: PersonTest, flag: PersonTest): ImplausibleCheck {
  return {
    name,
    level: 'persons',
    description,
    count(pop, into) {
      const v = columnsOf(pop, 'persons', codes);
      const { age, count } = pop.persons;
      for (let p = 0; p < count; p++) {
        const a = age[p]!;
        if (!who(v, a, p)) continue;
        into.denominator++;
        if (flag(v, a, p)) into.numerator++;
      }
    },
  };
}

/** A dwelling-level check, over the dwellings' own columns and their number of residents. */
function dwellingCheck(name: string, description: string, codes: readonly string[], who: (v: Columns, d: number, residents: number) => boolean, flag: (v: Columns, d: number, residents: number) => boolean): ImplausibleCheck {
  return {
    name,
    level: 'dwellings',
    description,
    count(pop, into) {
      const v = columnsOf(pop, 'dwellings', codes);
      const residents = new Int32Array(pop.dwellings.count);
      for (let p = 0; p < pop.persons.count; p++) residents[pop.persons.dwelling[p]!]!++;
      for (let d = 0; d < pop.dwellings.count; d++) {
        if (!who(v, d, residents[d]!)) continue;
        into.denominator++;
        if (flag(v, d, residents[d]!)) into.numerator++;
      }
    },
  };
}

/**
 * Visits every mother with her age at her family's eldest child's birth (her age − the eldest
 * child's age, in single years; the census has no birth dates). A mother is a female partner in
 * a couple family with children, or a female lone parent; children are the family's members
 * whose relationship is child under 15, dependent student or non-dependent child. Both women of
 * a female same-sex couple with children count; step-children count as children (the census
 * does not tell them apart at person level).
 */
export function forEachMother(pop: Population, visit: (ageAtEldestBirth: number) => void): void {
  const { RLHP: rlhp, SEXP: sexp } = columnsOf(pop, 'persons', ['RLHP', 'SEXP']);
  const { age, family, count } = pop.persons;
  const eldest = new Int32Array(pop.families.count).fill(-1);
  for (let p = 0; p < count; p++) {
    const f = family[p]!;
    if (f >= 0 && isChild(rlhp![p]!) && age[p]! > eldest[f]!) eldest[f] = age[p]!;
  }
  for (let p = 0; p < count; p++) {
    const f = family[p]!;
    if (f < 0 || eldest[f]! < 0 || sexp![p] !== FEMALE) continue;
    const r = rlhp![p]!;
    if (isPartner(r) || r === RLHP.loneParent) visit(age[p]! - eldest[f]!);
  }
}

/** The implausible combinations issue 10 names, and a few more a researcher would flag. */
export const IMPLAUSIBLE_CHECKS: readonly ImplausibleCheck[] = [
  personCheck('partner-15-17', 'persons aged 15–17 who are a registered or de facto partner', ['RLHP'], aged(15, 17), (v, _a, p) => isPartner(v.RLHP![p]!)),
  personCheck('partner-15-19', 'persons aged 15–19 who are a registered or de facto partner', ['RLHP'], aged(15, 19), (v, _a, p) => isPartner(v.RLHP![p]!)),
  personCheck('married-15-17', 'persons aged 15–17 whose registered marital status is Married', ['MSTP'], aged(15, 17), (v, _a, p) => v.MSTP![p] === MSTP.married),
  personCheck('ever-married-15-17', 'persons aged 15–17 ever married (Married, Widowed, Divorced or Separated)', ['MSTP'], aged(15, 17), (v, _a, p) => MSTP.everMarried.has(v.MSTP![p]!)),
  personCheck('widowed-15-19', 'persons aged 15–19 who are widowed', ['MSTP'], aged(15, 19), (v, _a, p) => v.MSTP![p] === MSTP.widowed),
  personCheck('divorced-separated-15-19', 'persons aged 15–19 who are divorced or separated', ['MSTP'], aged(15, 19), (v, _a, p) => MSTP.divorcedOrSeparated.has(v.MSTP![p]!)),
  personCheck('lone-person-15-17', 'persons aged 15–17 living alone', ['RLHP'], aged(15, 17), (v, _a, p) => v.RLHP![p] === RLHP.lone),
  personCheck('group-member-15-17', 'persons aged 15–17 in a group household', ['RLHP'], aged(15, 17), (v, _a, p) => v.RLHP![p] === RLHP.group),
  personCheck(
    'dependent-student-not-attending',
    'dependent students (RLHP) attending no educational institution (TYPP Not applicable; Not stated is not counted)',
    ['RLHP', 'TYPP'],
    (v, _a, p) => v.RLHP![p] === RLHP.student,
    (v, _a, p) => v.TYPP![p] === TYPP.notAttending,
  ),
  {
    name: 'mother-under-15-at-birth',
    level: 'persons',
    description: "mothers (female partner or lone parent of a family with children) younger than 15 + their eldest child's age",
    count(pop, into) {
      forEachMother(pop, (ageAtBirth) => {
        into.denominator++;
        if (ageAtBirth < 15) into.numerator++;
      });
    },
  },
  personCheck(
    'professional-without-degree',
    'professionals (OCCP) without a bachelor degree or higher (HEAP; not stated counts as without)',
    ['OCCP', 'HEAP'],
    (v, _a, p) => v.OCCP![p] === PROFESSIONALS,
    (v, _a, p) => !DEGREE.has(v.HEAP![p]!),
  ),
  personCheck(
    'employed-professional-under-20',
    'employed persons under 20 who are professionals',
    ['LFSP', 'OCCP'],
    (v, a, p) => a < 20 && EMPLOYED.has(v.LFSP![p]!),
    (v, _a, p) => v.OCCP![p] === PROFESSIONALS,
  ),
  personCheck('degree-15-19', 'persons aged 15–19 with a bachelor degree or higher', ['HEAP'], aged(15, 19), (v, _a, p) => DEGREE.has(v.HEAP![p]!)),
  personCheck('employed-under-15', 'persons under 15 who are employed (LFSP)', ['LFSP'], aged(0, 14), (v, _a, p) => EMPLOYED.has(v.LFSP![p]!)),
  personCheck('income-under-15', 'persons under 15 with a stated personal income above nil', ['INCP'], aged(0, 14), (v, _a, p) => positiveIncome(v.INCP![p]!)),
  personCheck('qualification-under-15', 'persons under 15 with a non-school qualification (certificate or higher)', ['HEAP'], aged(0, 14), (v, _a, p) => QUALIFICATION.has(v.HEAP![p]!)),
  personCheck(
    'income-1000-15-17',
    'persons aged 15–17 with a stated personal income of $1,000 a week or more',
    ['INCP'],
    (v, a, p) => a >= 15 && a <= 17 && v.INCP![p] !== INCP.notStated && v.INCP![p] !== INCP.notApplicable,
    (v, _a, p) => v.INCP![p]! >= INCP.from1000,
  ),
  personCheck('not-attending-6-15', 'persons of compulsory school age (6–15) attending no educational institution', ['TYPP'], aged(6, 15), (v, _a, p) => v.TYPP![p] === TYPP.notAttending),
  personCheck('tertiary-under-15', 'persons under 15 attending TAFE or university', ['TYPP'], aged(0, 14), (v, _a, p) => TYPP.tertiary.has(v.TYPP![p]!)),
  dwellingCheck(
    'renter-with-mortgage',
    'rented dwellings (TEND) with mortgage repayments (MRERD other than Not applicable)',
    ['TEND', 'MRERD'],
    (v, d) => v.TEND![d] === RENTED,
    (v, d) => v.MRERD![d] !== MRERD_NA,
  ),
  dwellingCheck(
    'crowded-one-bedroom',
    'dwellings with at most one bedroom housing five or more persons',
    ['BEDRD'],
    (v, d) => BEDRD.atMostOne.has(v.BEDRD![d]!),
    (_v, _d, residents) => residents >= 5,
  ),
];

/** Every check's counts over one population. */
export function countImplausible(pop: Population, checks: readonly ImplausibleCheck[] = IMPLAUSIBLE_CHECKS): Record<string, Rate> {
  return Object.fromEntries(
    checks.map((check) => {
      const rate = emptyRate();
      check.count(pop, rate);
      return [check.name, rate];
    }),
  );
}

// ------------------------------------------------------------------ couples and mothers

/**
 * Couples: families with exactly two partners. Over opposite-sex couples: gapSum = Σ (man's age
 * − woman's age), and how many are 10 or more years apart (either way), how many have the man
 * older, how many are the same age (in single years; the census has no birth dates).
 */
export interface CoupleTally {
  couples: number;
  sameSex: number;
  gapSum: number;
  gap10Plus: number;
  manOlder: number;
  sameAge: number;
}

export const emptyCoupleTally = (): CoupleTally => ({ couples: 0, sameSex: 0, gapSum: 0, gap10Plus: 0, manOlder: 0, sameAge: 0 });

export function countCouples(pop: Population, into: CoupleTally): void {
  const { RLHP: rlhp, SEXP: sexp } = columnsOf(pop, 'persons', ['RLHP', 'SEXP']);
  const F = pop.families.count;
  const first = new Int32Array(F).fill(-1);
  const second = new Int32Array(F).fill(-1);
  const partners = new Int32Array(F);
  const { age, family, count } = pop.persons;
  for (let p = 0; p < count; p++) {
    const f = family[p]!;
    if (f < 0 || !isPartner(rlhp![p]!)) continue;
    if (partners[f]! === 0) first[f] = p;
    else if (partners[f]! === 1) second[f] = p;
    partners[f]!++;
  }
  for (let f = 0; f < F; f++) {
    if (partners[f] !== 2) continue;
    const q = first[f]!;
    const p = second[f]!;
    into.couples++;
    if (sexp![q] === sexp![p]) {
      into.sameSex++;
      continue;
    }
    const gap = sexp![q] === MALE ? age[q]! - age[p]! : age[p]! - age[q]!;
    into.gapSum += gap;
    if (Math.abs(gap) >= 10) into.gap10Plus++;
    if (gap > 0) into.manOlder++;
    else if (gap === 0) into.sameAge++;
  }
}

export function addCouples(into: CoupleTally, from: CoupleTally): void {
  into.couples += from.couples;
  into.sameSex += from.sameSex;
  into.gapSum += from.gapSum;
  into.gap10Plus += from.gap10Plus;
  into.manOlder += from.manOlder;
  into.sameAge += from.sameAge;
}

export interface CoupleFigures {
  couples: number;
  sameSex: number;
  /** Same-sex couples among couples. */
  sameSexShare: number | undefined;
  /** Mean man − woman age gap (years) over opposite-sex couples. */
  meanAgeGap: number | undefined;
  /** Opposite-sex couples 10 or more years apart (ABS: 8% in 2011, OPPOSITE_SEX_GAP_10_PLUS_2011). */
  gap10PlusShare: number | undefined;
  /** Opposite-sex couples where the man is older (in whole years). */
  manOlderShare: number | undefined;
  /** Opposite-sex couples of the same age in whole years. */
  sameAgeShare: number | undefined;
}

/**
 * Opposite-sex couples 10 or more years apart: "only 8 per cent" (ABS, Australian Social Trends,
 * July 2013, "Same-sex couples", 2011 Census; from the ABS media release, not its tables).
 */
export const OPPOSITE_SEX_GAP_10_PLUS_2011 = 0.08;

export function coupleFigures(t: CoupleTally): CoupleFigures {
  const opposite = t.couples - t.sameSex;
  const of = (x: number | undefined) => (opposite > 0 && x !== undefined ? x / opposite : undefined);
  return {
    couples: t.couples,
    sameSex: t.sameSex,
    sameSexShare: t.couples > 0 ? t.sameSex / t.couples : undefined,
    meanAgeGap: of(t.gapSum),
    gap10PlusShare: of(t.gap10Plus),
    manOlderShare: of(t.manOlder),
    sameAgeShare: of(t.sameAge),
  };
}

/** Mothers' ages at their eldest child's birth as a histogram: index = age + AGE_OFFSET (ages may be negative in broken records). */
export const AGE_OFFSET = 116;
export type MotherTally = Float64Array;
export const emptyMotherTally = (): MotherTally => new Float64Array(2 * AGE_OFFSET + 1);

export function countMothers(pop: Population, into: MotherTally): void {
  forEachMother(pop, (ageAtBirth) => {
    into[Math.max(0, Math.min(into.length - 1, ageAtBirth + AGE_OFFSET))]! += 1;
  });
}

export function addHistogram(into: Float64Array, from: ArrayLike<number>): void {
  for (let i = 0; i < into.length; i++) into[i]! += from[i]!;
}

/**
 * Linear-interpolated quantile of a histogram of integer values (value = index − offset), the
 * same definition as metrics.quantile over the expanded list; undefined when empty.
 */
export function histogramQuantile(histogram: ArrayLike<number>, p: number, offset = 0): number | undefined {
  if (p < 0 || p > 1) throw new RangeError(`quantile p must be within [0, 1], got ${p}`);
  let n = 0;
  for (let i = 0; i < histogram.length; i++) n += histogram[i]!;
  if (n === 0) return undefined;
  const position = (n - 1) * p;
  const valueAt = (rank: number) => {
    let seen = 0;
    for (let i = 0; i < histogram.length; i++) {
      seen += histogram[i]!;
      if (rank < seen) return i - offset;
    }
    return histogram.length - 1 - offset;
  };
  const low = valueAt(Math.floor(position));
  const high = valueAt(Math.ceil(position));
  return low + (high - low) * (position - Math.floor(position));
}

export interface MotherFigures {
  mothers: number;
  min: number | undefined;
  p5: number | undefined;
  median: number | undefined;
}

export function motherFigures(t: MotherTally): MotherFigures {
  return {
    mothers: t.reduce((a, b) => a + b, 0),
    min: histogramQuantile(t, 0, AGE_OFFSET),
    p5: histogramQuantile(t, 0.05, AGE_OFFSET),
    median: histogramQuantile(t, 0.5, AGE_OFFSET),
  };
}

// ------------------------------------------------------------------ association (Cramér's V)

/**
 * Categories left out of association figures by default: not stated, not applicable, and the
 * catalogue's "inadequately described" / partly-stated residuals, which carry no category.
 */
export const UNINFORMATIVE_LABELS: ReadonlySet<string> = new Set([
  'Not stated',
  'Not applicable',
  'Inadequately described/Not stated',
  'Level of education inadequately described',
  'Partial income stated',
  'All incomes not stated',
  'Landlord type not stated',
]);
export const isInformative = (label: string): boolean => !UNINFORMATIVE_LABELS.has(label);

/** Which persons of a population to count. */
export type PersonFilter = (pop: Population, person: number) => boolean;

const REMOTE = indices('DLOD', ['Remote Australia', 'Very Remote Australia']);

/** Persons whose dwelling's location (DLOD) is Remote or Very Remote Australia. */
export const inRemoteArea: PersonFilter = (pop, p) => {
  const dlod = pop.dwellings.variables.DLOD;
  if (!dlod) throw new Error('population has no dwellings column DLOD');
  return REMOTE.has(dlod[pop.persons.dwelling[p]!]!);
};

/** Adds the a × b contingency table of one population (all categories, rows a's, b's varying fastest) to `into`. */
export function addPairCounts(into: Float64Array, pop: Population, a: string, b: string, keep?: PersonFilter): void {
  const nb = variableByCode(b).categories.length;
  if (into.length !== variableByCode(a).categories.length * nb) throw new RangeError(`${a}×${b} needs ${variableByCode(a).categories.length * nb} cells, got ${into.length}`);
  const { [a]: va, [b]: vb } = columnsOf(pop, 'persons', [a, b]);
  for (let p = 0; p < pop.persons.count; p++) if (!keep || keep(pop, p)) into[va![p]! * nb + vb![p]!]! += 1;
}

/** The a × b contingency table pooled over one or several populations. */
export function pairCounts(pops: Population | readonly Population[], a: string, b: string, keep?: PersonFilter): Float64Array {
  const out = new Float64Array(variableByCode(a).categories.length * variableByCode(b).categories.length);
  for (const pop of Array.isArray(pops) ? (pops as readonly Population[]) : [pops as Population]) addPairCounts(out, pop, a, b, keep);
  return out;
}

export interface AssociationOptions {
  /** Keep "Not stated", "Not applicable" and the other UNINFORMATIVE_LABELS (default: left out). */
  readonly includeUninformative?: boolean;
}

/**
 * Cramér's V = sqrt(χ² / (n · (min(r, c) − 1))) of a rows × cols table (row-major), where r
 * and c count the rows and columns with any count once uninformative categories are left out.
 * Labels name the categories (a number means that many categories, all informative). Plain V,
 * without small-sample bias correction: pooled tables are large. Undefined when the table has
 * fewer than two live rows or columns.
 */
export function cramersVOfCounts(counts: ArrayLike<number>, rowLabels: readonly string[] | number, colLabels: readonly string[] | number, options: AssociationOptions = {}): number | undefined {
  const rowsOf = (labels: readonly string[] | number) => (typeof labels === 'number' ? Array.from({ length: labels }, () => '') : labels);
  const rl = rowsOf(rowLabels);
  const cl = rowsOf(colLabels);
  if (counts.length !== rl.length * cl.length) throw new RangeError(`table has ${counts.length} cells, not ${rl.length} × ${cl.length}`);
  const keep = (l: string) => options.includeUninformative || isInformative(l);
  const nc = cl.length;
  const rowSum = new Float64Array(rl.length);
  const colSum = new Float64Array(nc);
  let n = 0;
  for (let i = 0; i < rl.length; i++) {
    if (!keep(rl[i]!)) continue;
    for (let j = 0; j < nc; j++) {
      if (!keep(cl[j]!)) continue;
      const x = counts[i * nc + j]!;
      rowSum[i]! += x;
      colSum[j]! += x;
      n += x;
    }
  }
  const liveRows = rowSum.filter((x, i) => x > 0 && keep(rl[i]!)).length;
  const liveCols = colSum.filter((x, j) => x > 0 && keep(cl[j]!)).length;
  if (n <= 0 || liveRows < 2 || liveCols < 2) return undefined;
  let chi2 = 0;
  for (let i = 0; i < rl.length; i++) {
    if (!(rowSum[i]! > 0) || !keep(rl[i]!)) continue;
    for (let j = 0; j < nc; j++) {
      if (!(colSum[j]! > 0) || !keep(cl[j]!)) continue;
      const expected = (rowSum[i]! * colSum[j]!) / n;
      const d = counts[i * nc + j]! - expected;
      chi2 += (d * d) / expected;
    }
  }
  return Math.min(1, Math.sqrt(chi2 / (n * (Math.min(liveRows, liveCols) - 1))));
}

/** Cramér's V of person variables a × b over one or several populations (optionally only the persons `keep` accepts). */
export function cramersV(pops: Population | readonly Population[], a: string, b: string, options: AssociationOptions & { readonly keep?: PersonFilter } = {}): number | undefined {
  return cramersVOfCounts(pairCounts(pops, a, b, options.keep), variableByCode(a).categories, variableByCode(b).categories, options);
}

/** A pair of person variables whose association is reported, optionally over a subset of persons. */
export interface PairSpec {
  readonly name: string;
  readonly a: string;
  readonly b: string;
  readonly keep?: PersonFilter;
}

/** The pairs issue 10 names: no input table links them, so only a synthesizer that models them keeps their association. */
export const REALISM_PAIRS: readonly PairSpec[] = [
  { name: 'RELP×BPLP', a: 'RELP', b: 'BPLP' },
  { name: 'OCCP×HEAP', a: 'OCCP', b: 'HEAP' },
  { name: 'INGP×LANP', a: 'INGP', b: 'LANP' },
  { name: 'INGP×LANP remote', a: 'INGP', b: 'LANP', keep: inRemoteArea },
];

const INDIGENOUS_LANGUAGE = categoryIndex('LANP', 'Australian Indigenous languages');
const LANP_NOT_STATED = categoryIndex('LANP', 'Not stated');

/**
 * Indigenous persons (Aboriginal and/or Torres Strait Islander) with a stated language
 * (denominator) who speak an Australian Indigenous language at home (numerator), among the
 * persons `keep` accepts: by default those living in Remote or Very Remote Australia (DLOD).
 */
export function countIndigenousLanguage(pop: Population, into: Rate, keep: PersonFilter = inRemoteArea): void {
  const { INGP: ingp, LANP: lanp } = columnsOf(pop, 'persons', ['INGP', 'LANP']);
  for (let p = 0; p < pop.persons.count; p++) {
    if (!INDIGENOUS.has(ingp![p]!) || lanp![p] === LANP_NOT_STATED || !keep(pop, p)) continue;
    into.denominator++;
    if (lanp![p] === INDIGENOUS_LANGUAGE) into.numerator++;
  }
}

// ------------------------------------------------------------------ structure recovered beyond independence

/** The variables a full cross-tab crosses, in cell order (the last varies fastest), with their category counts and labels. */
export interface CrossTabLayout {
  readonly codes: readonly string[];
  readonly sizes: readonly number[];
  readonly labels: readonly (readonly string[])[];
}

/**
 * The layout of a cross-tab whose cells are every combination of its variables' categories, as
 * VALIDATION_TABLES builds them (cell i's where-condition names one category per variable, in
 * the order of the first cell's keys, the last varying fastest; headers `${id}_${code}${k}…`).
 * Throws for a table that is not such a full product (an input table, say).
 */
export function crossTabLayout(spec: Pick<TableSpec, 'id' | 'cells'> & { readonly population?: TableSpec['population'] }): CrossTabLayout {
  const first = spec.cells[0];
  if (!first) throw new Error(`${spec.id} has no cells`);
  // The table's population (e.g. occupied private dwellings) is a condition of every cell, not a dimension.
  const population = spec.population?.where ?? {};
  const codes = Object.keys(first.where).filter((code) => !(code in population));
  const labels = codes.map((code) => variableByCode(code).categories);
  const sizes = labels.map((l) => l.length);
  const cells = sizes.reduce((a, b) => a * b, 1);
  if (spec.cells.length !== cells) throw new Error(`${spec.id} has ${spec.cells.length} cells, not the ${cells} of ${codes.join(' × ')}`);
  spec.cells.forEach((cell, i) => {
    let rest = i;
    for (let k = codes.length - 1; k >= 0; k--) {
      const want = rest % sizes[k]!;
      rest = Math.floor(rest / sizes[k]!);
      const got = cell.where[codes[k]!];
      if (!got || got.length !== 1 || got[0] !== want || Object.keys(cell.where).length !== codes.length + Object.keys(population).length) {
        throw new Error(`${spec.id} cell ${cell.header} is not category ${want} of ${codes[k]} as a full cross-tab would have it`);
      }
    }
  });
  return { codes, sizes, labels };
}

/**
 * The independence baseline of a cross-tab: the product of its own one-way margins, scaled to
 * its total (cell = total · Π_k margin_k / total). `sizes` are the variables' category counts in
 * cell order, the last varying fastest; works for any number of variables (2- and 3-way here).
 */
export function independenceTable(table: ArrayLike<number>, sizes: readonly number[]): Float64Array {
  const cells = sizes.reduce((a, b) => a * b, 1);
  if (table.length !== cells) throw new RangeError(`table has ${table.length} cells, not the ${cells} of ${sizes.join(' × ')}`);
  const strides = sizes.map((_, k) => sizes.slice(k + 1).reduce((a, b) => a * b, 1));
  const margins = sizes.map((size) => new Float64Array(size));
  let total = 0;
  for (let i = 0; i < cells; i++) {
    const x = table[i]!;
    total += x;
    for (let k = 0; k < sizes.length; k++) margins[k]![Math.floor(i / strides[k]!) % sizes[k]!]! += x;
  }
  const out = new Float64Array(cells);
  if (total === 0) return out;
  for (let i = 0; i < cells; i++) {
    let x = total;
    for (let k = 0; k < sizes.length; k++) x *= margins[k]![Math.floor(i / strides[k]!) % sizes[k]!]! / total;
    out[i] = x;
  }
  return out;
}

/**
 * The sub-table over the categories `keep` accepts (by default the informative ones: no "Not
 * stated", "Not applicable" …), with its layout. Cells of structurally known categories (LFSP
 * "Not applicable" under 15, OCCP × INDP both "Not applicable" for the non-employed) would
 * otherwise credit any rule-abiding synthesizer with structure it was told.
 */
export function restrictCrossTab(table: ArrayLike<number>, layout: CrossTabLayout, keep: (label: string, code: string) => boolean = isInformative): { table: Float64Array; layout: CrossTabLayout } {
  const kept = layout.codes.map((code, k) => layout.labels[k]!.flatMap((label, c) => (keep(label, code) ? [c] : [])));
  const sizes = kept.map((k) => k.length);
  const strides = layout.sizes.map((_, k) => layout.sizes.slice(k + 1).reduce((a, b) => a * b, 1));
  const out = new Float64Array(sizes.reduce((a, b) => a * b, 1));
  for (let j = 0; j < out.length; j++) {
    let rest = j;
    let at = 0;
    for (let k = sizes.length - 1; k >= 0; k--) {
      at += kept[k]![rest % sizes[k]!]! * strides[k]!;
      rest = Math.floor(rest / sizes[k]!);
    }
    out[j] = table[at]!;
  }
  return { table: out, layout: { codes: layout.codes, sizes, labels: kept.map((k, i) => k.map((c) => layout.labels[i]![c]!)) } };
}

/** Errors of a candidate table against the truth: Σ|x − t| and Σ(x − t)², over cells. Both add over suburbs. */
export interface CellErrors {
  absolute: number;
  squared: number;
}

export const emptyCellErrors = (): CellErrors => ({ absolute: 0, squared: 0 });

export function cellErrors(candidate: ArrayLike<number>, truth: ArrayLike<number>): CellErrors {
  if (candidate.length !== truth.length) throw new RangeError(`cell counts differ: ${candidate.length} vs ${truth.length}`);
  let absolute = 0;
  let squared = 0;
  for (let i = 0; i < truth.length; i++) {
    const d = candidate[i]! - truth[i]!;
    absolute += Math.abs(d);
    squared += d * d;
  }
  return { absolute, squared };
}

/** One suburb's cross-tab of each source. `independence` is the synthetic table's own independence baseline. */
export interface RecoveryInput {
  readonly synthetic: ArrayLike<number>;
  readonly truth: ArrayLike<number>;
  readonly independence: ArrayLike<number>;
  /** A second, independent draw of the truth model: what a synthesizer that knew the model could reach. */
  readonly oracle?: ArrayLike<number>;
  /** The oracle's own independence baseline; when omitted the oracle is scored against `independence`. */
  readonly oracleIndependence?: ArrayLike<number>;
}

/** Errors against the truth, adding over suburbs. */
export interface RecoveryTally {
  synthetic: CellErrors;
  independence: CellErrors;
  oracle?: CellErrors;
  oracleIndependence?: CellErrors;
}

export function recoveryErrors(x: RecoveryInput): RecoveryTally {
  const out: RecoveryTally = { synthetic: cellErrors(x.synthetic, x.truth), independence: cellErrors(x.independence, x.truth) };
  if (x.oracle) {
    out.oracle = cellErrors(x.oracle, x.truth);
    out.oracleIndependence = x.oracleIndependence ? cellErrors(x.oracleIndependence, x.truth) : { ...out.independence };
  }
  return out;
}

const addErrors = (into: CellErrors, from: CellErrors) => {
  into.absolute += from.absolute;
  into.squared += from.squared;
};

export function addRecovery(into: RecoveryTally, from: RecoveryTally): void {
  addErrors(into.synthetic, from.synthetic);
  addErrors(into.independence, from.independence);
  if (from.oracle) addErrors((into.oracle ??= emptyCellErrors()), from.oracle);
  if (from.oracleIndependence) addErrors((into.oracleIndependence ??= emptyCellErrors()), from.oracleIndependence);
}

/** 1 − candidate error / independence error; undefined when independence is already exact. */
export function errorRemoved(candidateError: number, independenceError: number): number | undefined {
  return independenceError > 0 ? 1 - candidateError / independenceError : undefined;
}

/**
 * Share of the independence baseline's error that each source removes, against the truth:
 * 1 − err(source, truth) / err(independence, truth). 1 = the truth's joint structure, 0 = no
 * better than the source's own margins multiplied together, negative = worse.
 *
 * err is the sum of absolute cell differences (total absolute error): it adds over cells and
 * suburbs, weighs every misplaced person once whatever the cell's size, and is what the build
 * report already sums (metrics.totalAbsoluteError). The SRMSE variant is also given: within a
 * table SRMSE's scale (cells, truth's mean) is the same for source and baseline, so its ratio is
 * sqrt(Σ squared errors / Σ squared errors of independence); pooled over suburbs that is the
 * SRMSE of the stacked tables. It weighs large cells' errors more.
 */
export interface ErrorRemoved {
  synthetic: number | undefined;
  syntheticSrmse: number | undefined;
  oracle?: number | undefined;
  oracleSrmse?: number | undefined;
}

export function errorRemovedOf(t: RecoveryTally): ErrorRemoved {
  const srmseShare = (c: CellErrors, i: CellErrors) => (i.squared > 0 ? 1 - Math.sqrt(c.squared / i.squared) : undefined);
  const out: ErrorRemoved = {
    synthetic: errorRemoved(t.synthetic.absolute, t.independence.absolute),
    syntheticSrmse: srmseShare(t.synthetic, t.independence),
  };
  if (t.oracle) {
    const base = t.oracleIndependence ?? t.independence;
    out.oracle = errorRemoved(t.oracle.absolute, base.absolute);
    out.oracleSrmse = srmseShare(t.oracle, base);
  }
  return out;
}

/** The share of error removed for one cross-tab (one suburb, or tables already pooled). */
export function shareOfErrorRemoved(x: RecoveryInput): ErrorRemoved {
  return errorRemovedOf(recoveryErrors(x));
}

// ------------------------------------------------------------------ summary over suburbs

/**
 * One suburb's records: the synthesizer's, and where known the truth's (records, or only its
 * validation cross-tabs, as a build of demo inputs has them) and an independent second draw of
 * the truth model. A real-data build has none of the truth: its rates and Cramér's V stand alone.
 */
export interface SuburbRealism {
  readonly synthetic: Population;
  readonly truth?: Population;
  /** The truth's validation cross-tabs (table id → cells), when its records are not at hand. */
  readonly truthTables?: ReadonlyMap<string, ArrayLike<number>>;
  readonly oracle?: Population;
  /** Persons that place the suburb in a size band (default: the synthetic persons, which equal the published total). */
  readonly persons?: number;
}

export interface RealismOptions {
  readonly checks?: readonly ImplausibleCheck[];
  readonly pairs?: readonly PairSpec[];
  /** Full cross-tabs to score (default VALIDATION_TABLES). */
  readonly tables?: readonly TableSpec[];
  /** Who counts for the Indigenous-language share (default: persons in Remote or Very Remote Australia). */
  readonly indigenousLanguageAmong?: PersonFilter;
}

/** Counts of one source (synthetic, truth or oracle) pooled over suburbs. */
export interface SourceTally {
  implausible: Record<string, Rate>;
  /** Families against independence: couples and children alike (resemblance.ts). */
  resemblance: ResemblanceTally;
  couples: CoupleTally;
  mothers: MotherTally;
  pairs: Record<string, Float64Array>;
  indigenousLanguage: Rate;
}

/**
 * One cross-tab summed over suburbs, per source: what a researcher tabulating a whole LGA or
 * state sees. Summed, the truth's own sampling noise mostly cancels, so the figure shows the
 * joint structure kept rather than one draw's noise. `independence` sums each suburb's own
 * independence baseline (not the pooled margins' product, which would add between-suburb
 * association the synthesizer gets from its per-suburb tables).
 */
export interface PooledTables {
  synthetic: Float64Array;
  truth: Float64Array;
  independence: Float64Array;
  oracle?: Float64Array;
  oracleIndependence?: Float64Array;
}

/** Recovery errors of one table: over all cells, and over stated categories only (restrictCrossTab); per suburb and pooled. */
export interface TableRecoveryTally {
  cells: RecoveryTally;
  stated: RecoveryTally;
  pooled?: PooledTables;
  pooledStated?: PooledTables;
}

function addPooled(into: PooledTables | undefined, from: RecoveryInput | PooledTables): PooledTables {
  const add = (a: Float64Array | undefined, b: ArrayLike<number>) => {
    const out = a ?? new Float64Array(b.length);
    for (let i = 0; i < b.length; i++) out[i]! += b[i]!;
    return out;
  };
  const out: PooledTables = into ?? { synthetic: new Float64Array(from.truth.length), truth: new Float64Array(from.truth.length), independence: new Float64Array(from.truth.length) };
  add(out.synthetic, from.synthetic);
  add(out.truth, from.truth);
  add(out.independence, from.independence);
  if (from.oracle) out.oracle = add(out.oracle, from.oracle);
  if (from.oracleIndependence) out.oracleIndependence = add(out.oracleIndependence, from.oracleIndependence);
  return out;
}

export interface GroupTally {
  suburbs: number;
  persons: number;
  synthetic: SourceTally;
  truth?: SourceTally;
  oracle?: SourceTally;
  recovery: Record<string, TableRecoveryTally>;
}

interface Resolved {
  readonly checks: readonly ImplausibleCheck[];
  readonly pairs: readonly PairSpec[];
  readonly tables: readonly { readonly spec: TableSpec; readonly layout: CrossTabLayout }[];
  readonly indigenousLanguageAmong: PersonFilter;
}

const resolve = (o: RealismOptions): Resolved => ({
  checks: o.checks ?? IMPLAUSIBLE_CHECKS,
  pairs: o.pairs ?? REALISM_PAIRS,
  tables: (o.tables ?? VALIDATION_TABLES).map((spec) => ({ spec, layout: crossTabLayout(spec) })),
  indigenousLanguageAmong: o.indigenousLanguageAmong ?? inRemoteArea,
});

const pairCells = (pair: PairSpec) => variableByCode(pair.a).categories.length * variableByCode(pair.b).categories.length;

function emptySourceTally(r: Resolved): SourceTally {
  return {
    implausible: Object.fromEntries(r.checks.map((c) => [c.name, emptyRate()])),
    resemblance: emptyResemblanceTally(),
    couples: emptyCoupleTally(),
    mothers: emptyMotherTally(),
    pairs: Object.fromEntries(r.pairs.map((pair) => [pair.name, new Float64Array(pairCells(pair))])),
    indigenousLanguage: emptyRate(),
  };
}

/** Tallies (a) and (b) of one population. */
function sourceTally(pop: Population, r: Resolved): SourceTally {
  const t = emptySourceTally(r);
  for (const check of r.checks) check.count(pop, t.implausible[check.name]!);
  countResemblance(pop, t.resemblance);
  countCouples(pop, t.couples);
  countMothers(pop, t.mothers);
  for (const pair of r.pairs) addPairCounts(t.pairs[pair.name]!, pop, pair.a, pair.b, pair.keep);
  countIndigenousLanguage(pop, t.indigenousLanguage, r.indigenousLanguageAmong);
  return t;
}

function addSourceTally(into: SourceTally, from: SourceTally): void {
  for (const [name, rate] of Object.entries(from.implausible)) addRate((into.implausible[name] ??= emptyRate()), rate);
  addResemblance(into.resemblance, from.resemblance);
  addCouples(into.couples, from.couples);
  addHistogram(into.mothers, from.mothers);
  for (const [name, table] of Object.entries(from.pairs)) addHistogram((into.pairs[name] ??= new Float64Array(table.length)), table);
  addRate(into.indigenousLanguage, from.indigenousLanguage);
}

const emptyRecovery = (): RecoveryTally => ({ synthetic: emptyCellErrors(), independence: emptyCellErrors() });

/** (c) for one suburb: every table's errors against the truth, over all cells and over stated categories. */
function recoveryTally(s: SuburbRealism, r: Resolved): Record<string, TableRecoveryTally> {
  const out: Record<string, TableRecoveryTally> = {};
  for (const { spec, layout } of r.tables) {
    const known = s.truthTables?.get(spec.id);
    if (!s.truth && !known) continue;
    const truth = s.truth ? tabulate(s.truth, spec) : Float64Array.from(known!);
    const synthetic = tabulate(s.synthetic, spec);
    const oracle = s.oracle ? tabulate(s.oracle, spec) : undefined;
    const input = (lay: CrossTabLayout, syn: Float64Array, tru: Float64Array, ora: Float64Array | undefined): RecoveryInput => ({
      synthetic: syn,
      truth: tru,
      independence: independenceTable(syn, lay.sizes),
      ...(ora ? { oracle: ora, oracleIndependence: independenceTable(ora, lay.sizes) } : {}),
    });
    const stated = (x: Float64Array) => restrictCrossTab(x, layout).table;
    const statedLayout = restrictCrossTab(truth, layout).layout;
    const all = input(layout, synthetic, truth, oracle);
    const statedOnly = input(statedLayout, stated(synthetic), stated(truth), oracle && stated(oracle));
    out[spec.id] = {
      cells: recoveryErrors(all),
      stated: recoveryErrors(statedOnly),
      pooled: addPooled(undefined, all),
      pooledStated: addPooled(undefined, statedOnly),
    };
  }
  return out;
}

function emptyGroupTally(r: Resolved): GroupTally {
  return {
    suburbs: 0,
    persons: 0,
    synthetic: emptySourceTally(r),
    recovery: Object.fromEntries(r.tables.map(({ spec }) => [spec.id, { cells: emptyRecovery(), stated: emptyRecovery() }])),
  };
}

function addGroupTally(into: GroupTally, from: GroupTally, r: Resolved): void {
  into.suburbs += from.suburbs;
  into.persons += from.persons;
  addSourceTally(into.synthetic, from.synthetic);
  if (from.truth) addSourceTally((into.truth ??= emptySourceTally(r)), from.truth);
  if (from.oracle) addSourceTally((into.oracle ??= emptySourceTally(r)), from.oracle);
  for (const [id, t] of Object.entries(from.recovery)) {
    const to = (into.recovery[id] ??= { cells: emptyRecovery(), stated: emptyRecovery() });
    addRecovery(to.cells, t.cells);
    addRecovery(to.stated, t.stated);
    if (t.pooled) to.pooled = addPooled(to.pooled, t.pooled);
    if (t.pooledStated) to.pooledStated = addPooled(to.pooledStated, t.pooledStated);
  }
}

/** Everything (a)–(c) counts for one suburb, as a tally of one. */
export function suburbRealismTally(s: SuburbRealism, options: RealismOptions = {}): GroupTally {
  return suburbTally(s, resolve(options));
}

function suburbTally(s: SuburbRealism, r: Resolved): GroupTally {
  return {
    suburbs: 1,
    persons: s.persons ?? s.synthetic.persons.count,
    synthetic: sourceTally(s.synthetic, r),
    ...(s.truth ? { truth: sourceTally(s.truth, r) } : {}),
    ...(s.oracle ? { oracle: sourceTally(s.oracle, r) } : {}),
    recovery: recoveryTally(s, r),
  };
}

// ------------------------------------------------------------------ figures

export interface RateFigure extends Rate {
  rate: number | undefined;
}
const rateFigure = (r: Rate): RateFigure => ({ numerator: r.numerator, denominator: r.denominator, rate: rateOf(r) });

/** One source's figures over a set of suburbs. */
export interface SourceFigures {
  implausible: Record<string, RateFigure>;
  /** Couples and children alike, against independence, the synthesizer's target and the published figure. */
  resemblance: ResemblanceFigures;
  couples: CoupleFigures;
  /** Mothers' age at the eldest child's birth. */
  mothers: MotherFigures;
  cramersV: Record<string, number | undefined>;
  /** Indigenous persons speaking an Indigenous language (by default in remote and very remote areas). */
  indigenousLanguage: RateFigure;
}

export interface TableErrorRemoved {
  /** Over every cell of the cross-tab. */
  cells: ErrorRemoved;
  /** Over stated categories only (restrictCrossTab): no credit for structurally known "Not applicable" cells. */
  stated: ErrorRemoved;
  /** The cross-tab summed over the suburbs first (PooledTables), all cells and stated categories. */
  pooled?: ErrorRemoved;
  pooledStated?: ErrorRemoved;
}

export interface GroupFigures {
  suburbs: number;
  persons: number;
  synthetic: SourceFigures;
  truth?: SourceFigures;
  oracle?: SourceFigures;
  errorRemoved: Record<string, TableErrorRemoved>;
}

export interface RealismSummary {
  all: GroupFigures;
  /** Suburbs banded by persons: < 500, 500–4,999, ≥ 5,000. */
  byBand: Record<SizeBand, GroupFigures>;
}

export function sourceFigures(t: SourceTally, pairs: readonly PairSpec[] = REALISM_PAIRS): SourceFigures {
  return {
    implausible: Object.fromEntries(Object.entries(t.implausible).map(([name, r]) => [name, rateFigure(r)])),
    resemblance: resemblanceFigures(t.resemblance),
    couples: coupleFigures(t.couples),
    mothers: motherFigures(t.mothers),
    cramersV: Object.fromEntries(
      pairs.map((pair) => [pair.name, cramersVOfCounts(t.pairs[pair.name]!, variableByCode(pair.a).categories, variableByCode(pair.b).categories)]),
    ),
    indigenousLanguage: rateFigure(t.indigenousLanguage),
  };
}

export function groupFigures(t: GroupTally, pairs: readonly PairSpec[] = REALISM_PAIRS): GroupFigures {
  return {
    suburbs: t.suburbs,
    persons: t.persons,
    synthetic: sourceFigures(t.synthetic, pairs),
    ...(t.truth ? { truth: sourceFigures(t.truth, pairs) } : {}),
    ...(t.oracle ? { oracle: sourceFigures(t.oracle, pairs) } : {}),
    errorRemoved: Object.fromEntries(
      // Only the cross-tabs some suburb had a truth for (none in a build of real inputs).
      Object.entries(t.recovery).filter(([, x]) => x.pooled !== undefined).map(([id, x]) => [
        id,
        {
          cells: errorRemovedOf(x.cells),
          stated: errorRemovedOf(x.stated),
          ...(x.pooled ? { pooled: shareOfErrorRemoved(x.pooled) } : {}),
          ...(x.pooledStated ? { pooledStated: shareOfErrorRemoved(x.pooledStated) } : {}),
        },
      ]),
    ),
  };
}

/** Pools suburbs one at a time (overall and by size band); summary() turns the pooled counts into figures. */
export interface RealismAccumulator {
  add(suburb: SuburbRealism): void;
  /** Adds a tally built elsewhere (suburbRealismTally, e.g. in a worker) to the total and to `band`. */
  addTally(tally: GroupTally, band: SizeBand): void;
  readonly all: GroupTally;
  readonly byBand: Readonly<Record<SizeBand, GroupTally>>;
  summary(): RealismSummary;
}

export function createRealismAccumulator(options: RealismOptions = {}): RealismAccumulator {
  const r = resolve(options);
  const all = emptyGroupTally(r);
  const byBand = Object.fromEntries(SIZE_BANDS.map((b) => [b, emptyGroupTally(r)])) as Record<SizeBand, GroupTally>;
  const addTally = (tally: GroupTally, band: SizeBand) => {
    addGroupTally(all, tally, r);
    addGroupTally(byBand[band], tally, r);
  };
  return {
    all,
    byBand,
    addTally,
    add(suburb) {
      const tally = suburbTally(suburb, r);
      addTally(tally, sizeBand(tally.persons));
    },
    summary: () => ({
      all: groupFigures(all, r.pairs),
      byBand: Object.fromEntries(SIZE_BANDS.map((b) => [b, groupFigures(byBand[b], r.pairs)])) as Record<SizeBand, GroupFigures>,
    }),
  };
}

/** (a)–(c) pooled over many suburbs, overall and by size band (pooled counts, not averages of rates). */
export function summarizeRealism(suburbs: Iterable<SuburbRealism>, options: RealismOptions = {}): RealismSummary {
  const acc = createRealismAccumulator(options);
  for (const s of suburbs) acc.add(s);
  return acc.summary();
}

/**
 * A build's realism (synthetic records, scored against the truth's cross-tabs where it has
 * them) completed with a reference computed where the truth's records were at hand (the demo
 * generator: its `synthetic` is the truth itself, its `oracle` a second draw of the truth
 * model): the truth's and the oracle's rates and Cramér's V, and the oracle's share of error
 * removed, next to the build's own.
 */
export function withReference(build: RealismSummary, reference: RealismSummary): RealismSummary {
  const merge = (own: GroupFigures, ref: GroupFigures | undefined): GroupFigures => {
    if (!ref) return own;
    const oracleOf = (mine: ErrorRemoved | undefined, theirs: ErrorRemoved | undefined): ErrorRemoved | undefined =>
      mine ? { ...mine, ...(theirs ? { oracle: theirs.oracle, oracleSrmse: theirs.oracleSrmse } : {}) } : undefined;
    const errorRemoved = Object.fromEntries(
      Object.entries(own.errorRemoved).map(([id, mine]) => {
        const theirs = ref.errorRemoved[id];
        const pooled = oracleOf(mine.pooled, theirs?.pooled);
        const pooledStated = oracleOf(mine.pooledStated, theirs?.pooledStated);
        return [
          id,
          {
            cells: oracleOf(mine.cells, theirs?.cells)!,
            stated: oracleOf(mine.stated, theirs?.stated)!,
            ...(pooled ? { pooled } : {}),
            ...(pooledStated ? { pooledStated } : {}),
          },
        ];
      }),
    );
    return { ...own, truth: ref.synthetic, ...(ref.oracle ? { oracle: ref.oracle } : {}), errorRemoved };
  };
  return {
    all: merge(build.all, reference.all),
    byBand: Object.fromEntries(SIZE_BANDS.map((b) => [b, merge(build.byBand[b], reference.byBand[b])])) as Record<SizeBand, GroupFigures>,
  };
}
