import { describe, expect, it } from 'vitest';
import type { Population } from '../../../src/synthesis/census/population.ts';
import { categoryIndex } from '../../../src/synthesis/census/variables.ts';
import { createRng } from '../../../src/synthesis/synthesizer/rng.ts';
import { checkStructuralRules, STRUCTURAL_RULES } from '../../../src/synthesis/synthesizer/rules.ts';
import { AGES, buildStructure, DEFAULT_BANDS, TARGET_ROLE_COUNT, TargetRole, type StructureTargets } from '../../../src/synthesis/synthesizer/structure/index.ts';

/**
 * A suburb with every kind of resident: households, two visitors away (one of them the partner
 * of a man at home: G27 counts 3 men and 2 women partners for 3 couples), residents of an aged
 * care home.
 */
function suburb(): Population {
  const ageSex = new Float64Array(2 * AGES);
  for (const [sex, age, n] of [[0, 40, 3], [1, 38, 2], [0, 8, 2], [1, 6, 2], [0, 22, 2], [1, 75, 2], [0, 19, 1], [1, 37, 1], [1, 90, 4], [0, 86, 2]] as const) ageSex[sex * AGES + age]! += n;
  const nb = DEFAULT_BANDS.length;
  const byRoleSexBand = new Float64Array(TARGET_ROLE_COUNT * 2 * nb);
  const band = (a: number) => DEFAULT_BANDS.findIndex(([lo, hi]) => a >= lo && a <= hi);
  for (const [r, sex, age, n] of [
    [TargetRole.Partner, 0, 40, 3], [TargetRole.Partner, 1, 38, 2], [TargetRole.ChildUnder15, 0, 8, 2], [TargetRole.ChildUnder15, 1, 6, 2],
    [TargetRole.Visitor, 0, 19, 1], [TargetRole.Visitor, 1, 37, 1], [TargetRole.NonPrivate, 1, 90, 4], [TargetRole.NonPrivate, 0, 86, 2],
  ] as const)
    byRoleSexBand[r * 2 * nb + sex * nb + band(age)]! += n;
  const targets: StructureTargets = {
    persons: 22,
    privatePersons: 16,
    visitors: 2,
    personsByAgeSex: ageSex,
    dwellings: 5,
    familyHouseholdsBySize: [0, 0, 0, 0, 1, 2, 0],
    groupHouseholdsBySize: [0, 0, 0, 0, 0, 0, 0],
    loneHouseholds: 2,
    familiesByType: [0, 3, 0, 0],
    roles: { bands: DEFAULT_BANDS, byRoleSexBand },
  };
  return buildStructure(targets, createRng(3)).population;
}

const pop = suburb();
const RLHP = (label: string) => categoryIndex('RLHP', label);
const persons = (test: (p: number) => boolean) => Array.from({ length: pop.persons.count }, (_, p) => p).filter(test);
const violated = (p: Population) => Object.entries(checkStructuralRules(p).byRule).filter(([, n]) => n > 0).map(([rule]) => rule);

function withColumn(level: 'persons' | 'dwellings', code: string, index: number, value: number): Population {
  const column = pop[level].variables[code]!.slice();
  column[index] = value;
  return { ...pop, [level]: { ...pop[level], variables: { ...pop[level].variables, [code]: column } } };
}

describe('structural rules for residents away and in non-private dwellings', () => {
  const npd = pop.dwellings.variables['DWTD']!.indexOf(categoryIndex('DWTD', 'Non-private dwelling or non-classifiable household'));
  // A visitor whose household counts them (not one living in the non-private dwelling).
  const visitor = persons((p) => pop.persons.variables['RLHP']![p] === RLHP('Visitor (from within Australia)') && pop.persons.dwelling[p] !== npd)[0]!;
  const resident = persons((p) => pop.persons.dwelling[p] === npd)[0]!;

  it('a built population with all of them breaks none', () => {
    expect(violated(pop)).toEqual([]);
    // The couple with a partner away: a man at home, a woman of 37 or 38 (G27's visitor, 35-44) away visiting.
    const partnerAway = persons((p) => pop.persons.family[p]! >= 0 && pop.persons.variables['RLHP']![p] === RLHP('Visitor (from within Australia)'));
    expect(partnerAway.map((p) => pop.persons.variables['SEXP']![p])).toEqual([1]);
    expect([37, 38]).toContain(pop.persons.age[partnerAway[0]!]);
    expect(npd).toBeGreaterThanOrEqual(0);
    expect(visitor).toBeDefined();
    expect(new Set(STRUCTURAL_RULES.map((r) => r.name)).size).toBe(STRUCTURAL_RULES.length);
  });

  it('each catches a planted violation', () => {
    // A non-private dwelling with a household size, or a household without one.
    expect(violated(withColumn('dwellings', 'NPRD', npd, categoryIndex('NPRD', 'Three persons')))).toEqual(['non-private-dwelling']);
    expect(violated(withColumn('dwellings', 'DWTD', npd, categoryIndex('DWTD', 'Occupied private dwelling')))).toEqual(
      expect.arrayContaining(['nprd-equals-persons', 'non-private-dwelling']),
    );
    // A resident of the non-private dwelling who says they were at home in a household there.
    expect(violated(withColumn('persons', 'RLHP', resident, RLHP('Lone person')))).toEqual(expect.arrayContaining(['non-private-dwelling']));
    // Social marital status for someone away on Census night.
    expect(violated(withColumn('persons', 'MDCP', visitor, categoryIndex('MDCP', 'Not married')))).toEqual(['social-marital-status-applies']);
    expect(violated(withColumn('persons', 'MDCP', resident, categoryIndex('MDCP', 'Not married')))).toEqual(['social-marital-status-applies']);
    // A visitor placed in a family whose partners are both at home.
    const family = pop.persons.family.slice();
    const household = pop.persons.dwelling[visitor]!;
    const full = Array.from({ length: pop.families.count }, (_, f) => f).find(
      (f) => persons((p) => pop.persons.family[p] === f && pop.persons.variables['RLHP']![p] === RLHP('Partner in a registered marriage')).length === 2
        || persons((p) => pop.persons.family[p] === f && pop.persons.variables['RLHP']![p] === RLHP('Partner in a de facto marriage')).length === 2,
    )!;
    family[visitor] = full;
    expect(violated({ ...pop, persons: { ...pop.persons, family } })).toEqual(expect.arrayContaining(['absent-residents', 'couple-has-two-partners']));
    // Everyone of a household away on Census night: nobody at home.
    const members = persons((p) => pop.persons.dwelling[p] === household);
    const rlhp = pop.persons.variables['RLHP']!.slice();
    for (const p of members) rlhp[p] = RLHP('Visitor (from within Australia)');
    expect(violated({ ...pop, persons: { ...pop.persons, variables: { ...pop.persons.variables, RLHP: rlhp } } })).toEqual(expect.arrayContaining(['absent-residents']));
  });
});
