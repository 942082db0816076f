import { mkdir, rm, writeFile } from 'node:fs/promises';
import { requestBytes } from '../support/raw-request.ts';
import { join } from 'node:path';
import { gunzipSync, gzipSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpiredFiles } from '../../src/app/maintenance.ts';
import { FIXTURE_SUBURBS, CATALOGUE_VARIABLES, FIXTURE_VERSION, fileColumnsOf } from '../adapters/pools/fixture.ts';
import { substantiveCategories } from '../../src/synthesis/census/missing-codes.ts';
import { download, parquetMetadata, readTable, type Table } from './files.ts';
import { signLink } from '../../src/core/links.ts';
import { query, SECRET, startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
let acct: { accountId: string; key: string };
const DAY = 86_400_000;

beforeAll(async () => {
  s = await startTestServer();
  acct = await s.account({ grant: 200 });
});
afterAll(async () => s.close());

/** The clock moves a second per execute, so history order is well defined. */
const execute = (body: unknown, headers: Record<string, string> = {}, key = acct.key) => {
  s.clock.advance(1000);
  return s.call('/query/execute', { key, body, headers });
};
const credits = async (key = acct.key) => (await (await s.call('/account/credits', { key })).json()).credits_remaining as number;
const silentLog = { info: () => undefined, error: () => undefined };

/** A GET (or HEAD) whose body is the bytes on the wire (fetch would decode a Content-Encoding itself). */
/**
 * A request to a download link as a client sends it, following the scale-out route's redirect to
 * the bucket (with the same headers, as browsers and fetch do); `vary` is the service's own answer's.
 */
async function rawRequest(url: string, headers: Record<string, string>, method = 'GET'): Promise<Awaited<ReturnType<typeof requestBytes>> & { vary: unknown; redirectedTo?: string }> {
  const first = await requestBytes(url, headers, method);
  if (first.status !== 307) return { ...first, vary: first.headers['vary'] };
  const location = first.headers['location'] as string;
  return { ...(await requestBytes(location, headers, method)), vary: first.headers['vary'], redirectedTo: location };
}

/** No record id twice within one selection: rows come in selection order, n per selection. */
function assertDistinctPerSelection(table: Table, idColumn: string, n: number, selections: number): void {
  expect(table.rows).toHaveLength(n * selections);
  for (let p = 0; p < selections; p++) {
    const ids = table.rows.slice(p * n, (p + 1) * n).map((r) => r[idColumn]);
    expect(new Set(ids).size).toBe(n);
  }
}

describe('POST /query/execute', () => {
  it('charges, writes a parquet file with the documented columns, and echoes metadata', async () => {
    const before = await credits();
    const body = query({ geography_selections: ['Richmond (VIC)', 'Burnley'], n_observations: 120 });
    const res = await execute(body);
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    expect(json).toMatchObject({ status: 'completed', credit_cost: 1, credits_remaining: before - 1 });
    expect(json.query_id).toMatch(/^qry_/);
    expect(Date.parse(json.download_expires) - s.clock.ms).toBe(7 * DAY);
    expect(json.metadata).toMatchObject({ ...body, output_format: 'parquet', include_geography: 'none', version: FIXTURE_VERSION });
    expect(json.metadata.seed).toMatch(/^\d+$/);
    expect(json.metadata.generated_at).toBe(new Date(s.clock.ms).toISOString());
    expect(await credits()).toBe(before - 1);

    const file = await download(json.download_url, s.dataDir, 'a.parquet');
    expect(file.response.status).toBe(200);
    expect(file.response.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    expect(file.response.headers.get('content-disposition')).toContain(`spq-${json.query_id}-persons.parquet`);
    expect(Number(file.response.headers.get('content-length'))).toBe(file.bytes.length);
    const table = await readTable(file.path, 'parquet');
    // Two selections: a `selection` column says which one each row answers.
    expect(table.columns).toEqual(['person_id', 'family_id', 'dwelling_id', 'selection', 'suburb_code', ...CATALOGUE_VARIABLES.persons.flatMap((v) => fileColumnsOf(v, false))]);
    expect(new Set(table.rows.slice(0, 120).map((r) => r.selection))).toEqual(new Set(['Richmond (VIC)']));
    expect(new Set(table.rows.slice(120).map((r) => r.selection))).toEqual(new Set(['Burnley']));
    assertDistinctPerSelection(table, 'person_id', 120, 2);
    expect(new Set(table.rows.slice(0, 120).map((r) => r.suburb_code))).toEqual(new Set(['SAL22170']));
    expect(new Set(table.rows.slice(120).map((r) => r.suburb_code))).toEqual(new Set(['SAL20394']));
    const kv = await parquetMetadata(file.path);
    expect(kv).toMatchObject({ query_id: json.query_id, seed: json.metadata.seed, version: FIXTURE_VERSION });
    expect(JSON.parse(kv.dictionary!).variables.map((v: { code: string }) => v.code)).toEqual(CATALOGUE_VARIABLES.persons.map((v) => v.code));
  });

  it('csv with hierarchical columns right for every row, and its dictionary as a second download', async () => {
    const n = 40;
    const res = await execute(query({ geography_level: 'postcode', geography_selections: ['3121'], dataset_type: 'dwellings', n_observations: n, output_format: 'csv', include_geography: 'hierarchical' }));
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    const file = await download(json.download_url, s.dataDir, 'b.csv');
    expect(file.response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const table = await readTable(file.path, 'csv');
    expect(table.columns).toEqual(['dwelling_id', 'suburb_code', ...CATALOGUE_VARIABLES.dwellings.flatMap((v) => fileColumnsOf(v, false)), 'suburb', 'postcode', 'lga', 'gccsa', 'state', 'sa2_code', 'sa2_name']);
    assertDistinctPerSelection(table, 'dwelling_id', n, 1);
    const bySal = new Map(FIXTURE_SUBURBS.map((f) => [f.suburb.salCode, f.suburb]));
    for (const row of table.rows) {
      const suburb = bySal.get(row.suburb_code!)!;
      expect(row).toMatchObject({ suburb: suburb.suburbId, postcode: suburb.postcode, lga: suburb.lga, gccsa: suburb.gccsa, state: suburb.state });
      // Burnley's entry is an older release's (an SA2 name, no code): the name alone, never a guessed
      // code (an empty csv field reads as NULL).
      expect([row.sa2_code ?? '', row.sa2_name ?? '']).toEqual([suburb.sa2Code ?? '', suburb.sa2 ?? '']);
      expect(suburb.postcode).toBe('3121');
    }
    const dict = await fetch(json.dictionary_url);
    expect(dict.status).toBe(200);
    const dictionary = await dict.json();
    expect(dictionary.variables.map((v: { code: string }) => v.code)).toEqual(CATALOGUE_VARIABLES.dwellings.map((v) => v.code));
    expect(dictionary.metadata.seed).toBe(json.metadata.seed);
    // GET /query/{id} and the history give the dictionary's link too (a link to the same file).
    const item = await (await s.call(`/query/${json.query_id}`, { key: acct.key })).json();
    expect((await (await fetch(item.dictionary_url)).json()).metadata.seed).toBe(json.metadata.seed);
    const history = await (await s.call('/query/history', { key: acct.key })).json();
    const listed = history.queries.find((q: { query_id: string }) => q.query_id === json.query_id);
    expect((await (await fetch(listed.dictionary_url)).json()).metadata.query_id).toBe(json.query_id);
    // Parquet and xlsx carry their dictionary inside: no link.
    expect(history.queries.filter((q: { dictionary_url?: string }) => q.dictionary_url).map((q: { query_id: string }) => q.query_id)).toEqual([json.query_id]);
  });

  it('xlsx readable by an independent reader, families', async () => {
    const res = await execute(query({ geography_level: 'lga', geography_selections: ['Yarra', 'LGA20110'], dataset_type: 'families', n_observations: 5, output_format: 'xlsx' }));
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    const file = await download(json.download_url, s.dataDir, 'c.xlsx');
    expect(file.response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const table = await readTable(file.path, 'xlsx');
    // Alpine holds a small suburb: every coarsened variable comes with a coarse companion column.
    const families = CATALOGUE_VARIABLES.families;
    expect(table.columns).toEqual(['family_id', 'dwelling_id', 'selection', 'suburb_code', ...families.flatMap((v) => fileColumnsOf(v, true))]);
    assertDistinctPerSelection(table, 'family_id', 5, 2);
    for (const v of families) {
      const substantive = substantiveCategories(v.categories);
      for (const row of table.rows) {
        const missing = row[`${v.code}_missing`] ?? null;
        // A fine column holds substantive fine categories or nothing (a small suburb's record, or a missing value); its
        // companion, substantive coarse ones for every record whose value is not missing; the missing code has a column of its own.
        if (row[v.code]) expect(substantive).toContain(row[v.code]);
        else expect(v.coarse !== undefined || missing !== null).toBe(true);
        if (v.coarse) expect(missing === null ? substantiveCategories(v.coarse.categories) : [null]).toContain(row[`${v.code}_coarse`]);
        if (missing !== null) expect([row[v.code], v.categories.includes(missing) || v.coarse!.categories.includes(missing)]).toEqual([null, true]);
      }
    }
  });

  it('draws a new sample each time', async () => {
    const body = query({ geography_selections: ['Fitzroy'], n_observations: 50 });
    const ids: string[][] = [];
    for (const name of ['d1.parquet', 'd2.parquet']) {
      const json = await (await execute(body)).json();
      const table = await readTable((await download(json.download_url, s.dataDir, name)).path, 'parquet');
      ids.push(table.rows.map((r) => r.person_id!));
    }
    expect(ids[0]).not.toEqual(ids[1]);
  });

  it('402 with detail and credits_remaining only, nothing charged', async () => {
    const poor = await s.account(); // 5 weekly free credits
    // 700 × 1.5 / 500 = 2.1 → 3 credits
    const costly = query({ geography_level: 'state', geography_selections: ['VIC'], n_observations: 700, include_geography: 'hierarchical' });
    expect((await execute(costly, {}, poor.key)).status).toBe(200);
    expect(await credits(poor.key)).toBe(2);
    const res = await execute(costly, {}, poor.key);
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['credits_remaining', 'detail']);
    expect(body.credits_remaining).toBe(2);
    expect(body.detail).toMatch(/costs 3 credits.*2 available/);
    expect(await credits(poor.key)).toBe(2);
    // preview of the same query is valid, with a warning
    const p = await (await s.call('/query/preview', { key: poor.key, body: costly })).json();
    expect(p.valid).toBe(true);
    expect(p.warnings.join(' ')).toMatch(/needs 3 credits.*has 2/);
  });

  it('Idempotency-Key: same body returns the first result without a charge; another body is 422', async () => {
    const body = query({ geography_selections: ['Burnley'], n_observations: 10 });
    const first = await (await execute(body, { 'idempotency-key': 'order-1' })).json();
    const balance = await credits();
    const again = await execute({ ...body, output_format: 'parquet' }, { 'idempotency-key': 'order-1' });
    expect(again.status).toBe(200);
    const second = await again.json();
    expect(second.query_id).toBe(first.query_id);
    expect(second.download_url).toBe(first.download_url);
    expect(second.metadata).toEqual(first.metadata);
    expect(await credits()).toBe(balance);
    // Defaults written out (implicate 1) and white space around a name are the same request too.
    const spelledOut = await execute({ ...body, geography_selections: ['\tBurnley\n '], implicate: 1, include_geography: 'none' }, { 'idempotency-key': 'order-1' });
    expect(spelledOut.status).toBe(200);
    expect((await spelledOut.json()).query_id).toBe(first.query_id);
    expect(await credits()).toBe(balance);
    const other = await execute({ ...body, n_observations: 11 }, { 'idempotency-key': 'order-1' });
    expect(other.status).toBe(422);
    expect((await other.json()).error).toBe('validation_error');
  });

  it('Idempotency-Key under concurrency: one charge, others replay (200) or 409 conflict', async () => {
    const balance = await credits();
    const responses = await Promise.all(Array.from({ length: 6 }, () => execute(query({ n_observations: 3 }), { 'idempotency-key': 'burst' })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((st) => st === 200 || st === 409)).toBe(true);
    const bodies = await Promise.all(responses.map((r) => r.json()));
    const ids = new Set(bodies.filter((_, i) => statuses[i] === 200).map((b) => b.query_id));
    expect(ids.size).toBe(1);
    for (const [i, b] of bodies.entries()) if (statuses[i] === 409) expect(b.error).toBe('conflict');
    expect(await credits()).toBe(balance - 1);
  });

  it('a failure after the charge refunds it and answers 500 with the request id only', async () => {
    const balance = await credits();
    const tmp = join(s.dataDir, 'tmp');
    await rm(tmp, { recursive: true, force: true });
    await writeFile(tmp, 'not a directory'); // the export cannot create its temp file
    try {
      const res = await execute(query({ n_observations: 10 }));
      expect(res.status).toBe(500);
      const body = await res.json();
      expect(body).toEqual({ error: 'internal_error', detail: expect.any(String), request_id: res.headers.get('x-request-id') });
      expect(body.detail).not.toMatch(/ENOTDIR|EEXIST|\/tmp|at /);
    } finally {
      await rm(tmp, { force: true });
      await mkdir(tmp);
    }
    expect(await credits()).toBe(balance);
    expect(await s.store.ledgerBalance(acct.accountId)).toBe(balance);
  });
});

describe('downloads', () => {
  let url: string;
  let whole: Buffer;
  beforeAll(async () => {
    const json = await (await execute(query({ n_observations: 30, output_format: 'csv' }))).json();
    url = json.download_url;
    whole = Buffer.from(await (await fetch(url)).arrayBuffer());
  });

  it('Range gives 206 with the exact bytes; suffix ranges; 416 outside the file', async () => {
    const part = await fetch(url, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${whole.length}`);
    expect(part.headers.get('content-length')).toBe('10');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(10, 20));
    const tail = await fetch(url, { headers: { range: 'bytes=-7' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 7));
    const open = await fetch(url, { headers: { range: `bytes=${whole.length - 3}-` } });
    expect(Buffer.from(await open.arrayBuffer())).toEqual(whole.subarray(whole.length - 3));
    const outside = await fetch(url, { headers: { range: `bytes=${whole.length}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${whole.length}`);
  });

  // In scale-out the bucket answers ranges with its own validators (the route redirects there).
  it.runIf(process.env.SPQ_TEST_STACK !== 'scaleout')('validators: an ETag on every answer; If-Range with another validator, or an invalid range (bytes=5-2), gets the whole file', async () => {
    const first = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9A-Za-z_-]{22}-[0-9a-z]+"$/);
    await first.arrayBuffer();
    const resumed = await fetch(url, { headers: { range: 'bytes=10-19', 'if-range': etag } });
    expect(resumed.status).toBe(206);
    expect(Buffer.from(await resumed.arrayBuffer())).toEqual(whole.subarray(10, 20));
    for (const other of ['"another-tag"', `W/${etag}`, 'Wed, 21 Oct 2015 07:28:00 GMT']) {
      const changed = await fetch(url, { headers: { range: 'bytes=10-19', 'if-range': other, 'accept-encoding': 'identity' } });
      expect(changed.status, other).toBe(200);
      expect(Buffer.from(await changed.arrayBuffer())).toEqual(whole);
    }
    const invalid = await fetch(url, { headers: { range: 'bytes=5-2', 'accept-encoding': 'identity' } });
    expect(invalid.status).toBe(200);
    expect(Buffer.from(await invalid.arrayBuffer())).toEqual(whole);
    // A compressed copy is another representation, with its own tag.
    const zstd = await fetch(url, { headers: { 'accept-encoding': 'zstd' } });
    expect(zstd.headers.get('etag')).not.toBe(etag);
    await zstd.arrayBuffer();
  });

  it('Accept-Encoding q-values choose the coding; "identity" weighed above the codings gets the file itself', async () => {
    for (const [accept, sent] of [
      ['gzip;q=1, zstd;q=0.5', 'gzip'],
      ['zstd;q=0.9, gzip;q=0.9', 'zstd'],
      ['gzip, zstd;q=0', 'gzip'],
      ['zstd;q=0.2, gzip;q=0.1, identity;q=0.5', null],
      ['*;q=0.3', 'zstd'],
    ] as const) {
      const res = await fetch(url, { headers: { 'accept-encoding': accept }, redirect: 'follow' });
      expect(res.headers.get('content-encoding'), accept).toBe(sent);
      await res.arrayBuffer();
    }
  });

  it('a request body the service would misread (Content-Encoding, a charset other than UTF-8) is 400 and runs nothing', async () => {
    const body = JSON.stringify(query({ n_observations: 5 }));
    const gzipped = await fetch(`${s.baseUrl}/query/preview`, { method: 'POST', headers: { authorization: `Bearer ${acct.key}`, 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(body) });
    expect(gzipped.status).toBe(400);
    expect((await gzipped.json()).detail).toContain('send it uncompressed');
    const latin1 = await fetch(`${s.baseUrl}/query/preview`, { method: 'POST', headers: { authorization: `Bearer ${acct.key}`, 'content-type': 'application/json; charset=iso-8859-1' }, body });
    expect(latin1.status).toBe(400);
    expect((await latin1.json()).detail).toContain('send it as UTF-8');
    const utf8 = await fetch(`${s.baseUrl}/query/preview`, { method: 'POST', headers: { authorization: `Bearer ${acct.key}`, 'content-type': 'application/json; charset=UTF-8' }, body });
    expect(utf8.status).toBe(200);
    await utf8.arrayBuffer();
  });

  /** The service's own link to a file, as download_url and dictionary_url are on both stacks. */
  const serviceLink = (queryId: string, key: string, fileName: string): string =>
    `${s.baseUrl}/downloads/${signLink(SECRET, key, Math.floor(s.clock.ms / 1000) + 3600, fileName)}/${fileName}`;

  it('every download has Content-Length: a whole csv as the stored zstd or gzip copy the client accepts, HEAD the same, a range and parquet as they are', async () => {
    const json = await (await execute(query({ n_observations: 30, output_format: 'csv' }))).json();
    const link = serviceLink(json.query_id, `${json.query_id}.csv`, `spq-${json.query_id}-persons.csv`);
    const file = Buffer.from(await (await fetch(json.download_url, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
    const zstd = await rawRequest(link, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    const gzip = await rawRequest(link, { 'accept-encoding': 'gzip;q=0.5, zstd;q=0' });
    const plain = await rawRequest(link, { 'accept-encoding': 'identity' });
    const bare = await rawRequest(link, {});
    const ranged = await rawRequest(link, { 'accept-encoding': 'zstd, gzip', range: 'bytes=0-9' });
    const rangedPlain = await rawRequest(link, { range: 'bytes=5-' });
    expect(zstd.status).toBe(200);
    expect(zstd.headers['content-encoding']).toBe('zstd');
    expect(zstd.headers['content-length']).toBe(String(zstd.body.length));
    expect(zstd.vary).toBe('accept-encoding');
    expect(zstdDecompressSync(zstd.body)).toEqual(file);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-length']).toBe(String(gzip.body.length));
    expect(gunzipSync(gzip.body)).toEqual(file);
    for (const r of [plain, bare]) {
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(r.headers['content-length']).toBe(String(file.length));
      expect(r.body).toEqual(file);
    }
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-encoding']).toBeUndefined();
    expect(ranged.headers['content-length']).toBe('10');
    expect(ranged.body).toEqual(file.subarray(0, 10));
    expect(rangedPlain.headers['content-range']).toBe(`bytes 5-${file.length - 1}/${file.length}`);
    expect(rangedPlain.body).toEqual(file.subarray(5));
    // HEAD says what the GET with the same Accept-Encoding sends.
    for (const [accept, get] of [['zstd', zstd], ['gzip', gzip], ['identity', plain]] as const) {
      const head = await rawRequest(link, { 'accept-encoding': accept }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers['content-length']).toBe(get.headers['content-length']);
      expect(head.headers['content-encoding']).toBe(get.headers['content-encoding']);
      expect(head.body.length).toBe(0);
    }
    // Compressed, the csv is a fraction of its size (labels repeat).
    expect(zstd.body.length).toBeLessThan(file.length / 3);
    // The dictionary (JSON) too.
    const dictionary = await rawRequest(serviceLink(json.query_id, `${json.query_id}.dictionary.json`, `spq-${json.query_id}-persons-dictionary.json`), { 'accept-encoding': 'gzip' });
    expect(dictionary.headers['content-encoding']).toBe('gzip');
    expect(dictionary.headers['content-length']).toBe(String(dictionary.body.length));
    expect(JSON.parse(gunzipSync(dictionary.body).toString('utf8')).dataset_type).toBe('persons');
    const parquetId = (await (await execute(query({ n_observations: 30 }))).json()).query_id as string;
    const parquet = await rawRequest(serviceLink(parquetId, `${parquetId}.parquet`, `spq-${parquetId}-persons.parquet`), { 'accept-encoding': 'zstd, gzip' });
    expect(parquet.status).toBe(200);
    expect(parquet.headers['content-encoding']).toBeUndefined();
    expect(parquet.headers['content-length']).toBe(String(parquet.body.length));
    expect(parquet.body.subarray(0, 4).toString()).toBe('PAR1');
    // download_url itself: in scale-out the route redirects to a short-lived presigned URL of the
    // stored copy, so the compressed bytes come from the bucket, not through the service.
    const direct = await rawRequest(json.download_url, { 'accept-encoding': 'gzip, zstd' });
    expect(direct.headers['content-encoding']).toBe('zstd');
    expect(direct.headers['content-length']).toBe(String(zstd.body.length));
    expect(direct.body).toEqual(zstd.body);
    if (s.stack === 'scaleout') {
      const location = new URL(direct.redirectedTo!);
      expect(location.pathname).toMatch(new RegExp(`/${json.query_id}\\.csv\\.zst$`));
      expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
    } else expect(direct.redirectedTo).toBeUndefined();
  });

  it('HEAD gives the headers and no body', async () => {
    // In scale-out the route redirects a HEAD to a URL presigned for HEAD (SigV4 signs the method).
    const head = await fetch(url, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(whole.length));
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('403 for a tampered token or file name, as JSON', async () => {
    const tampered = url.replace(/\/downloads\/(.)/, (_m, c: string) => `/downloads/${c === 'A' ? 'B' : 'A'}`);
    const res = await fetch(tampered);
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe('forbidden');
    const renamed = await fetch(url.replace(/persons\.csv$/, 'persons.parquet'));
    expect(renamed.status).toBe(403);
    // The dataset part of the name is signed too: the same file under another dataset's name is refused.
    const otherDataset = await fetch(url.replace(/persons\.csv$/, 'families.csv'));
    expect(otherDataset.status).toBe(403);
  });
});

describe('history and single query', () => {
  it('lists newest first with true pagination, filters, pages past the end, refuses per_page 101', async () => {
    const all = await (await s.call('/query/history?per_page=100', { key: acct.key })).json();
    const total = all.pagination.total_queries;
    expect(total).toBeGreaterThanOrEqual(8);
    expect(all.queries).toHaveLength(total);
    const times = all.queries.map((q: { executed_at: string }) => q.executed_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.queries[0]).toEqual({
      query_id: expect.stringMatching(/^qry_/),
      executed_at: expect.any(String),
      dataset_type: 'persons',
      geography_selections: ['Richmond (VIC)'],
      n_observations: 30,
      credit_cost: 1,
      download_url: expect.stringContaining('/downloads/'),
      download_expired: false,
      // A csv query's dictionary link comes along (parquet and xlsx carry theirs inside).
      ...(all.queries[0].dictionary_url !== undefined ? { dictionary_url: expect.stringContaining('dictionary') } : {}),
      // Extensions: what reproduces the file.
      seed: expect.stringMatching(/^\d{1,20}$/),
      implicate: 1,
      version: expect.any(String),
      fitted_to: 'demo',
      // The whole request, so any query can be rebuilt from its history entry.
      geography_level: 'suburb',
      output_format: expect.stringMatching(/^(parquet|csv|xlsx)$/),
      include_geography: expect.stringMatching(/^(none|hierarchical)$/),
      linked_records: 'none',
      request: {
        geography_level: 'suburb',
        geography_selections: ['Richmond (VIC)'],
        dataset_type: 'persons',
        n_observations: 30,
        output_format: all.queries[0].output_format,
        include_geography: all.queries[0].include_geography,
        linked_records: 'none',
        seed: all.queries[0].seed,
        implicate: 1,
      },
    });
    const page2 = await (await s.call('/query/history?page=2&per_page=3', { key: acct.key })).json();
    expect(page2.pagination).toEqual({ page: 2, per_page: 3, total_pages: Math.ceil(total / 3), total_queries: total });
    expect(page2.queries.map((q: { query_id: string }) => q.query_id)).toEqual(all.queries.slice(3, 6).map((q: { query_id: string }) => q.query_id));
    const past = await (await s.call('/query/history?page=99', { key: acct.key })).json();
    expect(past.queries).toEqual([]);
    expect(past.pagination.total_queries).toBe(total);
    const dwellings = await (await s.call('/query/history?dataset_type=dwellings', { key: acct.key })).json();
    expect(dwellings.pagination.total_queries).toBe(1);
    for (const bad of ['per_page=101', 'page=0', 'per_page=0', 'dataset_type=cats', 'page=x']) {
      const res = await s.call(`/query/history?${bad}`, { key: acct.key });
      expect(res.status, bad).toBe(400);
      expect((await res.json()).error).toBe('bad_request');
    }
  });

  it('GET /query/{id}: own query 200, another account’s or unknown 404', async () => {
    const first = (await (await s.call('/query/history', { key: acct.key })).json()).queries[0];
    const res = await s.call(`/query/${first.query_id}`, { key: acct.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(first);
    const other = await s.account();
    for (const [id, key] of [[first.query_id, other.key], ['qry_AAAAAAAAAAAAAAAAAAAA', acct.key], ['nonsense', acct.key]] as const) {
      const miss = await s.call(`/query/${id}`, { key });
      expect(miss.status).toBe(404);
      expect(await miss.json()).toEqual({ error: 'not_found', detail: expect.any(String) });
    }
  });

  it('GET /query/{id} echoes the whole request: posting its `request` draws the same records again', async () => {
    const asked = query({ geography_selections: ['Richmond (VIC)', 'Fitzroy'], n_observations: 12, output_format: 'csv', include_geography: 'hierarchical', linked_records: 'joined' });
    const first = await (await execute(asked)).json();
    const item = await (await s.call(`/query/${first.query_id}`, { key: acct.key })).json();
    expect(item).toMatchObject({ geography_level: 'suburb', output_format: 'csv', include_geography: 'hierarchical', linked_records: 'joined' });
    expect(item.request).toEqual({ ...asked, seed: first.metadata.seed, implicate: 1 });
    const again = await (await execute(item.request)).json();
    expect(again.query_id).not.toBe(first.query_id);
    expect(again.metadata.seed).toBe(first.metadata.seed);
    const bytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
    expect((await bytes(again.download_url)).equals(await bytes(first.download_url))).toBe(true);
  });

  it('expired links: 410 JSON; the sweeper deletes files and history says download_expired', async () => {
    const { queries } = await (await s.call('/query/history?per_page=100', { key: acct.key })).json();
    s.clock.advance(7 * DAY + 1000);
    const gone = await fetch(queries[0].download_url);
    expect(gone.status).toBe(410);
    const body = await gone.json();
    expect(body.error).toBe('gone');
    expect(body.detail).toMatch(/expired/);
    const expiredNow = await (await s.call('/query/history?per_page=100', { key: acct.key })).json();
    expect(expiredNow.queries.every((q: { download_expired: boolean }) => q.download_expired)).toBe(true);

    const filesBefore = await s.listFiles();
    expect(await sweepExpiredFiles(s.deps, silentLog)).toBe(0); // still within the grace period
    s.clock.advance(s.deps.config.fileGraceHours * 3_600_000);
    // every account's expired files (this account's and the others of this file)
    expect(await sweepExpiredFiles(s.deps, silentLog)).toBeGreaterThanOrEqual(queries.length);
    const filesAfter = await s.listFiles();
    expect(filesBefore.length).toBeGreaterThan(0);
    expect(filesAfter).toEqual([]);
    const after = await (await s.call(`/query/${queries[0].query_id}`, { key: acct.key })).json();
    expect(after.download_expired).toBe(true);
  });
});
