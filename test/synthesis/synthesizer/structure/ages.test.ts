import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { personsByAge, type AgeFigure } from '../../../../src/synthesis/synthesizer/structure/ages.ts';
import { AGES } from '../../../../src/synthesis/synthesizer/structure/model.ts';

const singles = (sex: number, values: readonly number[], parent: readonly number[] = values.map(() => 0)): AgeFigure[] =>
  values.map((value, a) => ({ sex, lo: a, hi: a, value, parent: parent[a]! }));
const range = (out: Float64Array, sex: number, lo: number, hi: number) => Array.from(out.subarray(sex * AGES + lo, sex * AGES + hi + 1));

describe('personsByAge', () => {
  it("follows the age groups' figures, spreading a group's difference over its single years", () => {
    // G01 says 10 males aged 0–4; G04's single years add up to 5 (perturbed): each gets one more.
    const figures = [{ sex: 0, lo: 0, hi: 4, value: 10, parent: 0 }, ...singles(0, [1, 1, 1, 1, 1])];
    const out = personsByAge(figures, [10, 0], false);
    expect(range(out, 0, 0, 4)).toEqual([2, 2, 2, 2, 2]);
  });

  it('an age group whose single years were all zeroed takes the parent area\'s ages', () => {
    const figures = [{ sex: 1, lo: 0, hi: 4, value: 6, parent: 600 }, ...singles(1, [0, 0, 0, 0, 0], [0, 100, 200, 300, 0])];
    const out = personsByAge(figures, [0, 6], true);
    expect(range(out, 1, 0, 4)).toEqual([0, 1, 2, 3, 0]);
  });

  it("single years lean on the parent as strongly as G04's chosen strength says, and no more", () => {
    // A small area: 20 females aged 0–4, single years published as 20, 0, 0, 0, 0 (a perturbed
    // pattern); the parent has them evenly. No borrowing keeps the area's own shape; a strength
    // of 5,000 pseudo-persons all but replaces it with the parent's.
    const figures = [{ sex: 1, lo: 0, hi: 4, value: 20, parent: 500 }, ...singles(1, [20, 0, 0, 0, 0], [100, 100, 100, 100, 100])];
    expect(range(personsByAge(figures, [0, 20], true, 0), 1, 0, 4)).toEqual([20, 0, 0, 0, 0]);
    expect(range(personsByAge(figures, [0, 20], true, 5000), 1, 0, 4)).toEqual([4, 4, 4, 4, 4]);
    const byDefault = range(personsByAge(figures, [0, 20], true), 1, 0, 4);
    expect(byDefault[0]).toBeGreaterThan(4);
    expect(byDefault[0]).toBeLessThan(20);
  });

  it('leaves out a figure whose range crosses an earlier one', () => {
    const figures = [{ sex: 0, lo: 0, hi: 9, value: 10, parent: 0 }, { sex: 0, lo: 5, hi: 14, value: 1000, parent: 0 }, ...singles(0, new Array(15).fill(1))];
    const out = personsByAge(figures, [15, 0], false);
    expect(range(out, 0, 0, 14)).toEqual(new Array(15).fill(1));
  });

  it('property: whole persons, none negative, each sex adding up to its total', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ sex: fc.integer({ min: 0, max: 1 }), lo: fc.integer({ min: 0, max: 110 }), len: fc.integer({ min: 0, max: 20 }), value: fc.integer({ min: 0, max: 50 }), parent: fc.integer({ min: 0, max: 500 }) }), { maxLength: 30 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        fc.boolean(),
        (raw, males, females, small) => {
          const figures = raw.map((f) => ({ sex: f.sex, lo: f.lo, hi: f.lo + f.len, value: f.value, parent: f.parent }));
          const out = personsByAge(figures, [males, females], small);
          expect(out.every((v) => Number.isInteger(v) && v >= 0)).toBe(true);
          expect(range(out, 0, 0, AGES - 1).reduce((a, b) => a + b, 0)).toBe(males);
          expect(range(out, 1, 0, AGES - 1).reduce((a, b) => a + b, 0)).toBe(females);
        },
      ),
    );
  });
});
