import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, startTestServer, type TestServer } from './harness.ts';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ rateLimits: { perMinute: 10_000, freePerHour: 10_000 } });
});
afterAll(async () => s.close());

describe('200 concurrent executes on an account that can pay for exactly 37', () => {
  it('37 succeed, 163 get 402, the balance is 0 and the ledger, history and files agree', async () => {
    const { accountId, key } = await s.account({ grant: 32 }); // + 5 free this week = 37
    expect((await (await s.call('/account/credits', { key })).json()).credits_remaining).toBe(37);
    const body = query({ geography_selections: ['Burnley'], n_observations: 20, output_format: 'csv' }); // 1 credit each
    const responses = await Promise.all(Array.from({ length: 200 }, () => s.call('/query/execute', { key, body })));
    const statuses = responses.map((r) => r.status);
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(statuses.filter((st) => st === 200)).toHaveLength(37);
    expect(statuses.filter((st) => st === 402)).toHaveLength(163);
    for (const [i, b] of bodies.entries()) if (statuses[i] === 402) expect(b.credits_remaining).toBe(0);
    expect(new Set(bodies.filter((_, i) => statuses[i] === 200).map((b) => b.query_id)).size).toBe(37);

    const credits = await (await s.call('/account/credits', { key })).json();
    expect(credits).toMatchObject({ credits_remaining: 0, credits_used: 37 });
    expect(await s.store.ledgerBalance(accountId)).toBe(0);
    const history = await (await s.call('/query/history?per_page=100', { key })).json();
    expect(history.pagination.total_queries).toBe(37);
    const files = (await s.listFiles()).filter((f) => f.endsWith('.csv'));
    expect(files).toHaveLength(37);
  });
});
