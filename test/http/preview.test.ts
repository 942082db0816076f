import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
let key: string;

beforeAll(async () => {
  s = await startTestServer();
  ({ key } = await s.account({ grant: 100 }));
});
afterAll(async () => s.close());

const preview = (body: unknown, k: string | null = key) => s.call('/query/preview', { key: k ?? undefined, body });

describe('POST /query/preview', () => {
  it('prices the docs/spec/decisions.md examples', async () => {
    // Pools of the fixture are a few hundred records, so the examples run over postcode/lga/state pools too.
    const cases: [Record<string, unknown>, number][] = [
      [{ n_observations: 100 }, 1],
      [{ n_observations: 100, geography_selections: ['Richmond (VIC)', 'Burnley', 'Fitzroy'] }, 1],
      [{ n_observations: 100, include_geography: 'hierarchical' }, 1],
      [{ geography_level: 'state', geography_selections: ['VIC'], n_observations: 700 }, 2],
      [{ geography_level: 'state', geography_selections: ['VIC'], n_observations: 700, include_geography: 'hierarchical' }, 3],
    ];
    for (const [overrides, cost] of cases) {
      const res = await preview(query(overrides));
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.credit_cost, JSON.stringify(overrides)).toBe(cost);
    }
  });

  it('answers the documented 200 shape', async () => {
    const res = await preview(query({ geography_selections: ['richmond  (vic)', 'Wandiligong'], n_observations: 10 }));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.headers.get('ratelimit-policy')).toContain('"minute";q=');
    expect(res.headers.get('ratelimit')).toMatch(/^"[a-z-]+";r=\d+;t=\d+$/);
    const body = await res.json();
    expect(body).toMatchObject({ valid: true, n_observations: 10, credit_cost: 1 });
    expect(body.geography_matches).toHaveLength(2);
    expect(body.geography_matches[0]).toMatchObject({ suburb_id: 'Richmond (VIC)', small_suburb_flag: false });
    expect(body.geography_matches[1]).toMatchObject({ suburb_id: 'Wandiligong', pool_size: 60, small_suburb_flag: true });
    expect(body.pool_available).toBe(body.geography_matches[0].pool_size + 60);
    expect(body.warnings.some((w: string) => w.includes('Wandiligong'))).toBe(true);
  });

  it('422 with the preview body for n above a pool, naming the geography and its pool', async () => {
    const res = await preview(query({ geography_selections: ['Wandiligong'], n_observations: 61 }));
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body).toEqual({ valid: false, detail: expect.stringContaining('Wandiligong: 60 records'), geography_matches: [] });
  });

  it('422 for unknown (did you mean), ambiguous (choices), duplicates, n = 0, xlsx too large', async () => {
    const detail = async (overrides: Record<string, unknown>, config?: string) => {
      const res = await preview(query(overrides));
      expect(res.status, config).toBe(422);
      const body = await res.json();
      expect(body.valid).toBe(false);
      return body.detail as string;
    };
    expect(await detail({ geography_selections: ['Richmnd (VIC)'] })).toMatch(/Did you mean.*Richmond \(VIC\)/);
    const ambiguous = await detail({ geography_selections: ['Richmond'] });
    expect(ambiguous).toContain('"Richmond (VIC)"');
    expect(ambiguous).toContain('"Richmond (NSW)"');
    expect(await detail({ geography_selections: ['Burnley', 'burnley '] })).toContain('listed twice');
    expect(await detail({ geography_level: 'state', geography_selections: ['VIC', 'Victoria'] })).toContain('listed twice');
    expect(await detail({ n_observations: 0 })).toContain('at least 1');
  });

  it('400 for malformed JSON, missing fields, wrong types, enum values, empty list', async () => {
    const bad = async (body: unknown, fragment: string) => {
      const res = await preview(body);
      const json = await res.json();
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(json.error).toBe('bad_request');
      expect(json.detail).toContain(fragment);
    };
    await bad('{"geography_level": ', 'JSON');
    const { dataset_type: _omit, ...missing } = query();
    await bad(missing, 'dataset_type is required');
    await bad(query({ n_observations: '100' }), 'n_observations');
    await bad(query({ n_observations: 1.5 }), 'n_observations');
    await bad(query({ output_format: 'json' }), 'must be one of: parquet, csv, xlsx');
    await bad(query({ geography_selections: [] }), 'at least one');
  });

  it('400 naming an unknown field, for preview and execute alike, and nothing is charged', async () => {
    const balance = async () => (await (await s.call('/account/credits', { key })).json()).credits_remaining as number;
    const before = await balance();
    for (const path of ['/query/preview', '/query/execute']) {
      for (const [field, value] of [['variables', ['AGE5P']], ['include_weights', true], ['outputformat', 'csv']] as const) {
        const res = await s.call(path, { key, body: query({ [field]: value }) });
        const json = await res.json();
        expect(res.status, JSON.stringify(json)).toBe(400);
        expect(json.error).toBe('bad_request');
        expect(json.detail).toContain(`body.${field} is not a field of this request`);
        expect(json.detail).toContain('geography_level, geography_selections, dataset_type, n_observations, output_format');
      }
    }
    expect(await balance()).toBe(before);
  });

  it('says what a seed may be for every kind of invalid seed', async () => {
    for (const seed of ['-5', '1.5', '1e3', 'abc', '', -5, 1.5, 2 ** 60, true, null, ['1']]) {
      const res = await preview(query({ seed }));
      const json = await res.json();
      expect(res.status, `${JSON.stringify(seed)} → ${JSON.stringify(json)}`).toBe(400);
      expect(json.detail, JSON.stringify(seed)).toContain('body.seed must be a whole number from 0 to 2^64 − 1');
      expect(json.detail).not.toContain('union');
    }
    // 20 digits past 2^64 − 1 pass the pattern; the use case says the same limit.
    const res = await preview(query({ seed: '18446744073709551616' }));
    expect([400, 422]).toContain(res.status);
    expect(JSON.stringify(await res.json())).toContain('2^64');
  });

  it('401 with error and message for a missing, malformed or unknown key', async () => {
    for (const k of [null, 'nonsense', 'spq_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa']) {
      const res = await preview(query(), k);
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body).toEqual({ error: 'unauthorized', message: expect.any(String) });
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    }
  });

  it('400 for a key in the query string or in the body, and the key is never logged', async () => {
    const res = await s.call(`/query/preview?api_key=${key}`, { key, body: query() });
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toContain('Authorization');
    const res2 = await s.call('/query/preview', { body: { ...query(), api_key: key } });
    expect(res2.status).toBe(400);
    const res3 = await s.call(`/geography/search?query=${key}`, { key });
    expect(res3.status).toBe(400);
    expect(s.logs.length).toBeGreaterThan(0);
    expect(s.logs.join('\n')).not.toContain(key.slice(9));
  });

  it('answers a query asked again with the same bytes, and still words each caller its own warnings', async () => {
    const asked = query({ geography_level: 'state', geography_selections: ['VIC', 'NSW'], include_geography: 'hierarchical', n_observations: 250 });
    const first = await preview(asked);
    const firstText = await first.text();
    const paid = JSON.parse(firstText);
    expect(first.status, firstText).toBe(200);
    expect(paid.credit_cost).toBeGreaterThan(1);
    expect(paid.warnings.some((w: string) => w.includes('402'))).toBe(false);
    const again = await preview(asked);
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('ratelimit')).toMatch(/^"[a-z-]+";r=\d+;t=\d+$/);
    expect(await again.text()).toBe(firstText);

    // The same query for an account whose balance cannot pay (its free credits spent on it): the
    // balance warning, for this request only.
    const poor = await s.account();
    let left = 5;
    while (left >= paid.credit_cost) {
      const spent = await s.call('/query/execute', { key: poor.key, body: { ...asked, output_format: 'csv' } });
      expect(spent.status).toBe(200);
      left = (await spent.json()).credits_remaining;
    }
    const poorBody = await (await preview(asked, poor.key)).json();
    expect(poorBody.credit_cost).toBe(paid.credit_cost);
    expect(poorBody.warnings).toEqual([...paid.warnings, expect.stringMatching(new RegExp(`needs ${paid.credit_cost} credits and the account has ${left} available; execute will be refused \\(402\\)`))]);

    // A sandbox key: nothing to pay, its own warning first, for a query a live key asked just before.
    const small = query({ n_observations: 10 });
    const live = await (await preview(small)).json();
    const sandbox = await s.account({ kind: 'test' });
    const sandboxBody = await (await preview(small, sandbox.key)).json();
    expect(sandboxBody).toEqual({ ...live, credit_cost: 0, warnings: [expect.stringContaining('Sandbox (spq_test_) key'), ...live.warnings] });

    // And the paying caller's answer is as it was.
    expect(await (await preview(asked)).text()).toBe(firstText);
  });
});
