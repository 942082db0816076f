import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { borrowedIntegers } from '../../../src/synthesis/synthesizer/borrow.ts';
import { nestedIntegers } from '../../../src/synthesis/synthesizer/nested.ts';

const sum = (a: ArrayLike<number>) => Array.from(a).reduce((s, v) => s + v, 0);

describe('nestedIntegers', () => {
  it("settles a group's count as one figure before its cells", () => {
    // Cells 0 and 1 are published as 3 and 3, but their group as 10: the group takes 10 of 14.
    expect(Array.from(nestedIntegers([3, 3, 0, 4], 14, [{ members: [0, 1], value: 10 }], { small: false }))).toEqual([5, 5, 0, 4]);
  });

  it('nests groups inside groups and leaves out one that crosses them', () => {
    const got = nestedIntegers([1, 1, 1, 1, 6], 20, [
      { members: [0, 1, 2, 3], value: 12 },
      { members: [0, 1], value: 8 },
      { members: [1, 2], value: 100 }, // crosses [0, 1]
    ], { small: false });
    // 20 over {outer group 12, cell 6}: +1 each → 13, 7; 13 over {inner 8, 1, 1}: +1 each → 9, 2, 2;
    // 9 over the inner cells 1, 1: 4.5 each, the tie to the first.
    expect(Array.from(got)).toEqual([5, 4, 2, 2, 7]);
  });

  it('property: without groups it is borrowedIntegers; with groups whole, non-negative, adding up to the total', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 10 }).chain((n) =>
          fc.tuple(
            fc.array(fc.integer({ min: 0, max: 40 }), { minLength: n, maxLength: n }),
            fc.array(fc.integer({ min: 0, max: 100 }), { minLength: n, maxLength: n }),
            fc.integer({ min: 0, max: 200 }),
            fc.boolean(),
            fc.array(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: 80 })), { maxLength: 4 }),
          ),
        ),
        ([values, parent, total, small, spans]) => {
          const options = { parent, open: parent.map((v) => (v > 0 ? 1 : 0)), small };
          expect(Array.from(nestedIntegers(values, total, [], options))).toEqual(Array.from(borrowedIntegers(values, total, options)));
          const groups = spans.map(([a, b, value]) => ({ members: Array.from({ length: Math.abs(b - a) + 1 }, (_, k) => Math.min(a, b) + k), value }));
          const got = nestedIntegers(values, total, groups, options);
          expect(got.every((v) => Number.isInteger(v) && v >= 0)).toBe(true);
          expect(sum(got)).toBe(total);
        },
      ),
    );
  });
});
