/**
 * geography_level "sa2" over real HTTP: a release holding suburbs and SA2s (real ABS 2021 SA2
 * codes and names from the geography descriptors; fixture records), SA2 selections by nine-digit
 * code or ABS name, search by name or code with each result's ABS `code`, the variables of an SA2
 * by its code, and the errors when an SA2 is unknown or the release holds none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realSa2s } from '../../src/census-input/asgs-reference.ts';
import { FIXTURE_SUBURBS, type FixtureSuburb } from '../adapters/pools/fixture.ts';
import { download, readTable } from './files.ts';
import { query, startTestServer, type TestServer } from './harness.ts';

/** Real SA2s, as the builder catalogues them (identifier: the ABS name). */
function sa2(code: string, persons: number): FixtureSuburb {
  const real = realSa2s().find((a) => a.code === code);
  if (!real) throw new Error(`${code} is no SA2 of the descriptors`);
  return {
    suburb: { level: 'sa2', salCode: code, suburbId: real.absName, name: real.name, state: real.state, postcode: '', lga: '', lgaCode: '', gccsa: '', smallSuburb: false },
    persons,
  };
}

const HOBART = sa2('601051027', 300);
const SANDY_BAY = sa2('601051031', 250);
const RICHMOND_SA = sa2('404031108', 200);

let s: TestServer;
let plain: TestServer;
let key: string;
let plainKey: string;

beforeAll(async () => {
  [s, plain] = await Promise.all([startTestServer({ areas: [...FIXTURE_SUBURBS, HOBART, SANDY_BAY, RICHMOND_SA] }), startTestServer()]);
  [{ key }, { key: plainKey }] = await Promise.all([s.account({ grant: 100 }), plain.account({ grant: 10 })]);
});
afterAll(async () => Promise.all([s?.close(), plain?.close()]));

const search = async (params: string, server = s, k = key) => {
  const res = await server.call(`/geography/search?${params}`, { key: k });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body as { results: { suburb_id: string; code: string; state: string; pool_size: number }[]; total_matches: number };
};

describe('GET /geography/search at level sa2', () => {
  it('finds SA2s by name or by code, each with its nine-digit ABS code', async () => {
    const byName = await search('query=sandy&level=sa2');
    expect(byName.results).toEqual([expect.objectContaining({ suburb_id: 'Sandy Bay', code: '601051031', state: 'TAS', pool_size: 250, fitted_to: 'demo' })]);
    const byCode = await search('query=6010510&level=sa2');
    expect(byCode.results.map((r) => [r.suburb_id, r.code])).toEqual([
      ['Hobart', '601051027'],
      ['Sandy Bay', '601051031'],
    ]);
    expect((await search('query=richmond&level=sa2')).results.map((r) => r.suburb_id)).toEqual(['Richmond (SA)']);
    expect((await search('query=richmond&level=sa2&state=TAS')).total_matches).toBe(0);
  });

  it('gives suburbs their SAL code, and keeps suburb searches to suburbs', async () => {
    const found = await search('query=richmond');
    expect(found.results.map((r) => [r.suburb_id, r.code])).toEqual([
      ['Richmond (NSW)', 'SAL13327'],
      ['Richmond (VIC)', 'SAL22170'],
    ]);
  });

  it('400 for a level the contract and its extensions do not know', async () => {
    expect((await s.call('/geography/search?query=hob&level=sa3', { key })).status).toBe(400);
  });
});

describe('geography_level "sa2" queries', () => {
  it('preview resolves a code and an ABS name, case and spaces folded, to the SA2s', async () => {
    const res = await s.call('/query/preview', { key, body: query({ geography_level: 'sa2', geography_selections: ['601051027', '  sandy   BAY '], n_observations: 10 }) });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.geography_matches).toEqual([
      { suburb_id: 'Hobart', pool_size: 300, small_suburb_flag: false, quality_url: '/quality/areas/sa2/Hobart' },
      { suburb_id: 'Sandy Bay', pool_size: 250, small_suburb_flag: false, quality_url: '/quality/areas/sa2/Sandy%20Bay' },
    ]);
    expect(body.pool_available).toBe(550);
  });

  it('execute draws from the SA2 pools: every record carries the SA2 code and its state', async () => {
    const res = await s.call('/query/execute', {
      key,
      body: query({ geography_level: 'sa2', geography_selections: ['Richmond (SA)'], dataset_type: 'persons', n_observations: 25, output_format: 'csv', include_geography: 'hierarchical' }),
    });
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    expect(json.metadata).toMatchObject({ geography_level: 'sa2', geography_selections: ['Richmond (SA)'] });
    const table = await readTable((await download(json.download_url, s.dataDir, 'sa2.csv')).path, 'csv');
    expect(table.rows).toHaveLength(25);
    for (const row of table.rows) {
      expect(row).toMatchObject({ suburb_code: '404031108', state: 'SA' });
      // An SA2's pools belong to no one suburb: the column is empty (DuckDB reads an empty csv field as NULL).
      expect(row.suburb ?? '').toBe('');
    }
  });

  it('states stay made of the suburbs, the finest level the release holds: no one is counted twice', async () => {
    const res = await s.call('/query/preview', { key, body: query({ geography_level: 'state', geography_selections: ['SA'], n_observations: 10 }) });
    const body = await res.json();
    expect(res.status).toBe(422);
    expect(body.detail).toMatch(/Unknown state "SA"/);
  });

  it('422 for an unknown SA2 with the closest names, and for SA2s on a release that holds none', async () => {
    const unknown = await (await s.call('/query/preview', { key, body: query({ geography_level: 'sa2', geography_selections: ['Sandy Bya'] }) })).json();
    expect(unknown.detail).toBe('Unknown SA2 "Sandy Bya" at geography_level "sa2". Did you mean "Sandy Bay"? GET /geography/search finds identifiers.');
    const none = await plain.call('/query/preview', { key: plainKey, body: query({ geography_level: 'sa2', geography_selections: ['601051027'] }) });
    expect(none.status).toBe(422);
    expect((await none.json()).detail).toBe(
      'This pool release has no pools at geography_level "sa2": it holds "suburb", "postcode", "lga", "state", "australia". Choose one of those levels.',
    );
  });
});

describe('GET /geography/{suburb_id}/variables for an SA2', () => {
  it('takes the nine-digit code or the ABS name and answers with the name', async () => {
    for (const id of ['601051027', 'Hobart']) {
      const res = await s.call(`/geography/${id}/variables?dataset_type=dwellings`, { key });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.suburb_id).toBe('Hobart');
    }
  });
});
