import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRng } from '../../../../../src/synthesis/synthesizer/rng.ts';
import {
  olderChildrenFirst, placeCoupleParents, placeLoneParents, settleParents, takeAbsentPartner,
} from '../../../../../src/synthesis/synthesizer/structure/link/parents.ts';
import { AGES, FamilyType, Role } from '../../../../../src/synthesis/synthesizer/structure/model.ts';
import { couple, drawnOf, familyHouse, handPlan, linkingOf } from './fixture.ts';

describe('olderChildrenFirst', () => {
  it('orders families with only children 15+ first, then either, then those with a child under 15', () => {
    const plan = handPlan([1, 0, 2, 1, 2].map((childAges) => familyHouse(3, couple(1, { childAges }))));
    expect(olderChildrenFirst(plan)([0, 1, 2, 3, 4])).toEqual([2, 4, 1, 0, 3]);
  });
});

describe('placeCoupleParents', () => {
  const plan = handPlan([
    familyHouse(3, couple(1)),
    familyHouse(2, couple()),
    familyHouse(2, { type: FamilyType.OneParent, children: 1 }),
    familyHouse(4, couple(2)),
  ]);

  it('gives every couple family one couple, no couple twice, and hands back the one-parent families', () => {
    const drawn = drawnOf([[40, 0, Role.Partner], [38, 1, Role.Partner], [60, 0, Role.Partner], [58, 1, Role.Partner], [30, 0, Role.Partner], [31, 1, Role.Partner]]);
    const couples: [number, number][] = [[0, 1], [2, 3], [4, 5]];
    const { parentA, parentB, oneParent } = placeCoupleParents(linkingOf(plan, drawn).s, couples);
    expect(oneParent).toEqual([2]);
    expect(parentA[2]).toBe(-1);
    const placed = [0, 1, 3].map((f) => [parentA[f], parentB[f]]);
    expect(placed.map(([a, b]) => couples.findIndex(([x, y]) => x === a && y === b)).sort()).toEqual([0, 1, 2]);
  });

  it('draws the couples with children by parenting age: a couple of 40 far more often than one of 80', () => {
    const two = handPlan([familyHouse(3, couple(1)), familyHouse(2, couple())]);
    const drawn = drawnOf([[80, 0, Role.Partner], [80, 1, Role.Partner], [40, 0, Role.Partner], [40, 1, Role.Partner]]);
    let younger = 0;
    for (let seed = 1; seed <= 200; seed++) if (placeCoupleParents(linkingOf(two, drawn, seed).s, [[0, 1], [2, 3]]).parentA[0] === 2) younger++;
    // Weights 0.8 and 0.06: the couple of 40 parents 93% of the time.
    expect(younger).toBeGreaterThan(170);
  });
});

describe('placeLoneParents', () => {
  it('gives the older lone parent to the family whose children are all 15 or over', () => {
    const plan = handPlan([
      familyHouse(2, { type: FamilyType.OneParent, children: 1, childAges: 1 }),
      familyHouse(2, { type: FamilyType.OneParent, children: 1, childAges: 2 }),
    ]);
    for (let seed = 1; seed <= 10; seed++) {
      const drawn = drawnOf([[65, 1, Role.LoneParent], [25, 1, Role.LoneParent]]);
      const parentA = new Int32Array(2).fill(-1);
      placeLoneParents(linkingOf(plan, drawn, seed).s, [0, 1], parentA);
      expect(Array.from(parentA)).toEqual([1, 0]);
    }
  });
});

describe('settleParents', () => {
  it('puts parents in their family and household, the family at the age of its younger parent at home', () => {
    const plan = handPlan([familyHouse(2, couple()), familyHouse(3, couple(1, { absentPartner: 1 })), familyHouse(2, couple())]);
    // Family 1's second partner (person 3, 30) is away visiting: the family's parent age is 50.
    const drawn = drawnOf([[45, 0, Role.Partner], [41, 1, Role.Partner], [50, 0, Role.Partner], [30, 1, Role.Visitor]]);
    const { s } = linkingOf(plan, drawn);
    const parentAge = settleParents(s, Int32Array.of(0, 2, -1), Int32Array.of(1, 3, -1));
    expect(Array.from(parentAge)).toEqual([41, 50, AGES]);
    expect(Array.from(s.family)).toEqual([0, 0, 1, 1]);
    expect(Array.from(s.household)).toEqual([0, 0, 1, 1]);
  });
});

describe('takeAbsentPartner', () => {
  const age = Uint8Array.of(40, 38, 70, 39, 38);
  const sex = Uint8Array.of(0, 1, 1, 0, 1);
  const role = Uint8Array.of(Role.Partner, Role.Visitor, Role.Visitor, Role.Visitor, Role.NonPrivate);

  it('takes the absent resident of the other sex nearest a partner’s age, out of the pool', () => {
    const pool = [2, 3, 1];
    expect(takeAbsentPartner(pool, 0, age, sex, role, createRng(1))).toBe(1);
    expect(pool).toEqual([2, 3]);
  });

  it('takes a visitor before a resident away in a non-private dwelling of the same age', () => {
    expect(takeAbsentPartner([4, 1], 0, age, sex, role, createRng(2))).toBe(1);
  });

  it('takes one of the same sex when the pool has no other, and none from an empty pool', () => {
    expect(takeAbsentPartner([3], 0, age, sex, role, createRng(3))).toBe(3);
    expect(takeAbsentPartner([], 0, age, sex, role, createRng(3))).toBe(-1);
  });

  it('always takes exactly one person out of a non-empty pool (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(4), { minLength: 1, maxLength: 5 }).map((xs) => [...new Set(xs.map((x) => x || 1))]), fc.integer(), (pool, seed) => {
        const before = [...pool];
        const taken = takeAbsentPartner(pool, 0, age, sex, role, createRng(seed));
        expect(before).toContain(taken);
        expect(pool).toEqual(before.filter((p) => p !== taken));
      }),
    );
  });
});
