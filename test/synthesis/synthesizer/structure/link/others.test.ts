import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { placeOtherRelated, placeUnrelatedAndAbsent } from '../../../../../src/synthesis/synthesizer/structure/link/others.ts';
import { ADULT_AGE, FamilyType, HouseholdKind, Role } from '../../../../../src/synthesis/synthesizer/structure/model.ts';
import { couple, drawnOf, familyHouse, handPlan, linkingOf } from './fixture.ts';

describe('placeOtherRelated', () => {
  const plan = handPlan([familyHouse(3, { type: FamilyType.Other, others: 2 }), familyHouse(3, couple(0, { others: 1 }))]);

  it('heads each other family with an adult relative and fills every relative place once', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const drawn = drawnOf([[10, 0, Role.OtherRelated], [30, 1, Role.OtherRelated], [12, 0, Role.OtherRelated]]);
      const { s } = linkingOf(plan, drawn, seed);
      placeOtherRelated(s);
      expect(Array.from(s.family).sort()).toEqual([0, 0, 1]);
      expect(Array.from(s.household).sort()).toEqual([0, 0, 1]);
      // The only adult heads the other family.
      expect(s.family[1]).toBe(0);
    }
  });

  it('raises a young relative to adulthood when no adult is left to head an other family', () => {
    const drawn = drawnOf([[10, 0, Role.OtherRelated], [12, 1, Role.OtherRelated], [8, 0, Role.OtherRelated]]);
    const { s, diag } = linkingOf(plan, drawn);
    placeOtherRelated(s);
    expect(diag.agesRaised).toBe(1);
    expect(Array.from(s.age).filter((a) => a === ADULT_AGE)).toHaveLength(1);
  });

  it('leaves relatives already in a family (children made grandchildren) where they are', () => {
    const drawn = drawnOf([[30, 1, Role.OtherRelated], [40, 0, Role.OtherRelated], [5, 0, Role.OtherRelated], [9, 1, Role.OtherRelated]]);
    const { s } = linkingOf(plan, drawn);
    s.family[3] = 1;
    s.household[3] = 1;
    placeOtherRelated(s);
    expect(s.family[3]).toBe(1);
    expect(Array.from(s.family).filter((f) => f === 1)).toHaveLength(2);
  });
});

describe('placeUnrelatedAndAbsent', () => {
  // A couple with a lodger; a group of three, one of them away visiting; a lone person; and the
  // non-private dwelling (index 3) for the visitor no household place is left for.
  const plan = handPlan(
    [
      familyHouse(3, couple(), { unrelated: 1 }),
      { kind: HouseholdKind.Group, size: 3, visitors: 1 },
      { kind: HouseholdKind.LonePerson, size: 1 },
    ],
    true,
  );
  const persons = [
    [30, 0, Role.Unrelated], [22, 0, Role.GroupMember], [24, 1, Role.GroupMember], [80, 1, Role.LonePerson], [23, 1, Role.Visitor], [50, 0, Role.Visitor],
  ] as const;

  it('fills each household with the places the plan keeps, and the visitor left over lives in the non-private dwelling', () => {
    for (let seed = 1; seed <= 5; seed++) {
      const { s } = linkingOf(plan, drawnOf(persons), seed);
      placeUnrelatedAndAbsent(s);
      expect(Array.from(s.household.slice(0, 4))).toEqual([0, 1, 1, 2]);
      expect(Array.from(s.household.slice(4)).sort()).toEqual([1, 3]);
    }
  });

  it('places every absent resident exactly once: in a place kept for one, else in the non-private dwelling (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(3), { minLength: 1, maxLength: 6 }), fc.nat(8), fc.integer(), (visitorSlots, visitors, seed) => {
        const houses = visitorSlots.map((v) => ({ kind: HouseholdKind.Group, size: v + 1, visitors: v }));
        const p = handPlan(houses, true);
        const persons = [
          ...houses.map(() => [30, 0, Role.GroupMember] as const),
          ...Array.from({ length: visitors }, () => [30, 1, Role.Visitor] as const),
        ];
        const { s } = linkingOf(p, drawnOf(persons), seed);
        placeUnrelatedAndAbsent(s);
        const perHouse = houses.map((_, h) => Array.from(s.household.slice(houses.length)).filter((x) => x === h).length);
        perHouse.forEach((n, h) => expect(n).toBeLessThanOrEqual(visitorSlots[h]!));
        const places = visitorSlots.reduce((a, b) => a + b, 0);
        expect(perHouse.reduce((a, b) => a + b, 0)).toBe(Math.min(places, visitors));
        expect(Array.from(s.household).filter((x) => x === houses.length)).toHaveLength(Math.max(0, visitors - places));
      }),
    );
  });
});
