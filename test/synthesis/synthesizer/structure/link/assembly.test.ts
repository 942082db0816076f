import { describe, expect, it } from 'vitest';
import { createRng } from '../../../../../src/synthesis/synthesizer/rng.ts';
import { assemble, finalRoles, orderedSkeleton } from '../../../../../src/synthesis/synthesizer/structure/link/assembly.ts';
import type { Links } from '../../../../../src/synthesis/synthesizer/structure/link/linking.ts';
import {
  DEFAULT_BANDS, FamilyType, HouseholdKind, Role, TARGET_ROLE_COUNT, TargetRole, type StructureTargets,
} from '../../../../../src/synthesis/synthesizer/structure/model.ts';
import { couple, drawnOf, familyHouse, handPlan } from './fixture.ts';

const base: StructureTargets = { persons: 0, personsByAgeSex: [], dwellings: 0, familyHouseholdsBySize: [], groupHouseholdsBySize: [], loneHouseholds: 0 };

/** Links of persons already placed: [age, sex, role, household, family] rows. */
function linksOf(rows: readonly (readonly [number, number, number, number, number])[], familyType: number[], couples: [number, number][] = []) {
  const drawn = drawnOf(rows.map(([a, s, r]) => [a, s, r] as const));
  const links: Links = {
    age: drawn.age, role: Uint8Array.from(drawn.role), household: Int32Array.from(rows.map((r) => r[3])), family: Int32Array.from(rows.map((r) => r[4])),
    union: new Uint8Array(rows.length), familyType: Uint8Array.from(familyType), parentA: new Int32Array(0), parentB: new Int32Array(0), couples,
  };
  return { drawn, links };
}

describe('finalRoles', () => {
  it('splits children into under 15, dependent students by the role table’s share, and non-dependent', () => {
    const nb = DEFAULT_BANDS.length;
    const byRoleSexBand = new Float64Array(TARGET_ROLE_COUNT * 2 * nb);
    // Boys 15–24: 7 dependent students for 3 non-dependent children.
    byRoleSexBand[TargetRole.DependentStudent * 2 * nb + 1] = 7;
    byRoleSexBand[TargetRole.NonDependentChild * 2 * nb + 1] = 3;
    const t = { ...base, roles: { bands: DEFAULT_BANDS, byRoleSexBand } };
    const rows = [[10, 0, Role.Child, 0, 0], [30, 1, Role.Child, 0, 0], ...Array.from({ length: 10 }, () => [18, 0, Role.Child, 0, 0] as const)] as const;
    const { drawn, links } = linksOf(rows, [FamilyType.OneParent]);
    const roles = Array.from(finalRoles(t, drawn, links, createRng(1)));
    expect(roles.slice(0, 2)).toEqual([TargetRole.ChildUnder15, TargetRole.NonDependentChild]);
    expect(roles.slice(2).filter((r) => r === TargetRole.DependentStudent)).toHaveLength(7);
    expect(roles.slice(2).filter((r) => r === TargetRole.NonDependentChild)).toHaveLength(3);
  });

  it('keeps every other role as it was built', () => {
    const rows = [[40, 0, Role.Partner, 0, 0], [70, 1, Role.LonePerson, 1, -1], [30, 1, Role.Visitor, 0, -1], [80, 0, Role.NonPrivate, 2, -1]] as const;
    const { drawn, links } = linksOf(rows, [FamilyType.CoupleNoChildren]);
    expect(Array.from(finalRoles(base, drawn, links, createRng(1)))).toEqual([TargetRole.Partner, TargetRole.LonePerson, TargetRole.Visitor, TargetRole.NonPrivate]);
  });
});

describe('orderedSkeleton', () => {
  // Household 1: a couple (40, 38) and their child; household 0: a lone person; the visitor in
  // the non-private dwelling (index 2).
  const plan = handPlan([{ kind: HouseholdKind.LonePerson, size: 1 }, familyHouse(3, couple(1))], true);
  const rows = [[7, 1, Role.Child, 1, 0], [70, 0, Role.LonePerson, 0, -1], [38, 1, Role.Partner, 1, 0], [20, 0, Role.Visitor, 2, -1], [40, 0, Role.Partner, 1, 0]] as const;
  const finalRole = Uint8Array.of(TargetRole.ChildUnder15, TargetRole.LonePerson, TargetRole.Partner, TargetRole.Visitor, TargetRole.Partner);

  it('orders persons by dwelling, parents before children, and picks the older partner as reference', () => {
    const { drawn, links } = linksOf(rows, [FamilyType.CoupleWithChildren]);
    const sk = orderedSkeleton(plan, drawn, links, finalRole);
    expect(Array.from(sk.persons.dwelling)).toEqual([0, 1, 1, 1, 2]);
    expect(Array.from(sk.persons.age)).toEqual([70, 38, 40, 7, 20]);
    expect(Array.from(sk.persons.family)).toEqual([-1, 0, 0, 0, -1]);
    expect(sk.persons.age[sk.families.reference[0]!]).toBe(40);
  });

  it('adds the non-private dwelling after the households, sized by its residents', () => {
    const { drawn, links } = linksOf(rows, [FamilyType.CoupleWithChildren]);
    const sk = orderedSkeleton(plan, drawn, links, finalRole);
    expect(sk.dwellings.count).toBe(3);
    expect(Array.from(sk.dwellings.kind)).toEqual([HouseholdKind.LonePerson, HouseholdKind.Family, HouseholdKind.NonPrivate]);
    expect(Array.from(sk.dwellings.size)).toEqual([1, 3, 1]);
    expect(Array.from(sk.dwellings.families)).toEqual([0, 1, 0]);
  });
});

describe('assemble', () => {
  it('refuses a person left without a household (plan and roles disagree)', () => {
    const plan = handPlan([{ kind: HouseholdKind.LonePerson, size: 1 }]);
    const { drawn, links } = linksOf([[70, 0, Role.LonePerson, 0, -1], [30, 1, Role.LonePerson, -1, -1]], []);
    expect(() => assemble(base, plan, drawn, links, createRng(1))).toThrow(/left without a household/);
  });

  it('keeps every person, once, with a union for each couple', () => {
    const plan = handPlan([familyHouse(2, couple())]);
    const { drawn, links } = linksOf([[40, 0, Role.Partner, 0, 0], [38, 1, Role.Partner, 0, 0]], [FamilyType.CoupleNoChildren], [[0, 1]]);
    const sk = assemble(base, plan, drawn, links, createRng(1));
    expect(sk.persons.count).toBe(2);
    expect(Array.from(sk.persons.age).sort()).toEqual([38, 40]);
    expect(sk.persons.union[0]).toBe(sk.persons.union[1]);
    expect([1, 2]).toContain(sk.persons.union[0]);
  });
});
