import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from '../../scripts/export-openapi.ts';
import { StoreUnavailableError, type AccountStore } from '../../src/ports/account-store.ts';
import { query, startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
let key: string;

beforeAll(async () => {
  s = await startTestServer();
  ({ key } = await s.account());
});
afterAll(async () => s.close());

describe('geography', () => {
  it('search: documented shape, partial match, state filter, limit and total_matches', async () => {
    const res = await s.call('/geography/search?query=rich', { key });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.total_matches).toBe(2);
    expect(body.results.map((r: { suburb_id: string }) => r.suburb_id).sort()).toEqual(['Richmond (NSW)', 'Richmond (VIC)']);
    const vic = body.results.find((r: { state: string }) => r.state === 'VIC');
    expect(vic).toEqual({
      suburb_id: 'Richmond (VIC)',
      code: 'SAL22170',
      state: 'VIC',
      postcode: '3121',
      lga: 'Yarra',
      gccsa: 'Greater Melbourne',
      postcodes: ['3121'],
      lgas: ['Yarra'],
      sa2: 'Richmond - North',
      pool_size: 320,
      small_suburb_flag: false,
      fitted_to: 'demo',
      datasets_available: ['persons', 'families', 'dwellings'],
      pool_sizes: { persons: 320, families: expect.any(Number), dwellings: expect.any(Number) },
      quality_url: '/quality/areas/suburb/Richmond%20(VIC)',
    });
    const nsw = await (await s.call('/geography/search?query=RICH&state=NSW', { key })).json();
    expect(nsw.results.map((r: { suburb_id: string }) => r.suburb_id)).toEqual(['Richmond (NSW)']);
    const limited = await (await s.call('/geography/search?query=yarra&level=lga&limit=1', { key })).json();
    expect(limited.results).toHaveLength(1);
    expect(limited.total_matches).toBe(3);
    for (const bad of ['', '?query=a&limit=51', '?query=a&state=XX', '?query=a&level=planet']) {
      const r = await s.call(`/geography/search${bad}`, { key });
      expect(r.status, bad).toBe(400);
      expect((await r.json()).error).toBe('bad_request');
    }
  });

  it('variables: per-suburb n_categories (coarsened small suburb), 404 with a suggestion', async () => {
    const normal = await (await s.call('/geography/Richmond%20(VIC)/variables?dataset_type=persons', { key })).json();
    expect(normal.suburb_id).toBe('Richmond (VIC)');
    expect(normal.dataset_type).toBe('persons');
    expect(normal.variables[0]).toEqual({
      code: 'AGE5P',
      description: expect.any(String),
      n_categories: expect.any(Number),
      measurement: 'ordinal',
      categories: expect.arrayContaining(['0-4 years']),
      missing: { not_applicable: [], non_response: [], partial_response: [] },
      coarse_categories: expect.any(Array),
      coarse_areas: 0,
    });
    expect(normal).toMatchObject({ geography_level: 'suburb', version: expect.any(String), fitted_to: 'demo' });
    expect(normal.variables.find((v: { code: string }) => v.code === 'SEXP').measurement).toBe('nominal');
    const small = await (await s.call('/geography/wandiligong/variables?dataset_type=persons', { key })).json();
    expect(small.suburb_id).toBe('Wandiligong');
    const fewer = small.variables.filter((v: { code: string; n_categories: number }, i: number) => v.n_categories < normal.variables[i].n_categories);
    expect(fewer.length).toBeGreaterThan(0);
    const missing = await s.call('/geography/Richmund%20(VIC)/variables?dataset_type=persons', { key });
    expect(missing.status).toBe(404);
    const body = await missing.json();
    expect(body).toEqual({ error: 'not_found', detail: expect.stringContaining('Richmond (VIC)') });
    expect((await s.call('/geography/Burnley/variables', { key })).status).toBe(400);
  });

  it('variables at every level, free: a postcode, an LGA, a state, Australia, and level=… to say which', async () => {
    const variablesOf = async (path: string) => {
      const res = await s.call(`/geography/${path}`, { key });
      return { status: res.status, body: await res.json() };
    };
    const before = (await (await s.call('/account/credits', { key })).json()).credits_remaining;
    for (const [id, level, canonical] of [['3065', 'postcode', '3065'], ['Yarra', 'lga', 'Yarra'], ['VIC', 'state', 'VIC'], ['Australia', 'australia', 'Australia']] as const) {
      const found = await variablesOf(`${encodeURIComponent(id)}/variables?dataset_type=families`);
      expect(found.status, `${id}: ${JSON.stringify(found.body)}`).toBe(200);
      expect(found.body).toMatchObject({ suburb_id: canonical, geography_level: level, dataset_type: 'families' });
      const named = await variablesOf(`${encodeURIComponent(id)}/variables?dataset_type=families&level=${level}`);
      expect(named.body).toEqual(found.body);
    }
    // Every category and missing code a file's dictionary carries: FINF's partial and non-response codes.
    const finf = (await variablesOf('3065/variables?dataset_type=families')).body.variables.find((v: { code: string }) => v.code === 'FINF');
    expect(finf.missing.partial_response).toEqual(['Partial income stated']);
    const codes: string[] = [...finf.missing.not_applicable, ...finf.missing.non_response, ...finf.missing.partial_response];
    expect(finf.categories.slice(-codes.length).sort()).toEqual([...codes].sort()); // missing codes last, as the ABS orders them
    // A state of coarse and fine suburbs: the fine categories, with the coarse suburbs counted.
    const vic = (await variablesOf('VIC/variables?dataset_type=persons')).body.variables.find((v: { code: string }) => v.code === 'AGE5P');
    expect(vic).toMatchObject({ n_categories: vic.categories.length, coarse_areas: 1 });
    // At a named level the identifier must name a place of that level.
    const wrong = await variablesOf('Fitzroy/variables?dataset_type=persons&level=postcode');
    expect(wrong.status).toBe(404);
    expect(wrong.body.detail).toContain('No postcode "Fitzroy"');
    const nowhere = await variablesOf('Atlantis/variables?dataset_type=persons');
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.detail).toContain('GET /geography/search');
    expect((await (await s.call('/account/credits', { key })).json()).credits_remaining).toBe(before);
  });

  it('GET /codebook: every dataset\'s variables with categories and missing codes, or one dataset', async () => {
    const all = await (await s.call('/codebook', { key })).json();
    expect(Object.keys(all.datasets)).toEqual(['persons', 'families', 'dwellings']);
    expect(all).toMatchObject({ version: expect.any(String), fitted_to: 'demo' });
    const persons = await (await s.call('/codebook?dataset_type=persons', { key })).json();
    expect(Object.keys(persons.datasets)).toEqual(['persons']);
    expect(persons.datasets.persons).toEqual(all.datasets.persons);
    // The same entries the variables of any area give, without the area's counts.
    const area = (await (await s.call('/geography/Fitzroy/variables?dataset_type=persons', { key })).json()).variables;
    expect(area.map(({ n_categories: _n, coarse_areas: _c, ...v }: Record<string, unknown>) => v)).toEqual(persons.datasets.persons);
    expect((await s.call('/codebook?dataset_type=cats', { key })).status).toBe(400);
    expect((await s.call('/codebook')).status).toBe(401);
  });
});

describe('operations and documents', () => {
  it('healthz and readyz need no key', async () => {
    const health = await s.call('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('x-request-id')).toMatch(/^req_[0-9A-Za-z]{16}$/);
    const ready = await s.call('/readyz');
    expect(ready.status).toBe(200);
    // levels and building (issue 42): what is served, and nothing building for a release served whole.
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: true, rate_limiter: true, pool_release: true, io_pool: true }, version: 'test-2021.1', checksum: s.pools.checksum, levels: [...s.pools.levels], building: [] });
  });

  it('serves the OpenAPI 3.1 document, identical to the committed docs/openapi.json, and /docs', async () => {
    const served = await (await s.call('/openapi.json')).json();
    expect(served.openapi).toBe('3.1.0');
    const committed = JSON.parse(await readFile(OPENAPI_PATH, 'utf8'));
    // When this fails: run `npx tsx scripts/export-openapi.ts` and commit docs/openapi.json.
    expect(served).toEqual(committed);
    for (const path of ['/query/preview', '/query/execute', '/query/history', '/account/credits', '/geography/search', '/geography/{suburb_id}/variables', '/query/{query_id}']) {
      expect(Object.keys(served.paths)).toContain(path);
    }
    // The readable reference (test/http/reference.test.ts checks it in full).
    const docs = await fetch(`${s.baseUrl}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain(`<h1>${served.info.title}</h1>`);
  });

  it('declares the content type of every file a link serves (each format, the household zip, the dictionary)', async () => {
    const served = await (await s.call('/openapi.json')).json();
    const responses = served.paths['/downloads/{token}/{fileName}'].get.responses;
    const declared = (status: string) => Object.keys(responses[status].content ?? {});
    const seen = new Set<string>();
    const fetchType = async (url: string, headers: Record<string, string> = {}) => {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      return { status: String(res.status), type: res.headers.get('content-type')!.split(';')[0]! };
    };
    for (const overrides of [{ output_format: 'parquet' }, { output_format: 'xlsx' }, { output_format: 'csv' }, { output_format: 'csv', dataset_type: 'dwellings', linked_records: 'household', n_observations: 3 }]) {
      const result = await (await s.call('/query/execute', { key, body: query({ n_observations: 5, ...overrides }) })).json();
      for (const url of [result.download_url, result.dictionary_url].filter(Boolean)) {
        const whole = await fetchType(url);
        expect(declared(whole.status), `${url} is ${whole.type}`).toContain(whole.type);
        const part = await fetchType(url, { range: 'bytes=0-1' });
        expect(declared(part.status), `${url} (range) is ${part.type}`).toContain(part.type);
        seen.add(whole.type);
      }
    }
    expect(seen.size).toBe(5);
  });

  it('a database out of reach is 503 service_unavailable with Retry-After (retry shortly), not a bare 500', async () => {
    // The key is held in memory by now (key-cache.ts), so the route's own ledger read meets the outage;
    // a key not yet held meets it in the key look-up.
    const store = s.store as { findKeyByHash: AccountStore['findKeyByHash']; credits: AccountStore['credits'] };
    const original = { findKeyByHash: store.findKeyByHash, credits: store.credits };
    const { key: fresh } = await s.account();
    store.findKeyByHash = store.credits = async () => {
      throw new StoreUnavailableError('test: the database is down');
    };
    try {
      for (const k of [key, fresh]) {
        const res = await s.call('/account/credits', { key: k });
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        const body = await res.json();
        expect(body.error).toBe('service_unavailable');
        expect(body.detail).toMatch(/database is out of reach.*Retry/);
      }
    } finally {
      Object.assign(store, original);
    }
    expect((await s.call('/account/credits', { key })).status).toBe(200);
  });

  it('unknown routes are 404 in the error shape; an unsupported body type is 400', async () => {
    const res = await s.call('/nowhere', { key });
    expect(res.status).toBe(404);
    // The path is not repeated (a mistyped download link would echo its signature).
    expect(await res.json()).toEqual({ error: 'not_found', detail: 'No route answers GET at this path; see /docs for the API reference.' });
    const text = await fetch(`${s.baseUrl}/query/preview`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' }, body: 'hello' });
    expect(text.status).toBe(400);
    expect((await text.json()).error).toBe('bad_request');
  });
});

// Last: draining is one-way for the server of this file.
describe('graceful shutdown', () => {
  it('once draining, readyz is 503 and new executes get 503; other endpoints still answer', async () => {
    await s.deps.drain.drain();
    const ready = await s.call('/readyz');
    expect(ready.status).toBe(503);
    expect((await ready.json()).status).toBe('not_ready');
    const refused = await s.call('/query/execute', { key, body: query({ n_observations: 5 }) });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await refused.json()).error).toBe('service_unavailable');
    expect((await s.call('/account/credits', { key })).status).toBe(200);
  });
});
