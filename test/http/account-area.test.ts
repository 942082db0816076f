/**
 * The account area over real HTTP (both stacks): one-time links, sign-in, cookies, CSRF, session
 * fixation, brute-force limits, isolation between holders, and the builder's preview → execute →
 * download through the same ledger as the API. The browser test (test/e2e/account-browser.test.ts)
 * drives the same pages in Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueOneTimeLink } from '../../src/app/web/sign-in.ts';
import { sessionCookie } from '../../src/http/web/session.ts';
import { StoreUnavailableError, type AccountStore } from '../../src/ports/account-store.ts';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s.close());

const PASSWORD = 'violet kettle harbour 42';

interface Browser {
  cookie: string | undefined;
}

async function form(path: string, fields: Record<string, string>, browser?: Browser, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${s.baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.baseUrl, ...(browser?.cookie ? { cookie: browser.cookie } : {}), ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

const get = (path: string, browser?: Browser) => fetch(`${s.baseUrl}${path}`, { redirect: 'manual', headers: browser?.cookie ? { cookie: browser.cookie } : {} });
const csrfOf = (page: string): string => /name="_csrf" value="([0-9a-f]{64})"/.exec(page)![1]!;
const cookieOf = (res: Response): string => res.headers.get('set-cookie')!.split(';')[0]!;

async function holder(): Promise<{ accountId: string; email: string; key: string }> {
  // As `spq admin account create` stores it: normalised to lower case.
  const email = `holder-${Math.random().toString(36).slice(2, 10)}@example.org`;
  const { accountId } = await s.store.createAccount({ email, now: s.clock.now() });
  await s.store.grantCredits({ accountId, credits: 50, now: s.clock.now() });
  const { key } = await s.addKey(accountId);
  const link = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'invitation' });
  if (!link.ok) throw new Error(link.error.detail);
  const set = await form(link.value.path, { password: PASSWORD, confirmation: PASSWORD });
  expect(set.status).toBe(303);
  return { accountId, email, key };
}

async function signedIn(email: string): Promise<Browser> {
  const res = await form('/console/sign-in', { email, password: PASSWORD });
  expect(res.status).toBe(303);
  return { cookie: cookieOf(res) };
}

describe('account area: one-time links and sign-in', () => {
  it('an invitation link shows the holder, refuses a weak or mistyped password, sets a good one once, then is dead', async () => {
    const { accountId } = await s.account();
    const email = (await s.store.getAccount(accountId))!.email;
    const link = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'invitation' });
    if (!link.ok) throw new Error('no link');
    const page = await get(link.value.path);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain(email);
    expect((await form(link.value.path, { password: 'short', confirmation: 'short' })).status).toBe(422);
    expect((await form(link.value.path, { password: PASSWORD, confirmation: `${PASSWORD}!` })).status).toBe(422);
    const set = await form(link.value.path, { password: PASSWORD, confirmation: PASSWORD });
    // Signed in at once: a fresh session cookie, and the overview opens with it.
    expect(set.status).toBe(303);
    expect(set.headers.get('location')).toBe('/console/overview?welcome=1');
    const overview = await get('/console/overview?welcome=1', { cookie: cookieOf(set) });
    expect(overview.status).toBe(200);
    expect(await overview.text()).toContain('Your password is set and you are signed in.');
    expect((await form(link.value.path, { password: PASSWORD, confirmation: PASSWORD })).status).toBe(404);
    expect((await get(link.value.path)).status).toBe(404);
    expect((await get('/console/welcome/notatoken')).status).toBe(404);
  });

  it('signs in with the right password only; the cookie is HttpOnly, SameSite=Strict, scoped, and Secure with __Host- over TLS', async () => {
    const { email } = await holder();
    const wrong = await form('/console/sign-in', { email, password: 'not the password at all' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect((await form('/console/sign-in', { email: `nobody-${email}`, password: PASSWORD })).status).toBe(401);
    const ok = await form('/console/sign-in', { email: email.toUpperCase(), password: PASSWORD });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/console/overview');
    const [cookie, browser, ...more] = ok.headers.getSetCookie();
    expect(cookie).toMatch(/^spq_session=[0-9A-Za-z]{32}; Path=\/console; Max-Age=43200; HttpOnly; SameSite=Strict$/);
    // The known-browser cookie (sign-in limits per account spare a browser that signed in before), as strict.
    expect(browser).toMatch(/^spq_browser=[0-9A-Za-z]{22}\.[0-9a-f]+; Path=\/console; Max-Age=31536000; HttpOnly; SameSite=Strict$/);
    expect(more).toEqual([]);
    expect(sessionCookie('t'.repeat(32), 60, true)).toBe(`__Host-spq_session=${'t'.repeat(32)}; Path=/; Max-Age=60; HttpOnly; SameSite=Strict; Secure`);
    const keys = await get('/console/keys', { cookie: cookieOf(ok) });
    expect(keys.status).toBe(200);
    expect(keys.headers.get('x-frame-options')).toBe('DENY');
    expect(keys.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('errors are pages, not JSON: an over-long form is 400, a database out of reach 503 with Retry-After', async () => {
    const long = await form('/console/sign-in', { email: 'x@example.org', password: 'p'.repeat(20_000) });
    expect(long.status).toBe(400);
    expect(long.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await long.text()).toContain('The form could not be read');
    const store = s.store as { findSession: AccountStore['findSession'] };
    const original = store.findSession;
    store.findSession = async () => {
      throw new StoreUnavailableError('test: the database is down');
    };
    try {
      const down = await get('/console/keys', { cookie: `spq_session=${'D'.repeat(32)}` });
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('5');
      expect(await down.text()).toContain('database is out of reach');
    } finally {
      store.findSession = original;
    }
  });

  it('pages without a session redirect to sign-in; forms without one are refused', async () => {
    expect((await get('/console/keys')).headers.get('location')).toBe('/console/sign-in');
    expect((await get('/console/credits', { cookie: `spq_session=${'A'.repeat(32)}` })).status).toBe(303);
    expect((await form('/console/keys', { name: 'x' })).status).toBe(403);
  });

  it('session fixation: a session id planted before sign-in is never adopted; sign-out and a password reset end sessions', async () => {
    const { accountId, email } = await holder();
    const planted = { cookie: `spq_session=${'P'.repeat(32)}` };
    const res = await form('/console/sign-in', { email, password: PASSWORD }, planted);
    const issued = cookieOf(res);
    expect(issued).not.toBe(planted.cookie);
    expect((await get('/console/keys', planted)).status).toBe(303);

    const browser = { cookie: issued };
    const other = await signedIn(email);
    const page = await (await get('/console/keys', browser)).text();
    const out = await form('/console/sign-out', { _csrf: csrfOf(page) }, browser);
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/^spq_session=; .*Max-Age=0/);
    expect((await get('/console/keys', browser)).status).toBe(303);
    expect((await get('/console/keys', other)).status).toBe(200);

    const reset = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'reset' });
    if (!reset.ok) throw new Error('no link');
    expect((await form(reset.value.path, { password: `${PASSWORD} new`, confirmation: `${PASSWORD} new` })).status).toBe(303);
    expect((await get('/console/keys', other)).status).toBe(303);
    expect((await form('/console/sign-in', { email, password: PASSWORD })).status).toBe(401);
  });

  it('a session works on every instance (it lives in the database), and "sign out everywhere" ends them all', async () => {
    const { email } = await holder();
    const first = await signedIn(email);
    const second = await signedIn(email);
    // Another instance of the service on the same database and limiter.
    const { buildApp } = await import('../../src/http/app.ts');
    const other = buildApp({ ...s.deps, logger: { level: 'silent' } });
    const otherUrl = await other.listen({ port: 0, host: '127.0.0.1' });
    try {
      const there = await fetch(`${otherUrl}/console/credits`, { redirect: 'manual', headers: { cookie: first.cookie!, } });
      expect(there.status).toBe(200);
      const csrf = csrfOf(await there.text());
      const out = await fetch(`${otherUrl}/console/sign-out`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.baseUrl, cookie: first.cookie! },
        body: new URLSearchParams({ _csrf: csrf, everywhere: 'yes' }).toString(),
      });
      expect(out.status).toBe(303);
      expect((await get('/console/keys', first)).status).toBe(303);
      expect((await get('/console/keys', second)).status).toBe(303);
    } finally {
      await other.close();
    }
  });

  it('sign-in attempts are limited per email and address (5 a minute), whatever the answers', async () => {
    const { email } = await holder();
    for (let i = 0; i < 5; i++) expect((await form('/console/sign-in', { email, password: `guess number ${i}` })).status).toBe(401);
    const limited = await form('/console/sign-in', { email, password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('set-cookie')).toBeNull();
    s.clock.advance(60_000 + 1000);
    expect((await form('/console/sign-in', { email, password: PASSWORD })).status).toBe(303);
  });
});

describe('account area: keys, CSRF and isolation', () => {
  it('creates a named key shown once that works on the API, revokes it after confirmation (then 401); CSRF and foreign origins are refused and change nothing', async () => {
    const { accountId, email } = await holder();
    const browser = await signedIn(email);
    const csrf = csrfOf(await (await get('/console/keys', browser)).text());
    const before = (await s.store.listKeys(accountId)).length;

    expect((await form('/console/keys', { name: 'no token' }, browser)).status).toBe(403);
    expect((await form('/console/keys', { name: 'bad token', _csrf: '0'.repeat(64) }, browser)).status).toBe(403);
    expect((await form('/console/keys', { name: 'cross site', _csrf: csrf }, browser, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await s.store.listKeys(accountId)).length).toBe(before);

    const formId = /name="form_id" value="([0-9a-f-]{36})"/.exec(await (await get('/console/keys', browser)).text())![1]!;
    // A key acts for the account: the form asks for the password again (a session alone makes none).
    const unconfirmed = await form('/console/keys', { name: 'analysis server', _csrf: csrf, form_id: formId }, browser);
    expect(unconfirmed.status).toBe(422);
    expect(await unconfirmed.text()).toContain('Your current password is not right.');
    expect((await form('/console/keys', { name: 'analysis server', _csrf: csrf, form_id: formId, current_password: `${PASSWORD}x` }, browser)).status).toBe(422);
    expect((await s.store.listKeys(accountId)).length).toBe(before);
    const created = await form('/console/keys', { name: 'analysis server', _csrf: csrf, form_id: formId, current_password: PASSWORD }, browser);
    expect(created.status).toBe(200);
    const page = await created.text();
    // The same form sent again (a reload of the result page) makes no second key.
    const again = await form('/console/keys', { name: 'analysis server', _csrf: csrf, form_id: formId, current_password: PASSWORD }, browser);
    expect(again.status).toBe(409);
    expect(await again.text()).not.toMatch(/spq_live_[0-9A-Za-z]{36}/);
    expect((await s.store.listKeys(accountId)).filter((k) => k.name === 'analysis server')).toHaveLength(1);
    const apiKey = /id="new-key-value">(spq_live_[0-9A-Za-z]+)</.exec(page)![1]!;
    expect((await s.call('/account/credits', { key: apiKey })).status).toBe(200);
    // Its last use is noted in the background, off the request's path.
    let record = (await s.store.listKeys(accountId)).find((k) => k.name === 'analysis server')!;
    for (let i = 0; i < 40 && record.lastUsedAt === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      record = (await s.store.listKeys(accountId)).find((k) => k.name === 'analysis server')!;
    }
    expect(record.lastUsedAt).toEqual(s.clock.now());
    // Never shown again.
    expect(await (await get('/console/keys', browser)).text()).not.toContain(apiKey);

    expect((await get(`/console/keys/${record.keyId}/revoke`, browser)).status).toBe(200);
    const revoked = await form(`/console/keys/${record.keyId}/revoke`, { _csrf: csrf }, browser);
    expect(revoked.status).toBe(200);
    expect((await s.call('/account/credits', { key: apiKey })).status).toBe(401);
  });

  it("another holder's keys and queries are unreachable (404, not listed)", async () => {
    const a = await holder();
    const b = await holder();
    const bKey = (await s.store.listKeys(b.accountId))[0]!;
    await s.call('/query/execute', { key: b.key, body: { geography_level: 'suburb', geography_selections: ['Richmond (VIC)'], dataset_type: 'persons', n_observations: 5, output_format: 'csv' } });
    const browser = await signedIn(a.email);
    const csrf = csrfOf(await (await get('/console/keys', browser)).text());
    expect((await get(`/console/keys/${bKey.keyId}/revoke`, browser)).status).toBe(404);
    expect((await form(`/console/keys/${bKey.keyId}/revoke`, { _csrf: csrf }, browser)).status).toBe(404);
    expect((await s.store.listKeys(b.accountId))[0]!.revokedAt).toBeNull();
    const queries = await (await get('/console/queries', browser)).text();
    expect(queries).toContain('No queries yet');
  });
});

describe('account area: the query builder', () => {
  it('prices with preview, runs with execute (once, however often the form is resent), downloads, and the ledger shows the charge', async () => {
    const { accountId, email } = await holder();
    const browser = await signedIn(email);
    const csrf = csrfOf(await (await get('/console/query', browser)).text());
    const fields = { _csrf: csrf, geography_level: 'suburb', geography: 'Richmond (VIC)', dataset_type: 'persons', n_observations: '100', output_format: 'csv', include_geography: 'none', linked_records: 'none' };
    const bad = await form('/console/query/preview', { ...fields, geography: 'Nowhere At All' }, browser);
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('Nowhere At All');

    const preview = await form('/console/query/preview', fields, browser);
    expect(preview.status).toBe(200);
    const previewPage = await preview.text();
    expect(previewPage).toContain('Run for 1 credit');
    const idempotencyKey = /name="idempotency_key" value="([0-9a-f-]{36})"/.exec(previewPage)![1]!;
    const balance = (await s.store.credits(accountId, s.clock.now())).creditsRemaining;

    const run = await form('/console/query/execute', { ...fields, idempotency_key: idempotencyKey }, browser);
    expect(run.status).toBe(200);
    const ran = await run.text();
    const link = /<a class="button" href="([^"]+)">Download the csv file/.exec(ran)![1]!.replaceAll('&amp;', '&');
    const file = await fetch(link);
    expect(file.status).toBe(200);
    expect((await file.text()).trim().split('\n')).toHaveLength(101);
    // The form sent again (a double click, a reload): the same query, not a second charge.
    expect((await form('/console/query/execute', { ...fields, idempotency_key: idempotencyKey }, browser)).status).toBe(200);
    expect((await s.store.credits(accountId, s.clock.now())).creditsRemaining).toBe(balance - 1);

    const credits = await (await get('/console/credits', browser)).text();
    expect(credits).toContain('Query charged');
    const queries = await (await get('/console/queries', browser)).text();
    expect(queries).toContain('Richmond (VIC)');
    expect(queries).toContain('Download');
  });

  it('suggests geography names to a signed-in holder only', async () => {
    const { email } = await holder();
    const browser = await signedIn(email);
    const res = await get('/console/suggest?level=suburb&q=Richm', browser);
    expect(res.status).toBe(200);
    expect((await res.json()).suggestions).toContain('Richmond (VIC)');
    expect((await get('/console/suggest?level=suburb&q=Richm')).status).toBe(401);
  });

  it('keeps passwords, keys, session tokens and one-time links out of the logs', async () => {
    const joined = s.logs.join('\n');
    expect(joined).not.toContain(PASSWORD);
    expect(joined).not.toMatch(/spq_live_[0-9A-Za-z]{10}/);
    expect(joined).not.toMatch(/\/console\/welcome\/[0-9A-Za-z]{32}/);
    expect(joined).not.toMatch(/spq_session=[0-9A-Za-z]{32}/);
    expect(joined).toContain('account area: signed in');
    expect(joined).toContain('account area: key revoked');
  });
});

describe('account area: bodies other than forms', () => {
  it('refuses JSON, arrays and empty bodies on its forms with a 415 page, signed in or not, never a 500', async () => {
    const { email } = await holder();
    const browser = await signedIn(email);
    const posts = [
      fetch(`${s.baseUrl}/console/sign-in`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json', origin: s.baseUrl }, body: JSON.stringify([email, PASSWORD]) }),
      fetch(`${s.baseUrl}/console/sign-in`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json', origin: s.baseUrl }, body: JSON.stringify({ email, password: PASSWORD }) }),
      fetch(`${s.baseUrl}/console/keys`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json', origin: s.baseUrl, cookie: browser.cookie! }, body: '[]' }),
      fetch(`${s.baseUrl}/console/sign-in`, { method: 'POST', redirect: 'manual', headers: { origin: s.baseUrl } }),
    ];
    for (const res of await Promise.all(posts)) {
      expect(res.status).toBe(415);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toMatch(/reads forms as a browser sends them/);
    }
    // A JSON sign-in did not sign anybody in.
    const signIn = await posts[1];
    expect(signIn!.headers.get("set-cookie")).toBeNull();
  });
});

describe('account area: rate limits', () => {
  it("the builder counts against the account's per-tier windows and says when to retry (429 with Retry-After)", async () => {
    const limited = await startTestServer({ rateLimits: { perMinute: 2 } });
    try {
      const email = 'limited@example.org';
      const { accountId } = await limited.store.createAccount({ email, now: limited.clock.now() });
      const link = await issueOneTimeLink({ ...limited.deps, credentials: limited.store }, { accountId, purpose: 'invitation' });
      if (!link.ok) throw new Error('no link');
      const post = (path: string, fields: Record<string, string>, cookie?: string) =>
        fetch(`${limited.baseUrl}${path}`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: limited.baseUrl, ...(cookie ? { cookie } : {}) },
          body: new URLSearchParams(fields).toString(),
        });
      await post(link.value.path, { password: PASSWORD, confirmation: PASSWORD });
      const cookie = cookieOf(await post('/console/sign-in', { email, password: PASSWORD }));
      const csrf = csrfOf(await (await fetch(`${limited.baseUrl}/console/query`, { headers: { cookie } })).text());
      const fields = { _csrf: csrf, geography_level: 'suburb', geography: 'Richmond (VIC)', dataset_type: 'persons', n_observations: '10', output_format: 'csv' };
      expect((await post('/console/query/preview', fields, cookie)).status).toBe(200);
      expect((await post('/console/query/preview', fields, cookie)).status).toBe(200);
      const third = await post('/console/query/preview', fields, cookie);
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await third.text()).toContain('Retry after');
    } finally {
      await limited.close();
    }
  });
});
