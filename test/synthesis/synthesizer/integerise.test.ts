import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { controlledRound2D, largestRemainder, nearestIntegers, sum } from '../../../src/synthesis/synthesizer/integerise.ts';

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

/** Smallest Σ (x − v)² over whole x ≥ 0 adding up to `total` (brute force, small cases). */
function bestSquaredDistance(values: readonly number[], total: number, canReceive: (i: number) => boolean): number {
  let best = Infinity;
  const x = new Array<number>(values.length).fill(0);
  const walk = (i: number, left: number): void => {
    if (i === values.length - 1) {
      if (left > 0 && left > Math.floor(values[i]!) && !canReceive(i)) return;
      x[i] = left;
      best = Math.min(best, x.reduce((e, xi, j) => e + (xi - values[j]!) ** 2, 0));
      return;
    }
    for (let k = 0; k <= left; k++) {
      if (k > Math.floor(values[i]!) && !canReceive(i)) break;
      x[i] = k;
      walk(i + 1, left - k);
    }
  };
  walk(0, total);
  return best;
}

describe('nearestIntegers', () => {
  it('gives the known answers', () => {
    // Three too few: one more each, the largest cells first where the shift leaves a choice.
    expect(Array.from(nearestIntegers([10, 5, 1, 0], 19))).toEqual([11, 6, 2, 0]);
    expect(Array.from(nearestIntegers([10, 5, 1, 0], 17))).toEqual([11, 5, 1, 0]);
    // Proportional rounding would give [14, 7, 1]; the equal shift costs less squared error.
    expect(Array.from(largestRemainder([10, 5, 1], 22))).toEqual([14, 7, 1]);
    expect(Array.from(nearestIntegers([10, 5, 1], 22))).toEqual([12, 7, 3]);
    // Too many: every positive cell gives the same, none below 0 ([7.5, 2.5, 0]; the tie to the larger).
    expect(Array.from(nearestIntegers([10, 5, 1], 10))).toEqual([8, 2, 0]);
    // An empty cell receives only when open.
    expect(Array.from(nearestIntegers([4, 0], 6))).toEqual([6, 0]);
    expect(Array.from(nearestIntegers([4, 0], 6, { open: [1, 1] }))).toEqual([5, 1]);
    // A free cell (a remainder no cell publishes) takes the whole difference first.
    expect(Array.from(nearestIntegers([3, 2, 10], 20, { free: [0, 0, 1] }))).toEqual([3, 2, 15]);
    expect(Array.from(nearestIntegers([3, 2, 4], 3, { free: [0, 0, 1] }))).toEqual([2, 1, 0]);
    // Ties go to the larger `prefer`.
    expect(Array.from(nearestIntegers([1, 1, 1], 4, { prefer: [0, 5, 1] }))).toEqual([1, 2, 1]);
  });

  it('property: exact total, never negative, and no whole vector is nearer to the values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 6 }), fc.double({ min: 0, max: 6, noNaN: true })), { minLength: 1, maxLength: 4 }),
        fc.nat(14),
        (values, total) => {
          const out = nearestIntegers(values, total, { open: values.map(() => 1) });
          expect(sum(out)).toBe(total);
          out.forEach((x) => expect(x).toBeGreaterThanOrEqual(0));
          const got = Array.from(out).reduce((e, x, i) => e + (x - values[i]!) ** 2, 0);
          // Remainders within 1e-6 of each other count as ties (so that equal shifts tie exactly):
          // taking the one smaller by up to 1e-6 costs up to 2e-6 (e.g. [2, 5e-7] to 7).
          expect(got).toBeLessThanOrEqual(bestSquaredDistance(values, total, () => true) + 1e-5);
        },
      ),
    );
  });

  it('property: closed empty cells stay empty while another cell can take the units', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(20), { minLength: 1, maxLength: 12 }), fc.nat(300), (values, total) => {
        const out = nearestIntegers(values, total);
        expect(sum(out)).toBe(total);
        if (values.some((v) => v > 0)) values.forEach((v, i) => { if (v === 0) expect(out[i]).toBe(0); });
        // Lowering never raises a cell, raising never lowers one.
        const diff = total - values.reduce((a, b) => a + b, 0);
        values.forEach((v, i) => (diff >= 0 ? expect(out[i]!).toBeGreaterThanOrEqual(v) : expect(out[i]!).toBeLessThanOrEqual(v)));
      }),
    );
  });
});
