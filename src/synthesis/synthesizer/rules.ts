import type { Population } from '../census/population.ts';
import { isChild, isPartner, RLHP } from '../census/relationships.ts';
import { age5pOfAge, agepOfAge, categoryIndex } from '../census/variables.ts';

/**
 * Structural rules: how persons, families and dwellings must fit together. Each rule counts
 * its violations over one suburb's population; a rule list is open so that other modules (the
 * attributes' coherence rules) can add theirs and run them all with checkRules.
 */
export interface PopulationRule {
  readonly name: string;
  readonly description: string;
  /** Number of records that break the rule. */
  check(pop: Population): number;
}

export interface RuleReport {
  readonly violations: number;
  readonly byRule: Record<string, number>;
}

const HHCD = { family: categoryIndex('HHCD', 'Family household'), lone: categoryIndex('HHCD', 'Lone person household'), group: categoryIndex('HHCD', 'Group household') };
const NON_PRIVATE = categoryIndex('DWTD', 'Non-private dwelling or non-classifiable household');
/** Dwelling variables that say nothing of a non-private dwelling (all "Not applicable" there). */
const HOUSEHOLD_CODES = ['NPRD', 'HHCD', 'HCFMD', 'NFMD'] as const;
const NOT_APPLICABLE = Object.fromEntries(HOUSEHOLD_CODES.map((code) => [code, categoryIndex(code, 'Not applicable')])) as Record<(typeof HOUSEHOLD_CODES)[number], number>;
/** At most this many absent residents (visitors elsewhere) count among a household's usual residents. */
const MAX_ABSENT = 3;
const FMCF = {
  coupleNone: categoryIndex('FMCF', 'Couple family without children'),
  coupleU15: categoryIndex('FMCF', 'Couple family with children under 15'),
  coupleOlder: categoryIndex('FMCF', 'Couple family with no children under 15'),
  parentU15: categoryIndex('FMCF', 'One parent family with children under 15'),
  parentOlder: categoryIndex('FMCF', 'One parent family with no children under 15'),
  other: categoryIndex('FMCF', 'Other family'),
};
const MDCP = {
  registered: categoryIndex('MDCP', 'Married in a registered marriage'),
  deFacto: categoryIndex('MDCP', 'Married in a de facto marriage'),
  notApplicable: categoryIndex('MDCP', 'Not applicable'),
};

const col = (vars: Readonly<Record<string, Uint8Array>>, code: string): Uint8Array => {
  const c = vars[code];
  if (!c) throw new Error(`population has no ${code} column`);
  return c;
};
const isFamilyRole = (r: number): boolean => isPartner(r) || r === RLHP.loneParent || isChild(r) || r === RLHP.otherRelated;
/** Away on Census night: a visitor to another private dwelling, or in a non-private dwelling (RLHP "Not applicable"). */
const isAway = (r: number): boolean => r === RLHP.visitor || r === RLHP.notApplicable;

/** Per family: members, partners (at home), members away, lone parents, children by kind, youngest parent age, eldest child age. */
function familyFacts(pop: Population) {
  const F = pop.families.count;
  const members = new Int32Array(F);
  const partners = new Int32Array(F);
  const away = new Int32Array(F);
  const parents = new Int32Array(F);
  const under15 = new Int32Array(F);
  const dependants = new Int32Array(F);
  const children = new Int32Array(F);
  const youngestParent = new Int32Array(F).fill(1000);
  const oldestChild = new Int32Array(F).fill(-1);
  const rlhp = col(pop.persons.variables, 'RLHP');
  for (let p = 0; p < pop.persons.count; p++) {
    const f = pop.persons.family[p] as number;
    if (f < 0 || f >= F) continue;
    const r = rlhp[p] as number;
    const a = pop.persons.age[p] as number;
    members[f]!++;
    if (isPartner(r)) partners[f]!++;
    if (isAway(r)) away[f]!++;
    if (r === RLHP.loneParent) parents[f]!++;
    if (isPartner(r) || r === RLHP.loneParent) youngestParent[f] = Math.min(youngestParent[f]!, a);
    if (isChild(r)) { children[f]!++; oldestChild[f] = Math.max(oldestChild[f]!, a); }
    if (r === RLHP.under15) under15[f]!++;
    if (r === RLHP.under15 || r === RLHP.student) dependants[f]!++;
  }
  return { members, partners, away, parents, under15, dependants, children, youngestParent, oldestChild };
}


/** Persons (usual residents), those away on Census night among them, and families per dwelling. */
function dwellingFacts(pop: Population) {
  const D = pop.dwellings.count;
  const persons = new Int32Array(D);
  const away = new Int32Array(D);
  const families = new Int32Array(D);
  const firstFamily = new Int32Array(D).fill(-1);
  const rlhp = col(pop.persons.variables, 'RLHP');
  for (let p = 0; p < pop.persons.count; p++) {
    const d = pop.persons.dwelling[p] as number;
    if (d >= D) continue;
    persons[d]!++;
    if (isAway(rlhp[p] as number)) away[d]!++;
  }
  for (let f = 0; f < pop.families.count; f++) {
    const d = pop.families.dwelling[f] as number;
    if (d >= D) continue;
    families[d]!++;
    if (firstFamily[d] === -1) firstFamily[d] = f;
  }
  return { persons, away, families, firstFamily };
}

/** Whether each dwelling is a non-private dwelling (DWTD). */
function nonPrivateOf(pop: Population): (d: number) => boolean {
  const dwtd = col(pop.dwellings.variables, 'DWTD');
  return (d) => dwtd[d] === NON_PRIVATE;
}

const rule = (name: string, description: string, check: (pop: Population) => number): PopulationRule => ({ name, description, check });
const countWhere = (n: number, bad: (i: number) => boolean): number => {
  let v = 0;
  for (let i = 0; i < n; i++) if (bad(i)) v++;
  return v;
};

export const STRUCTURAL_RULES: readonly PopulationRule[] = [
  rule('links-valid', 'every person has a dwelling, and a family index in range or none; every family has a dwelling', (pop) =>
    countWhere(pop.persons.count, (p) => (pop.persons.dwelling[p] as number) >= pop.dwellings.count || (pop.persons.family[p] as number) >= pop.families.count || (pop.persons.family[p] as number) < -1)
    + countWhere(pop.families.count, (f) => (pop.families.dwelling[f] as number) >= pop.dwellings.count)),
  rule('nprd-equals-persons', 'an occupied private dwelling\'s NPRD is the number of its usual residents, absent visitors included ("Eight or more persons" from 8); no dwelling is empty', (pop) => {
    const { persons } = dwellingFacts(pop);
    const nprd = col(pop.dwellings.variables, 'NPRD');
    const nonPrivate = nonPrivateOf(pop);
    return countWhere(pop.dwellings.count, (d) => (persons[d] as number) < 1 || (!nonPrivate(d) && nprd[d] !== Math.min(8, persons[d] as number) - 1));
  }),
  rule('non-private-dwelling', 'a non-private dwelling has NPRD, HHCD, HCFMD and NFMD "Not applicable" (an occupied private one none of them), holds no family, and only residents with RLHP "Not applicable" or visitors', (pop) => {
    const nonPrivate = nonPrivateOf(pop);
    const { families } = dwellingFacts(pop);
    const v = pop.dwellings.variables;
    const columns = HOUSEHOLD_CODES.map((code) => [col(v, code), NOT_APPLICABLE[code]] as const);
    const rlhp = col(pop.persons.variables, 'RLHP');
    return countWhere(pop.dwellings.count, (d) => {
      const np = nonPrivate(d);
      return columns.some(([c, na]) => (c[d] === na) !== np) || (np && families[d]! > 0);
    }) + countWhere(pop.persons.count, (p) => nonPrivate(pop.persons.dwelling[p] as number) && !isAway(rlhp[p] as number));
  }),
  rule('absent-residents', `a resident away on Census night (a visitor elsewhere, or RLHP "Not applicable": in a non-private dwelling) is in a family only as a couple's partner away; an occupied private dwelling counts at most ${MAX_ABSENT} of them and has someone at home`, (pop) => {
    const { persons, away } = dwellingFacts(pop);
    const nonPrivate = nonPrivateOf(pop);
    const rlhp = col(pop.persons.variables, 'RLHP');
    const fmcf = col(pop.families.variables, 'FMCF');
    const facts = familyFacts(pop);
    const coupleAway = (f: number) => fmcf[f]! <= FMCF.coupleOlder && facts.partners[f] === 1 && facts.away[f] === 1;
    return countWhere(pop.dwellings.count, (d) => !nonPrivate(d) && away[d]! > 0 && (away[d]! > MAX_ABSENT || away[d]! >= persons[d]!))
      + countWhere(pop.persons.count, (p) => {
        const f = pop.persons.family[p] as number;
        return isAway(rlhp[p] as number) && f >= 0 && !coupleAway(f);
      });
  }),
  rule('family-in-one-dwelling', 'every family member lives in the family\'s dwelling', (pop) =>
    countWhere(pop.persons.count, (p) => { const f = pop.persons.family[p] as number; return f >= 0 && pop.families.dwelling[f] !== pop.persons.dwelling[p]; })),
  rule('couple-has-two-partners', 'a couple family has exactly two partners, both at home or one at home and one away on Census night (its only member away); other families have none and no member away', (pop) => {
    const { partners, away } = familyFacts(pop);
    const fmcf = col(pop.families.variables, 'FMCF');
    return countWhere(pop.families.count, (f) => {
      const couple = fmcf[f] === FMCF.coupleNone || fmcf[f] === FMCF.coupleU15 || fmcf[f] === FMCF.coupleOlder;
      return couple ? !((partners[f] === 2 && away[f] === 0) || (partners[f] === 1 && away[f] === 1)) : partners[f] !== 0 || away[f] !== 0;
    });
  }),
  rule('one-parent-family-has-parent-and-child', 'a one-parent family has one lone parent and at least one child; no other family has a lone parent', (pop) => {
    const { parents, children } = familyFacts(pop);
    const fmcf = col(pop.families.variables, 'FMCF');
    return countWhere(pop.families.count, (f) => {
      const one = fmcf[f] === FMCF.parentU15 || fmcf[f] === FMCF.parentOlder;
      return one ? parents[f] !== 1 || (children[f] as number) < 1 : parents[f] !== 0;
    });
  }),
  rule('family-composition-matches-children', 'FMCF, CACF and CDCF agree with the children present (under 15, dependent, all)', (pop) => {
    const { children, under15, dependants } = familyFacts(pop);
    const v = pop.families.variables;
    const fmcf = col(v, 'FMCF'); const cacf = col(v, 'CACF'); const cdcf = col(v, 'CDCF');
    return countWhere(pop.families.count, (f) => {
      const k = fmcf[f] as number;
      const expectChildren = k !== FMCF.coupleNone && k !== FMCF.other;
      const expectU15 = k === FMCF.coupleU15 || k === FMCF.parentU15;
      return expectChildren !== (children[f]! > 0) || (expectChildren && expectU15 !== (under15[f]! > 0))
        || cacf[f] !== Math.min(6, children[f]!) || cdcf[f] !== Math.min(6, dependants[f]!);
    });
  }),
  rule('family-size-matches', 'NPRF is the number of family members (at least two)', (pop) => {
    const { members } = familyFacts(pop);
    const nprf = col(pop.families.variables, 'NPRF');
    return countWhere(pop.families.count, (f) => members[f]! < 2 || nprf[f] !== Math.min(8, members[f]!) - 2);
  }),
  rule('child-younger-than-parents', `each child is at least 15 years younger than each parent, and the younger parent at most 50 years older than the eldest child`, (pop) => {
    const { youngestParent, oldestChild } = familyFacts(pop);
    return countWhere(pop.families.count, (f) => oldestChild[f]! >= 0 && (youngestParent[f]! - oldestChild[f]! < 15 || youngestParent[f]! - oldestChild[f]! > 50));
  }),
  rule('lone-person-household', 'a lone-person household has one person, a lone person, and no family; a lone person lives in one', (pop) => {
    const { persons, families } = dwellingFacts(pop);
    const hhcd = col(pop.dwellings.variables, 'HHCD');
    const rlhp = col(pop.persons.variables, 'RLHP');
    return countWhere(pop.dwellings.count, (d) => hhcd[d] === HHCD.lone && (persons[d] !== 1 || families[d] !== 0))
      + countWhere(pop.persons.count, (p) => (rlhp[p] === RLHP.lone) !== (hhcd[pop.persons.dwelling[p] as number] === HHCD.lone));
  }),
  rule('group-household', 'a group household has two or more usual residents, those at home all group household members, and no family', (pop) => {
    const { persons, families } = dwellingFacts(pop);
    const hhcd = col(pop.dwellings.variables, 'HHCD');
    const rlhp = col(pop.persons.variables, 'RLHP');
    return countWhere(pop.dwellings.count, (d) => hhcd[d] === HHCD.group && (persons[d]! < 2 || families[d] !== 0))
      + countWhere(pop.persons.count, (p) => !isAway(rlhp[p] as number) && (rlhp[p] === RLHP.group) !== (hhcd[pop.persons.dwelling[p] as number] === HHCD.group));
  }),
  rule('household-composition-matches-families', 'HHCD is "Family household" exactly when the dwelling holds a family; NFMD counts its families; FMHD agrees', (pop) => {
    const { families } = dwellingFacts(pop);
    const hhcd = col(pop.dwellings.variables, 'HHCD');
    const nfmd = col(pop.dwellings.variables, 'NFMD');
    const fmhd = col(pop.families.variables, 'FMHD');
    const nonPrivate = nonPrivateOf(pop);
    return countWhere(pop.dwellings.count, (d) => !nonPrivate(d) && ((hhcd[d] === HHCD.family) !== (families[d]! > 0) || nfmd[d] !== Math.min(3, families[d]!)))
      + countWhere(pop.families.count, (f) => fmhd[f] !== Math.min(3, families[pop.families.dwelling[f] as number]!) - 1);
  }),
  rule('hcfmd-matches', 'HCFMD agrees with HHCD, the number of families and the primary family\'s type', (pop) => {
    const { families, firstFamily } = dwellingFacts(pop);
    const hcfmd = col(pop.dwellings.variables, 'HCFMD');
    const hhcd = col(pop.dwellings.variables, 'HHCD');
    const fmcf = col(pop.families.variables, 'FMCF');
    const typeOf = [0, 1, 1, 2, 2, 3];
    const nonPrivate = nonPrivateOf(pop);
    return countWhere(pop.dwellings.count, (d) => {
      if (nonPrivate(d)) return false; // "non-private-dwelling" checks it
      if (hhcd[d] === HHCD.lone) return hcfmd[d] !== 8;
      if (hhcd[d] === HHCD.group) return hcfmd[d] !== 9;
      const f = firstFamily[d]!;
      return f < 0 || hcfmd[d] !== (families[d]! > 1 ? 4 : 0) + typeOf[fmcf[f] as number]!;
    });
  }),
  rule('roles-match-membership', 'partners, lone parents, children and other relatives belong to a family; unrelated, group and lone persons do not; unrelated persons live in family households', (pop) => {
    const rlhp = col(pop.persons.variables, 'RLHP');
    const hhcd = col(pop.dwellings.variables, 'HHCD');
    return countWhere(pop.persons.count, (p) => {
      const r = rlhp[p] as number;
      const inFamily = (pop.persons.family[p] as number) >= 0;
      if (isAway(r)) return false; // a partner away is in a family: "absent-residents" checks it
      return isFamilyRole(r) !== inFamily || (r === RLHP.unrelated && hhcd[pop.persons.dwelling[p] as number] !== HHCD.family);
    });
  }),
  rule('role-fits-age', 'partners, lone parents, lone persons and group members are 15+; a child under 15 is under 15; a dependent student is 15–24', (pop) => {
    const rlhp = col(pop.persons.variables, 'RLHP');
    return countWhere(pop.persons.count, (p) => {
      const r = rlhp[p] as number;
      const a = pop.persons.age[p] as number;
      if (isPartner(r) || r === RLHP.loneParent || r === RLHP.lone || r === RLHP.group) return a < 15;
      if (r === RLHP.under15) return a >= 15;
      if (r === RLHP.student) return a < 15 || a > 24;
      if (r === RLHP.nonDependent) return a < 15;
      return false;
    });
  }),
  rule('age-group-matches-age', 'AGE5P is the five-year group of the single-year age', (pop) => {
    const age5 = col(pop.persons.variables, 'AGE5P');
    return countWhere(pop.persons.count, (p) => age5[p] !== age5pOfAge(pop.persons.age[p] as number));
  }),
  rule('single-age-matches-age', "AGEP is the single-year age (G04's group above 79), so it always lies in AGE5P's group", (pop) => {
    const agep = col(pop.persons.variables, 'AGEP');
    return countWhere(pop.persons.count, (p) => agep[p] !== agepOfAge(pop.persons.age[p] as number));
  }),
  rule('partners-agree', 'both partners of a couple share their marriage kind (RLHP and MDCP agree); only partners are married socially', (pop) => {
    const rlhp = col(pop.persons.variables, 'RLHP');
    const mdcp = col(pop.persons.variables, 'MDCP');
    const kind = new Int32Array(pop.families.count).fill(-1);
    let bad = 0;
    for (let p = 0; p < pop.persons.count; p++) {
      const r = rlhp[p] as number;
      const married = mdcp[p] === MDCP.registered || mdcp[p] === MDCP.deFacto;
      if (isPartner(r) !== married || (r === RLHP.registered && mdcp[p] !== MDCP.registered) || (r === RLHP.deFacto && mdcp[p] !== MDCP.deFacto)) { bad++; continue; }
      const f = pop.persons.family[p] as number;
      if (isPartner(r) && f >= 0) {
        if (kind[f] === -1) kind[f] = r;
        else if (kind[f] !== r) bad++;
      }
    }
    return bad;
  }),
  rule('social-marital-status-applies', 'MDCP is "Not applicable" exactly for persons under 15, visitors and residents of non-private dwellings (it describes who lives together at home on Census night)', (pop) => {
    const rlhp = col(pop.persons.variables, 'RLHP');
    const mdcp = col(pop.persons.variables, 'MDCP');
    return countWhere(pop.persons.count, (p) => {
      return ((pop.persons.age[p] as number) < 15 || isAway(rlhp[p] as number)) !== (mdcp[p] === MDCP.notApplicable);
    });
  }),
  rule('same-sex-indicator-matches', 'SSCF agrees with the partners\' sexes; not applicable outside couple families', (pop) => {
    const rlhp = col(pop.persons.variables, 'RLHP');
    const sexp = col(pop.persons.variables, 'SEXP');
    const sscf = col(pop.families.variables, 'SSCF');
    const men = new Int32Array(pop.families.count);
    const women = new Int32Array(pop.families.count);
    for (let p = 0; p < pop.persons.count; p++) {
      const f = pop.persons.family[p] as number;
      if (f < 0 || !(isPartner(rlhp[p] as number) || isAway(rlhp[p] as number))) continue; // a partner away included
      if (sexp[p] === 0) men[f]!++; else women[f]!++;
    }
    return countWhere(pop.families.count, (f) => {
      if (men[f]! + women[f]! !== 2) return sscf[f] !== 3;
      return sscf[f] !== (men[f] === 2 ? 1 : women[f] === 2 ? 2 : 0);
    });
  }),
];

/** Runs the given rules and sums their violations. */
export function checkRules(pop: Population, rules: readonly PopulationRule[]): RuleReport {
  const byRule: Record<string, number> = {};
  let violations = 0;
  for (const r of rules) {
    const n = r.check(pop);
    byRule[r.name] = n;
    violations += n;
  }
  return { violations, byRule };
}

export function checkStructuralRules(pop: Population): RuleReport {
  return checkRules(pop, STRUCTURAL_RULES);
}
