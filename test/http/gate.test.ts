/**
 * Issue 12, items 1 and 2: what happens before a body is read. Authentication and the failed-auth
 * limiter come first, so an unauthenticated body is never parsed; a declared body over the route's
 * limit is refused without reading it; slow requests time out; a request Node's parser refuses
 * (over-long URL, not HTTP) still gets the contract's body, a request id, a log line and a metric.
 * Each test failed before the change (a parse error was 400 before 401, a huge Content-Length was
 * read, slow bodies were held indefinitely, a 20 KB URL got Fastify's bare 431).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
let key = '';
beforeAll(async () => {
  s = await startTestServer({ config: { requestTimeoutMs: 1500, headersTimeoutMs: 1000 } });
  key = (await s.account({ grant: 20 })).key;
});
afterAll(async () => s?.close());

/** Writes raw bytes on a fresh connection; resolves with all the server sent until it closed (or `waitMs`). */
function rawExchange(chunks: readonly string[], waitMs = 8000): Promise<{ text: string; closedAfterMs: number }> {
  const { port, hostname } = new URL(s.baseUrl);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closedAfterMs: Number.POSITIVE_INFINITY });
    }, waitMs);
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    socket.on('data', (d) => (text += d.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
    socket.on('timeout', () => reject(new Error('socket timeout')));
  });
}

const statusOf = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
const headerOf = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(raw)?.[1]?.trim();

describe('authentication before the body', () => {
  it('answers 401 to a request without a valid key whatever its body (a malformed body was parsed first: 400)', async () => {
    const garbage = '{"not json' + 'x'.repeat(50_000);
    for (const authorization of [undefined, 'Bearer nonsense', `Bearer spq_live_${'a'.repeat(40)}`]) {
      const res = await fetch(`${s.baseUrl}/query/preview`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: garbage,
      });
      expect(res.status, authorization).toBe(401);
      expect((await res.json()).error).toBe('unauthorized');
    }
    // A 1 MB body of 81,000 keys, as the probe sent: refused unread, not parsed.
    const wide = `{${Array.from({ length: 81_000 }, (_, i) => `"k${i}":0`).join(',')}}`.slice(0, 1_000_000);
    const res = await fetch(`${s.baseUrl}/query/execute`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: wide });
    expect(res.status).toBe(401);
  });

  it('still answers 400 when a key was sent in a small unauthenticated body (docs/spec/decisions.md), and never logs it', async () => {
    const res = await fetch(`${s.baseUrl}/query/preview`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...query(), note: key }) });
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toMatch(/Authorization/);
    expect(s.logs.join('\n')).not.toContain(key.slice(9));
  });

  it('refuses a body declared over the route limit before it is sent (400), with or without a key', async () => {
    for (const auth of [`Authorization: Bearer ${key}\r\n`, '']) {
      const head = `POST /query/preview HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 50000000\r\n\r\n`;
      const { text, closedAfterMs } = await rawExchange([head]);
      expect(statusOf(text), auth).toBe(400);
      expect(bodyOf(text).detail).toMatch(/larger than this route's limit of 1,100,000 bytes/);
      expect(headerOf(text, 'x-request-id')).toMatch(/^req_/);
      expect(closedAfterMs).toBeLessThan(5000);
    }
    // Routes without a JSON body take only a few kilobytes.
    const res = await fetch(`${s.baseUrl}/account/credits`, { method: 'GET', headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const big = await fetch(`${s.baseUrl}/no/such/route`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x: 'y'.repeat(100_000) }) });
    expect([400, 404]).toContain(big.status);
    expect((await big.json()).error).toMatch(/bad_request|not_found/);
  });

  it('still serves a large legal query body (5,000 selections)', async () => {
    const selections = Array.from({ length: 5000 }, (_, i) => `SAL${String(20000 + i)}`);
    const res = await s.call('/query/preview', { key, body: query({ geography_selections: selections, n_observations: 10 }) });
    expect([200, 422]).toContain(res.status);
  });
});

describe('timeouts', () => {
  it('closes a connection whose body never finishes, with the contract body', async () => {
    const head = `POST /query/preview HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`;
    const { text, closedAfterMs } = await rawExchange([head]);
    expect(closedAfterMs).toBeLessThan(6000);
    expect(statusOf(text)).toBe(400);
    expect(bodyOf(text)).toEqual({ error: 'bad_request', detail: expect.stringMatching(/not received completely in time/) });
  });

  it('closes a connection whose headers never finish', async () => {
    const { closedAfterMs } = await rawExchange(['GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: 1']);
    expect(closedAfterMs).toBeLessThan(6000);
  });
});

describe('requests the HTTP parser refuses', () => {
  it('a URL over 16 KB gets the contract body, a request id, a log line and a metric, and the URL is not echoed', async () => {
    const signature = 'c2lnbmF0dXJlLXRoYXQtbXVzdC1ub3QtbGVhaw';
    const { text } = await rawExchange([`GET /downloads/${signature}${'x'.repeat(20_000)}/spq.csv HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expect(statusOf(text)).toBe(400);
    expect(bodyOf(text)).toEqual({ error: 'bad_request', detail: expect.stringMatching(/longer than 16 KB/) });
    expect(text).not.toContain(signature);
    const id = headerOf(text, 'x-request-id');
    expect(id).toMatch(/^req_/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(s.logs.some((line) => line.includes(id!) && line.includes('"status":400'))).toBe(true);
    const metrics = await (await fetch(`${s.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/spq_http_requests_total\{method="UNPARSED",route="[^"]*",status="400"\} [1-9]/);
  });

  it('bytes that are not HTTP get the same', async () => {
    const { text } = await rawExchange(['HELLO THERE\r\n\r\n']);
    expect(statusOf(text)).toBe(400);
    expect(bodyOf(text).error).toBe('bad_request');
  });
});
