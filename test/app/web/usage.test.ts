import { describe, expect, it } from 'vitest';
import { dayIn, daysEnding, summariseUsage } from '../../../src/app/web/usage.ts';
import type { QueryUsage } from '../../../src/ports/account-store.ts';

const query = (at: string, keyId: string | null, n: number, places: number, credits: number, test = false): QueryUsage => ({
  queryId: `qry_${Math.random().toString(36).slice(2)}`,
  executedAt: new Date(at),
  keyId,
  nObservations: n,
  places,
  creditCost: credits,
  testData: test,
});

describe("the overview's usage figures", () => {
  it('days are calendar days in the holder’s zone, every one of them, across a daylight-saving change', () => {
    // 13:30 UTC on 4 Oct 2026 is already 5 Oct in Melbourne (AEDT began that morning) but 4 Oct in Perth.
    expect(dayIn(new Date('2026-10-04T13:30:00Z'), 'Australia/Melbourne')).toBe('2026-10-05');
    expect(dayIn(new Date('2026-10-04T13:30:00Z'), 'Australia/Perth')).toBe('2026-10-04');
    const days = daysEnding('2026-10-06', 5);
    expect(days).toEqual(['2026-10-02', '2026-10-03', '2026-10-04', '2026-10-05', '2026-10-06']);
    expect(daysEnding('2026-03-01', 2)).toEqual(['2026-02-28', '2026-03-01']);
  });

  it('adds queries, records (per place × places) and credits by day and by key, busiest key first, test queries counted apart', () => {
    const days = daysEnding('2026-11-25', 3);
    const usage = summariseUsage(
      [
        query('2026-11-25T01:00:00Z', 'key_a', 100, 2, 1),
        query('2026-11-24T01:00:00Z', 'key_a', 500, 1, 1),
        query('2026-11-24T02:00:00Z', null, 1000, 3, 6),
        query('2026-11-25T02:00:00Z', 'key_t', 50, 1, 0, true),
        query('2026-11-01T02:00:00Z', 'key_a', 50, 1, 9), // before the window: left out
      ],
      [],
      days,
      'Australia/Sydney',
    );
    expect(usage.days).toEqual([
      { day: '2026-11-23', queries: 0, records: 0, credits: 0, testQueries: 0 },
      { day: '2026-11-24', queries: 2, records: 3500, credits: 7, testQueries: 0 },
      { day: '2026-11-25', queries: 2, records: 250, credits: 1, testQueries: 1 },
    ]);
    expect(usage.byKey.map((k) => [k.keyId, k.queries, k.records, k.credits])).toEqual([
      [null, 1, 3000, 6],
      ['key_a', 2, 700, 2],
      ['key_t', 1, 50, 0],
    ]);
    expect(usage.totals).toEqual({ queries: 4, records: 3750, credits: 8, testQueries: 1 });
  });
});
