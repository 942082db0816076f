import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { figureFromParents, roundKeepingTotal, tableFromParents } from '../../../src/synthesis/census/from-parents.ts';

const cells = (...v: number[]) => Float64Array.from(v);

describe('tableFromParents (a suburb table from its SA2s and postcodes)', () => {
  it('weights each parent\'s shares by the suburb\'s people in it and scales to the suburb\'s size', () => {
    // 900 persons, two thirds in a parent of 1,000 (all in the first cell), a third in one of 2,000 (half and half).
    const t = tableFromParents([{ weight: 2 / 3, size: 1000, cells: cells(1000, 0) }, { weight: 1 / 3, size: 2000, cells: cells(1000, 1000) }], 900);
    expect([...t!]).toEqual([750, 150]);
  });

  it('leaves out parents of no people and scales the other weights up', () => {
    const t = tableFromParents([{ weight: 0.5, size: 0, cells: cells(0, 0) }, { weight: 0.5, size: 10, cells: cells(5, 5) }], 40);
    expect([...t!]).toEqual([20, 20]);
  });

  it('is undefined with no usable parent; a suburb of no people gets zeros', () => {
    expect(tableFromParents([{ weight: 1, size: 0, cells: cells(1) }], 10)).toBeUndefined();
    expect([...tableFromParents([{ weight: 1, size: 10, cells: cells(4, 6) }], 0)!]).toEqual([0, 0]);
  });

  it('keeps a cell a parent does not publish unpublished', () => {
    const t = tableFromParents([{ weight: 1, size: 10, cells: cells(Number.NaN, 10) }], 5);
    expect(Number.isNaN(t![0]!)).toBe(true);
    expect(t![1]).toBe(5);
  });

  it('a total from the parents is rounded', () => {
    expect(figureFromParents([{ weight: 1, size: 3, value: 3 }, { weight: 1, size: 3, value: 2 }], 5)).toBe(4);
  });

  it('whole people: integers summing to the rounded sum of what the parents give', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ weight: fc.double({ min: 0.01, max: 1, noNaN: true }), size: fc.integer({ min: 1, max: 5000 }), cells: fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 4, maxLength: 4 }) }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 3000 }),
        (parents, size) => {
          const t = tableFromParents(parents.map((p) => ({ ...p, cells: Float64Array.from(p.cells) })), size)!;
          const w = parents.reduce((a, p) => a + p.weight, 0);
          const exact = parents.reduce((a, p) => a + (p.weight / w) * (size / p.size) * p.cells.reduce((x, y) => x + y, 0), 0);
          expect(t.every((v) => Number.isInteger(v) && v >= 0)).toBe(true);
          expect(t.reduce((a, v) => a + v, 0)).toBe(Math.round(exact));
        },
      ),
    );
  });

  it('roundKeepingTotal gives what the sort of an object per cell gave (issue 42: the same cells to the last one)', () => {
    const byObjects = (values: Float64Array): Float64Array => {
      const out = new Float64Array(values.length);
      let sum = 0;
      let floors = 0;
      const remainders: { i: number; r: number }[] = [];
      values.forEach((v, i) => {
        if (Number.isNaN(v)) return void (out[i] = Number.NaN);
        const f = Math.floor(Math.max(0, v));
        out[i] = f;
        sum += Math.max(0, v);
        floors += f;
        remainders.push({ i, r: Math.max(0, v) - f });
      });
      let left = Math.round(sum) - floors;
      remainders.sort((a, b) => b.r - a.r || a.i - b.i);
      for (const { i } of remainders) {
        if (left <= 0) break;
        out[i]! += 1;
        left--;
      }
      return out;
    };
    const cell = fc.oneof(fc.constant(Number.NaN), fc.constant(0), fc.integer({ min: 0, max: 9 }).map((k) => k + 0.5), fc.double({ min: -2, max: 60, noNaN: true }));
    fc.assert(
      fc.property(fc.array(cell, { maxLength: 40 }), (values) => {
        const input = Float64Array.from(values);
        expect(Array.from(roundKeepingTotal(input))).toEqual(Array.from(byObjects(input)));
      }),
      { numRuns: 500 },
    );
  });

  it('roundKeepingTotal moves each value by less than 1', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { maxLength: 10 }), (values) => {
        const r = roundKeepingTotal(Float64Array.from(values));
        values.forEach((v, i) => expect(Math.abs(r[i]! - v)).toBeLessThan(1));
      }),
    );
  });
});
