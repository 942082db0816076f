/**
 * Implausible combinations: how often the records show a combination the census (nearly) never
 * shows (the realism section of the build report, "implausible combination").
 *
 * Definition. Each check is a rate, numerator over denominator: among whom it applies (persons
 * aged 15–17, dependent students, rented dwellings …) how many show the combination (a partner,
 * no school, a mortgage …). Counts add over suburbs; the rate is taken once, of the pooled counts.
 *
 * Reference figure. The census's own rate: nil or close to it. On the demo, the hidden truth
 * shows 0.00% for partners, lone persons and group-household members aged 15–17 and for
 * dependent students attending nothing (goal: under 0.5%, and 0 for the students); for
 * professionals without a degree the reference is the truth's share (22.4%, goal within 5
 * points). The figures of one demo build are in docs/synthesis.md, "Joint realism".
 */
import type { Population } from '../census/population.ts';
import { categoryIndex } from '../census/variables.ts';
import { isPartner, RLHP } from '../census/relationships.ts';
import { columnsOf, emptyRate, indices, type Columns, type Level, type Rate } from './counts.ts';
import { forEachMother } from './couples.ts';

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
