import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../src/app/accounts.ts';
import { newId } from '../../src/core/keys.ts';
import { query, SECRET, startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
const DAY = 86_400_000;

beforeAll(async () => {
  s = await startTestServer(); // clock: Monday 2026-11-23 10:00 in Sydney
});
afterAll(async () => s.close());

const credits = async (key: string) => {
  const res = await s.call('/account/credits', { key });
  expect(res.status).toBe(200);
  return res.json();
};

describe('GET /account/credits, tiers and the weekly allowance', () => {
  it('a new free account: 5 credits a week, next reset Monday 00:00 Sydney with its offset', async () => {
    const { key } = await s.account();
    expect(await credits(key)).toEqual({
      credits_remaining: 5,
      tier: 'free',
      credits_purchased: 0,
      credits_used: 0,
      free_credits_remaining: 5,
      free_credits_reset: '2026-11-30T00:00:00+11:00',
    });
  });

  it('spends the free allowance, which resets on Monday (injected clock)', async () => {
    const { key } = await s.account();
    expect((await s.call('/query/execute', { key, body: query({ geography_level: 'state', geography_selections: ['VIC'], n_observations: 700, include_geography: 'hierarchical' }) })).status).toBe(200);
    expect(await credits(key)).toMatchObject({ credits_remaining: 2, free_credits_remaining: 2, credits_used: 3 });
    s.clock.advance(6 * DAY); // Sunday 10:00: no reset yet
    expect(await credits(key)).toMatchObject({ free_credits_remaining: 2, free_credits_reset: '2026-11-30T00:00:00+11:00' });
    s.clock.advance(DAY); // Monday 10:00
    expect(await credits(key)).toMatchObject({ credits_remaining: 5, free_credits_remaining: 5, credits_used: 3, free_credits_reset: '2026-12-07T00:00:00+11:00' });
  });

  it('a bundle makes the account paid for its duration; purchased credits outlive it', async () => {
    const { accountId, key } = await s.account();
    await s.store.addBundle({ accountId, credits: 40, days: 10, now: s.clock.now() });
    const paid = await credits(key);
    expect(paid).toMatchObject({ tier: 'paid', credits_purchased: 40, free_credits_reset: null });
    expect(paid.credits_remaining).toBeGreaterThanOrEqual(40);
    // the paid hour limit applies to the key
    const res = await s.call('/account/credits', { key });
    expect(res.headers.get('ratelimit-policy')).toContain('"hour-paid"');
    s.clock.advance(11 * DAY);
    const after = await credits(key);
    expect(after.tier).toBe('free');
    expect(after.credits_remaining).toBe(40 + after.free_credits_remaining);
    expect(after.free_credits_reset).toMatch(/T00:00:00\+1[01]:00$/);
  });
});

describe('keys: rotation and revocation', () => {
  it('two keys work at once; a key revoked through the service is refused on the next request', async () => {
    const { accountId, key: oldKey, keyId: oldKeyId } = await s.account();
    const { key: newKey } = await s.addKey(accountId);
    expect((await s.call('/account/credits', { key: oldKey })).status).toBe(200);
    expect((await s.call('/account/credits', { key: newKey })).status).toBe(200);
    // As `spq admin key revoke` and the account area do: the store, then the word to every instance.
    const revoked = await revokeKey({ store: s.store, serverSecret: SECRET, clock: s.clock, keyRevocations: s.deps.keyRevocations! }, oldKeyId);
    expect(revoked.ok).toBe(true);
    const refused = await s.call('/account/credits', { key: oldKey });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'unauthorized', message: expect.stringContaining('Authorization: Bearer') });
    expect((await s.call('/account/credits', { key: newKey })).status).toBe(200);
  });

  it('a key revoked in the database without a word to the service is refused within SPQ_KEY_RECHECK_MS (1 s)', async () => {
    const { key, keyId } = await s.account();
    expect((await s.call('/account/credits', { key })).status).toBe(200); // now held in memory
    expect(await s.store.revokeKey(keyId, s.clock.now())).toBe(true);
    const revokedAt = performance.now();
    let status = 200;
    while (status === 200 && performance.now() - revokedAt < 5000) {
      status = (await s.call('/account/credits', { key })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 20));
    }
    const elapsed = performance.now() - revokedAt;
    expect(status).toBe(401);
    // The bound plus one polling step and a request's round trip.
    expect(elapsed).toBeLessThan(s.deps.config.keyRecheckMs + 500);
  });

  it('a balance held in memory is never what charges: spent elsewhere, execute is refused (402) by the ledger', async () => {
    const { accountId, key } = await s.account(); // 5 free credits
    const body = query({ n_observations: 100 });
    const priced = await (await s.call('/query/preview', { key, body })).json();
    expect(priced).toMatchObject({ valid: true, warnings: [] });
    expect(priced.credit_cost).toBeLessThanOrEqual(5);
    // Another instance spends the balance: this one still holds 5 credits in its summary memory.
    const spent = await s.store.charge({
      accountId,
      queryId: newId('qry'),
      credits: 5,
      now: s.clock.now(),
      query: { executedAt: s.clock.now(), datasetType: 'persons', geographySelections: ['Elsewhere'], nObservations: 1, metadata: {}, fileKey: null, downloadExpires: s.clock.now() },
    });
    expect(spent.ok).toBe(true);
    const refused = await s.call('/query/execute', { key, body });
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ detail: expect.stringContaining('0 available'), credits_remaining: 0 });
    expect((await s.store.credits(accountId, s.clock.now())).creditsRemaining).toBe(0);
  });

  it('a key with a wrong checksum is refused without touching the account', async () => {
    const { key } = await s.account();
    const typo = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
    expect((await s.call('/account/credits', { key: typo })).status).toBe(401);
    expect((await s.call('/account/credits', { key: key.toLowerCase() === key ? key.toUpperCase() : key.toLowerCase() })).status).toBe(401);
  });
});
