/**
 * Cross-level coherence rules for the attributes (the structural rules of dwellings, families
 * and links live with the structure code). Each rule is named, says what it checks, and
 * counts the records that break it; every synthesized record must pass all of them
 * (docs/synthesis.md, "Coherence rules").
 */
import type { Population, PopulationLevel } from '../census/population.ts';
import { categoryIndex, variableByCode } from '../census/variables.ts';
import {
  classifyAll,
  classifyEquivalised,
  familyIncomeMembers,
  householdIncomeMembers,
  incomeScale,
  personDollars,
  tallyIncome,
} from './attributes/income.ts';
import { deriveLfsf } from './attributes/family.ts';
import { checkRules, type PopulationRule, type RuleReport } from './rules.ts';

/** A structural rule (rules.ts) that also says which level's records it counts. */
export interface CoherenceRule extends PopulationRule {
  readonly level: PopulationLevel;
}

export interface CoherenceResult {
  readonly rule: string;
  readonly violations: number;
}

const na = (code: string): number => categoryIndex(code, 'Not applicable');

/** Person variables that only working-age people (15+) have, and only they. */
export const ADULT_ONLY = ['MSTP', 'INCP', 'HEAP', 'LFSP', 'UAI5P', 'VOLWP'] as const;
/** Person variables that only the employed have, and all of them. */
export const EMPLOYED_ONLY = ['HRSP', 'OCCP', 'INDP', 'MTWP'] as const;

const EMPLOYED = new Set(
  ['Employed, worked full-time', 'Employed, worked part-time', 'Employed, away from work', 'Employed, hours of work not stated'].map((l) =>
    categoryIndex('LFSP', l),
  ),
);

function column(pop: Population, level: PopulationLevel, code: string): Uint8Array | undefined {
  return pop[level].variables[code];
}

function countWhere(n: number, bad: (i: number) => boolean): number {
  let v = 0;
  for (let i = 0; i < n; i++) if (bad(i)) v++;
  return v;
}

const adultOnly: CoherenceRule[] = ADULT_ONLY.map((code) => ({
  name: `${code.toLowerCase()}-for-15-and-over-only`,
  level: 'persons',
  description: `${code} is "Not applicable" exactly for persons under 15`,
  check: (pop) => {
    const col = column(pop, 'persons', code);
    if (!col) return 0;
    const age = pop.persons.age;
    const n = na(code);
    return countWhere(pop.persons.count, (i) => (age[i]! < 15) !== (col[i] === n));
  },
}));

const employedOnly: CoherenceRule[] = EMPLOYED_ONLY.map((code) => ({
  name: `${code.toLowerCase()}-for-employed-only`,
  level: 'persons',
  description: `${code} is "Not applicable" exactly for persons who are not employed (LFSP)`,
  check: (pop) => {
    const col = column(pop, 'persons', code);
    const lfsp = column(pop, 'persons', 'LFSP');
    if (!col || !lfsp) return 0;
    const n = na(code);
    return countWhere(pop.persons.count, (i) => EMPLOYED.has(lfsp[i]!) === (col[i] === n));
  },
}));

const hours = (...labels: string[]) => new Set(labels.map((l) => categoryIndex('HRSP', l)));
/** HRSP categories each employed LFSP category allows (ABS: full-time = 35 hours and over). */
const HOURS_FOR_STATUS = new Map<number, Set<number>>([
  [categoryIndex('LFSP', 'Employed, worked full-time'), hours('35-39 hours', '40 hours', '41-48 hours', '49 hours and over')],
  [categoryIndex('LFSP', 'Employed, worked part-time'), hours('1-15 hours', '16-24 hours', '25-34 hours')],
  [categoryIndex('LFSP', 'Employed, away from work'), hours('No hours worked')],
  [categoryIndex('LFSP', 'Employed, hours of work not stated'), hours('Not stated')],
]);
const SCHOOL_AGES = new Map<number, readonly [number, number]>([
  [categoryIndex('TYPP', 'Pre-school'), [3, 5]],
  [categoryIndex('TYPP', 'Infants/Primary'), [5, 12]],
  [categoryIndex('TYPP', 'Secondary'), [12, 24]],
]);

const SECONDARY = categoryIndex('TYPP', 'Secondary');
const MARRIED = categoryIndex('MSTP', 'Married');
const REGISTERED = categoryIndex('MDCP', 'Married in a registered marriage');
const RENTED = categoryIndex('TEND', 'Rented');
const MORTGAGE = categoryIndex('TEND', 'Owned with a mortgage');

const incomeRule = (
  name: string,
  level: 'families' | 'dwellings',
  code: string,
  equivalised: boolean,
): CoherenceRule => ({
  name,
  level,
  description: equivalised
    ? `${code} is the band of the members' summed INCP amounts on the OECD-modified scale, partial / all not stated as members 15+ stated (a visitor away counts as not stated); "Not applicable" for a non-private dwelling`
    : `${code} is the band of the members' summed INCP amounts (members 15+), partial / all not stated as members 15+ stated (a visitor away counts as not stated); "Not applicable" for a non-private dwelling`,
  check: (pop) => {
    const col = column(pop, level, code);
    const incp = column(pop, 'persons', 'INCP');
    if (!col || !incp) return 0;
    const rlhp = column(pop, 'persons', 'RLHP');
    const dwtd = column(pop, 'dwellings', 'DWTD');
    const dollars = personDollars(variableByCode('INCP').categories);
    let tally;
    let applies: Uint8Array | undefined;
    if (level === 'dwellings' && rlhp && dwtd) {
      // Residents at home; visitors away count as members who did not state an income.
      const members = householdIncomeMembers(pop.persons.dwelling, rlhp, dwtd);
      tally = tallyIncome(pop[level].count, members.groupOf, pop.persons.age, incp, dollars, members.absentGroupOf);
      applies = members.applies;
    } else if (level === 'families' && rlhp) {
      // Members at home; a partner away counts as a member who did not state an income.
      const members = familyIncomeMembers(pop.persons.family, rlhp);
      tally = tallyIncome(pop[level].count, members.groupOf, pop.persons.age, incp, dollars, members.absentGroupOf);
    } else {
      tally = tallyIncome(pop[level].count, level === 'dwellings' ? pop.persons.dwelling : pop.persons.family, pop.persons.age, incp, dollars);
    }
    const scale = incomeScale(variableByCode(code).categories);
    const expected = equivalised ? classifyEquivalised(scale, tally, applies) : classifyAll(scale, tally, applies);
    return countWhere(pop[level].count, (g) => expected[g] !== col[g]);
  },
});

export const COHERENCE_RULES: readonly CoherenceRule[] = [
  ...adultOnly,
  ...employedOnly,
  {
    name: 'registered-marriage-is-married',
    level: 'persons',
    description: 'a partner in a registered marriage (MDCP) has registered marital status "Married" (MSTP)',
    check: (pop) => {
      const mdcp = column(pop, 'persons', 'MDCP');
      const mstp = column(pop, 'persons', 'MSTP');
      if (!mdcp || !mstp) return 0;
      return countWhere(pop.persons.count, (i) => mdcp[i] === REGISTERED && mstp[i] !== MARRIED);
    },
  },
  {
    name: 'english-proficiency-for-other-languages',
    level: 'persons',
    description: 'a person who speaks English only at home has ENGLP "Not applicable"',
    check: (pop) => {
      const lanp = column(pop, 'persons', 'LANP');
      const englp = column(pop, 'persons', 'ENGLP');
      if (!lanp || !englp) return 0;
      const englishOnly = categoryIndex('LANP', 'English only');
      return countWhere(pop.persons.count, (i) => lanp[i] === englishOnly && englp[i] !== na('ENGLP'));
    },
  },
  {
    name: 'hscp-for-15-and-over-not-at-school',
    level: 'persons',
    description: 'HSCP is "Not applicable" exactly for persons under 15 and persons attending secondary school (TYPP), as G16 counts',
    check: (pop) => {
      const hscp = column(pop, 'persons', 'HSCP');
      const typp = column(pop, 'persons', 'TYPP');
      if (!hscp || !typp) return 0;
      const age = pop.persons.age;
      const n = na('HSCP');
      return countWhere(pop.persons.count, (i) => (age[i]! < 15 || typp[i] === SECONDARY) !== (hscp[i] === n));
    },
  },
  {
    name: 'hours-match-labour-force',
    level: 'persons',
    description: 'HRSP agrees with LFSP: full-time 35 hours and over, part-time 1-34 hours, away from work none, hours not stated not stated',
    check: (pop) => {
      const lfsp = column(pop, 'persons', 'LFSP');
      const hrsp = column(pop, 'persons', 'HRSP');
      if (!lfsp || !hrsp) return 0;
      return countWhere(pop.persons.count, (i) => {
        const allowed = HOURS_FOR_STATUS.get(lfsp[i]!);
        return allowed !== undefined && !allowed.has(hrsp[i]!);
      });
    },
  },
  {
    name: 'school-fits-age',
    level: 'persons',
    description: 'TYPP pre-school only at ages 3-5, infants/primary at 5-12, secondary at 12-24',
    check: (pop) => {
      const typp = column(pop, 'persons', 'TYPP');
      if (!typp) return 0;
      const age = pop.persons.age;
      return countWhere(pop.persons.count, (i) => {
        const range = SCHOOL_AGES.get(typp[i]!);
        return range !== undefined && (age[i]! < range[0] || age[i]! > range[1]);
      });
    },
  },
  incomeRule('hind-from-members', 'dwellings', 'HIND', false),
  incomeRule('hied-from-members', 'dwellings', 'HIED', true),
  incomeRule('finf-from-members', 'families', 'FINF', false),
  {
    name: 'lfsf-from-parents',
    level: 'families',
    description: "LFSF follows from the partners' or the lone parent's LFSP; other families are \"Not applicable\"",
    check: (pop) => {
      const lfsf = column(pop, 'families', 'LFSF');
      const lfsp = column(pop, 'persons', 'LFSP');
      const rlhp = column(pop, 'persons', 'RLHP');
      if (!lfsf || !lfsp || !rlhp) return 0;
      const expected = deriveLfsf(pop.families.count, pop.persons.family, rlhp, lfsp);
      return countWhere(pop.families.count, (f) => expected[f] !== lfsf[f]);
    },
  },
  {
    name: 'landlord-and-rent-for-renters-only',
    level: 'dwellings',
    description: 'LLDD and RNTRD are "Not applicable" exactly when the dwelling is not rented (TEND)',
    check: (pop) => {
      const tend = column(pop, 'dwellings', 'TEND');
      const lldd = column(pop, 'dwellings', 'LLDD');
      const rntrd = column(pop, 'dwellings', 'RNTRD');
      if (!tend || !lldd || !rntrd) return 0;
      return countWhere(pop.dwellings.count, (d) => {
        const rented = tend[d] === RENTED;
        return rented === (lldd[d] === na('LLDD')) || rented === (rntrd[d] === na('RNTRD'));
      });
    },
  },
  {
    name: 'mortgage-for-mortgagors-only',
    level: 'dwellings',
    description: 'MRERD is "Not applicable" exactly when the dwelling is not owned with a mortgage (TEND)',
    check: (pop) => {
      const tend = column(pop, 'dwellings', 'TEND');
      const mrerd = column(pop, 'dwellings', 'MRERD');
      if (!tend || !mrerd) return 0;
      return countWhere(pop.dwellings.count, (d) => (tend[d] === MORTGAGE) === (mrerd[d] === na('MRERD')));
    },
  },
];

/** Every rule's violation count (0 everywhere for a coherent population). */
export function checkCoherence(pop: Population): CoherenceResult[] {
  return COHERENCE_RULES.map((r) => ({ rule: r.name, violations: r.check(pop) }));
}

/** The coherence rules as a rules.ts report, to merge with the structural one. */
export function checkCoherenceRules(pop: Population): RuleReport {
  return checkRules(pop, COHERENCE_RULES);
}
