import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { quantile, sizeBand, srmse, totalAbsoluteError } from '../../../src/synthesis/quality/metrics.ts';

describe('srmse', () => {
  it('is zero for a perfect fit', () => {
    expect(srmse([1, 2, 3], [1, 2, 3])).toBe(0);
  });

  it('follows the definition on a worked example', () => {
    // errors 1, -1, 0, 2 → mean square 6/4 = 1.5; mean target 5 → sqrt(1.5)/5
    expect(srmse([6, 4, 5, 7], [5, 5, 5, 5])).toBeCloseTo(Math.sqrt(1.5) / 5, 12);
  });

  it('scores an all-zero table 0 when matched and leaves it out when not', () => {
    expect(srmse([0, 0], [0, 0])).toBe(0);
    expect(srmse([1, 0], [0, 0])).toBeUndefined();
  });

  it('rejects tables of different shapes', () => {
    expect(() => srmse([1], [1, 2])).toThrow(RangeError);
  });

  it('is invariant to scaling both sides', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 1000 })), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 2, max: 50 }),
        (pairs, k) => {
          const s = pairs.map(([a]) => a);
          const t = pairs.map(([, b]) => b);
          const base = srmse(s, t)!;
          const scaled = srmse(s.map((x) => x * k), t.map((x) => x * k))!;
          return Math.abs(base - scaled) < 1e-9 * Math.max(1, base);
        },
      ),
    );
  });
});

describe('totalAbsoluteError', () => {
  it('sums absolute differences', () => {
    expect(totalAbsoluteError([1, 5, 3], [2, 5, 0])).toBe(4);
  });
});

describe('quantile', () => {
  it('interpolates between ranks', () => {
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.95)).toBeCloseTo(4.8, 12);
    expect(quantile([], 0.5)).toBeUndefined();
  });
});

describe('sizeBand', () => {
  it('splits at 500 and 5,000 persons', () => {
    expect([499, 500, 4999, 5000].map(sizeBand)).toEqual(['<500', '500-5000', '500-5000', '>=5000']);
  });
});
