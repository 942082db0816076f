/**
 * The holder's self-service over real HTTP (both stacks): a reset link by email through a real
 * SMTP server started here (single-use, expiring, useless once the password changed), the
 * operator's way when no SMTP is configured, the password change (current password required,
 * other browsers signed out), signed-in browsers listed and ended one by one, the key limits per
 * holder, and sign-in throttling per (email, address) that never locks the holder out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../../src/adapters/mail/smtp.ts';
import { issueOneTimeLink } from '../../src/app/web/sign-in.ts';
import { newId } from '../../src/core/keys.ts';
import { sendForm, type RawAnswer } from '../support/raw-request.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { loadConfig } from '../../src/config.ts';

const PASSWORD = 'violet kettle harbour 42';
const NEW_PASSWORD = 'quince lantern meadow 17';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

let s: TestServer;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer({ user: { name: 'spq', password: 'relay-secret' } });
  s = await startTestServer({ config: {}, mailer: createSmtpMailer({ url: smtp.url, from: 'spq <no-reply@spq.test>' }) });
});
afterAll(async () => {
  await s.close();
  await smtp.close();
});

type Reply = RawAnswer;

/** A form POST (or GET) from a chosen local address (127.0.0.x), as a browser elsewhere would send it. */
function send(server: TestServer, method: 'GET' | 'POST', path: string, options: { fields?: Record<string, string>; cookie?: string; from?: string; userAgent?: string } = {}): Promise<Reply> {
  const headers = { origin: server.baseUrl, ...(options.cookie ? { cookie: options.cookie } : {}), ...(options.userAgent ? { 'user-agent': options.userAgent } : {}) };
  return sendForm(`${server.baseUrl}${path}`, method, { ...(options.from ? { from: options.from } : {}), ...(options.fields ? { fields: options.fields } : {}), headers });
}

const csrfOf = (page: string): string => /name="_csrf" value="([0-9a-f]{64})"/.exec(page)![1]!;
const cookieOf = (reply: Reply): string => String((reply.headers['set-cookie'] as string[])[0]).split(';')[0]!;

async function holder(server: TestServer = s): Promise<{ accountId: string; email: string }> {
  const email = `holder-${Math.random().toString(36).slice(2, 10)}@example.org`;
  const { accountId } = await server.store.createAccount({ email, now: server.clock.now() });
  const link = await issueOneTimeLink({ ...server.deps, credentials: server.store }, { accountId, purpose: 'invitation' });
  if (!link.ok) throw new Error(link.error.detail);
  // Setting the password signs that browser in; it signs out again, so each test counts its own browsers.
  const set = await send(server, 'POST', link.value.path, { fields: { password: PASSWORD, confirmation: PASSWORD } });
  expect(set.status).toBe(303);
  const cookie = cookieOf(set);
  const csrf = csrfOf((await send(server, 'GET', '/console/account', { cookie })).text);
  expect((await send(server, 'POST', '/console/sign-out', { cookie, fields: { _csrf: csrf } })).status).toBe(303);
  return { accountId, email };
}

async function signIn(email: string, password = PASSWORD, options: { from?: string; userAgent?: string; server?: TestServer } = {}): Promise<{ cookie: string; csrf: string }> {
  const server = options.server ?? s;
  const res = await send(server, 'POST', '/console/sign-in', { fields: { email, password }, ...options });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/console/overview');
  const cookie = cookieOf(res);
  const page = await send(server, 'GET', '/console/account', { cookie });
  expect(page.status).toBe(200);
  return { cookie, csrf: csrfOf(page.text) };
}

describe('forgot password: a reset link by email (real SMTP)', () => {
  it('sends a single-use, expiring link to the holder only; the same answer for unknown emails; it sets the password and signs every browser out', async () => {
    const { email } = await holder();
    const before = await signIn(email);
    const page = await send(s, 'GET', '/console/sign-in');
    expect(page.text).toContain('href="/console/forgot"');
    expect(page.text).not.toContain('Ask the service operator');

    const asked = await send(s, 'POST', '/console/forgot', { fields: { email: email.toUpperCase() } });
    expect(asked.status).toBe(200);
    const unknown = await send(s, 'POST', '/console/forgot', { fields: { email: `nobody-${email}` } });
    expect(unknown.status).toBe(200);
    expect(unknown.text.replace(`nobody-${email}`, email.toUpperCase())).toBe(asked.text);

    const mail = await smtp.next(email);
    expect(mail.user).toBe('spq');
    expect(mail.headers.subject).toBe('Reset your spq password');
    expect(mail.headers.from).toContain('no-reply@spq.test');
    const link = new RegExp(`${s.baseUrl}(/console/welcome/[0-9A-Za-z]{32})`).exec(mail.text)![1]!;
    expect(mail.text).toContain('within 60 minutes');
    // Only the keyed hash is stored, and the link is not in the logs.
    expect(s.logs.join('\n')).not.toContain(link);

    expect((await send(s, 'GET', link)).status).toBe(200);
    expect((await send(s, 'POST', link, { fields: { password: 'password123456', confirmation: 'password123456' } })).status).toBe(422);
    expect((await send(s, 'POST', link, { fields: { password: NEW_PASSWORD, confirmation: NEW_PASSWORD } })).status).toBe(303);
    expect((await send(s, 'POST', link, { fields: { password: NEW_PASSWORD, confirmation: NEW_PASSWORD } })).status).toBe(404);
    expect((await send(s, 'GET', '/console/account', { cookie: before.cookie })).status).toBe(303); // signed out
    await signIn(email, NEW_PASSWORD);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.received.filter((m) => m.envelopeTo.includes(`nobody-${email}`))).toHaveLength(0);
    expect(s.logs.join('\n')).toContain('password-reset email sent');
  });

  it('a link expires after SPQ_RESET_LINK_MINUTES; requests are limited per email (3 an hour)', async () => {
    const { email } = await holder();
    expect((await send(s, 'POST', '/console/forgot', { fields: { email } })).status).toBe(200);
    const link = /(\/console\/welcome\/[0-9A-Za-z]{32})/.exec((await smtp.next(email)).text)![1]!;
    s.clock.advance(60 * 60_000);
    expect((await send(s, 'GET', link)).status).toBe(404);
    for (let i = 0; i < 3; i++) expect((await send(s, 'POST', '/console/forgot', { fields: { email } })).status).toBe(200);
    const limited = await send(s, 'POST', '/console/forgot', { fields: { email } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    s.clock.advance(60 * 60_000);
  });

  it('nobody else can use up the holder\'s reset mail: limited per (email, address), and across addresses except from a browser that signed in before', async () => {
    const { email } = await holder();
    // The holder signs in once from their own browser: it keeps a known-browser cookie.
    const signedIn = await send(s, 'POST', '/console/sign-in', { fields: { email, password: PASSWORD }, from: '127.0.0.60' });
    expect(signedIn.status).toBe(303);
    const knownBrowser = (signedIn.headers['set-cookie'] as string[]).map((c) => c.split(';')[0]!).find((c) => c.startsWith('spq_browser='))!;
    expect(knownBrowser).toBeDefined();
    // Someone else asks from one address until refused…
    for (let i = 0; i < 3; i++) expect((await send(s, 'POST', '/console/forgot', { fields: { email }, from: '127.0.0.61' })).status).toBe(200);
    expect((await send(s, 'POST', '/console/forgot', { fields: { email }, from: '127.0.0.61' })).status).toBe(429);
    // …which leaves the holder's own allowance at their address untouched.
    expect((await send(s, 'POST', '/console/forgot', { fields: { email }, from: '127.0.0.60' })).status).toBe(200);
    // From many addresses the mailbox gets at most 15 an hour (5 × SPQ_RESET_EMAILS_PER_HOUR)…
    for (let k = 0; k < 11; k++) expect((await send(s, 'POST', '/console/forgot', { fields: { email }, from: `127.0.0.${70 + k}` })).status).toBe(200);
    const spread = await send(s, 'POST', '/console/forgot', { fields: { email }, from: '127.0.0.90' });
    expect(spread.status).toBe(429);
    expect(spread.text).toContain('A browser you have signed in with before can still ask for one.');
    // …but the holder's browser still gets a link, from anywhere.
    const own = await sendForm(`${s.baseUrl}/console/forgot`, 'POST', { from: '127.0.0.91', fields: { email }, headers: { origin: s.baseUrl, cookie: knownBrowser } });
    expect(own.status).toBe(200);
    for (let i = 0; i < 16; i++) await smtp.next(email);
    s.clock.advance(60 * 60_000);
  });

  it('keys are for programs: a reset or "sign out everywhere" leaves them working unless the holder ticks "revoke every API key"', async () => {
    const { accountId, email } = await holder();
    const makeKey = async () => (await s.store.addKey({ accountId, keyId: newId('key'), keyHash: `h-${crypto.randomUUID()}`, prefix: 'spq_live_', last4: 'abcd', name: 'job', now: s.clock.now() })).keyId;
    const active = async () => (await s.store.listKeys(accountId)).filter((k) => k.revokedAt === null).map((k) => k.keyId);
    const reset = async (fields: Record<string, string>) => {
      expect((await send(s, 'POST', '/console/forgot', { fields: { email }, from: '127.0.0.40' })).status).toBe(200);
      const link = new RegExp(`${s.baseUrl}(/console/welcome/[0-9A-Za-z]{32})`).exec((await smtp.next(email)).text)![1]!;
      expect((await send(s, 'GET', link)).text).toContain('Also revoke every API key of this account');
      expect((await send(s, 'POST', link, { fields: { password: NEW_PASSWORD, confirmation: NEW_PASSWORD, ...fields } })).status).toBe(303);
    };
    const kept = await makeKey();
    await reset({});
    expect(await active()).toContain(kept);
    await reset({ revoke_keys: 'yes' });
    expect(await active()).toEqual([]);

    const again = await makeKey();
    const browser = await signIn(email, NEW_PASSWORD);
    expect((await send(s, 'POST', '/console/sign-out', { cookie: browser.cookie, fields: { _csrf: browser.csrf, everywhere: 'yes' } })).status).toBe(303);
    expect(await active()).toEqual([again]);
    const next = await signIn(email, NEW_PASSWORD);
    expect((await send(s, 'POST', '/console/sign-out', { cookie: next.cookie, fields: { _csrf: next.csrf, everywhere: 'yes', revoke_keys: 'yes' } })).status).toBe(303);
    expect(await active()).toEqual([]);
  });

  it('without SMTP the page says how to get a link from the operator, whose log names the holder and the command; the same page for unknown emails', async () => {
    const plain = await startTestServer();
    try {
      const form = await send(plain, 'GET', '/console/forgot');
      expect(form.status).toBe(200);
      expect(form.text).toContain('spq admin account invite --reset');
      const { accountId, email } = await holder(plain);
      const posted = await send(plain, 'POST', '/console/forgot', { fields: { email } });
      expect(posted.status).toBe(200);
      expect(posted.text).toContain('noted for the operator');
      const unknown = await send(plain, 'POST', '/console/forgot', { fields: { email: `nobody-${email}` } });
      expect(unknown.text.replace(`nobody-${email}`, email)).toBe(posted.text);
      const logged = plain.logs.filter((l) => l.includes('no SMTP is configured'));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain(`spq admin account invite --reset --account ${accountId}`);
      expect(logged[0]).not.toContain(email);
    } finally {
      await plain.close();
    }
  });
});

describe('the account page: password and signed-in browsers', () => {
  it('changes the password only with the current one, refuses common ones, and signs the other browsers out', async () => {
    const { email } = await holder();
    const laptop = await signIn(email, PASSWORD, { userAgent: FIREFOX });
    const phone = await signIn(email, PASSWORD, { userAgent: PHONE });
    const change = (fields: Record<string, string>) => send(s, 'POST', '/console/account/password', { cookie: laptop.cookie, fields: { _csrf: laptop.csrf, ...fields } });
    const wrong = await change({ current: 'not my password', password: NEW_PASSWORD, confirmation: NEW_PASSWORD });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain('current password is not right');
    expect((await change({ current: PASSWORD, password: 'password123456', confirmation: 'password123456' })).text).toContain('most common');
    expect((await change({ current: PASSWORD, password: NEW_PASSWORD, confirmation: `${NEW_PASSWORD}x` })).status).toBe(422);
    // Without the CSRF token nothing changes.
    expect((await send(s, 'POST', '/console/account/password', { cookie: laptop.cookie, fields: { current: PASSWORD, password: NEW_PASSWORD, confirmation: NEW_PASSWORD } })).status).toBe(403);
    const ok = await change({ current: PASSWORD, password: NEW_PASSWORD, confirmation: NEW_PASSWORD });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('1 other browser was signed out');
    expect((await send(s, 'GET', '/console/account', { cookie: phone.cookie })).status).toBe(303);
    // This browser stays signed in under a new session token (issue 31); the old token is dead.
    expect((await send(s, 'GET', '/console/account', { cookie: laptop.cookie })).status).toBe(303);
    expect((await send(s, 'GET', '/console/account', { cookie: cookieOf(ok) })).status).toBe(200);
    expect((await send(s, 'POST', '/console/sign-in', { fields: { email, password: PASSWORD } })).status).toBe(401);
    await signIn(email, NEW_PASSWORD);
  });

  it('limits guesses at the current password per account like a sign-in (backoff), whichever browser sends them', async () => {
    const { email } = await holder();
    const browsers = [await signIn(email, PASSWORD, { from: '127.0.0.31' }), await signIn(email, PASSWORD, { from: '127.0.0.32' })];
    const change = (k: number, current: string) =>
      send(s, 'POST', '/console/account/password', { from: `127.0.0.3${1 + (k % 2)}`, cookie: browsers[k % 2]!.cookie, fields: { _csrf: browsers[k % 2]!.csrf, current, password: NEW_PASSWORD, confirmation: NEW_PASSWORD } });
    const perMinute = s.deps.config.accountArea.signInAttemptsPerPair;
    for (let k = 0; k < perMinute; k++) expect((await change(k, `wrong guess ${k}`)).status).toBe(422);
    // The next guess is refused before it is checked, from either browser, even the right password.
    const refused = await change(perMinute, PASSWORD);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.text).toContain('too many attempts at the current password');
    expect((await change(perMinute + 1, PASSWORD)).status).toBe(429);
    // The key form re-authenticates on the same allowance: no key either, whatever it is sent.
    const keyForm = await send(s, 'POST', '/console/keys', { from: '127.0.0.31', cookie: browsers[0]!.cookie, fields: { _csrf: browsers[0]!.csrf, name: 'guessing', form_id: crypto.randomUUID(), current_password: PASSWORD } });
    expect(keyForm.status).toBe(429);
    expect(keyForm.text).toContain('too many attempts at the current password');
    // A minute later the backoff's next window allows guesses again, and the right password works.
    s.clock.advance(61_000);
    expect((await change(0, PASSWORD)).status).toBe(200);
  });

  it('a session ends SPQ_SESSION_IDLE_MINUTES after its last use, not after the last use that was written down (at most once a minute)', async () => {
    const { email } = await holder();
    const idle = s.deps.config.accountArea.sessionIdleMinutes * 60_000;
    const browser = await signIn(email);
    s.clock.advance(59_000);
    expect((await send(s, 'GET', '/console/account', { cookie: browser.cookie })).status).toBe(200); // used; not written (under a minute)
    s.clock.advance(idle - 1000);
    expect((await send(s, 'GET', '/console/account', { cookie: browser.cookie })).status).toBe(200);
    s.clock.advance(idle + 61_000);
    expect((await send(s, 'GET', '/console/account', { cookie: browser.cookie })).status).toBe(303);
  });

  it('lists each signed-in browser (user agent, signed in, last seen) and ends them one by one; another holder\'s cannot be ended', async () => {
    const { email } = await holder();
    const laptop = await signIn(email, PASSWORD, { userAgent: FIREFOX });
    s.clock.advance(60_000);
    const phone = await signIn(email, PASSWORD, { userAgent: PHONE });
    const page = await send(s, 'GET', '/console/account', { cookie: laptop.cookie });
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('Firefox on Linux <strong>(this browser)</strong>');
    expect(page.text).toContain('Safari on iOS');
    const ids = [...page.text.matchAll(/\/console\/account\/sessions\/(ses_[0-9A-Za-z]+)\/end/g)].map((m) => m[1]!);
    expect(ids).toHaveLength(2);
    const phoneId = ids[0]!; // newest first
    const intruder = await holder();
    const other = await signIn(intruder.email);
    expect((await send(s, 'POST', `/console/account/sessions/${phoneId}/end`, { cookie: other.cookie, fields: { _csrf: other.csrf } })).status).toBe(404);
    expect((await send(s, 'GET', '/console/account', { cookie: phone.cookie })).status).toBe(200);

    const ended = await send(s, 'POST', `/console/account/sessions/${phoneId}/end`, { cookie: laptop.cookie, fields: { _csrf: laptop.csrf } });
    expect(ended.text).toContain('That browser is signed out');
    expect(ended.status).toBe(200);
    expect(ended.text).not.toContain('Safari on iOS');
    expect((await send(s, 'GET', '/console/account', { cookie: phone.cookie })).status).toBe(303);
    // Ending this browser signs it out.
    const self = await send(s, 'POST', `/console/account/sessions/${ids[1]}/end`, { cookie: laptop.cookie, fields: { _csrf: laptop.csrf } });
    expect(self.status).toBe(303);
    expect(String(self.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await send(s, 'GET', '/console/account', { cookie: laptop.cookie })).status).toBe(303);
  });
});

describe('limits per holder', () => {
  it('at most SPQ_MAX_KEYS_PER_ACCOUNT active keys, and a rate on creating them', async () => {
    const limited = await startTestServer({ config: { holderLimits: { maxActiveKeys: 3, keyCreationsPerHour: 5 } } });
    try {
      const { email } = await holder(limited);
      const browser = await signIn(email, PASSWORD, { server: limited });
      // A minute apart: each creation confirms the password, which is limited like a sign-in (5 a minute).
      const create = (name: string) => {
        limited.clock.advance(61_000);
        return send(limited, 'POST', '/console/keys', { cookie: browser.cookie, fields: { _csrf: browser.csrf, name, form_id: crypto.randomUUID(), current_password: PASSWORD } });
      };
      for (const name of ['a', 'b', 'c']) expect((await create(name)).status).toBe(200);
      const fourth = await create('d');
      expect(fourth.status).toBe(422);
      expect(fourth.text).toContain('at most 3 active keys');
      const keysPage = (await send(limited, 'GET', '/console/keys', { cookie: browser.cookie })).text;
      const keyId = /\/console\/keys\/(key_[0-9A-Za-z]+)\/revoke/.exec(keysPage)![1]!;
      expect((await send(limited, 'POST', `/console/keys/${keyId}/revoke`, { cookie: browser.cookie, fields: { _csrf: browser.csrf } })).status).toBe(200);
      expect((await create('e')).status).toBe(200);
      const revokeOne = async () => {
        const id = /\/console\/keys\/(key_[0-9A-Za-z]+)\/revoke/.exec((await send(limited, 'GET', '/console/keys', { cookie: browser.cookie })).text)![1];
        expect((await send(limited, 'POST', `/console/keys/${id}/revoke`, { cookie: browser.cookie, fields: { _csrf: browser.csrf } })).status).toBe(200);
      };
      await revokeOne();
      expect((await create('f')).status).toBe(200);
      await revokeOne();
      // Five created within the hour (a, b, c, e, f): the sixth waits, though a place is free.
      const sixth = await create('g');
      expect(sixth.status).toBe(429);
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
      limited.clock.advance(3600_000);
      expect((await create('h')).status).toBe(200);
      expect((await limited.store.listKeys((await limited.store.findAccountByEmail(email))!.accountId)).filter((k) => k.revokedAt === null)).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });
});

describe('sign-in throttling per (email, address)', () => {
  it('guesses from elsewhere are slowed with backoff, the holder at their own address is never locked out, and a reset link works meanwhile', async () => {
    const { accountId, email } = await holder();
    const attacker = '127.0.0.2';
    const guess = (i: number) => send(s, 'POST', '/console/sign-in', { from: attacker, fields: { email, password: `guess ${i} wrong` } });
    for (let i = 0; i < 5; i++) expect((await guess(i)).status).toBe(401);
    const first = await guess(5);
    expect(first.status).toBe(429);
    expect(Number(first.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(first.text).toContain('Forgot your password?');
    expect(first.text).toMatch(/Try again in \d+ seconds\./);
    expect(first.text).not.toContain('requests per'); // the API's wording, not the page's
    // The holder, elsewhere, signs in at once.
    await signIn(email);
    // Backoff: after the minute, five more, then the wait is the quarter hour's.
    s.clock.advance(61_000);
    for (let i = 0; i < 5; i++) expect((await guess(10 + i)).status).toBe(401);
    const second = await guess(20);
    expect(second.status).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(60 * 13);
    // Even from the throttled address, a reset link works (and the holder is then in).
    const link = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'reset' });
    if (!link.ok) throw new Error(link.error.detail);
    const viaLink = await send(s, 'POST', link.value.path, { from: attacker, fields: { password: NEW_PASSWORD, confirmation: NEW_PASSWORD } });
    expect(viaLink.status).toBe(303);
    expect((await send(s, 'GET', '/console/account', { cookie: cookieOf(viaLink) })).status).toBe(200);
    await signIn(email, NEW_PASSWORD);
    s.clock.advance(15 * 60_000);
  });
});

describe('sign-in throttling per account', () => {
  it('guesses at one account spread over many addresses stop; a browser that signed in before still signs in; the message says how else', async () => {
    const { email } = await holder();
    // The holder signs in once from their laptop: it keeps a known-browser cookie.
    const first = await send(s, 'POST', '/console/sign-in', { from: '127.0.0.50', fields: { email, password: PASSWORD } });
    expect(first.status).toBe(303);
    const browserCookie = String((first.headers['set-cookie'] as string[]).find((c) => c.startsWith('spq_browser='))).split(';')[0]!;
    expect(browserCookie).toMatch(/^spq_browser=[0-9A-Za-z]{22}\.[0-9a-f]+$/);
    const perAccount = s.deps.config.accountArea.signInAttemptsPerAccount;
    // An attacker spreads guesses over addresses, each under its per-pair limit. The holder's own
    // first sign-in (from a browser not yet known) counted too.
    let refused: Reply | undefined;
    for (let k = 0; k < perAccount; k++) {
      const from = `127.0.1.${10 + Math.floor(k / 4)}`;
      const reply = await send(s, 'POST', '/console/sign-in', { from, fields: { email, password: `guess ${k} wrong` } });
      if (k < perAccount - 1) expect(reply.status, `guess ${k}`).toBe(401);
      else refused = reply;
    }
    expect(refused!.status).toBe(429);
    expect(refused!.text).toContain('browsers that have not signed in to it before');
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right password from a new browser waits (the account is guarded, not the address) …
    expect((await send(s, 'POST', '/console/sign-in', { from: '127.0.1.99', fields: { email, password: PASSWORD } })).status).toBe(429);
    // … but the holder's known browser signs in, from a new address too; a forged cookie does not help.
    const known = await sendForm(`${s.baseUrl}/console/sign-in`, 'POST', { from: '127.0.1.98', headers: { origin: s.baseUrl, cookie: browserCookie }, fields: { email, password: PASSWORD } });
    expect(known.status).toBe(303);
    const forged = await sendForm(`${s.baseUrl}/console/sign-in`, 'POST', { from: '127.0.1.97', headers: { origin: s.baseUrl, cookie: `spq_browser=${'A'.repeat(22)}.${'0'.repeat(64)}` }, fields: { email, password: PASSWORD } });
    expect(forged.status).toBe(429);
    // Another account is untouched.
    const other = await holder();
    await signIn(other.email, PASSWORD, { from: '127.0.1.96' });
    s.clock.advance(86_400_000);
  });
});

describe('sign-in throttling per client network', () => {
  it('an IPv6 client counts as its /64: fresh addresses and other spellings of one draw on one allowance', async () => {
    const base = loadConfig({});
    const proxied = await startTestServer({
      config: { trustedProxies: { hops: 1, ranges: [], header: 'x-forwarded-for' }, accountArea: { ...base.accountArea, signInAttemptsPerAddress: 4 } },
    });
    try {
      const attempt = (forwardedFor: string, k: number) =>
        sendForm(`${proxied.baseUrl}/console/sign-in`, 'POST', { headers: { origin: proxied.baseUrl, 'x-forwarded-for': forwardedFor }, fields: { email: `nobody-${k}@example.org`, password: `guess ${k} wrong` } });
      const sameNetwork = ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:DB8:1:2:0:0:0:3', '2001:0db8:0001:0002:abcd::4'];
      for (const [k, address] of sameNetwork.entries()) expect((await attempt(address, k)).status, address).toBe(401);
      for (const address of ['2001:db8:1:2::99', '2001:db8:1:2:0:0:0:1', '2001:db8:1:2:ffff:ffff:ffff:ffff']) expect((await attempt(address, 9)).status, address).toBe(429);
      // Another /64 (another subscriber) and an IPv4 client keep their own allowances.
      expect((await attempt('2001:db8:1:3::1', 10)).status).toBe(401);
      expect((await attempt('198.51.100.7', 11)).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});

describe('numbers in the account area are read as strictly as the API reads them', () => {
  it('?page= takes plain digits only: "2" is page 2, "2e0", "0x2", " 2", "2.0" are page 1', async () => {
    const { accountId, email } = await holder();
    for (let i = 0; i < 25; i++) await s.store.grantCredits({ accountId, credits: 1, now: s.clock.now() });
    const browser = await signIn(email);
    const pageOf = async (page: string) => /Page (\d+) of (\d+)/.exec((await send(s, 'GET', `/console/credits?page=${encodeURIComponent(page)}`, { cookie: browser.cookie })).text)?.[1];
    expect(await pageOf('2')).toBe('2');
    for (const loose of ['2e0', '0x2', ' 2', '2.0', '-2', '99999999999']) expect(await pageOf(loose), loose).toBe('1');
  });
});

describe('the builder\'s run form', () => {
  it('refuses an idempotency key that is not the price page\'s UUID (an API key above all, in any position): 400, nothing run or charged', async () => {
    const { accountId, email } = await holder();
    await s.store.grantCredits({ accountId, credits: 20, now: s.clock.now() });
    const browser = await signIn(email);
    const before = (await s.store.credits(accountId, s.clock.now())).creditsRemaining;
    const fields = { _csrf: browser.csrf, geography_level: 'suburb', geography: 'Richmond (VIC)', dataset_type: 'persons', n_observations: '10', output_format: 'csv' };
    const apiKey = (await s.addKey(accountId)).key;
    for (const idempotencyKey of [apiKey, `Bearer ${apiKey}`, `x-${apiKey}-y`, 'not-a-uuid', '']) {
      const res = await send(s, 'POST', '/console/query/execute', { cookie: browser.cookie, fields: { ...fields, idempotency_key: idempotencyKey } });
      expect(res.status, idempotencyKey).toBe(400);
      expect(res.text).not.toContain(apiKey);
    }
    expect((await s.store.credits(accountId, s.clock.now())).creditsRemaining).toBe(before);
    expect((await s.store.history({ accountId, page: 1, perPage: 10 })).total).toBe(0);
  });
});
