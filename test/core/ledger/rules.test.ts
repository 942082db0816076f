import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { freeReset, refundSplit, splitCharge, tierAt, weeklyAllowance } from '../../../src/core/ledger/rules.ts';
import { currentFreePeriodStart, FREE_WEEKLY_CREDITS } from '../../../src/core/ledger/weekly-reset.ts';

const DAY = 86_400_000;

describe('tiers', () => {
  const bundle = { startsAt: new Date('2026-01-10T00:00:00Z'), expiresAt: new Date('2026-02-09T00:00:00Z') };
  it('are paid exactly while a bundle is active', () => {
    expect(tierAt([], new Date('2026-01-20T00:00:00Z'))).toBe('free');
    expect(tierAt([bundle], new Date('2026-01-09T23:59:59Z'))).toBe('free');
    expect(tierAt([bundle], bundle.startsAt)).toBe('paid');
    expect(tierAt([bundle], new Date(bundle.expiresAt.getTime() - 1))).toBe('paid');
    expect(tierAt([bundle], bundle.expiresAt)).toBe('free');
  });
  it('give the weekly allowance to free accounts only', () => {
    expect(weeklyAllowance('free')).toBe(FREE_WEEKLY_CREDITS);
    expect(weeklyAllowance('paid')).toBe(0);
  });
});

describe('the lazy weekly reset', () => {
  const monday = new Date('2026-11-22T13:00:00Z'); // Mon 23 Nov 00:00 AEDT
  it('does nothing within the stored week', () => {
    expect(freeReset({ freeRemaining: 1, freePeriodStart: monday }, new Date(monday.getTime() + 3 * DAY), () => 'free')).toBeUndefined();
  });
  it('refills to 5 without carrying over, judging the tier at the week start', () => {
    const later = new Date(monday.getTime() + 9 * DAY);
    const seen: Date[] = [];
    const r = freeReset({ freeRemaining: 2, freePeriodStart: monday }, later, (start) => (seen.push(start), 'free'));
    expect(r).toEqual({ freeRemaining: 5, freePeriodStart: new Date(monday.getTime() + 7 * DAY), delta: 3 });
    expect(seen).toEqual([currentFreePeriodStart(later)]);
  });
  it('expires leftovers for an account that is paid at the week start', () => {
    const r = freeReset({ freeRemaining: 4, freePeriodStart: monday }, new Date(monday.getTime() + 8 * DAY), () => 'paid');
    expect(r?.freeRemaining).toBe(0);
    expect(r?.delta).toBe(-4);
  });
});

describe('spend order', () => {
  it('takes free credits first, then purchased', () => {
    expect(splitCharge(3, 5)).toEqual({ fromFree: 3, fromPurchased: 0 });
    expect(splitCharge(7, 5)).toEqual({ fromFree: 5, fromPurchased: 2 });
    expect(splitCharge(2, 0)).toEqual({ fromFree: 0, fromPurchased: 2 });
    expect(splitCharge(0, 5)).toEqual({ fromFree: 0, fromPurchased: 0 });
  });
  it('always adds up and never takes more free credits than there are', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(10), (cost, free) => {
        const s = splitCharge(cost, free);
        return s.fromFree + s.fromPurchased === cost && s.fromFree <= free && s.fromFree >= 0 && s.fromPurchased >= 0 && (s.fromPurchased === 0 || s.fromFree === free);
      }),
    );
  });
  it('refunds the free part only within the same week', () => {
    const week = new Date('2026-11-22T13:00:00Z');
    const next = new Date(week.getTime() + 7 * DAY);
    expect(refundSplit({ fromFree: 2, fromPurchased: 3 }, week, week)).toEqual({ fromFree: 2, fromPurchased: 3 });
    expect(refundSplit({ fromFree: 2, fromPurchased: 3 }, week, next)).toEqual({ fromFree: 0, fromPurchased: 3 });
  });
});
