import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rake, scaleTo } from '../../../src/synthesis/shared/rake.ts';

describe('rake', () => {
  it('fits a 2 × 2 table to its margins (known answer)', () => {
    const result = rake([1, 1, 1, 1], [2, 2], [
      { dims: [0], target: [30, 70] },
      { dims: [1], target: [40, 60] },
    ]);
    expect(result.converged).toBe(true);
    // Independence from a flat seed: cell = row × col / total.
    expect(Array.from(result.values).map((v) => Math.round(v * 1e6) / 1e6)).toEqual([12, 18, 28, 42]);
    expect(result.maxResidual).toBeLessThan(1e-6);
  });

  it('keeps structural zeros at zero', () => {
    const result = rake([1, 0, 1, 1], [2, 2], [
      { dims: [0], target: [10, 20] },
      { dims: [1], target: [15, 15] },
    ]);
    expect(result.values[1]).toBe(0);
    expect(result.values[0]).toBeCloseTo(10, 6);
    expect(result.values[2]).toBeCloseTo(5, 6);
    expect(result.values[3]).toBeCloseTo(15, 6);
  });

  it('reports non-convergence for margins with different totals', () => {
    const result = rake([1, 1, 1, 1], [2, 2], [
      { dims: [0], target: [10, 10] },
      { dims: [1], target: [15, 15] },
    ], { maxIterations: 20 });
    expect(result.converged).toBe(false);
    expect(result.iterations).toBe(20);
    expect(result.maxResidual).toBeGreaterThan(4);
  });

  it('fits a three-way margin set whenever the margins agree (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.1, max: 100, noNaN: true }), { minLength: 12, maxLength: 12 }), (truth) => {
        // Margins taken from a positive 2 × 3 × 2 "truth" are always consistent.
        const shape = [2, 3, 2];
        const ab = new Float64Array(6);
        const bc = new Float64Array(6);
        truth.forEach((v, c) => {
          const a = Math.floor(c / 6);
          const b = Math.floor(c / 2) % 3;
          const cc = c % 2;
          ab[a * 3 + b]! += v;
          bc[b * 2 + cc]! += v;
        });
        const result = rake(new Float64Array(12).fill(1), shape, [
          { dims: [0, 1], target: ab },
          { dims: [1, 2], target: bc },
        ], { maxIterations: 500, tolerance: 1e-6 });
        expect(result.converged).toBe(true);
      }),
    );
  });

  it('fits rows and columns of a 2-D table to the last bit as the general raking does (property)', () => {
    // The same table as R × W × 1 takes the general path (index maps over three dimensions).
    const cell = fc.oneof(fc.constant(0), fc.double({ min: 0.001, max: 1000, noNaN: true }));
    const total = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 500 }));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 9 }), fc.array(cell, { minLength: 63, maxLength: 63 }), fc.array(total, { minLength: 16, maxLength: 16 }), (rows, columns, seed, totals) => {
        const values = seed.slice(0, rows * columns);
        const rowTargets = totals.slice(0, rows);
        const columnTargets = totals.slice(7, 7 + columns);
        const options = { maxIterations: 40, tolerance: 1e-9 };
        const margins = [
          { dims: [0], target: rowTargets },
          { dims: [1], target: columnTargets },
        ];
        const fast = rake(values, [rows, columns], margins, options);
        const general = rake(values, [rows, columns, 1], margins, options);
        expect(Array.from(fast.values)).toEqual(Array.from(general.values));
        expect([fast.iterations, fast.maxResidual, fast.converged]).toEqual([general.iterations, general.maxResidual, general.converged]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('scaleTo', () => {
  it('scales to a total', () => {
    expect(Array.from(scaleTo([1, 3], 8))).toEqual([2, 6]);
  });
});
