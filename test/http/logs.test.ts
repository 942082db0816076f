import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey } from '../../src/app/accounts.ts';
import { generateApiKey } from '../../src/core/keys.ts';
import { query, SECRET, startTestServer, type TestServer } from './harness.ts';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

/** The secret part of a download link: the HMAC of our own links, or the S3 presigned signature. */
function signatureOf(downloadUrl: string): string {
  const url = new URL(downloadUrl);
  const amz = url.searchParams.get('X-Amz-Signature');
  if (amz) return amz;
  const token = url.pathname.split('/')[2]!;
  return token.slice(token.lastIndexOf('.') + 1);
}

/** Our own link with another signature (same length, so only the HMAC comparison refuses it). */
function tamper(downloadUrl: string): string {
  const url = new URL(downloadUrl);
  const [, route, token, fileName] = url.pathname.split('/');
  const dot = token!.lastIndexOf('.');
  const signature = token!.slice(dot + 1);
  const altered = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
  url.pathname = `/${route}/${token!.slice(0, dot + 1)}${altered}/${fileName}`;
  return url.toString();
}

describe('JSON logs', () => {
  it('every line is JSON, request lines carry the request id, and no key, server secret or link signature appears', async () => {
    // A key made the way `spq admin account create` makes it.
    const created = await createAccountWithKey({ store: s.store, serverSecret: SECRET, clock: s.clock }, { email: 'logs-admin@example.org' });
    if (!created.ok) throw new Error(created.error.detail);
    const adminKey = created.value.apiKey;
    await s.store.grantCredits({ accountId: created.value.account.accountId, credits: 20, now: s.clock.now() });
    const { key } = await s.account({ grant: 20 });
    const unknownKey = generateApiKey('live'); // well-formed, never issued

    const sent: { what: string; res: Response }[] = [];
    const send = async (what: string, path: string, init: Parameters<TestServer['call']>[1] = {}) => {
      const res = await s.call(path, init);
      sent.push({ what, res });
      return res;
    };

    expect((await send('unknown key', '/account/credits', { key: unknownKey })).status).toBe(401);
    expect((await send('malformed key', '/account/credits', { key: `${adminKey}x` })).status).toBe(401);
    expect((await send('key in the query', `/account/credits?api_key=${encodeURIComponent(key)}`)).status).toBe(400);
    expect((await send('key in the path', `/geography/${adminKey}/variables?dataset_type=persons`)).status).toBe(400);
    expect((await send('key in the body', '/query/preview', { key, body: { ...query(), api_key: adminKey } })).status).toBe(400);
    expect((await send('admin key', '/account/credits', { key: adminKey })).status).toBe(200);
    const executed = await send('execute', '/query/execute', { key: adminKey, body: query({ n_observations: 20, output_format: 'csv' }) });
    const result = await executed.json();
    expect(executed.status, JSON.stringify(result)).toBe(200);
    const download = await fetch(result.download_url);
    expect(download.status).toBe(200);
    await download.arrayBuffer();
    const dictionary = await fetch(result.dictionary_url);
    expect(dictionary.status).toBe(200);
    await dictionary.arrayBuffer();
    // A tampered link is logged too, with its (wrong) signature no more than the right one.
    const tampered = result.download_url.startsWith(s.baseUrl) ? tamper(result.download_url) : undefined;
    if (tampered) expect((await fetch(tampered)).status).toBe(403);
    // The link mistyped or pasted where it does not belong: its signature stays out of the log too.
    const linkUrl = new URL(result.download_url);
    const [, , linkToken, linkFile] = linkUrl.pathname.split('/');
    const mistyped = [`/downloads//${linkToken}/${linkFile}`, `/query/${linkToken}`, `/console/${linkToken}`, `/downloads/${linkToken}`];
    for (const path of mistyped) await (await fetch(`${s.baseUrl}${path}`)).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 50)); // onResponse lines are written after the response

    const lines = s.logs.slice();
    expect(lines.length).toBeGreaterThanOrEqual(sent.length);
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`log line is not JSON: ${line}`);
      }
    });
    for (const entry of parsed) {
      expect(typeof entry.level).toBe('number');
      expect(typeof entry.time).toBe('number');
      expect(typeof entry.msg).toBe('string');
    }
    // Each response's X-Request-Id names its access line.
    const requestLines = parsed.filter((e) => e.msg === 'request');
    for (const { what, res } of sent) {
      const id = res.headers.get('x-request-id');
      expect(id, what).toMatch(/^req_[0-9A-Za-z]{16}$/);
      const line = requestLines.find((e) => e.reqId === id);
      expect(line, what).toBeDefined();
      expect(line!.status, what).toBe(res.status);
      // Method, URL (keys redacted) and client address; nothing else of the request.
      expect(line!.req, what).toEqual({ method: expect.stringMatching(/^(GET|POST)$/), url: expect.stringMatching(/^\//), remoteAddress: '127.0.0.1' });
      expect(typeof line!.ms, what).toBe('number');
    }
    for (const entry of requestLines) expect(entry.reqId).toMatch(/^req_/);

    const secrets: [string, string][] = [
      ['admin-created key', adminKey],
      ['test key', key],
      ['unknown key', unknownKey],
      ['server secret', SECRET],
      ['download link signature', signatureOf(result.download_url)],
      ['dictionary link signature', signatureOf(result.dictionary_url)],
    ];
    if (tampered) secrets.push(['tampered link signature', signatureOf(tampered)]);
    for (const line of lines) {
      // One request id per line (a handler's own fields never repeat the logger's binding).
      expect(line.split('"reqId":').length, `reqId twice in: ${line}`).toBeLessThanOrEqual(2);
      for (const [what, secret] of secrets) expect(line.includes(secret), `${what} in: ${line}`).toBe(false);
      expect(line, 'an API key').not.toMatch(/spq_(live|test)_[0-9A-Za-z]{8}/);
      expect(line.toLowerCase(), 'an Authorization header').not.toContain('bearer');
    }
  });
});
