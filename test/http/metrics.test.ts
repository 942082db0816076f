import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.ts';
import { query, startTestServer, type TestServer } from './harness.ts';

/** One sample of the Prometheus text format: name, labels, value. */
interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The value of the one sample with this name whose labels include `labels` (0 when there is none). */
function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? 0;
}

let s: TestServer;

beforeAll(async () => {
  // Low per-key and failed-auth limits so that refusals are quick to provoke (each key has its own windows).
  s = await startTestServer({ rateLimits: { perMinute: 8, failedAuthPerMinute: 2 } });
});
afterAll(async () => s?.close());

const scrape = async (baseUrl = s.baseUrl, headers: Record<string, string> = {}) => {
  const res = await fetch(`${baseUrl}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return { text, samples: parseMetrics(text) };
};

describe('GET /metrics', () => {
  it('counts requests and latency by route pattern and status, credits charged and rows written, with no ids, tokens or keys in labels', async () => {
    const { key } = await s.account({ grant: 50 });
    expect((await s.call('/healthz')).status).toBe(200);
    expect((await s.call('/account/credits', { key })).status).toBe(200);
    expect((await s.call('/geography/Richmond%20(VIC)/variables?dataset_type=persons', { key })).status).toBe(200);
    expect((await s.call('/geography/Nowhere-Town/variables?dataset_type=persons', { key })).status).toBe(404);
    expect((await s.call('/no/such/route/qry_secretlooking123')).status).toBe(404);

    const csvBody = query({ geography_selections: ['Richmond (VIC)', 'Burnley'], n_observations: 50, output_format: 'csv' });
    const first = await s.call('/query/execute', { key, body: csvBody, headers: { 'idempotency-key': 'metrics-1' } });
    const firstJson = await first.json();
    expect(first.status, JSON.stringify(firstJson)).toBe(200);
    // A replay answers 200 again but charges and writes nothing new.
    const replay = await s.call('/query/execute', { key, body: csvBody, headers: { 'idempotency-key': 'metrics-1' } });
    expect(replay.status).toBe(200);
    expect((await replay.json()).query_id).toBe(firstJson.query_id);
    const families = await s.call('/query/execute', { key, body: query({ dataset_type: 'families', n_observations: 30 }) });
    const familiesJson = await families.json();
    expect(families.status, JSON.stringify(familiesJson)).toBe(200);
    const download = await fetch(firstJson.download_url);
    expect(download.status).toBe(200);
    await download.arrayBuffer();

    // A streamed download's access is counted when its response has ended (onResponse), a moment after the client has it all.
    const viaService = firstJson.download_url.startsWith(s.baseUrl);
    let scraped = await scrape();
    for (let i = 0; viaService && i < 50 && valueOf(scraped.samples, 'spq_http_requests_total', { route: '/downloads/:token/:fileName' }) === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      scraped = await scrape();
    }
    const { text, samples } = scraped;
    const requests = (method: string, route: string, status: string) => valueOf(samples, 'spq_http_requests_total', { method, route, status });
    expect(requests('GET', '/healthz', '200')).toBe(1);
    expect(requests('GET', '/account/credits', '200')).toBe(1);
    expect(requests('GET', '/geography/:suburb_id/variables', '200')).toBe(1);
    expect(requests('GET', '/geography/:suburb_id/variables', '404')).toBe(1);
    expect(requests('GET', '(unmatched)', '404')).toBe(1);
    expect(requests('POST', '/query/execute', '200')).toBe(3);
    // Scale-out's route answers 307 to the stored copy in the bucket (fetch follows it); embedded sends the file itself.
    if (viaService) expect(requests('GET', '/downloads/:token/:fileName', download.redirected ? '307' : '200')).toBe(1);

    const latency = { method: 'POST', route: '/query/execute', status: '200' };
    expect(valueOf(samples, 'spq_http_request_duration_seconds_count', latency)).toBe(3);
    expect(valueOf(samples, 'spq_http_request_duration_seconds_sum', latency)).toBeGreaterThan(0);
    expect(valueOf(samples, 'spq_http_request_duration_seconds_bucket', { ...latency, le: '+Inf' })).toBe(3);

    expect(valueOf(samples, 'spq_credits_charged_total', { dataset: 'persons' })).toBe(firstJson.credit_cost);
    expect(valueOf(samples, 'spq_credits_charged_total', { dataset: 'families' })).toBe(familiesJson.credit_cost);
    expect(valueOf(samples, 'spq_rows_written_total', { dataset: 'persons', format: 'csv' })).toBe(100);
    expect(valueOf(samples, 'spq_rows_written_total', { dataset: 'families', format: 'parquet' })).toBe(30);
    expect(valueOf(samples, 'spq_executes_completed_total', { dataset: 'persons', format: 'csv' })).toBe(1);
    expect(valueOf(samples, 'spq_result_bytes_written_total', { dataset: 'persons', format: 'csv' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'spq_executes_in_flight')).toBe(0);

    // prom-client's default process metrics, in this app's own registry.
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(samples.some((x) => x.name === name), name).toBe(true);
    }

    // Labels hold patterns: no suburb, unmatched path, query id, token or key.
    const token = new URL(firstJson.download_url).pathname.split('/')[2]!;
    for (const leak of ['Richmond', 'Nowhere', 'qry_', 'secretlooking', token, key, 'spq_live_']) expect(text).not.toContain(leak);
  });

  it('counts rate-limit refusals by window', async () => {
    const { key } = await s.account();
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await s.call('/account/credits', { key })).status);
    expect(statuses.filter((c) => c === 429)).toHaveLength(1);
    // Missing keys from one address: the third within the minute is refused by the failed-auth window.
    const bad: number[] = [];
    for (let i = 0; i < 3; i++) bad.push((await s.call('/account/credits')).status);
    expect(bad).toEqual([401, 401, 429]);

    const { samples } = await scrape();
    expect(valueOf(samples, 'spq_rate_limit_refusals_total', { window: 'minute' })).toBe(1);
    expect(valueOf(samples, 'spq_rate_limit_refusals_total', { window: 'failed-auth' })).toBe(1);
    expect(valueOf(samples, 'spq_http_requests_total', { method: 'GET', route: '/account/credits', status: '429' })).toBe(2);
    expect(valueOf(samples, 'spq_http_requests_total', { method: 'GET', route: '/account/credits', status: '401' })).toBe(2);
  });

  it('stays out of the OpenAPI document', async () => {
    const doc = await (await s.call('/openapi.json')).json();
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });

  it('each app counts in its own registry; with SPQ_METRICS_TOKEN set, /metrics needs the bearer token', async () => {
    const token = 'metrics-token-for-this-test-only';
    const other = buildApp({ ...s.deps, config: { ...s.deps.config, metricsToken: token } });
    await other.listen({ host: '127.0.0.1', port: 0 });
    try {
      const otherUrl = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
      const before = valueOf((await scrape()).samples, 'spq_http_requests_total', { method: 'GET', route: '/healthz', status: '200' });
      for (let i = 0; i < 3; i++) expect((await fetch(`${otherUrl}/healthz`)).status).toBe(200);

      for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${token}`, `Bearer ${token}x`]) {
        const refused = await fetch(`${otherUrl}/metrics`, { headers: authorization ? { authorization } : {} });
        expect(refused.status, String(authorization)).toBe(401);
        expect((await refused.json()).error).toBe('unauthorized');
      }
      const mine = await scrape(otherUrl, { authorization: `Bearer ${token}` });
      expect(valueOf(mine.samples, 'spq_http_requests_total', { method: 'GET', route: '/healthz', status: '200' })).toBe(3);
      expect(valueOf(mine.samples, 'spq_http_requests_total', { method: 'GET', route: '/metrics', status: '401' })).toBe(4);
      // The first app saw none of those requests.
      expect(valueOf((await scrape()).samples, 'spq_http_requests_total', { method: 'GET', route: '/healthz', status: '200' })).toBe(before);
    } finally {
      await other.close();
    }
  });
});
