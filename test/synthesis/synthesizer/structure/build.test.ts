import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';
import { checkStructuralRules } from '../../../../src/synthesis/synthesizer/rules.ts';
import { AGES, buildStructure, DEFAULT_BANDS, MAX_AGE, TARGET_ROLE_COUNT, TargetRole, type StructureTargets } from '../../../../src/synthesis/synthesizer/structure/index.ts';
import { splitResidents } from '../../../../src/synthesis/synthesizer/structure/residents.ts';
import { categoryIndex } from '../../../../src/synthesis/census/variables.ts';
import { tableById } from '../../../../src/synthesis/census/tables.ts';
import { tabulate } from '../../../../src/synthesis/census/tabulate.ts';

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

describe('buildStructure with residents away and in non-private dwellings (known answer)', () => {
  // Usual residents: two couples (men 40, women 38) with children 5, 8 | 10, a woman of 70 living
  // alone, a man of 20 away on Census night visiting another private dwelling (his household
  // counts him: two 4-person households), and three residents of an aged care home (a man of 88,
  // women of 90 and 91). 12 persons: G27 counts 9 (8 at home, the visitor); G35 three households.
  const toy: StructureTargets = {
    persons: 12,
    privatePersons: 9,
    visitors: 1,
    personsByAgeSex: ageSex([[0, 40, 2], [1, 38, 2], [0, 5, 1], [1, 8, 1], [0, 10, 1], [1, 70, 1], [0, 20, 1], [0, 88, 1], [1, 90, 1], [1, 91, 1]]),
    dwellings: 3,
    familyHouseholdsBySize: [0, 0, 0, 0, 2, 0, 0],
    groupHouseholdsBySize: [0, 0, 0, 0, 0, 0, 0],
    loneHouseholds: 1,
    familiesByType: [0, 2, 0, 0],
    roles: roles([
      [TargetRole.Partner, 0, 40, 2], [TargetRole.Partner, 1, 38, 2],
      [TargetRole.ChildUnder15, 0, 5, 1], [TargetRole.ChildUnder15, 1, 8, 1], [TargetRole.ChildUnder15, 0, 10, 1],
      [TargetRole.LonePerson, 1, 70, 1], [TargetRole.Visitor, 0, 20, 1],
      [TargetRole.NonPrivate, 0, 88, 1], [TargetRole.NonPrivate, 1, 90, 1], [TargetRole.NonPrivate, 1, 91, 1],
    ]),
  };
  const rlhp = (label: string) => categoryIndex('RLHP', label);

  it('puts the visitor in a household, the aged care residents in one non-private dwelling, and every table over its own population', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const { population: pop, diagnostics } = buildStructure(toy, createRng(seed));
      expect(checkStructuralRules(pop).violations).toBe(0);
      expect(pop.persons.count).toBe(12);
      const dwtd = pop.dwellings.variables['DWTD']!;
      expect(Array.from(dwtd).sort()).toEqual([0, 0, 0, 1]); // three occupied private dwellings, one non-private
      const npd = dwtd.indexOf(categoryIndex('DWTD', 'Non-private dwelling or non-classifiable household'));
      const residents = (d: number) => Array.from({ length: pop.persons.count }, (_, p) => p).filter((p) => pop.persons.dwelling[p] === d);
      // The aged care home: the man of 88 and the women of 90 and 91, RLHP and MDCP "Not applicable", no family.
      const home = residents(npd);
      expect(home.map((p) => pop.persons.age[p]).sort()).toEqual([88, 90, 91]);
      for (const p of home) {
        expect(pop.persons.variables['RLHP']![p]).toBe(rlhp('Not applicable'));
        expect(pop.persons.variables['MDCP']![p]).toBe(categoryIndex('MDCP', 'Not applicable'));
        expect(pop.persons.family[p]).toBe(-1);
      }
      for (const code of ['NPRD', 'HHCD', 'HCFMD', 'NFMD']) expect(pop.dwellings.variables[code]![npd]).toBe(categoryIndex(code, 'Not applicable'));
      // The visitor: the man of 20, in a family household of four usual residents, in no family.
      const visitor = pop.persons.variables['RLHP']!.indexOf(rlhp('Visitor (from within Australia)'));
      expect([pop.persons.age[visitor], pop.persons.variables['SEXP']![visitor], pop.persons.family[visitor]]).toEqual([20, 0, -1]);
      const his = pop.persons.dwelling[visitor]!;
      expect(pop.dwellings.variables['NPRD']![his]).toBe(categoryIndex('NPRD', 'Four persons'));
      expect(pop.dwellings.variables['HHCD']![his]).toBe(categoryIndex('HHCD', 'Family household'));
      // Each table counts its own population: G27 the 9 persons of occupied private dwellings,
      // visitor included, exactly as given; G35 the three households; G04 all 12.
      const g27 = tabulate(pop, tableById('G27'));
      expect(g27.reduce((a, b) => a + b, 0)).toBe(9);
      const expected: Record<string, number> = {
        M_CU15_0_14: 2, F_CU15_0_14: 1, F_LonePsn_65_74: 1, M_Vis_within_Aus_15_24: 1,
      };
      const cellsOf = tableById('G27').cells;
      const partners = (sex: string) => ['RM', 'DFM'].reduce((n, k) => n + g27[cellsOf.findIndex((c) => c.header === `${sex}_Ptn_in_${k}_35_44`)]!, 0);
      expect([partners('M'), partners('F')]).toEqual([2, 2]);
      cellsOf.forEach((c, i) => { if (!c.header.includes('_Ptn_in_')) expect(g27[i], c.header).toBe(expected[c.header] ?? 0); });
      const g35 = tabulate(pop, tableById('G35'));
      expect(g35[tableById('G35').cells.findIndex((c) => c.header === 'Num_Psns_UR_4_FamHhold')]).toBe(2);
      expect(g35.reduce((a, b) => a + b, 0)).toBe(3);
      expect(tabulate(pop, tableById('G04')).reduce((a, b) => a + b, 0)).toBe(12);
      expect(diagnostics).toMatchObject({ nonPrivateResidents: 3, visitorsAtHome: 1, visitorsInNonPrivate: 0, personsAbsorbed: 0, placesRemoved: 0 });
    }
  });

  it('invents no household where the area has no occupied private dwelling (an airport, a college)', () => {
    // 10 residents, none in a private dwelling; 3 of them were visiting private dwellings elsewhere.
    const college: StructureTargets = {
      persons: 10,
      privatePersons: 3,
      visitors: 3,
      personsByAgeSex: ageSex([[0, 19, 5], [1, 20, 5]]),
      dwellings: 0,
      familyHouseholdsBySize: [0, 0, 0, 0, 0, 0, 0],
      groupHouseholdsBySize: [0, 0, 0, 0, 0, 0, 0],
      loneHouseholds: 0,
    };
    const { population: pop } = buildStructure(college, createRng(7));
    expect(checkStructuralRules(pop).violations).toBe(0);
    expect(pop.dwellings.count).toBe(1);
    expect(pop.dwellings.variables['DWTD']![0]).toBe(categoryIndex('DWTD', 'Non-private dwelling or non-classifiable household'));
    expect(pop.families.count).toBe(0);
    const r = pop.persons.variables['RLHP']!;
    expect(Array.from(r).filter((k) => k === rlhp('Visitor (from within Australia)')).length).toBe(3);
    expect(Array.from(r).filter((k) => k === rlhp('Not applicable')).length).toBe(7);
  });

  it('splits the persons by the tables: G27 less its visitors at home, G01 less G27 in non-private dwellings', () => {
    const base = { personsByAgeSex: [], familyHouseholdsBySize: [], groupHouseholdsBySize: [], loneHouseholds: 0 };
    expect(splitResidents({ ...base, persons: 100, privatePersons: 90, visitors: 4, dwellings: 40 }, 100)).toEqual({ persons: 100, households: 40, present: 86, visitors: 4, nonPrivate: 10 });
    // No G27: everyone in private dwellings, as before.
    expect(splitResidents({ ...base, persons: 100, dwellings: 40 }, 100)).toEqual({ persons: 100, households: 40, present: 100, visitors: 0, nonPrivate: 0 });
    // G27 below G35's dwellings (perturbation): each dwelling has someone at home.
    expect(splitResidents({ ...base, persons: 100, privatePersons: 20, visitors: 5, dwellings: 30 }, 100)).toEqual({ persons: 100, households: 30, present: 30, visitors: 5, nonPrivate: 65 });
    // G27 above G01: nobody in non-private dwellings.
    expect(splitResidents({ ...base, persons: 100, privatePersons: 104, visitors: 2, dwellings: 30 }, 100)).toEqual({ persons: 100, households: 30, present: 98, visitors: 2, nonPrivate: 0 });
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
  // G27's total and visitors, as contradictory as the rest (above G01, below G35's dwellings…).
  privatePersons: fc.option(fc.double({ min: 0, max: 450, noNaN: true }), { nil: undefined }),
  visitors: fc.option(fc.double({ min: 0, max: 60, noNaN: true }), { nil: undefined }),
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
          ...(x.privatePersons !== undefined ? { privatePersons: x.privatePersons } : {}),
          ...(x.visitors !== undefined ? { visitors: x.visitors } : {}),
        };
        const { population: pop, diagnostics } = buildStructure(targets, createRng(x.seed));
        const report = checkStructuralRules(pop);
        // Persons in occupied private dwellings (G27's population) and visitors are what the split
        // says, but for the residents made residents at home for want of an absent place.
        const split = splitResidents(targets, x.persons);
        const rlhp = pop.persons.variables['RLHP']!;
        const count = (k: number) => rlhp.reduce((n, v) => n + (v === k ? 1 : 0), 0);
        expect(x.persons - count(categoryIndex('RLHP', 'Not applicable'))).toBe(split.present + split.visitors + diagnostics.nonPrivateMadeResidents);
        expect(count(categoryIndex('RLHP', 'Visitor (from within Australia)'))).toBe(split.visitors - diagnostics.visitorsMadeResidents);
        const dwtd = pop.dwellings.variables['DWTD']!;
        const occupied = dwtd.reduce((n, v) => n + (v === 0 ? 1 : 0), 0);
        // A non-private dwelling record exists exactly when someone lives in it; none is invented.
        expect(pop.dwellings.count - occupied).toBe(diagnostics.nonPrivateResidents + diagnostics.visitorsInNonPrivate > 0 ? 1 : 0);
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
        expect(occupied).toBe(Math.min(Math.round(x.dwellings), x.persons));
      }),
      { numRuns: 150 },
    );
  });
});
