/**
 * Issue 31, item 1: behind a load balancer (a real nginx, started here), every per-address limit
 * (sign-in, reset, download, failed API auth) counts the client's own address, taken from the
 * header the trusted balancer appends; a client that writes the header itself (through the
 * balancer, or reaching the service directly) cannot choose the address it is counted under.
 * Clients are told apart by the loopback address they connect from (127.0.0.x); the balancer
 * reaches the service from 127.0.0.200, the only address the service trusts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../../src/adapters/mail/smtp.ts';
import { issueOneTimeLink } from '../../src/app/web/sign-in.ts';
import { freePort } from '../support/free-port.ts';
import { sendForm } from '../support/raw-request.ts';
import { startReverseProxy, type ReverseProxy } from '../support/reverse-proxy.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { startTestServer, type TestServer } from './harness.ts';

const PASSWORD = 'violet kettle harbour 42';
const BALANCER = '127.0.0.200';
const PER_ADDRESS = 4;

/** A request from a chosen local address, to the balancer or straight to the service. */
const send = (base: string, method: 'GET' | 'POST', path: string, options: { from: string; fields?: Record<string, string>; headers?: Record<string, string> }) =>
  sendForm(`${base}${path}`, method, options);

const randomEmail = () => `nobody-${Math.random().toString(36).slice(2, 10)}@example.org`;
const randomAddress = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}`;

async function startBehindProxy(header: 'x-forwarded-for' | 'forwarded', mailer?: TestSmtpServer): Promise<{ s: TestServer; proxy: ReverseProxy; email: string }> {
  const proxyPort = await freePort();
  const s = await startTestServer({
    config: {
      // The balancer's address is the public one.
      publicBaseUrl: `http://127.0.0.1:${proxyPort}`,
      trustedProxies: { hops: header === 'x-forwarded-for' ? 1 : undefined, ranges: [{ address: BALANCER, prefix: 32, family: 'ipv4' }], header },
      accountArea: { ...(await import('../../src/config.ts')).loadConfig({}).accountArea, signInAttemptsPerAddress: PER_ADDRESS, resetEmailsPerHour: 1 },
    },
    rateLimits: { failedAuthPerMinute: PER_ADDRESS, downloadsPerMinute: PER_ADDRESS },
    ...(mailer ? { mailer: createSmtpMailer({ url: mailer.url, from: 'spq <no-reply@spq.test>' }) } : {}),
  });
  const proxy = await startReverseProxy({ port: proxyPort, upstream: s.baseUrl, bindAddress: BALANCER, header });
  const email = `holder-${Math.random().toString(36).slice(2, 10)}@example.org`;
  const { accountId } = await s.store.createAccount({ email, now: s.clock.now() });
  const link = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'invitation' });
  if (!link.ok) throw new Error(link.error.detail);
  expect((await send(s.baseUrl, 'POST', link.value.path, { from: '127.0.0.1', fields: { password: PASSWORD, confirmation: PASSWORD } })).status).toBe(303);
  return { s, proxy, email };
}

describe('behind a reverse proxy (X-Forwarded-For, one trusted hop)', () => {
  let s: TestServer;
  let proxy: ReverseProxy;
  let email: string;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    ({ s, proxy, email } = await startBehindProxy('x-forwarded-for', smtp));
  });
  afterAll(async () => {
    await proxy?.close();
    await s?.close();
    await smtp?.close();
  });
  const origin = () => ({ origin: proxy.url });

  it('sign-in: bad tries with random emails lock out only the client that made them, whatever X-Forwarded-For it sends', async () => {
    for (let i = 0; i < PER_ADDRESS; i++) expect((await send(proxy.url, 'POST', '/console/sign-in', { from: '127.0.0.2', fields: { email: randomEmail(), password: 'wrong guess here' }, headers: origin() })).status).toBe(401);
    expect((await send(proxy.url, 'POST', '/console/sign-in', { from: '127.0.0.2', fields: { email: randomEmail(), password: 'wrong guess here' }, headers: origin() })).status).toBe(429);
    // A spoofed header does not buy the same client a fresh address: the balancer appends the real one.
    const spoofed = await send(proxy.url, 'POST', '/console/sign-in', { from: '127.0.0.2', fields: { email, password: PASSWORD }, headers: { ...origin(), 'x-forwarded-for': randomAddress() } });
    expect(spoofed.status).toBe(429);
    // Another client behind the same balancer signs in.
    expect((await send(proxy.url, 'POST', '/console/sign-in', { from: '127.0.0.3', fields: { email, password: PASSWORD }, headers: origin() })).status).toBe(303);
  });

  it('a client reaching the service directly is counted under its own address: its X-Forwarded-For is not believed', async () => {
    // Naming another client's address in the header neither escapes the limit nor uses that client's budget.
    for (let i = 0; i < PER_ADDRESS; i++) {
      const r = await send(s.baseUrl, 'POST', '/console/sign-in', { from: '127.0.0.4', fields: { email: randomEmail(), password: 'wrong guess here' }, headers: { origin: proxy.url, 'x-forwarded-for': '127.0.0.5' } });
      expect(r.status).toBe(401);
    }
    expect((await send(s.baseUrl, 'POST', '/console/sign-in', { from: '127.0.0.4', fields: { email: randomEmail(), password: 'x' }, headers: { origin: proxy.url, 'x-forwarded-for': randomAddress() } })).status).toBe(429);
    expect((await send(proxy.url, 'POST', '/console/sign-in', { from: '127.0.0.5', fields: { email, password: PASSWORD }, headers: origin() })).status).toBe(303);
  });

  it('failed API auth: one client\'s bad keys do not lock out another client behind the balancer', async () => {
    for (let i = 0; i < PER_ADDRESS; i++) expect((await send(proxy.url, 'GET', '/account/credits', { from: '127.0.0.6', headers: { authorization: 'Bearer spq_live_notakey' } })).status).toBe(401);
    expect((await send(proxy.url, 'GET', '/account/credits', { from: '127.0.0.6', headers: { authorization: 'Bearer spq_live_notakey', 'x-forwarded-for': randomAddress() } })).status).toBe(429);
    // Another client's mistyped key is told it is wrong (401), not throttled for the first client's tries.
    expect((await send(proxy.url, 'GET', '/account/credits', { from: '127.0.0.7', headers: { authorization: 'Bearer spq_live_mistyped' } })).status).toBe(401);
    const key = (await s.account()).key;
    expect((await send(proxy.url, 'GET', '/account/credits', { from: '127.0.0.7', headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it('/metrics without a token answers the scraper on the instance itself, and 404 through the balancer', async () => {
    expect((await send(proxy.url, 'GET', '/metrics', { from: '127.0.0.12' })).status).toBe(404);
    const direct = await send(s.baseUrl, 'GET', '/metrics', { from: '127.0.0.12' });
    expect(direct.status).toBe(200);
    expect(direct.text).toContain('spq_http_requests_total');
  });

  it('downloads: the per-address limit counts each client behind the balancer on its own', async () => {
    for (let i = 0; i < PER_ADDRESS; i++) expect((await send(proxy.url, 'GET', '/downloads/qry_x/nothing.csv', { from: '127.0.0.8' })).status).not.toBe(429);
    expect((await send(proxy.url, 'GET', '/downloads/qry_x/nothing.csv', { from: '127.0.0.8', headers: { 'x-forwarded-for': randomAddress() } })).status).toBe(429);
    expect((await send(proxy.url, 'GET', '/downloads/qry_x/nothing.csv', { from: '127.0.0.9' })).status).not.toBe(429);
  });

  it('password resets: the per-address limit counts each client behind the balancer on its own', async () => {
    // SPQ_RESET_EMAILS_PER_HOUR = 1: ten requests an hour from one address.
    for (let i = 0; i < 10; i++) expect((await send(proxy.url, 'POST', '/console/forgot', { from: '127.0.0.10', fields: { email: randomEmail() }, headers: origin() })).status).toBe(200);
    expect((await send(proxy.url, 'POST', '/console/forgot', { from: '127.0.0.10', fields: { email: randomEmail() }, headers: { ...origin(), 'x-forwarded-for': randomAddress() } })).status).toBe(429);
    expect((await send(proxy.url, 'POST', '/console/forgot', { from: '127.0.0.11', fields: { email: randomEmail() }, headers: origin() })).status).toBe(200);
  });
});

describe('behind a reverse proxy (Forwarded, trusted by address)', () => {
  let s: TestServer;
  let proxy: ReverseProxy;
  let email: string;
  beforeAll(async () => ({ s, proxy, email } = await startBehindProxy('forwarded')));
  afterAll(async () => {
    await proxy?.close();
    await s?.close();
  });

  it('sign-in: each client is counted under the address the balancer wrote; a Forwarded header a client sends itself changes nothing', async () => {
    const headers = { origin: proxy.url, forwarded: `for=${randomAddress()}` };
    for (let i = 0; i < PER_ADDRESS; i++) expect((await send(proxy.url, 'POST', '/console/sign-in', { from: '127.0.0.12', fields: { email: randomEmail(), password: 'wrong guess here' }, headers })).status).toBe(401);
    expect((await send(proxy.url, 'POST', '/console/sign-in', { from: '127.0.0.12', fields: { email, password: PASSWORD }, headers: { origin: proxy.url, forwarded: `for="${randomAddress()}:80"` } })).status).toBe(429);
    expect((await send(proxy.url, 'POST', '/console/sign-in', { from: '127.0.0.13', fields: { email, password: PASSWORD }, headers: { origin: proxy.url } })).status).toBe(303);
    // Straight to the service, the header is not believed.
    for (let i = 0; i < PER_ADDRESS; i++) await send(s.baseUrl, 'POST', '/console/sign-in', { from: '127.0.0.14', fields: { email: randomEmail(), password: 'x' }, headers: { origin: proxy.url, forwarded: `for=${randomAddress()}` } });
    expect((await send(s.baseUrl, 'POST', '/console/sign-in', { from: '127.0.0.14', fields: { email, password: PASSWORD }, headers: { origin: proxy.url, forwarded: 'for=127.0.0.15' } })).status).toBe(429);
  });
});
