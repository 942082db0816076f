/**
 * Issue 31, item 2: the account area's fuzzer, on both stacks (npm test runs test/http on SQLite
 * and again on PostgreSQL + Redis). Random form posts and page requests to every /console route,
 * signed in or not, with the right CSRF token and origin most of the time, and field values from
 * the API fuzzer's hostile strings (NUL and other control characters, bad escapes, huge and odd
 * text) mixed with values the forms expect. No answer may be a 5xx; every one carries a request
 * id; the session token is never echoed; and the holder's ledger still equals the balance.
 * SPQ_FUZZ_CONSOLE_REQUESTS sets the count (2,000), SPQ_FUZZ_SEED the seed (printed).
 */
import { Agent } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueOneTimeLink } from '../../src/app/web/sign-in.ts';
import { hostileString } from './fuzz/arbitraries.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { sendRaw } from '../support/raw-request.ts';

const REQUESTS = Number(process.env.SPQ_FUZZ_CONSOLE_REQUESTS ?? 2_000);
const SEED = Number(process.env.SPQ_FUZZ_SEED ?? 1_2026_1127);
const CONCURRENCY = 8;
const PASSWORD = 'violet kettle harbour 42';

let s: TestServer;
let accountId: string;
let cookie: string;
let token: string;
let csrf: string;
let keyId: string;
let queryId: string;
let sessionId: string;

beforeAll(async () => {
  s = await startTestServer({ config: { accountArea: { ...(await import('../../src/config.ts')).loadConfig({}).accountArea, signInAttemptsPerAddress: 1_000_000, signInAttemptsPerPair: 1_000_000 } } });
  const email = `holder-${Math.random().toString(36).slice(2, 10)}@example.org`;
  ({ accountId } = await s.store.createAccount({ email, now: s.clock.now() }));
  await s.store.grantCredits({ accountId, credits: 100_000, now: s.clock.now() });
  ({ keyId } = await s.addKey(accountId));
  const link = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'invitation' });
  if (!link.ok) throw new Error(link.error.detail);
  const set = await fetch(`${s.baseUrl}${link.value.path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.baseUrl }, body: new URLSearchParams({ password: PASSWORD, confirmation: PASSWORD }).toString() });
  cookie = set.headers.get('set-cookie')!.split(';')[0]!;
  token = cookie.split('=')[1]!;
  const account = await (await fetch(`${s.baseUrl}/console/account`, { headers: { cookie } })).text();
  csrf = /name="_csrf" value="([0-9a-f]{64})"/.exec(account)![1]!;
  sessionId = /ses_[0-9A-Za-z]{20}/.exec(account)![0];
  const executed = await s.call('/query/execute', { key: (await s.addKey(accountId)).key, body: { geography_level: 'suburb', geography_selections: ['Burnley'], dataset_type: 'persons', n_observations: 5 }, headers: { 'idempotency-key': crypto.randomUUID() } });
  queryId = ((await executed.json()) as { query_id: string }).query_id;
});
afterAll(async () => s?.close());

interface ConsoleRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

const FIELDS = ['email', 'password', 'confirmation', 'current', 'name', 'sandbox', 'form_id', 'time_zone', 'geography_level', 'geography', 'dataset_type', 'n_observations', 'output_format', 'include_geography', 'linked_records', 'seed', 'implicate', 'idempotency_key', 'test_mode', 'everywhere', 'q', 'level', 'page'];
const plausible = fc.constantFrom('Burnley', 'Fitzroy; Richmond (VIC)', 'suburb', 'persons', 'households', 'csv', 'parquet', 'xlsx', 'hierarchical', 'household', '5', '50', '0', '100000', 'yes', 'Australia/Sydney', 'holder@example.org', PASSWORD, '3121', 'VIC');
/** A value the form expects with a control character slipped in (x\u0000@example.org), as the probe sent. */
const taint = (v: string) => fc.tuple(fc.constantFrom('\u0000', '\u0001', '\u001b', '\u007f'), fc.nat(v.length)).map(([c, at]) => `${v.slice(0, at)}${c}${v.slice(at)}`);
const tainted = fc.tuple(plausible, fc.constantFrom('\u0000', '\u0001', '\u0008', '\u001b', '\u007f', '\u0085'), fc.nat(40)).map(([v, c, at]) => `${v.slice(0, at % (v.length + 1))}${c}${v.slice(at % (v.length + 1))}`);
const value = fc.oneof({ arbitrary: plausible, weight: 3 }, { arbitrary: hostileString, weight: 3 }, { arbitrary: tainted, weight: 2 }, { arbitrary: fc.string({ maxLength: 40, unit: 'binary' }), weight: 1 });

/** Percent-encodes a path segment; a lone surrogate (not encodable) becomes the bytes of one. */
function enc(value: string): string {
  try {
    return encodeURIComponent(value) || 'x';
  } catch {
    return '%ED%A0%80';
  }
}

function requestArbitrary(): fc.Arbitrary<ConsoleRequest> {
  const id = (prefix: string, real: string) => fc.oneof(fc.constant(real), fc.constant(`${prefix}_${'A'.repeat(20)}`), hostileString.map((v) => enc(v)));
  const post = fc.oneof(
    { arbitrary: fc.constantFrom('/console/sign-in', '/console/forgot', '/console/keys', '/console/query/preview'), weight: 2 },
    fc.constantFrom('/console/sign-in', '/console/forgot', '/console/keys', '/console/settings/time-zone', '/console/account/password', '/console/query/preview', '/console/query/execute', '/console/sign-out', '/console/nothing-here'),
    id('key', keyId).map((k) => `/console/keys/${k}/revoke`),
    id('ses', 'ses_AAAAAAAAAAAAAAAAAAAA').map((k) => `/console/account/sessions/${k}/end`),
    hostileString.map((t) => `/console/welcome/${enc(t)}`),
  );
  const get = fc.oneof(
    fc.constantFrom('/console', '/console/sign-in', '/console/forgot', '/console/overview', '/console/keys', '/console/credits', '/console/account', '/console/queries', '/console/query', '/console/suggest', '/console/assets/spq.css'),
    id('qry', queryId).map((q) => `/console/queries/${q}`),
    id('key', keyId).map((k) => `/console/keys/${k}/revoke`),
  );
  const fields = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 8 });
  const query = fc.option(fields.map((f) => new URLSearchParams(f).toString()), { nil: undefined });
  return fc
    .record({
      method: fc.oneof({ arbitrary: fc.constant('POST'), weight: 6 }, { arbitrary: fc.constant('GET'), weight: 3 }, { arbitrary: fc.constantFrom('PUT', 'DELETE'), weight: 1 }),
      postPath: post,
      // Mostly the fields the route reads, sometimes any.
      ownFields: fc.record({ email: fc.oneof(fc.constant('holder@example.org'), taint('holder@example.org'), value), password: value, name: fc.oneof(value, taint('laptop')), geography: fc.oneof(value, taint('Burnley')), time_zone: value }, { requiredKeys: [] }),
      getPath: get,
      query,
      fields,
      signedIn: fc.boolean().map((b) => b || Math.random() < 0.6),
      rightCsrf: fc.nat(9).map((n) => n < 8),
      origin: fc.constantFrom(s.baseUrl, s.baseUrl, s.baseUrl, 'https://evil.example', undefined),
      contentType: fc.oneof({ arbitrary: fc.constant('application/x-www-form-urlencoded'), weight: 9 }, { arbitrary: fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded; charset=latin1'), weight: 1 }),
      rawBody: fc.option(fc.constantFrom('%', '%ZZ=%00', 'a=%C0%80', '=&=&&', `email=${'a'.repeat(20_000)}`, 'email[]=x&email[]=y', '__proto__=x&constructor=y'), { freq: 8, nil: undefined }),
    })
    .map((r) => {
      // Signing out with the right token would end the fuzzer's own session: that form gets a wrong one.
      const path = r.method === 'GET' ? r.getPath : r.postPath;
      const csrfField = r.rightCsrf && path !== '/console/sign-out' ? csrf : 'f'.repeat(64);
      const headers: Record<string, string> = {};
      if (r.signedIn) headers.cookie = cookie;
      if (r.origin !== undefined) headers.origin = r.origin;
      if (r.method === 'GET') return { method: 'GET', path: r.query ? `${path}?${r.query}` : path, headers };
      headers['content-type'] = r.contentType;
      const body = r.rawBody ?? new URLSearchParams({ ...r.fields, ...r.ownFields, _csrf: csrfField }).toString();
      return { method: r.method, path, headers, body };
    });
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

const send = (r: ConsoleRequest) => sendRaw(s.baseUrl, agent, r);

describe('account area fuzzer', () => {
  it(`${REQUESTS} requests across every /console route: no 5xx, a request id on each, the session token never echoed, the ledger intact`, async () => {
    const requests = fc.sample(requestArbitrary(), { numRuns: REQUESTS, seed: SEED });
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const r = requests[next++]!;
          const a = await send(r);
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          const where = `${r.method} ${r.path.slice(0, 100)} ${JSON.stringify(r.body?.slice(0, 200))} → ${a.status} ${a.text.slice(0, 300)}`;
          if (a.status >= 500) problems.push(`5xx: ${where}`);
          if (typeof a.headers['x-request-id'] !== 'string') problems.push(`no X-Request-Id: ${where}`);
          if (a.text.includes(token)) problems.push(`session token echoed: ${where}`);
        }
      }),
    );
    agent.destroy();
    process.stderr.write(`console fuzz (${s.stack}, seed ${SEED}): ${requests.length} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}\n`);
    expect(problems.slice(0, 10)).toEqual([]);
    expect(statuses.get(422) ?? 0, 'control characters refused').toBeGreaterThan(0);
    expect(await s.store.ledgerBalance(accountId)).toBe((await s.store.credits(accountId, s.clock.now())).creditsRemaining);
    // The fuzzer's session survived (sign-out was only ever sent with a wrong token).
    expect((await fetch(`${s.baseUrl}/console/account`, { headers: { cookie } })).status).toBe(200);
    expect(sessionId).toMatch(/^ses_/);
  }, 600_000);
});
