import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { repairMisfitChildren, settleChildren, slotChildren, type ChildSlots } from '../../../../../src/synthesis/synthesizer/structure/link/children.ts';
import { FamilyType, MAX_PARENT_GAP, MIN_PARENT_GAP, Role } from '../../../../../src/synthesis/synthesizer/structure/model.ts';
import { couple, drawnOf, familyHouse, handPlan, linkingOf } from './fixture.ts';

describe('slotChildren', () => {
  it('gives the older child to the older parents and the younger to the younger', () => {
    const plan = handPlan([familyHouse(3, couple(1)), familyHouse(3, couple(1))]);
    for (let seed = 1; seed <= 10; seed++) {
      const drawn = drawnOf([[10, 0, Role.Child], [40, 1, Role.Child]]);
      const slots = slotChildren(linkingOf(plan, drawn, seed).s, Int32Array.of(40, 70));
      expect(Array.from(slots.slotPerson)).toEqual([0, 1]);
      expect(slots.children).toEqual([1, 0]);
    }
  });

  it('gives a family that needs a child under 15 one, and one that needs only children 15+ none under 15', () => {
    // Both families' parents are 45: only G29's split tells them apart.
    const plan = handPlan([familyHouse(4, couple(2, { childAges: 2 })), familyHouse(4, couple(2, { childAges: 1 }))]);
    for (let seed = 1; seed <= 10; seed++) {
      const drawn = drawnOf([[16, 0, Role.Child], [8, 1, Role.Child], [19, 0, Role.Child], [17, 1, Role.Child]]);
      const { slotPerson } = slotChildren(linkingOf(plan, drawn, seed).s, Int32Array.of(45, 45));
      const ages = Array.from(slotPerson, (p) => drawn.age[p]!);
      expect(ages.slice(0, 2).every((a) => a >= 15)).toBe(true);
      expect(ages.slice(2).some((a) => a < 15)).toBe(true);
    }
  });

  it('puts each child in at most one slot and fills min(children, slots) of them (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 20, max: 80 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 })), { maxLength: 8 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 20 }),
        fc.integer(),
        (families, childAges, seed) => {
          const plan = handPlan(families.map(([, n, want]) => familyHouse(2 + n, couple(n, { childAges: want }))));
          const drawn = drawnOf(childAges.map((a) => [a, 0, Role.Child] as const));
          const { slotPerson, slotOf } = slotChildren(linkingOf(plan, drawn, seed).s, Int32Array.from(families.map(([a]) => a)));
          const filled = Array.from(slotPerson).filter((p) => p >= 0);
          expect(new Set(filled).size).toBe(filled.length);
          expect(filled.length).toBe(Math.min(childAges.length, slotPerson.length));
          filled.forEach((p) => expect(slotPerson[slotOf[p]!]).toBe(p));
        },
      ),
    );
  });
});

describe('repairMisfitChildren', () => {
  it('swaps two children of the same pool when both families then fit', () => {
    // Family 0's parents are 45 and hold the 40-year-old; family 1's are 70 and hold the 16-year-old.
    const plan = handPlan([familyHouse(3, couple(1)), familyHouse(3, couple(1))]);
    const drawn = drawnOf([[40, 0, Role.Child], [16, 1, Role.Child]]);
    const slots: ChildSlots = { children: [0, 1], rankOf: Int32Array.of(0, 1), childStart: Int32Array.of(0, 1, 2), slotPerson: Int32Array.of(0, 1), slotOf: Int32Array.of(0, 1) };
    repairMisfitChildren(linkingOf(plan, drawn).s, slots, Int32Array.of(45, 70));
    expect(Array.from(slots.slotPerson)).toEqual([1, 0]);
    expect(Array.from(slots.slotOf)).toEqual([1, 0]);
  });

  it('never swaps a child under 15 with one of 15 or over (G29 counts them apart)', () => {
    const plan = handPlan([familyHouse(3, couple(1)), familyHouse(3, couple(1))]);
    const drawn = drawnOf([[30, 0, Role.Child], [5, 1, Role.Child]]);
    const slots: ChildSlots = { children: [0, 1], rankOf: Int32Array.of(0, 1), childStart: Int32Array.of(0, 1, 2), slotPerson: Int32Array.of(0, 1), slotOf: Int32Array.of(0, 1) };
    repairMisfitChildren(linkingOf(plan, drawn).s, slots, Int32Array.of(35, 60));
    expect(Array.from(slots.slotPerson)).toEqual([0, 1]);
  });
});

describe('settleChildren', () => {
  const slotsFor = (slotPerson: number[], childStart: number[]): ChildSlots => ({
    children: [], rankOf: new Int32Array(0), childStart: Int32Array.from(childStart), slotPerson: Int32Array.from(slotPerson), slotOf: new Int32Array(0),
  });

  it('keeps a child in range, and makes a child too old for its parents other related (the couple then has none)', () => {
    const plan = handPlan([familyHouse(3, couple(1)), familyHouse(3, couple(1))]);
    const drawn = drawnOf([[10, 0, Role.Child], [20, 1, Role.Child]]);
    const { s, diag } = linkingOf(plan, drawn);
    settleChildren(s, slotsFor([0, 1], [0, 1, 2]), Int32Array.of(40, 30), Int32Array.of(-1, -1));
    expect(Array.from(s.role)).toEqual([Role.Child, Role.OtherRelated]);
    expect(Array.from(s.family)).toEqual([0, 1]);
    expect(Array.from(s.household)).toEqual([0, 1]);
    expect(Array.from(s.familyType)).toEqual([FamilyType.CoupleWithChildren, FamilyType.CoupleNoChildren]);
    expect(diag.childrenToOtherRelated).toBe(1);
    expect(diag.familyTypesChanged).toBe(1);
  });

  it('makes the children of a lone parent too old for all of them grandchildren, and the family an other family', () => {
    const plan = handPlan([familyHouse(3, { type: FamilyType.OneParent, children: 2 })]);
    const drawn = drawnOf([[90, 1, Role.LoneParent], [10, 0, Role.Child], [12, 1, Role.Child]]);
    const { s, diag } = linkingOf(plan, drawn);
    settleChildren(s, slotsFor([1, 2], [0, 2]), Int32Array.of(90), Int32Array.of(0));
    expect(Array.from(s.role)).toEqual([Role.OtherRelated, Role.OtherRelated, Role.OtherRelated]);
    expect(s.familyType[0]).toBe(FamilyType.Other);
    expect(diag.childrenToOtherRelated).toBe(2);
    expect(diag.loneParentsToOtherFamily).toBe(1);
  });

  it('leaves every child who stays a child within the parents’ age range after the three steps (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 20, max: 90 }), fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 20 }),
        fc.integer(),
        (families, childAges, seed) => {
          const plan = handPlan(families.map(([, n]) => familyHouse(2 + n, couple(n))));
          const drawn = drawnOf(childAges.map((a) => [a, 0, Role.Child] as const));
          const parentAge = Int32Array.from(families.map(([a]) => a));
          const { s } = linkingOf(plan, drawn, seed);
          const slots = slotChildren(s, parentAge);
          repairMisfitChildren(s, slots, parentAge);
          settleChildren(s, slots, parentAge, new Int32Array(families.length).fill(-1));
          const eldest = new Int32Array(families.length).fill(-1);
          for (let p = 0; p < drawn.count; p++) {
            if (s.role[p] !== Role.Child || s.family[p]! < 0) continue;
            const f = s.family[p]!;
            expect(parentAge[f]! - drawn.age[p]!).toBeGreaterThanOrEqual(MIN_PARENT_GAP);
            eldest[f] = Math.max(eldest[f]!, drawn.age[p]!);
            expect(s.household[p]).toBe(f);
          }
          eldest.forEach((e, f) => { if (e >= 0) expect(parentAge[f]! - e).toBeLessThanOrEqual(MAX_PARENT_GAP); });
          // Children placed are as many as the slots take; nobody is placed twice (one family each).
          expect(Array.from(s.family).filter((f) => f >= 0)).toHaveLength(Math.min(childAges.length, slots.slotPerson.length));
        },
      ),
    );
  });
});
