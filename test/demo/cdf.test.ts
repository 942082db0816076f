import { describe, expect, it } from 'vitest';
import { cumulative, drawIndex } from '../../src/demo/cdf.ts';

describe('demo distributions as cumulative weights (src/demo/cdf.ts)', () => {
  it('cumulative: running shares of the weights, the last exactly 1 whatever the rounding', () => {
    expect([...cumulative([1, 1, 2])]).toEqual([0.25, 0.5, 1]);
    const tenths = cumulative(Array.from({ length: 10 }, () => 0.1));
    expect(tenths[9]).toBe(1);
    expect(tenths[2]).toBeCloseTo(0.3, 12);
  });

  it('drawIndex: the first index whose cumulative weight is above u, skipping empty categories', () => {
    const cdf = cumulative([1, 0, 3]);
    expect([0, 0.2499, 0.25, 0.9999].map((u) => drawIndex(cdf, u))).toEqual([0, 0, 2, 2]);
    expect(drawIndex(cumulative([5]), 0.5)).toBe(0);
  });
});
