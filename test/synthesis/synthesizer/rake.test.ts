import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rake, scaleTo } from '../../../src/synthesis/synthesizer/rake.ts';

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
});

describe('scaleTo', () => {
  it('scales to a total', () => {
    expect(Array.from(scaleTo([1, 3], 8))).toEqual([2, 6]);
  });
});
