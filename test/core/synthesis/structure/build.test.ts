import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRng } from '../../../../src/core/synthesis/rng.ts';
import { checkStructuralRules } from '../../../../src/core/synthesis/rules.ts';
import { AGES, buildStructure, DEFAULT_BANDS, MAX_AGE, TARGET_ROLE_COUNT, TargetRole, type StructureTargets } from '../../../../src/core/synthesis/structure/index.ts';
import { categoryIndex } from '../../../../src/core/census/variables.ts';

/** Persons by age × sex from a list of [sex, age, count]. */
function ageSex(entries: readonly (readonly [number, number, number])[]): Float64Array {
  const out = new Float64Array(2 * AGES);
  for (const [s, a, n] of entries) out[s * AGES + a]! += n;
  return out;
}

/** A G27-style role table from [role, sex, age, count] on the default bands. */
function roles(entries: readonly (readonly [number, number, number, number])[]) {
  const nb = DEFAULT_BANDS.length;
  const byRoleSexBand = new Float64Array(TARGET_ROLE_COUNT * 2 * nb);
  for (const [r, s, a, n] of entries) {
    const b = DEFAULT_BANDS.findIndex(([lo, hi]) => a >= lo && a <= hi);
    byRoleSexBand[r * 2 * nb + s * nb + b]! += n;
  }
  return { bands: DEFAULT_BANDS, byRoleSexBand };
}

const count = (column: Uint8Array, value: number) => column.reduce((n, v) => n + (v === value ? 1 : 0), 0);

describe('buildStructure on a toy suburb with a known answer', () => {
  // Two couples (men 40, women 38) with children 5 | 8 and 10, two 25-year-old men sharing,
  // one woman of 70 living alone: 10 persons, 4 dwellings, 2 families.
  const toy: StructureTargets = {
    persons: 10,
    personsByAgeSex: ageSex([[0, 40, 2], [1, 38, 2], [0, 5, 1], [1, 8, 1], [0, 10, 1], [0, 25, 2], [1, 70, 1]]),
    dwellings: 4,
    familyHouseholdsBySize: [0, 0, 0, 1, 1, 0, 0],
    groupHouseholdsBySize: [0, 0, 1, 0, 0, 0, 0],
    loneHouseholds: 1,
    familiesByType: [0, 2, 0, 0],
    roles: roles([
      [TargetRole.Partner, 0, 40, 2], [TargetRole.Partner, 1, 38, 2],
      [TargetRole.ChildUnder15, 0, 5, 1], [TargetRole.ChildUnder15, 1, 8, 1], [TargetRole.ChildUnder15, 0, 10, 1],
      [TargetRole.GroupMember, 0, 25, 2], [TargetRole.LonePerson, 1, 70, 1],
    ]),
  };

  it('rebuilds exactly the households, families and roles', () => {
    const { population: pop, diagnostics } = buildStructure(toy, createRng(1));
    expect(pop.persons.count).toBe(10);
    expect(pop.dwellings.count).toBe(4);
    expect(pop.families.count).toBe(2);
    const rlhp = pop.persons.variables['RLHP']!;
    const partners = count(rlhp, categoryIndex('RLHP', 'Partner in a registered marriage')) + count(rlhp, categoryIndex('RLHP', 'Partner in a de facto marriage'));
    expect(partners).toBe(4);
    expect(count(rlhp, categoryIndex('RLHP', 'Child under 15'))).toBe(3);
    expect(count(rlhp, categoryIndex('RLHP', 'Group household member'))).toBe(2);
    expect(count(rlhp, categoryIndex('RLHP', 'Lone person'))).toBe(1);
    // The lone person is the 70-year-old woman; the group members are the two men of 25.
    const lone = rlhp.indexOf(categoryIndex('RLHP', 'Lone person'));
    expect([pop.persons.age[lone], pop.persons.variables['SEXP']![lone]]).toEqual([70, 1]);
    // Each couple is a man of 40 and a woman of 38; both families are couples with children under 15.
    const fmcf = pop.families.variables['FMCF']!;
    expect(Array.from(fmcf)).toEqual([1, 1]);
    expect(Array.from(pop.dwellings.variables['NPRD']!).sort()).toEqual([0, 1, 2, 3]);
    expect(diagnostics.childrenToOtherRelated).toBe(0);
    expect(checkStructuralRules(pop)).toEqual({ violations: 0, byRule: expect.any(Object) });
  });

  it('is deterministic for a seed and varies between seeds', () => {
    const a = buildStructure(toy, createRng(9)).population;
    const b = buildStructure(toy, createRng(9)).population;
    expect(Array.from(b.persons.age)).toEqual(Array.from(a.persons.age));
    expect(Array.from(b.persons.dwelling)).toEqual(Array.from(a.persons.dwelling));
    expect(Array.from(b.persons.variables['MDCP']!)).toEqual(Array.from(a.persons.variables['MDCP']!));
  });
});

/** Random, often contradictory, tables: the structure must still be valid and hit both anchors. */
const arbitraryTargets = fc.record({
  persons: fc.integer({ min: 0, max: 400 }),
  dwellings: fc.double({ min: 0, max: 250, noNaN: true }),
  ages: fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 115 }), fc.double({ min: 0, max: 30, noNaN: true })), { maxLength: 30 }),
  family: fc.array(fc.double({ min: 0, max: 60, noNaN: true }), { minLength: 7, maxLength: 7 }),
  group: fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { minLength: 7, maxLength: 7 }),
  lone: fc.double({ min: 0, max: 60, noNaN: true }),
  types: fc.option(fc.array(fc.double({ min: 0, max: 50, noNaN: true }), { minLength: 4, maxLength: 4 }), { nil: undefined }),
  byFamilies: fc.option(fc.array(fc.double({ min: 0, max: 20, noNaN: true }), { minLength: 3, maxLength: 3 }), { nil: undefined }),
  roleCells: fc.option(fc.array(fc.double({ min: 0, max: 20, noNaN: true }), { minLength: TARGET_ROLE_COUNT * 18, maxLength: TARGET_ROLE_COUNT * 18 }), { nil: undefined }),
  mean: fc.option(fc.double({ min: 1, max: 5, noNaN: true }), { nil: undefined }),
  under15: fc.option(fc.array(fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(Number.NaN)), { minLength: 4, maxLength: 4 }), { nil: undefined }),
  registered: fc.option(fc.array(fc.nat(200), { minLength: 4, maxLength: 4 }), { nil: undefined }),
  seed: fc.integer(),
});

describe('buildStructure on arbitrary inputs (property)', () => {
  it('never breaks a structural rule and keeps the person and dwelling anchors', () => {
    fc.assert(
      fc.property(arbitraryTargets, (x) => {
        const targets: StructureTargets = {
          persons: x.persons,
          personsByAgeSex: ageSex(x.ages),
          dwellings: x.dwellings,
          familyHouseholdsBySize: x.family,
          groupHouseholdsBySize: x.group,
          loneHouseholds: x.lone,
          ...(x.types ? { familiesByType: x.types } : {}),
          ...(x.byFamilies ? { familyHouseholdsByFamilies: x.byFamilies } : {}),
          ...(x.roleCells ? { roles: { bands: DEFAULT_BANDS, byRoleSexBand: x.roleCells } } : {}),
          ...(x.mean ? { meanHouseholdSize: x.mean } : {}),
          ...(x.under15 ? { under15Share: x.under15 } : {}),
          ...(x.registered ? { registeredPartnerCap: { ranges: [[15, 39], [40, MAX_AGE]] as const, bySexRange: x.registered } } : {}),
        };
        const { population: pop } = buildStructure(targets, createRng(x.seed));
        const report = checkStructuralRules(pop);
        if (x.registered) {
          // Registered partners of each sex stay within the cap.
          const mdcp = pop.persons.variables['MDCP']!;
          const sexp = pop.persons.variables['SEXP']!;
          const registered = [0, 0, 0, 0];
          for (let i = 0; i < pop.persons.count; i++) if (mdcp[i] === 0) registered[sexp[i]! * 2 + (pop.persons.age[i]! >= 40 ? 1 : 0)]!++;
          registered.forEach((n, k) => expect(n).toBeLessThanOrEqual(x.registered![k]!));
        }
        expect(report.byRule).toEqual(Object.fromEntries(Object.keys(report.byRule).map((k) => [k, 0])));
        expect(pop.persons.count).toBe(x.persons);
        const wanted = Math.min(Math.round(x.dwellings), x.persons);
        expect(pop.dwellings.count).toBe(x.persons > 0 && wanted === 0 ? 1 : wanted);
      }),
      { numRuns: 150 },
    );
  });
});
