/**
 * Sandbox keys (spq_test_, docs/spec/decisions.md "Keys"): they spend nothing, are capped small, and their
 * results say they are test data, in the response and inside the file; over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { download, parquetMetadata, readTable } from './files.ts';
import { query, startTestServer, type TestServer } from './harness.ts';

/** SPQ_SANDBOX_RECORDS_PER_SELECTION's default. */
const SANDBOX_MAX_OBSERVATIONS = 100;

let s: TestServer;
let sandbox: { accountId: string; key: string };
let live: { key: string };

beforeAll(async () => {
  s = await startTestServer();
  sandbox = await s.account({ grant: 20, kind: 'test' });
  live = await s.addKey(sandbox.accountId, 'live');
});
afterAll(async () => s.close());

const credits = async (key: string) => (await (await s.call('/account/credits', { key })).json()).credits_remaining as number;

describe('sandbox keys', () => {
  it('execute spends nothing, and the response and the file say test data', async () => {
    const before = await credits(sandbox.key);
    const body = query({ geography_selections: ['Richmond (VIC)', 'Burnley'], n_observations: SANDBOX_MAX_OBSERVATIONS });
    const res = await s.call('/query/execute', { key: sandbox.key, body });
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    expect(json).toMatchObject({ credit_cost: 0, credits_remaining: before });
    expect(json.metadata.test_data).toBe(true);
    expect(await credits(sandbox.key)).toBe(before);
    const file = await download(json.download_url, s.dataDir, 'sandbox.parquet');
    const meta = await parquetMetadata(file.path);
    expect(meta['test_data']).toBe('true');
    expect(meta['citation']).toMatch(/^TEST DATA/);
    expect((await readTable(file.path, 'parquet')).rows).toHaveLength(2 * SANDBOX_MAX_OBSERVATIONS);
    // The history lists it, at no cost, marked as test data; so does GET /query/{id}.
    const history = await (await s.call('/query/history', { key: sandbox.key })).json();
    expect(history.queries[0]).toMatchObject({ query_id: json.query_id, credit_cost: 0, test_data: true });
    const one = await (await s.call(`/query/${json.query_id}`, { key: sandbox.key })).json();
    expect(one).toMatchObject({ query_id: json.query_id, test_data: true });
    // The name is the link's last segment (local files) or its Content-Disposition parameter (S3).
    expect(decodeURIComponent(one.download_url)).toContain('-TEST-DATA.parquet');
  });

  it('a sandbox csv says test data in its file name and in its dictionary', async () => {
    const body = query({ geography_selections: ['Richmond (VIC)'], n_observations: 5, output_format: 'csv' });
    const json = await (await s.call('/query/execute', { key: sandbox.key, body })).json();
    expect(decodeURIComponent(json.download_url)).toContain('-TEST-DATA.csv');
    expect(decodeURIComponent(json.dictionary_url)).toContain('-dictionary-TEST-DATA.json');
    const dictionary = await (await fetch(json.dictionary_url)).json();
    expect(dictionary.metadata).toMatchObject({ test_data: 'true', citation: expect.stringMatching(/^TEST DATA/) });
    const liveCsv = await (await s.call('/query/execute', { key: live.key, body })).json();
    expect(decodeURIComponent(liveCsv.download_url)).not.toContain('TEST-DATA');
    const history = await (await s.call('/query/history', { key: live.key })).json();
    expect(history.queries.find((q: { query_id: string }) => q.query_id === liveCsv.query_id).test_data).toBeUndefined();
  });

  it('is capped: more than the cap per selection is a 422 that names the cap, in preview and execute, and nothing is charged', async () => {
    const before = await credits(sandbox.key);
    const body = query({ geography_selections: ['Richmond (VIC)'], n_observations: SANDBOX_MAX_OBSERVATIONS + 1 });
    const preview = await s.call('/query/preview', { key: sandbox.key, body });
    expect(preview.status).toBe(422);
    expect((await preview.json()).detail).toContain(`at most ${SANDBOX_MAX_OBSERVATIONS} records per selection`);
    const res = await s.call('/query/execute', { key: sandbox.key, body });
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toContain('use a live key');
    expect(await credits(sandbox.key)).toBe(before);
  });

  it('preview prices a sandbox query at 0 and says what a live key would pay; a live key of the same account pays', async () => {
    const body = query({ geography_selections: ['Richmond (VIC)'], n_observations: 50 });
    const preview = await (await s.call('/query/preview', { key: sandbox.key, body })).json();
    expect(preview.credit_cost).toBe(0);
    expect(preview.warnings.join(' ')).toMatch(/Sandbox .* nothing is charged \(a live key would pay 1 credits\)/);
    const before = await credits(live.key);
    const res = await (await s.call('/query/execute', { key: live.key, body })).json();
    expect(res.credit_cost).toBe(1);
    expect(res.metadata.test_data).toBeUndefined();
    expect(await credits(live.key)).toBe(before - 1);
  });

  it('a household sample counts what it delivers (dwellings, families and persons), not only its n', async () => {
    const body = query({ geography_selections: ['Richmond (VIC)'], dataset_type: 'dwellings', linked_records: 'household', n_observations: SANDBOX_MAX_OBSERVATIONS });
    for (const path of ['/query/preview', '/query/execute']) {
      const res = await s.call(path, { key: sandbox.key, body });
      expect(res.status).toBe(422);
      const detail = (await res.json()).detail as string;
      expect(detail).toContain('counts its dwellings, families and persons');
      expect(Number(/would deliver (\d+)/.exec(detail)![1])).toBeGreaterThan(2 * SANDBOX_MAX_OBSERVATIONS);
    }
    // A live key's preview prices the same query by those records too.
    expect((await s.call('/query/preview', { key: live.key, body })).status).toBe(200);
    const small = await s.call('/query/execute', { key: sandbox.key, body: { ...body, n_observations: 10 } });
    expect(small.status).toBe(200);
  });
});

describe('sandbox caps count what a household sample delivers (issue 31)', () => {
  it('at the largest n the preview accepts, no draw delivers more than the cap: an over-cap draw is refused, not delivered', async () => {
    const body = (n: number, seed: number) => query({ geography_selections: ['Richmond (VIC)'], dataset_type: 'dwellings', linked_records: 'household', n_observations: n, output_format: 'csv', seed: String(seed) });
    let n = SANDBOX_MAX_OBSERVATIONS;
    while (n > 1 && (await s.call('/query/preview', { key: sandbox.key, body: body(n, 1) })).status !== 200) n--;
    let delivered = 0;
    let refused = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const res = await s.call('/query/execute', { key: sandbox.key, body: body(n, seed) });
      const json = await res.json();
      if (res.status === 422) {
        expect(json.detail).toMatch(/would deliver \d+ records/);
        refused++;
        continue;
      }
      expect(res.status).toBe(200);
      const zip = unzipSync(new Uint8Array(await (await fetch(json.download_url)).arrayBuffer()));
      const records = Object.entries(zip).filter(([name]) => name.endsWith('.csv')).reduce((sum, [, bytes]) => sum + new TextDecoder().decode(bytes).trim().split('\n').length - 1, 0);
      expect(records, `seed ${seed}`).toBeLessThanOrEqual(SANDBOX_MAX_OBSERVATIONS);
      delivered++;
    }
    expect(delivered).toBeGreaterThan(0);
    expect(refused + delivered).toBe(12);
  });
});

describe('sandbox caps per query and per day (configurable)', () => {
  it('records per query across selections, and queries per account per day (all its sandbox keys together)', async () => {
    const capped = await startTestServer({ config: { sandbox: { recordsPerSelection: 100, recordsPerQuery: 150, queriesPerDay: 3 } } });
    try {
      const a = await capped.account({ kind: 'test' });
      const second = await capped.addKey(a.accountId, 'test');
      const wide = query({ geography_selections: ['Richmond (VIC)', 'Burnley'], n_observations: 80 });
      const refused = await capped.call('/query/execute', { key: a.key, body: wide });
      expect(refused.status).toBe(422);
      expect((await refused.json()).detail).toContain('at most 150 records per query; this query would deliver 160');
      const fits = query({ geography_selections: ['Richmond (VIC)'], n_observations: 5 });
      for (const key of [a.key, second.key, a.key]) expect((await capped.call('/query/execute', { key, body: fits })).status).toBe(200);
      const fourth = await capped.call('/query/execute', { key: second.key, body: fits });
      expect(fourth.status).toBe(429);
      expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await fourth.json()).detail).toContain('at most 3 queries per account in 24 hours');
      // Preview stays free of the daily count, and a live key is not held by it.
      expect((await capped.call('/query/preview', { key: a.key, body: fits })).status).toBe(200);
      const live = await capped.addKey(a.accountId, 'live');
      await capped.store.grantCredits({ accountId: a.accountId, credits: 10, now: capped.clock.now() });
      expect((await capped.call('/query/execute', { key: live.key, body: fits })).status).toBe(200);
      capped.clock.advance(86_400_000);
      expect((await capped.call('/query/execute', { key: second.key, body: fits })).status).toBe(200);
    } finally {
      await capped.close();
    }
  });
});
