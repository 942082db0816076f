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
import { SpqClient, SpqError } from '../../clients/typescript/src/index.ts';
import { startTestServer, type TestServer } from '../http/harness.ts';

let s: TestServer;
let spq: SpqClient;
let dir: string;

beforeAll(async () => {
  s = await startTestServer();
  const acct = await s.account({ grant: 20 });
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

  it('is typed from the committed OpenAPI document (api.d.ts is what openapi-typescript makes of it)', () => {
    const committed = readFileSync(join(import.meta.dirname, '../../clients/typescript/src/api.d.ts'), 'utf8');
    const fresh = execFileSync(process.execPath, [join(import.meta.dirname, '../../node_modules/openapi-typescript/bin/cli.js'), join(import.meta.dirname, '../../docs/openapi.json')], { encoding: 'utf8' });
    expect(fresh).toBe(committed);
  });
});
