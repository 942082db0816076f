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

  it('fits rows and columns whenever the margins agree (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 9 }), fc.array(fc.double({ min: 0.1, max: 100, noNaN: true }), { minLength: 63, maxLength: 63 }), (rows, columns, cells) => {
        // Margins taken from a positive "truth" are always consistent.
        const truth = cells.slice(0, rows * columns);
        const rowTargets = new Float64Array(rows);
        const columnTargets = new Float64Array(columns);
        truth.forEach((v, c) => {
          rowTargets[Math.floor(c / columns)]! += v;
          columnTargets[c % columns]! += v;
        });
        const result = rake(new Float64Array(rows * columns).fill(1), [rows, columns], [
          { dims: [0], target: rowTargets },
          { dims: [1], target: columnTargets },
        ], { maxIterations: 500, tolerance: 1e-6 });
        expect(result.converged).toBe(true);
        for (let r = 0; r < rows; r++) expect(result.values.subarray(r * columns, (r + 1) * columns).reduce((a, b) => a + b, 0)).toBeCloseTo(rowTargets[r]!, 5);
      }),
    );
  });

  it('takes only a 2-D table fitted to its rows, then its columns', () => {
    const margins = [
      { dims: [0], target: [1, 1] },
      { dims: [1], target: [1, 1] },
    ];
    expect(() => rake([1, 1, 1, 1], [2, 2, 1], margins)).toThrow(RangeError);
    expect(() => rake([1, 1, 1, 1], [2, 2], [...margins].reverse())).toThrow(RangeError);
    expect(() => rake([1, 1, 1, 1], [2, 2], margins.slice(0, 1))).toThrow(RangeError);
    expect(() => rake([1, 1, 1], [2, 2], margins)).toThrow(RangeError);
  });
});

describe('scaleTo', () => {
  it('scales to a total', () => {
    expect(Array.from(scaleTo([1, 3], 8))).toEqual([2, 6]);
  });
});

/** The sweep as written before it was fused into two passes (issue 42): four passes, the oracle. */
function rakeFourPasses(seed: readonly number[], rows: number, columns: number, rowTargets: readonly number[], columnTargets: readonly number[], maxIterations: number, tolerance: number) {
  const values = Float64Array.from(seed, (v) => (v > 0 ? v : 0));
  const rowSums = new Float64Array(rows);
  const columnSums = new Float64Array(columns);
  const residual = () => {
    for (let r = 0, c = 0; r < rows; r++) {
      let s = 0;
      for (let j = 0; j < columns; j++, c++) s += values[c]!;
      rowSums[r] = s;
    }
    columnSums.fill(0);
    for (let r = 0, c = 0; r < rows; r++) for (let j = 0; j < columns; j++, c++) columnSums[j]! += values[c]!;
    let worst = 0;
    for (let k = 0; k < rows; k++) worst = Math.max(worst, Math.abs(rowSums[k]! - rowTargets[k]!));
    for (let k = 0; k < columns; k++) worst = Math.max(worst, Math.abs(columnSums[k]! - columnTargets[k]!));
    return worst;
  };
  let iterations = 0;
  let maxResidual = residual();
  while (maxResidual > tolerance && iterations < maxIterations) {
    iterations++;
    for (let r = 0, c = 0; r < rows; r++) {
      const s = rowSums[r]!;
      const factor = s > 0 ? Math.max(0, rowTargets[r]!) / s : 1;
      for (let j = 0; j < columns; j++, c++) values[c] = values[c]! * factor;
    }
    columnSums.fill(0);
    for (let r = 0, c = 0; r < rows; r++) for (let j = 0; j < columns; j++, c++) columnSums[j]! += values[c]!;
    for (let k = 0; k < columns; k++) {
      const s = columnSums[k]!;
      columnSums[k] = s > 0 ? Math.max(0, columnTargets[k]!) / s : 1;
    }
    for (let r = 0, c = 0; r < rows; r++) for (let j = 0; j < columns; j++, c++) values[c] = values[c]! * columnSums[j]!;
    maxResidual = residual();
  }
  return { values, iterations, maxResidual };
}

describe('rake, two passes a sweep (issue 42)', () => {
  it('gives the four-pass sweep\'s figures to the last bit, with its iterations and residual', () => {
    const table = fc.integer({ min: 1, max: 6 }).chain((rows) =>
      fc.integer({ min: 1, max: 7 }).chain((columns) =>
        fc.record({
          rows: fc.constant(rows),
          columns: fc.constant(columns),
          seed: fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0, max: 50, noNaN: true })), { minLength: rows * columns, maxLength: rows * columns }),
          rowTargets: fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: rows, maxLength: rows }),
          columnTargets: fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: columns, maxLength: columns }),
          iterations: fc.integer({ min: 0, max: 60 }),
        }),
      ),
    );
    fc.assert(
      fc.property(table, (t) => {
        const fused = rake(t.seed, [t.rows, t.columns], [{ dims: [0], target: t.rowTargets }, { dims: [1], target: t.columnTargets }], { maxIterations: t.iterations, tolerance: 1e-6 });
        const oracle = rakeFourPasses(t.seed, t.rows, t.columns, t.rowTargets, t.columnTargets, t.iterations, 1e-6);
        expect(Array.from(fused.values)).toEqual(Array.from(oracle.values));
        expect(fused.iterations).toBe(oracle.iterations);
        expect(fused.maxResidual).toBe(oracle.maxResidual);
      }),
      { numRuns: 300 },
    );
  });
});
