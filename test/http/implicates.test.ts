/**
 * Implicates (issue 21, item 7): a release holding five independent syntheses of every pool, a
 * request naming a seed and an implicate, and the metadata naming both. The server is the real
 * HTTP stack over the fixture release built with implicates 2..5 in <release>/implicates/<k>.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SEED } from '../adapters/pools/fixture.ts';
import { download, readTable, type Table } from './files.ts';
import { query, startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
let key = '';
let dir = '';
beforeAll(async () => {
  s = await startTestServer({ implicates: 5 });
  key = (await s.account({ grant: 200 })).key;
  dir = await mkdtemp(join(tmpdir(), 'spq-implicates-'));
});
afterAll(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

let fileNo = 0;
async function run(body: Record<string, unknown>): Promise<{ json: Record<string, any>; table: Table; bytes: Buffer }> {
  s.clock.advance(1000);
  const res = await s.call('/query/execute', { key, body });
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(200);
  const format = (body['output_format'] as 'csv' | 'parquet' | undefined) ?? 'parquet';
  const { path, bytes } = await download(json.download_url, dir, `f${fileNo++}.${format}`);
  return { json, table: await readTable(path, format), bytes };
}

/** The records' values without their ids (ids are row positions, the same in every implicate of equal pools). */
const values = (t: Table) => t.rows.map((r) => JSON.stringify(Object.entries(r).filter(([c]) => !c.endsWith('_id'))));

describe('implicates', () => {
  it('a query without implicate draws from implicate 1, and the metadata names it and its synthesis seed', async () => {
    const { json } = await run(query({ n_observations: 50 }));
    expect(json.metadata).toMatchObject({ implicate: 1, synthesis_seed: String(FIXTURE_SEED) });
  });

  it('the same seed and implicate give the same records; the csv file is byte for byte the same', async () => {
    const body = query({ n_observations: 80, output_format: 'csv', seed: '12345678901234567890', implicate: 3 });
    const first = await run(body);
    const second = await run(body);
    expect(first.json.query_id).not.toBe(second.json.query_id);
    expect(first.json.metadata).toMatchObject({ seed: '12345678901234567890', implicate: 3, synthesis_seed: String(FIXTURE_SEED + 2000) });
    expect(second.table.rows).toEqual(first.table.rows);
    expect(second.table.rows).toHaveLength(80);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    // History and GET /query/{id} carry what reproduces the file: seed, implicate, release.
    const item = await (await s.call(`/query/${first.json.query_id}`, { key })).json();
    expect(item).toMatchObject({ seed: '12345678901234567890', implicate: 3, version: first.json.metadata.version, fitted_to: first.json.metadata.fitted_to });
    const history = await (await s.call('/query/history?per_page=5', { key })).json();
    expect(history.queries.find((q: { query_id: string }) => q.query_id === second.json.query_id)).toMatchObject({ seed: '12345678901234567890', implicate: 3 });
  });

  it('a seed may be a JSON integer (up to 2^53 − 1): the same records as the seed in digits', async () => {
    const asText = await run(query({ n_observations: 40, output_format: 'csv', seed: '4242', implicate: 2 }));
    const asNumber = await run(query({ n_observations: 40, output_format: 'csv', seed: 4242, implicate: 2 }));
    expect(asNumber.json.metadata.seed).toBe('4242');
    expect(asNumber.bytes.equals(asText.bytes)).toBe(true);
    const tooBig = await s.call('/query/preview', { key, body: query({ seed: 2 ** 64 }) });
    expect(tooBig.status).toBe(400);
  });

  it('the seed of a file reproduces it: parquet records again, from the metadata of a draw without a named seed', async () => {
    const first = await run(query({ n_observations: 60, implicate: 2 }));
    const again = await run(query({ n_observations: 60, implicate: 2, seed: first.json.metadata.seed }));
    expect(again.table.rows).toEqual(first.table.rows);
  });

  it('different implicates give different records for the same seed (each its own synthesis)', async () => {
    const drawn = await Promise.all([1, 2, 3, 4, 5].map((implicate) => run(query({ n_observations: 100, output_format: 'csv', seed: '42', implicate }))));
    const distinct = new Set(drawn.map((d) => JSON.stringify(values(d.table))));
    expect(distinct.size).toBe(5);
    expect(drawn.map((d) => d.json.metadata.implicate)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(drawn.map((d) => d.json.metadata.synthesis_seed)).size).toBe(5);
  });

  it('five replicates, one per implicate, cost what five single draws cost', async () => {
    const balance = async () => (await (await s.call('/account/credits', { key })).json()).credits_remaining as number;
    const body = query({ geography_selections: ['Richmond (VIC)', 'Fitzroy'], n_observations: 150 });
    const before = await balance();
    s.clock.advance(1000);
    const single = await (await s.call('/query/execute', { key, body })).json();
    const afterSingle = await balance();
    const costs: number[] = [];
    for (const implicate of [1, 2, 3, 4, 5]) costs.push((await run({ ...body, implicate })).json.credit_cost as number);
    expect(single.credit_cost).toBe(1);
    expect(costs).toEqual(Array(5).fill(single.credit_cost));
    expect(before - afterSingle).toBe(single.credit_cost);
    expect(afterSingle - (await balance())).toBe(5 * single.credit_cost);
  });

  it('preview and execute refuse an implicate the release does not hold, listing those it holds; nothing is charged', async () => {
    for (const path of ['/query/preview', '/query/execute']) {
      const res = await s.call(path, { key, body: query({ implicate: 6 }) });
      const json = await res.json();
      expect(res.status).toBe(422);
      expect(json.detail ?? json.error).toBeDefined();
      expect(String(json.detail)).toMatch(/implicate 6 is not in pool release .*implicates 1, 2, 3, 4, 5/);
    }
  });

  it('a seed past 2^64 − 1 is a 422; a seed that is neither decimal digits nor a safe integer, or implicate 0, a 400', async () => {
    expect((await s.call('/query/execute', { key, body: query({ seed: '18446744073709551616' }) })).status).toBe(422);
    expect((await s.call('/query/preview', { key, body: query({ seed: '18446744073709551615' }) })).status).toBe(200);
    expect((await s.call('/query/execute', { key, body: query({ seed: '-1' }) })).status).toBe(400);
    expect((await s.call('/query/execute', { key, body: query({ seed: 4.5 }) })).status).toBe(400);
    expect((await s.call('/query/execute', { key, body: query({ implicate: 0 }) })).status).toBe(400);
  });

  it('an Idempotency-Key binds the seed and implicate too: another implicate under the same key is a 422', async () => {
    const headers = { 'idempotency-key': 'implicates-test-1' };
    expect((await s.call('/query/execute', { key, body: query({ implicate: 2 }), headers })).status).toBe(200);
    expect((await s.call('/query/execute', { key, body: query({ implicate: 2 }), headers })).status).toBe(200);
    expect((await s.call('/query/execute', { key, body: query({ implicate: 3 }), headers })).status).toBe(422);
  });
});
