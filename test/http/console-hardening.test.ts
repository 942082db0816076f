/**
 * Issue 31, item 4: the third probe's smaller findings, each a test. /console/suggest counts in
 * the account's per-minute window; a password change rotates the session token; HSTS when the
 * base URL is https; X-Content-Type-Options: nosniff on every response; and without
 * SPQ_PUBLIC_BASE_URL the origin check compares with the listen address, never the Host header.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueOneTimeLink } from '../../src/app/web/sign-in.ts';
import { startTestServer, type TestServer } from './harness.ts';

const PASSWORD = 'violet kettle harbour 42';
const PER_MINUTE = 6;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ rateLimits: { perMinute: PER_MINUTE } });
});
afterAll(async () => s?.close());

function form(server: TestServer, path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.baseUrl, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

async function holder(server: TestServer): Promise<{ email: string; cookie: string }> {
  const email = `holder-${Math.random().toString(36).slice(2, 10)}@example.org`;
  const { accountId } = await server.store.createAccount({ email, now: server.clock.now() });
  const link = await issueOneTimeLink({ ...server.deps, credentials: server.store }, { accountId, purpose: 'invitation' });
  if (!link.ok) throw new Error(link.error.detail);
  const set = await form(server, link.value.path, { password: PASSWORD, confirmation: PASSWORD });
  expect(set.status).toBe(303);
  return { email, cookie: set.headers.get('set-cookie')!.split(';')[0]! };
}

/** A form POST with a Host header of the test's choosing (fetch keeps its own). */
function formWithHost(server: TestServer, path: string, fields: Record<string, string>, host: string, origin: string): Promise<number> {
  const body = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: new URL(server.baseUrl).port, path, method: 'POST', headers: { host, origin, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const csrfOf = async (server: TestServer, cookie: string, path = '/console/account') => /name="_csrf" value="([0-9a-f]{64})"/.exec(await (await fetch(`${server.baseUrl}${path}`, { headers: { cookie } })).text())![1]!;

describe('console hardening (issue 31)', () => {
  it('/console/suggest counts in the account\'s per-minute window: a flood gets 429 with Retry-After', async () => {
    const { cookie } = await holder(s);
    const statuses: number[] = [];
    for (let i = 0; i < PER_MINUTE + 3; i++) statuses.push((await fetch(`${s.baseUrl}/console/suggest?q=fit&level=suburb`, { headers: { cookie } })).status);
    expect(statuses.filter((x) => x === 200).length).toBeLessThanOrEqual(PER_MINUTE);
    const limited = await fetch(`${s.baseUrl}/console/suggest?q=fit&level=suburb`, { headers: { cookie } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ error: 'rate_limited', detail: expect.stringContaining('minute'), retry_after_seconds: expect.any(Number) });
  });

  it('a password change gives this browser a new session token; the old token is dead', async () => {
    const { cookie } = await holder(s);
    const changed = await form(s, '/console/account/password', { _csrf: await csrfOf(s, cookie), current: PASSWORD, password: 'quince lantern meadow 17', confirmation: 'quince lantern meadow 17' }, { cookie });
    expect(changed.status).toBe(200);
    const fresh = changed.headers.get('set-cookie')?.split(';')[0];
    expect(fresh).toMatch(/^spq_session=[0-9A-Za-z]{32}$/);
    expect(fresh).not.toBe(cookie);
    expect((await fetch(`${s.baseUrl}/console/account`, { headers: { cookie }, redirect: 'manual' })).status).toBe(303);
    expect((await fetch(`${s.baseUrl}/console/account`, { headers: { cookie: fresh! }, redirect: 'manual' })).status).toBe(200);
    // The page it answered with carries the new session's CSRF token.
    expect(await changed.text()).toContain(await csrfOf(s, fresh!));
  });

  it('X-Content-Type-Options: nosniff on every response: API JSON, errors, files, pages, the reference', async () => {
    const { key } = await s.account();
    for (const res of [
      await s.call('/account/credits', { key }),
      await s.call('/account/credits'),
      await s.call('/healthz'),
      await s.call('/openapi.json'),
      await s.call('/no/such/route'),
      await s.call('/%E0%A4%A'),
      await fetch(`${s.baseUrl}/docs`),
      await fetch(`${s.baseUrl}/console/sign-in`),
      await fetch(`${s.baseUrl}/console/assets/spq.css`),
    ]) {
      expect(res.headers.get('x-content-type-options'), res.url).toBe('nosniff');
    }
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(s.baseUrl).port), '127.0.0.1', () => socket.write('NOT HTTP\r\n\r\n'));
      let text = '';
      socket.on('data', (c) => (text += c.toString('latin1')));
      socket.on('close', () => resolve(text));
    });
    expect(raw.toLowerCase()).toContain('x-content-type-options: nosniff');
  });

  it('HSTS on every response when the base URL is https, none when it is http', async () => {
    expect((await s.call('/healthz')).headers.get('strict-transport-security')).toBeNull();
    const tls = await startTestServer({ config: { publicBaseUrl: 'https://spq.example.org' } });
    try {
      for (const path of ['/healthz', '/account/credits', '/console/sign-in', '/no/such/route', '/%E0%A4%A']) {
        expect((await fetch(`${tls.baseUrl}${path}`)).headers.get('strict-transport-security'), path).toBe('max-age=31536000');
      }
      // Bytes that are not HTTP are answered by the parser's own 400: HSTS there too.
      const raw = await new Promise<string>((resolve) => {
        const socket = connect(Number(new URL(tls.baseUrl).port), '127.0.0.1', () => socket.write('NOT HTTP\r\n\r\n'));
        let text = '';
        socket.on('data', (c) => (text += c.toString('latin1')));
        socket.on('close', () => resolve(text));
      });
      expect(raw).toMatch(/^HTTP\/1\.1 400/);
      expect(raw.toLowerCase()).toContain('strict-transport-security: max-age=31536000');
    } finally {
      await tls.close();
    }
  });

  it('without SPQ_PUBLIC_BASE_URL, forms are accepted from the listen address only, whatever Host says', async () => {
    const bare = await startTestServer({ config: { publicBaseUrl: undefined } });
    try {
      const { email } = await holder(bare);
      // A page served under another name (DNS rebinding, a proxy passing Host on): Origin and Host agree, and are not ours.
      expect(await formWithHost(bare, '/console/sign-in', { email, password: PASSWORD }, 'evil.example', 'http://evil.example')).toBe(403);
      expect(await formWithHost(bare, '/console/forgot', { email }, 'evil.example', 'http://evil.example')).toBe(403);
      // The listen address itself (and its loopback names) is ours.
      expect((await form(bare, '/console/sign-in', { email, password: PASSWORD })).status).toBe(303);
      const port = new URL(bare.baseUrl).port;
      expect((await form(bare, '/console/sign-in', { email, password: PASSWORD }, { origin: `http://localhost:${port}` })).status).toBe(303);
    } finally {
      await bare.close();
    }
  });
});
