import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { controlledRound2D, largestRemainder, sum } from '../../../src/core/synthesis/integerise.ts';

describe('largestRemainder', () => {
  it('gives the known answer', () => {
    // Equal remainders (0.5, 0.5): the lower index wins.
    expect(Array.from(largestRemainder([1.5, 2.5, 1.0], 5))).toEqual([2, 2, 1]);
    expect(Array.from(largestRemainder([0.4, 0.4, 0.2], 1))).toEqual([1, 0, 0]);
    expect(Array.from(largestRemainder([2, 2, 6], 5))).toEqual([1, 1, 3]);
  });

  it('spreads a total over all-zero values evenly', () => {
    expect(Array.from(largestRemainder([0, 0, 0], 4))).toEqual([2, 1, 1]);
  });

  it('sums exactly, stays non-negative and within 1 of the scaled value', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -5, max: 1000, noNaN: true }), { minLength: 1, maxLength: 30 }),
        fc.nat(100_000),
        (values, total) => {
          const out = largestRemainder(values, total);
          expect(sum(out)).toBe(total);
          const positive = values.reduce((a, v) => a + Math.max(0, v), 0);
          out.forEach((x, i) => {
            expect(x).toBeGreaterThanOrEqual(0);
            if (positive > 0) expect(Math.abs(x - (Math.max(0, values[i]!) * total) / positive)).toBeLessThan(1 + 1e-9);
          });
        },
      ),
    );
  });
});

describe('controlledRound2D', () => {
  it('keeps both margins of a known matrix', () => {
    const values = [0.5, 0.5, 0.5, 0.5];
    const { cells, forced } = controlledRound2D(values, 2, 2, [1, 1], [1, 1]);
    expect(forced).toBe(0);
    expect(cells[0]! + cells[1]!).toBe(1);
    expect(cells[0]! + cells[2]!).toBe(1);
  });

  it('respects structural zeros when feasible and counts forced units when not', () => {
    const allowed = [1, 0, 1, 1];
    const ok = controlledRound2D([1, 0, 0.5, 0.5], 2, 2, [1, 1], [2, 0], allowed);
    expect(Array.from(ok.cells)).toEqual([1, 0, 1, 0]);
    const bad = controlledRound2D([1, 0, 0, 1], 2, 2, [1, 1], [0, 2], [1, 0, 1, 1]);
    expect(bad.forced).toBe(1);
    expect(Array.from(bad.cells)).toEqual([0, 1, 0, 1]);
  });

  it('makes every row and column total exact, cells near their values', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.double({ min: 0, max: 50, noNaN: true }), { minLength: 64, maxLength: 64 }),
        (rows, cols, raw) => {
          const values = raw.slice(0, rows * cols);
          // Integer margins of the matrix itself (largest remainder of its real margins).
          const total = Math.round(sum(values));
          const rowReal = Array.from({ length: rows }, (_, i) => sum(values.slice(i * cols, i * cols + cols)));
          const colReal = Array.from({ length: cols }, (_, j) => rowReal.reduce((a, _r, i) => a + values[i * cols + j]!, 0));
          const rowTotals = largestRemainder(rowReal, total);
          const colTotals = largestRemainder(colReal, total);
          const { cells, forced } = controlledRound2D(values, rows, cols, rowTotals, colTotals);
          expect(forced).toBe(0);
          for (let i = 0; i < rows; i++) expect(sum(cells.slice(i * cols, i * cols + cols))).toBe(rowTotals[i]);
          for (let j = 0; j < cols; j++) {
            let s = 0;
            for (let i = 0; i < rows; i++) s += cells[i * cols + j]!;
            expect(s).toBe(colTotals[j]);
          }
          cells.forEach((c) => expect(c).toBeGreaterThanOrEqual(0));
        },
      ),
    );
  });
});
