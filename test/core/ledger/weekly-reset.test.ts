import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { currentFreePeriodStart, nextFreeReset, toSydneyIsoString, wallClockAt } from '../../../src/core/ledger/weekly-reset.ts';

const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;

describe('weekly free reset, Monday 00:00 Australia/Sydney', () => {
  it('in summer (AEDT, +11:00)', () => {
    const now = new Date('2026-11-25T03:00:00Z'); // Wednesday 14:00 in Sydney
    expect(currentFreePeriodStart(now).toISOString()).toBe('2026-11-22T13:00:00.000Z');
    expect(nextFreeReset(now).toISOString()).toBe('2026-11-29T13:00:00.000Z');
    expect(toSydneyIsoString(nextFreeReset(now))).toBe('2026-11-30T00:00:00+11:00');
  });

  it('in winter (AEST, +10:00)', () => {
    const now = new Date('2026-07-01T00:00:00Z');
    expect(currentFreePeriodStart(now).toISOString()).toBe('2026-06-28T14:00:00.000Z');
    expect(toSydneyIsoString(nextFreeReset(now))).toBe('2026-07-06T00:00:00+10:00');
  });

  it('Sunday night in Sydney is still the old week, though it is Monday in UTC+12 elsewhere', () => {
    // Sunday 23:59:59 Sydney (AEDT) = Sunday 12:59:59Z.
    const sundayNight = new Date('2026-11-29T12:59:59Z');
    expect(currentFreePeriodStart(sundayNight).toISOString()).toBe('2026-11-22T13:00:00.000Z');
    expect(currentFreePeriodStart(new Date('2026-11-29T13:00:00Z')).toISOString()).toBe('2026-11-29T13:00:00.000Z');
  });

  it('the week that ends daylight saving (first Sunday of April) is 169 hours long', () => {
    const inWeek = new Date('2026-04-03T00:00:00Z');
    const start = currentFreePeriodStart(inWeek);
    const next = nextFreeReset(inWeek);
    expect(start.toISOString()).toBe('2026-03-29T13:00:00.000Z'); // Mon 30 Mar 00:00 AEDT
    expect(next.toISOString()).toBe('2026-04-05T14:00:00.000Z'); // Mon 6 Apr 00:00 AEST
    expect(next.getTime() - start.getTime()).toBe(WEEK + HOUR);
    // The repeated hour on Sunday 5 April (02:00–03:00 twice) belongs to the old week.
    expect(currentFreePeriodStart(new Date('2026-04-04T15:30:00Z'))).toEqual(start);
    expect(currentFreePeriodStart(new Date('2026-04-04T16:30:00Z'))).toEqual(start);
  });

  it('the week that starts daylight saving (first Sunday of October) is 167 hours long', () => {
    const inWeek = new Date('2026-10-01T00:00:00Z');
    const start = currentFreePeriodStart(inWeek);
    const next = nextFreeReset(inWeek);
    expect(start.toISOString()).toBe('2026-09-27T14:00:00.000Z'); // Mon 28 Sep 00:00 AEST
    expect(next.toISOString()).toBe('2026-10-04T13:00:00.000Z'); // Mon 5 Oct 00:00 AEDT
    expect(next.getTime() - start.getTime()).toBe(WEEK - HOUR);
    expect(toSydneyIsoString(next)).toBe('2026-10-05T00:00:00+11:00');
  });

  it('for any instant: start ≤ now < next, both are Monday 00:00 in Sydney, a week apart', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }), (now) => {
        const start = currentFreePeriodStart(now);
        const next = nextFreeReset(now);
        expect(start.getTime()).toBeLessThanOrEqual(now.getTime());
        expect(next.getTime()).toBeGreaterThan(now.getTime());
        expect([WEEK - HOUR, WEEK, WEEK + HOUR]).toContain(next.getTime() - start.getTime());
        for (const boundary of [start, next]) {
          const w = wallClockAt(boundary);
          expect([w.hour, w.minute, w.second]).toEqual([0, 0, 0]);
          expect(new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay()).toBe(1);
        }
        // Stable: the start maps to itself; the last millisecond before next is in the same week.
        expect(currentFreePeriodStart(start)).toEqual(start);
        expect(currentFreePeriodStart(new Date(next.getTime() - 1))).toEqual(start);
        expect(currentFreePeriodStart(next)).toEqual(next);
      }),
      { numRuns: 300 },
    );
  });
});
