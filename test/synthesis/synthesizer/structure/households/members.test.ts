import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRng } from '../../../../../src/synthesis/synthesizer/rng.ts';
import { baseMembers, childAgesOf, dealExtraPlaces, extraPlaceRoles, hasChildren } from '../../../../../src/synthesis/synthesizer/structure/households/members.ts';
import { DEFAULT_BANDS, FamilyType, HouseholdKind, TARGET_ROLE_COUNT, TargetRole } from '../../../../../src/synthesis/synthesizer/structure/model.ts';
import { layoutOf, noTables } from './layout.ts';

const { Family, Group, LonePerson } = HouseholdKind;
const { CoupleNoChildren: CNC, CoupleWithChildren: CWC, OneParent: OP, Other } = FamilyType;
const sumOf = (a: ArrayLike<number>) => Array.from(a).reduce((x, y) => x + y, 0);

/** A role table with `n` persons of each of the given roles (in one cell). */
function rolesOf(counts: Partial<Record<number, number>>) {
  const cells = 2 * DEFAULT_BANDS.length;
  const byRoleSexBand = new Float64Array(TARGET_ROLE_COUNT * cells);
  for (const [role, n] of Object.entries(counts)) byRoleSexBand[Number(role) * cells + 4] = n!;
  return { ...noTables, roles: { bands: DEFAULT_BANDS, byRoleSexBand } };
}

describe('baseMembers', () => {
  it('gives each family its base members (a first child, two relatives) and leaves the rest of a family household extra', () => {
    const layout = layoutOf([[Family, 5, [CWC]], [Family, 6, [OP, Other]], [Group, 3, []], [LonePerson, 1, []]]);
    const slots = baseMembers(layout);
    expect(Array.from(slots.childSlots)).toEqual([1, 1, 0]);
    expect(Array.from(slots.otherSlots)).toEqual([0, 0, 2]);
    expect(Array.from(slots.extra)).toEqual([2, 2, 0, 0]);
    expect([slots.baseChildren, slots.baseOther]).toEqual([2, 2]);
  });
});

describe('extraPlaceRoles', () => {
  it("shares the extra places in the role table's proportions, an extra child only where a family has children", () => {
    const layout = layoutOf([[Family, 5, [CWC]], [Family, 4, [CNC]]]);
    const slots = baseMembers(layout);
    // 2 extra places with children possible, 2 without; the table asks for 4 more children.
    const roles = extraPlaceRoles(rolesOf({ [TargetRole.ChildUnder15]: 5, [TargetRole.OtherRelated]: 1 }), layout, slots);
    expect(roles).toEqual({ eligible: 2, extraTotal: 4, extraChildren: 2, extraOther: 2 });
  });

  it('falls back on the default shares (75/15/10) without a role table', () => {
    const layout = layoutOf(Array.from({ length: 10 }, () => [Family, 5, [CWC]] as const));
    expect(extraPlaceRoles(noTables, layout, baseMembers(layout))).toEqual({ eligible: 20, extraTotal: 20, extraChildren: 15, extraOther: 3 });
  });
});

describe('dealExtraPlaces', () => {
  it('fills every extra place once, a child only in a family with children (property)', () => {
    const kinds = fc.constantFrom(CNC, CWC, OP, Other);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.array(kinds, { minLength: 1, maxLength: 2 })), { maxLength: 8 }), fc.nat(10), fc.integer(), (houses, children, seed) => {
        const layout = layoutOf(houses.map(([extra, types]) => [Family, types.reduce((s: number, t) => s + [2, 3, 2, 2][t]!, 0) + extra, types] as const));
        const slots = baseMembers(layout);
        const before = { child: Array.from(slots.childSlots), other: Array.from(slots.otherSlots) };
        const roles = extraPlaceRoles(rolesOf({ [TargetRole.ChildUnder15]: children, [TargetRole.Unrelated]: 2 }), layout, slots);
        dealExtraPlaces(layout, slots, roles, createRng(seed));
        const addedChildren = sumOf(slots.childSlots) - sumOf(before.child);
        const addedOther = sumOf(slots.otherSlots) - sumOf(before.other);
        expect(addedChildren).toBe(roles.extraChildren);
        expect(addedChildren + addedOther + sumOf(slots.unrelatedSlots)).toBe(roles.extraTotal);
        slots.childSlots.forEach((n, f) => { if (n > before.child[f]!) expect(hasChildren(layout.familyType[f]!)).toBe(true); });
      }),
    );
  });
});

describe('childAgesOf', () => {
  it("marks G29's share of families with children as having a child under 15, the others only older children", () => {
    const layout = layoutOf([[Family, 3, [CWC]], [Family, 5, [CWC]], [Family, 4, [CWC]], [Family, 3, [CWC]], [Family, 2, [OP]], [Family, 2, [CNC]]]);
    const childSlots = Uint16Array.of(1, 3, 2, 1, 1, 0);
    const childAges = childAgesOf({ ...noTables, under15Share: [Number.NaN, 0.5, Number.NaN, Number.NaN] }, layout, childSlots, createRng(1));
    expect(Array.from(childAges.slice(0, 4)).filter((a) => a === 1)).toHaveLength(2);
    expect(Array.from(childAges.slice(0, 4)).filter((a) => a === 2)).toHaveLength(2);
    // No share for one-parent families: whatever linking gives; none for couples without children.
    expect(Array.from(childAges.slice(4))).toEqual([0, 0]);
  });

  it('favours the larger families for a child under 15', () => {
    const layout = layoutOf([[Family, 3, [CWC]], [Family, 8, [CWC]]]);
    let larger = 0;
    for (let seed = 1; seed <= 200; seed++) {
      if (childAgesOf({ ...noTables, under15Share: [0, 0.5, 0, 0] }, layout, Uint16Array.of(1, 6), createRng(seed))[1] === 1) larger++;
    }
    // Weights 1 and 6: the larger family six times in seven.
    expect(larger).toBeGreaterThan(150);
  });
});
