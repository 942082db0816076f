import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { creditCost } from '../../src/core/pricing.ts';

describe('creditCost', () => {
  it('matches every example in docs/spec/decisions.md', () => {
    expect(creditCost(1000, 1, 'none')).toBe(2);
    expect(creditCost(1000, 1, 'hierarchical')).toBe(3);
    expect(creditCost(700, 1, 'none')).toBe(2);
    expect(creditCost(700, 1, 'hierarchical')).toBe(3);
    expect(creditCost(100, 3, 'none')).toBe(1);
    expect(creditCost(1, 1, 'none')).toBe(1);
    // Joined linked records add half the standard rate, as hierarchical geography does.
    expect(creditCost(1000, 1, 'none', 'joined')).toBe(3);
    expect(creditCost(1000, 1, 'hierarchical', 'joined')).toBe(4);
    expect(creditCost(700, 1, 'none', 'joined')).toBe(3);
  });

  it('is the ceiling of billable × rate / 500', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000_000 }), fc.integer({ min: 1, max: 200 }), (n, selections) => {
        const billable = n * selections;
        expect(creditCost(n, selections, 'none')).toBe(Math.ceil(billable / 500));
        // 1.5/500 = 3/1000 exactly; compare in integers to avoid floating error in the oracle
        expect(creditCost(n, selections, 'hierarchical')).toBe(Math.floor((billable * 3 + 999) / 1000));
      }),
    );
  });

  it('never bills hierarchical below standard, and always at least 1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 50 }), (n, s) => {
        const standard = creditCost(n, s, 'none');
        return standard >= 1 && creditCost(n, s, 'hierarchical') >= standard;
      }),
    );
  });

  it('refuses non-positive or fractional counts', () => {
    expect(() => creditCost(0, 1, 'none')).toThrow(RangeError);
    expect(() => creditCost(1.5, 1, 'none')).toThrow(RangeError);
    expect(() => creditCost(10, 0, 'none')).toThrow(RangeError);
  });
});
