/**
 * The TypeScript client against a real running server (the HTTP test harness: spq's app on a
 * real port, real ledger, real files), and its types against the committed OpenAPI document.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GoneError, InsufficientCreditsError, NotFoundError, RateLimitError, ServiceUnavailableError, UnauthorizedError, SpqClient, SpqError, ValidationError, backoffMs, parseCsv, pool, readTable, retryAfterMs, tQuantile, type Dictionary } from '../../clients/typescript/src/index.ts';
import { startTestServer, type TestServer } from '../http/harness.ts';

let s: TestServer;
let spq: SpqClient;
let dir: string;

beforeAll(async () => {
  s = await startTestServer({ implicates: 5 });
  const acct = await s.account({ grant: 60 });
  spq = new SpqClient({ baseUrl: s.baseUrl, apiKey: acct.key, backoffMs: 5 });
  dir = await mkdtemp(join(tmpdir(), 'spq-client-'));
});
afterAll(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

const query = { geography_level: 'suburb', geography_selections: ['Fitzroy'], dataset_type: 'persons', n_observations: 120, output_format: 'csv' } as const;

describe('TypeScript client', () => {
  it('searches, previews, executes, downloads with progress, and finds the query in history and credits', async () => {
    const found = await spq.search('fitz');
    expect(found.results.map((r) => r.suburb_id)).toContain('Fitzroy');
    const preview = await spq.preview(query);
    expect(preview.valid && preview.credit_cost).toBe(1);
    const before = (await spq.credits()).credits_remaining;
    const result = await spq.execute(query);
    expect(result.credit_cost).toBe(1);
    const progress: number[] = [];
    const path = join(dir, 'fitzroy.csv');
    const got = await spq.download(result, path, { onProgress: (bytes) => progress.push(bytes) });
    expect(got.contentType).toContain('text/csv');
    expect((await readFile(path, 'utf8')).trim().split('\n')).toHaveLength(121);
    expect(progress.at(-1)).toBe(got.bytes);
    const dictionary = join(dir, 'fitzroy.dictionary.json');
    await spq.download(result.dictionary_url!, dictionary);
    expect(JSON.parse(await readFile(dictionary, 'utf8')).metadata.query_id).toBe(result.query_id);
    expect((await spq.history()).queries[0]!.query_id).toBe(result.query_id);
    expect((await spq.query(result.query_id)).credit_cost).toBe(1);
    expect((await spq.credits()).credits_remaining).toBe(before - 1);
  });

  it('returns an invalid preview as a result and raises API errors with their code, detail and request id', async () => {
    const invalid = await spq.preview({ ...query, geography_selections: ['Fitzroyy'] });
    expect(invalid.valid).toBe(false);
    const error = await spq.execute({ ...query, geography_selections: ['Fitzroyy'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpqError);
    expect(error).toMatchObject({ status: 422, code: 'validation_error' });
    expect((error as SpqError).requestId).toBeTruthy();
    const badKey = new SpqClient({ baseUrl: s.baseUrl, apiKey: 'spq_live_notakey', retries: 0 });
    expect(await badKey.credits().catch((e: unknown) => (e as SpqError).status)).toBe(401);
  });

  it('retries a 429 after its Retry-After and a 503 with backoff, keeping one Idempotency-Key so execute charges once', async () => {
    const failures = [
      new Response(JSON.stringify({ error: 'rate_limited', detail: 'slow down' }), { status: 429, headers: { 'retry-after': '0' } }),
      new Response(JSON.stringify({ error: 'service_unavailable', detail: 'restarting' }), { status: 503 }),
    ];
    const keys: string[] = [];
    const retries: number[] = [];
    const flaky = new SpqClient({
      baseUrl: s.baseUrl,
      apiKey: (await s.account({ grant: 5 })).key,
      backoffMs: 5,
      onRetry: (_attempt, status) => retries.push(status),
      fetch: async (input, init) => {
        const key = new Headers(init?.headers).get('idempotency-key');
        if (key) keys.push(key);
        // The first attempt reaches the server and is charged; its answer is "lost" behind a 429.
        const real = await fetch(input, init);
        return failures.shift() ?? real;
      },
    });
    const before = (await flaky.credits()).credits_remaining;
    const result = await flaky.execute(query);
    expect(retries).toEqual([429, 503]);
    expect(new Set(keys).size).toBe(1);
    expect((await flaky.credits()).credits_remaining).toBe(before - result.credit_cost);
  });

  it("follows the contract's retry policy: a long Retry-After is handed back as a RateLimitError, a missing one backs off from 1 s", async () => {
    const waits: number[] = [];
    let calls = 0;
    const limited = (headers: Record<string, string>) =>
      new SpqClient({
        baseUrl: s.baseUrl,
        apiKey: 'spq_live_unused',
        onRetry: (_attempt, _status, wait) => waits.push(wait),
        fetch: async () => {
          calls++;
          return new Response(JSON.stringify({ error: 'rate_limited', detail: 'at most 60 requests per minute' }), { status: 429, headers });
        },
      });
    // 3,131 s is past the default cap of 60 s: no sleep, one call, the wait carried by a typed error.
    const started = Date.now();
    const long = await limited({ 'retry-after': '3131' }).credits().catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(calls).toBe(1);
    expect(long).toBeInstanceOf(RateLimitError);
    expect(long).toBeInstanceOf(SpqError);
    expect(long).toMatchObject({ status: 429, code: 'rate_limited', retryAfterMs: 3_131_000 });
    expect(waits).toEqual([]);
    // No Retry-After: 1 s, 2 s, 4 s … capped at 60 s (±25%), never 0.
    expect([0, 1, 2, 3, 6, 7, 20].map((attempt) => backoffMs(attempt, 1000, 60_000, () => 0.5))).toEqual([1000, 2000, 4000, 8000, 60_000, 60_000, 60_000]);
    for (let attempt = 0; attempt < 12; attempt++) {
      const low = backoffMs(attempt, 1000, 60_000, () => 0);
      const high = backoffMs(attempt, 1000, 60_000, () => 0.9999);
      expect(low).toBeGreaterThanOrEqual(750);
      expect(high).toBeLessThanOrEqual(60_000);
    }
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Wed, 25 Nov 2026 08:00:10 GMT', Date.parse('Wed, 25 Nov 2026 08:00:00 GMT'))).toBe(10_000);
  });

  it('gives each error code its own class, and iterates the history page after page', async () => {
    const notFound = await spq.query('qry_doesnotexist').catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(NotFoundError);
    const invalid = await spq.execute({ ...query, n_observations: 10_000_000 }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    const fresh = new SpqClient({ baseUrl: s.baseUrl, apiKey: (await s.account({ grant: 10 })).key, backoffMs: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await fresh.execute({ ...query, n_observations: 5 })).query_id);
    const seen: string[] = [];
    for await (const item of fresh.historyItems({ perPage: 2 })) seen.push(item.query_id);
    // Every query once, across pages of two (several in the same millisecond may tie in order).
    expect([...seen].sort()).toEqual([...ids].sort());
    // The rest of the catalogue, as a server (or a proxy in front of it, without a JSON body) answers it.
    const answering = (status: number, body: string) =>
      new SpqClient({ baseUrl: s.baseUrl, apiKey: 'spq_live_unused', retries: 0, fetch: async () => new Response(body, { status }) });
    expect(await answering(402, JSON.stringify({ error: 'insufficient_credits', detail: 'needs 4, has 1', credits_remaining: 1 })).credits().catch((e: unknown) => e)).toBeInstanceOf(InsufficientCreditsError);
    expect(await answering(401, '{"error":"unauthorized","detail":"no key"}').credits().catch((e: unknown) => e)).toBeInstanceOf(UnauthorizedError);
    expect(await answering(503, '<html>bad gateway</html>').credits().catch((e: unknown) => e)).toBeInstanceOf(ServiceUnavailableError);
    expect(await answering(410, '{"error":"gone","detail":"expired"}').credits().catch((e: unknown) => e)).toBeInstanceOf(GoneError);
  });

  it('runs a query into a labelled table in one call: levels in ABS order, missing codes null, ids text', async () => {
    const before = (await spq.credits()).credits_remaining;
    const { output_format: _csv, ...unformatted } = query;
    const table = await spq.table(unformatted);
    expect(table.rows).toHaveLength(120);
    expect(table.result.dictionary_url).toBeDefined();
    expect((await spq.credits()).credits_remaining).toBe(before - table.result.credit_cost);
    expect(table.levels['AGE5P']!.slice(0, 2)).toEqual(['0-4 years', '5-9 years']);
    expect(table.levels['INCP']).not.toContain('Not stated');
    expect(table.missingCodes['INCP']).toEqual(expect.arrayContaining(['Not stated', 'Not applicable']));
    // Children's "Not applicable" income is null, never the top of the order.
    expect(table.rows.some((r) => r['INCP'] === null)).toBe(true);
    const ranks = table.rows.map((r) => table.rank('INCP', r['INCP'])).filter((x) => x !== undefined);
    expect(Math.max(...ranks)).toBeLessThan(table.levels['INCP']!.length);
    expect(table.rows.every((r) => /^P\d{9}$/.test(r['person_id']!))).toBe(true);
    // Against the file itself: each null is a missing code or an empty cell there.
    const raw = parseCsv(await (await fetch(table.result.download_url)).text());
    const incp = raw[0]!.indexOf('INCP');
    expect(table.rows.filter((r) => r['INCP'] === null)).toHaveLength(raw.slice(1).filter((f) => ['Not stated', 'Not applicable', ''].includes(f[incp]!)).length);
    const kept = await spq.table(query, { missing: 'keep' });
    expect(kept.rows.every((r) => r['INCP'] !== null)).toBe(true);
    expect(kept.levels['INCP']!.at(-1)).toMatch(/Not (stated|applicable)/);
  });

  it('orders only ordinal columns (low to high), leaves nominal ones unordered, and carries the provenance', async () => {
    const table = await spq.table({ ...query, implicate: 2 });
    for (const nominal of ['SEXP', 'BPLP', 'OCCP', 'INDP', 'MTWP']) {
      expect(table.measurement[nominal], nominal).toBe('nominal');
      expect(table.rank(nominal, table.rows.find((r) => r[nominal] !== null)?.[nominal])).toBeUndefined();
    }
    for (const ordinal of ['AGE5P', 'INCP', 'HEAP', 'HSCP', 'ENGLP']) expect(table.measurement[ordinal], ordinal).toBe('ordinal');
    expect(table.levels['HEAP']!.slice(-3)).toEqual(['Bachelor Degree Level', 'Graduate Diploma and Graduate Certificate Level', 'Postgraduate Degree Level']);
    expect(table.rank('HEAP', 'Postgraduate Degree Level')).toBeGreaterThan(table.rank('HEAP', 'Bachelor Degree Level')!);
    expect(table.levels['LFSP']).toContain('Employed, hours of work not stated');
    expect(table.provenance).toEqual({
      query_id: table.result.query_id,
      seed: table.result.metadata.seed,
      implicate: 2,
      release_version: table.result.metadata.version,
      fitted_to: table.result.metadata.fitted_to,
      fitted_to_text: expect.stringMatching(new RegExp(`^${table.result.metadata.fitted_to}: `)) as unknown as string,
    });
    // The csv's dictionary alone says the same (readTable without the execute result).
    const { fitted_to_text: _, ...fromResult } = table.provenance;
    expect(table.provenance).toMatchObject(fromResult);
    const bare = readTable(await (await fetch(table.result.download_url)).text(), (await (await fetch(table.result.dictionary_url!)).json()) as Dictionary);
    expect(bare.provenance).toEqual(table.provenance);
    expect(bare.labels['person_id']).toMatch(/^The person record/);
    expect(bare.labels['HEAP']).toBeTruthy();
  });

  it('reads joined columns like the record\'s own variables: ordered, no missing code a level, every missing value null', async () => {
    const table = await spq.table({ ...query, n_observations: 60, linked_records: 'joined' });
    const raw = parseCsv(await (await fetch(table.result.download_url)).text());
    const at = raw[0]!.indexOf('dwelling_RNTRD');
    const levels = table.levels['dwelling_RNTRD']!;
    expect(table.measurement['dwelling_RNTRD']).toBe('ordinal');
    expect(levels).not.toContain('Not applicable');
    expect(levels).not.toContain('Not stated');
    const nulls = table.rows.filter((r) => r['dwelling_RNTRD'] === null).length;
    expect(nulls).toBe(raw.slice(1).filter((r) => r.length > 1 && !levels.includes(r[at]!)).length);
    expect(nulls).toBeGreaterThan(0);
  });

  it('pools estimates by Rubin\'s rules (classic and Barnard–Rubin degrees of freedom)', () => {
    const pooled = pool([1, 1.2, 0.9, 1.1], [0.04, 0.05, 0.03, 0.04]);
    const b = 0.05 / 3;
    const r = (1.25 * b) / 0.04;
    expect(pooled.qBar).toBeCloseTo(1.05, 12);
    expect(pooled.w).toBeCloseTo(0.04, 12);
    expect(pooled.b).toBeCloseTo(b, 12);
    expect(pooled.t).toBeCloseTo(0.04 + 1.25 * b, 12);
    expect(pooled.df).toBeCloseTo(3 * (1 + 1 / r) ** 2, 10);
    expect(pooled.dfMethod).toBe('rubin');
    // Student's t quantiles against tables: 12.706 (1 df), 2.776 (4), 2.228 (10), 1.960 (∞).
    expect([tQuantile(0.975, 1), tQuantile(0.975, 4), tQuantile(0.975, 10), tQuantile(0.975, Infinity)].map((x) => x.toFixed(3))).toEqual(['12.706', '2.776', '2.228', '1.960']);
    expect((pooled.ci[1] - pooled.ci[0]) / 2).toBeCloseTo(tQuantile(0.975, pooled.df) * Math.sqrt(pooled.t), 12);
    const small = pool([1, 1.2, 0.9, 1.1], [0.04, 0.05, 0.03, 0.04], { dfComplete: 10 });
    expect(small.df).toBeLessThan(10);
    expect(small.dfMethod).toBe('barnard-rubin');
    expect(() => pool([1], [0.1])).toThrow(RangeError);
  });

  it('refuses in table() what it cannot read before anything is charged', async () => {
    const before = (await spq.credits()).credits_remaining;
    await expect(spq.table({ ...query, output_format: 'parquet' })).rejects.toThrow(/reads csv/);
    await expect(spq.table({ ...query, dataset_type: 'dwellings', linked_records: 'household' })).rejects.toThrow(/household/);
    expect((await spq.credits()).credits_remaining).toBe(before);
  });

  it('parses csv as RFC 4180 (quotes, doubled quotes, CRLF, a byte-order mark) and takes its server and key from the environment', () => {
    expect(parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\r\n0800,\n')).toEqual([['a', 'b'], ['x, y', 'say "hi"'], ['0800', '']]);
    const table = readTable('id,AGE\n1,Old\n2,Not stated\n3,Young\n', { variables: [{ code: 'AGE', categories: ['Young', 'Old', 'Not stated'], missing: { non_response: ['Not stated'] } }] });
    expect(table.levels).toEqual({ AGE: ['Young', 'Old'] });
    expect(table.rows.map((r) => table.rank('AGE', r['AGE']))).toEqual([undefined, undefined, undefined]); // no measurement: nominal
    const ordinal = readTable('id,AGE\n1,Old\n2,Not stated\n3,Young\n', { variables: [{ code: 'AGE', measurement: 'ordinal', categories: ['Young', 'Old', 'Not stated'], missing: { non_response: ['Not stated'] } }] });
    expect(ordinal.rows.map((r) => ordinal.rank('AGE', r['AGE']))).toEqual([1, undefined, 0]);
    const saved = { url: process.env['SPQ_URL'], key: process.env['SPQ_API_KEY'] };
    try {
      delete process.env['SPQ_URL'];
      delete process.env['SPQ_API_KEY'];
      expect(() => new SpqClient()).toThrow(/SPQ_API_KEY/);
      process.env['SPQ_API_KEY'] = 'spq_test_x';
      expect(() => new SpqClient()).not.toThrow();
    } finally {
      if (saved.url === undefined) delete process.env['SPQ_URL'];
      else process.env['SPQ_URL'] = saved.url;
      if (saved.key === undefined) delete process.env['SPQ_API_KEY'];
      else process.env['SPQ_API_KEY'] = saved.key;
    }
  });

  it('draws replicates from distinct implicates at the price of single draws, and a seed with its implicate gives the same file back', async () => {
    const before = (await spq.credits()).credits_remaining;
    const single = await spq.execute(query);
    const draws = await spq.replicates(5, query);
    expect(draws.map((d) => d.metadata.implicate)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(draws.map((d) => d.metadata.synthesis_seed)).size).toBe(5);
    expect(new Set(draws.map((d) => d.metadata.seed)).size).toBe(5);
    expect(draws.reduce((sum, d) => sum + d.credit_cost, 0)).toBe(5 * single.credit_cost);
    expect((await spq.credits()).credits_remaining).toBe(before - 6 * single.credit_cost);
    const text = async (r: { download_url: string }, name: string) => (await spq.download(r.download_url, join(dir, name)), readFile(join(dir, name), 'utf8'));
    const again = await spq.execute({ ...query, implicate: 4, seed: draws[3]!.metadata.seed });
    expect(await text(again, 'again.csv')).toBe(await text(draws[3]!, 'fourth.csv'));
    // Past the implicates the release holds: refused before anything is charged.
    const balance = (await spq.credits()).credits_remaining;
    expect(await spq.replicates(6, query).catch((e: unknown) => e)).toBeInstanceOf(ValidationError);
    expect(await spq.replicates(2, query, { seeds: [1] }).catch((e: unknown) => e)).toBeInstanceOf(RangeError);
    expect((await spq.credits()).credits_remaining).toBe(balance);
    // Named seeds give the same replicates again.
    const seeded = await spq.replicates(2, query, { seeds: [21, 22n] });
    expect(seeded.map((d) => d.metadata.seed)).toEqual(['21', '22']);
    const repeated = await spq.replicates(2, query, { seeds: ['21', '22'] });
    expect(await text(repeated[1]!, 'r2b.csv')).toBe(await text(seeded[1]!, 'r2a.csv'));
  });

  it('is typed from the committed OpenAPI document (api.d.ts is what openapi-typescript makes of it)', () => {
    const committed = readFileSync(join(import.meta.dirname, '../../clients/typescript/src/api.d.ts'), 'utf8');
    const fresh = execFileSync(process.execPath, [join(import.meta.dirname, '../../node_modules/openapi-typescript/bin/cli.js'), join(import.meta.dirname, '../../docs/openapi.json')], { encoding: 'utf8' });
    expect(fresh).toBe(committed);
  });
});
