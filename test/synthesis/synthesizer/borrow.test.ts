import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BORROWING_PSEUDO_COUNT, borrowStrength, borrowedIntegers, isReliable } from '../../../src/synthesis/synthesizer/borrow.ts';
import { nearestIntegers } from '../../../src/synthesis/synthesizer/integerise.ts';

const sum = (a: ArrayLike<number>) => Array.from(a).reduce((s, v) => s + v, 0);

describe('borrowedIntegers', () => {
  it('an emptied table follows the parent area', () => {
    // The 32 people are there (the total says so); perturbation zeroed every cell.
    expect(Array.from(borrowedIntegers([0, 0, 0, 0], 32, { parent: [100, 300, 0, 400], small: true }))).toEqual([4, 12, 0, 16]);
  });

  it('a table whose cells fall far short of its total leans toward the parent, never zeros where people are', () => {
    // Cells add up to 2 of 20: the 18 others go to the cells the parent has people in, equally,
    // then 1.5 pseudo-people of the parent's shape: 20·(n + 1.5·p)/(20 + 1.5).
    const got = borrowStrength([2, 0, 0, 0], 20, { parent: [50, 50, 0, 900], open: [1, 1, 0, 1], small: false });
    const shifted = [2 + 6, 6, 0, 6];
    const parent = [0.05, 0.05, 0, 0.9];
    shifted.forEach((n, i) => expect(got[i]).toBeCloseTo((20 * (n + BORROWING_PSEUDO_COUNT * parent[i]!)) / (20 + BORROWING_PSEUDO_COUNT), 9));
    expect(got[2]).toBe(0); // the parent has nobody there: a structural zero stays
  });

  it('a reliable table is not moved by the parent', () => {
    expect(Array.from(borrowedIntegers([50, 30, 20], 100, { parent: [1, 1, 98], small: false }))).toEqual([50, 30, 20]);
    // Cells short of the total by less than the reliable margin: the equal shift alone.
    expect(Array.from(borrowedIntegers([45, 27, 18], 100, { parent: [1, 1, 98], small: false }))).toEqual(Array.from(nearestIntegers([45, 27, 18], 100)));
  });

  it("a small area's table leans toward the parent however complete it looks", () => {
    // 5·(5 + 1.5·0)/6.5 = 3.85 and 5·1.5/6.5 = 1.15.
    expect(Array.from(borrowedIntegers([5, 0, 0], 5, { parent: [0, 0, 1], small: true }))).toEqual([4, 0, 1]);
  });

  it('free cells (remainders, fills) keep their share; the borrowing is among the others', () => {
    const got = borrowStrength([0, 0, 40], 40, { free: [0, 0, 1], parent: [1, 3, 0], small: true });
    expect(Array.from(got)).toEqual([0, 0, 40]);
    const short = borrowStrength([0, 0, 10], 40, { free: [0, 0, 1], parent: [1, 3, 0], small: true });
    expect(Array.from(short)).toEqual([0, 0, 40]); // the fill absorbs the difference first
  });

  it('property: whole, non-negative, adding up to the anchor; the own table when it is reliable and whole', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }).chain((n) =>
          fc.tuple(
            fc.array(fc.integer({ min: 0, max: 60 }), { minLength: n, maxLength: n }),
            fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: n, maxLength: n }),
            fc.integer({ min: 0, max: 400 }),
            fc.boolean(),
          ),
        ),
        ([own, parent, total, small]) => {
          const got = borrowedIntegers(own, total, { parent, open: parent.map((v) => (v > 0 ? 1 : 0)), small });
          expect(got.every((v) => Number.isInteger(v) && v >= 0)).toBe(true);
          expect(sum(got)).toBe(total);
          // A reliable table that already adds up to the anchor comes back as it is.
          if (isReliable(sum(own), sum(own), small)) {
            expect(Array.from(borrowedIntegers(own, sum(own), { parent, small }))).toEqual(own);
          }
          // Nothing lands where neither the area nor the parent has anyone, unless nowhere else can take it.
          const anywhere = own.some((v, i) => v > 0 || parent[i]! > 0);
          if (anywhere) got.forEach((v, i) => { if (own[i] === 0 && parent[i] === 0) expect(v).toBe(0); });
        },
      ),
    );
  });

  it('property: an emptied table is the parent distribution, scaled to the anchor', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 10 }).filter((p) => sum(p) > 0),
        fc.integer({ min: 0, max: 500 }),
        (parent, total) => {
          const got = borrowStrength(new Array(parent.length).fill(0), total, { parent, open: parent.map((v) => (v > 0 ? 1 : 0)), small: false });
          parent.forEach((p, i) => expect(got[i]).toBeCloseTo((p / sum(parent)) * total, 6));
        },
      ),
    );
  });
});
