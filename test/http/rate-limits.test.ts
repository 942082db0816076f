import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, startTestServer, type TestServer } from './harness.ts';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ rateLimits: { perMinute: 3, freePerHour: 5, paidPerHour: 8, failedAuthPerMinute: 2, downloadsPerMinute: 2 } });
});
afterAll(async () => s.close());

const hit = (key: string) => s.call('/geography/search?query=rich', { key });

describe('rate limits per key', () => {
  it('the sliding minute: 3 pass with falling RateLimit, the 4th is 429 with Retry-After; the window slides', async () => {
    const { key } = await s.account();
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await hit(key);
      expect(res.status).toBe(200);
      remaining.push(res.headers.get('ratelimit')!);
      expect(res.headers.get('ratelimit-policy')).toBe('"minute";q=3;w=60, "hour-free";q=5;w=3600, "key-minute";q=3;w=60, "key-hour-free";q=5;w=3600');
      s.clock.advance(10_000);
    }
    expect(remaining.map((h) => /r=(\d+)/.exec(h)![1])).toEqual(['2', '1', '0']);
    const refused = await hit(key);
    expect(refused.status).toBe(429);
    const body = await refused.json();
    // the oldest counted request (30 s ago) leaves the 60 s window in 30 s
    expect(body).toEqual({ error: 'rate_limited', detail: expect.stringContaining('minute'), retry_after_seconds: 30 });
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.headers.get('x-request-id')).toMatch(/^req_/);
    s.clock.advance(30_000);
    expect((await hit(key)).status).toBe(200); // the first request has left the window
    expect((await hit(key)).status).toBe(429); // a refused request was not counted, but 3 are in the window again
  });

  it('the sliding hour of the free tier: 5 per hour even when the minute allows more', async () => {
    const { key } = await s.account();
    for (let i = 0; i < 5; i++) {
      expect((await hit(key)).status).toBe(200);
      s.clock.advance(61_000);
    }
    const refused = await hit(key);
    expect(refused.status).toBe(429);
    const body = await refused.json();
    expect(body.detail).toContain('hour-free');
    expect(body.retry_after_seconds).toBe(3600 - 5 * 61);
    s.clock.advance(body.retry_after_seconds * 1000);
    expect((await hit(key)).status).toBe(200);
  });

  it('the paid tier gets its own hourly limit', async () => {
    const { accountId, key } = await s.account();
    await s.store.addBundle({ accountId, credits: 10, days: 30, now: s.clock.now() });
    let passed = 0;
    for (let i = 0; i < 9; i++) {
      if ((await hit(key)).status === 200) passed++;
      s.clock.advance(61_000);
    }
    expect(passed).toBe(8);
  });

  it('keys are limited separately; every endpoint counts (preview, search, credits)', async () => {
    const a = await s.account();
    const b = await s.account();
    expect((await s.call('/query/preview', { key: a.key, body: query() })).status).toBe(200);
    expect((await s.call('/account/credits', { key: a.key })).status).toBe(200);
    expect((await hit(a.key)).status).toBe(200);
    expect((await hit(a.key)).status).toBe(429);
    expect((await hit(b.key)).status).toBe(200);
    s.clock.advance(61_000);
  });

  it('an account\'s keys share its limits: a second and third key add no requests (the 429 says so)', async () => {
    const a = await s.account();
    const second = await s.addKey(a.accountId);
    const third = await s.addKey(a.accountId);
    expect((await hit(a.key)).status).toBe(200);
    expect((await hit(second.key)).status).toBe(200);
    expect((await hit(third.key)).status).toBe(200);
    for (const key of [a.key, second.key, third.key]) {
      const refused = await hit(key);
      expect(refused.status).toBe(429);
      expect((await refused.json()).detail).toContain('all its keys together');
    }
    // Another account is untouched.
    expect((await hit((await s.account()).key)).status).toBe(200);
    s.clock.advance(61_000);
  });
});

describe('failed authentication and downloads: limited per address, never against a key', () => {
  it('invalid keys get 401 until the address has failed too often, then 429; a valid key is unaffected', async () => {
    const { key } = await s.account();
    const bad = 'spq_live_000000000000000000000000000000000000';
    expect((await hit(bad)).status).toBe(401);
    expect((await hit(bad)).status).toBe(401);
    const limited = await hit(bad);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const ok = await hit(key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit')).toContain('r=2'); // the failures did not count against this key
    s.clock.advance(61_000);
    expect((await hit(bad)).status).toBe(401);
  });

  it('downloads need no key, do not count against the key, and have a per-address limit', async () => {
    const { key } = await s.account();
    const json = await (await s.call('/query/execute', { key, body: query({ n_observations: 5 }) })).json();
    expect((await fetch(json.download_url)).status).toBe(200);
    // On both stacks the link is the service's (in scale-out it redirects to the bucket): the limit applies.
    expect((await fetch(json.download_url, { method: 'HEAD' })).status).toBe(200);
    const limited = await fetch(json.download_url);
    expect(limited.status).toBe(429);
    expect((await limited.json()).error).toBe('rate_limited');
    const next = await hit(key);
    expect(next.headers.get('ratelimit')).toContain('r=1'); // execute + this one
    s.clock.advance(61_000);
  });
});
