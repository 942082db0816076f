/**
 * Issue 12's and issue 22's smaller findings, each a test: a key-shaped Idempotency-Key is
 * refused (400, nothing charged, nothing stored), responses that carry signed links are not
 * cacheable, and the dataset part of a download's file name is signed (execute.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/core/keys.ts';
import { query, serverWithAccount } from './harness.ts';

const ctx = serverWithAccount(20);
const credits = async () => (await (await ctx.s.call('/account/credits', { key: ctx.key })).json()).credits_remaining as number;

describe('hardening', () => {
  it('refuses an API key used as an Idempotency-Key (400) and charges nothing', async () => {
    const before = await credits();
    for (const idempotencyKey of [generateApiKey('live'), generateApiKey('test'), `Bearer ${generateApiKey('live')}`]) {
      const res = await ctx.s.call('/query/execute', { key: ctx.key, body: query({ geography_selections: ['Fitzroy'], n_observations: 10 }), headers: { 'Idempotency-Key': idempotencyKey } });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error).toBe('bad_request');
      expect(body.detail).toMatch(/looks like an API key/);
      expect(JSON.stringify(body)).not.toMatch(/spq_(live|test)_[A-Za-z0-9]{10}/);
    }
    expect(await credits()).toBe(before);
    expect((await (await ctx.s.call('/query/history', { key: ctx.key })).json()).queries).toEqual([]);
  });

  it('marks every response that carries signed links Cache-Control: no-store', async () => {
    const res = await ctx.s.call('/query/execute', { key: ctx.key, body: query({ geography_selections: ['Fitzroy'], n_observations: 10 }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { query_id } = await res.json();
    expect((await ctx.s.call('/query/history', { key: ctx.key })).headers.get('cache-control')).toBe('no-store');
    expect((await ctx.s.call(`/query/${query_id}`, { key: ctx.key })).headers.get('cache-control')).toBe('no-store');
  });

  it('marks every API answer Cache-Control: no-store: balances, prices, geography and errors', async () => {
    const answers = [
      await ctx.s.call('/account/credits', { key: ctx.key }),
      await ctx.s.call('/query/preview', { key: ctx.key, body: query({ geography_selections: ['Fitzroy'], n_observations: 10 }) }),
      await ctx.s.call('/geography/search?query=Fitz', { key: ctx.key }),
      await ctx.s.call('/geography/Fitzroy/variables?dataset_type=persons', { key: ctx.key }),
      await ctx.s.call('/account/credits', { key: 'spq_live_notakeyatall' }),
      await ctx.s.call('/query/qry_nosuchquery', { key: ctx.key }),
      await ctx.s.call('/no/such/route', { key: ctx.key }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 401, 404, 404]);
    for (const r of answers) expect(r.headers.get('cache-control'), r.url).toBe('no-store');
  });
});

describe('integer query parameters', () => {
  it('refuses anything but plain digits within the maximum with 400 (a huge page was a 500)', async () => {
    for (const q of ['page=9007199254740993', 'per_page=0x10', 'per_page=1e2', 'per_page=100.5', 'page=true', 'page=0', 'per_page=101', 'page=-1']) {
      const res = await ctx.s.call(`/query/history?${q}`, { key: ctx.key });
      expect(res.status, q).toBe(400);
      const body = await res.json();
      expect(body.error, q).toBe('bad_request');
      expect(body.detail, q).toMatch(/whole number from 1 to/);
    }
    expect((await ctx.s.call('/geography/search?query=fitz&limit=1e1', { key: ctx.key })).status).toBe(400);
    expect((await ctx.s.call('/query/history?page=2&per_page=5', { key: ctx.key })).status).toBe(200);
    expect((await ctx.s.call('/geography/search?query=fitz&limit=5', { key: ctx.key })).status).toBe(200);
  });
});

describe('errors the router raises', () => {
  it('answer in the contract\'s shape with a request id and a log line, and never echo the URL', async () => {
    const signature = 'c2lnbmF0dXJlLXRoYXQtbXVzdC1ub3QtbGVhaw';
    for (const path of ['/query/%E0%A4%A', `/downloads/${signature}${'x'.repeat(1200)}/spq-qry_a-persons.csv`, '/downloads/%ZZ/x.csv']) {
      const res = await fetch(`${ctx.s.baseUrl}${path}`);
      expect(res.status, path).toBe(400);
      const id = res.headers.get('x-request-id');
      expect(id, path).toMatch(/^req_/);
      const text = await res.text();
      expect(JSON.parse(text).error).toBe('bad_request');
      expect(text).not.toContain(signature);
      expect(text).not.toContain('%E0');
      // The access log has the request, by its id and status.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(ctx.s.logs.some((line) => line.includes(id!) && line.includes('"status":400')), path).toBe(true);
    }
  });
});

describe('JSON bodies', () => {
  it('refuses deep nesting and huge key counts with 400 before parsing (10,000 levels was a 500), and still parses a normal body', async () => {
    const base = JSON.stringify(query({ geography_selections: ['Fitzroy'], n_observations: 10 })).slice(0, -1);
    const deep = `${base},"ignored":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const wide = `${base},"ignored":{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":0`).join(',')}}}`;
    for (const [what, body] of [['deep', deep], ['wide', wide]] as const) {
      const res = await fetch(`${ctx.s.baseUrl}/query/preview`, { method: 'POST', headers: { authorization: `Bearer ${ctx.key}`, 'content-type': 'application/json' }, body });
      expect(res.status, what).toBe(400);
      const json = await res.json();
      expect(json.error, what).toBe('bad_request');
      expect(json.detail, what).toMatch(/nests deeper than 32 levels|more than 10000 keys/);
    }
    // Strings holding brackets and colons are not structure.
    const tricky = JSON.stringify({ ...query({ geography_selections: ['Fitzroy'], n_observations: 10 }), note: '[[[[{{{{:::'.repeat(100) });
    const ok = await fetch(`${ctx.s.baseUrl}/query/preview`, { method: 'POST', headers: { authorization: `Bearer ${ctx.key}`, 'content-type': 'application/json' }, body: tricky });
    expect([200, 400]).toContain(ok.status);
    expect((await ok.json()).detail ?? '').not.toMatch(/nests deeper|keys/);
  });
});

describe('a stalled instance that resumes after its query was refunded', () => {
  // As crash recovery does when this instance's lease lapsed mid-execute: the pending query is
  // refunded (and its scratch cleared) while the export still runs here.
  async function stalledExecute(afterRefund: () => Promise<void>): Promise<Response> {
    const pools = ctx.s.pools as { export: typeof ctx.s.pools.export };
    const original = pools.export;
    pools.export = async (input) => {
      await ctx.s.store.refundQuery(input.metadata.query_id!, ctx.s.clock.now(), 'instance lease lapsed', { onlyIfPending: true });
      await afterRefund();
      return original.call(ctx.s.pools, input);
    };
    try {
      return await ctx.s.call('/query/execute', { key: ctx.key, body: query({ geography_selections: ['Fitzroy'], n_observations: 10 }) });
    } finally {
      pools.export = original;
    }
  }

  it('answers the documented 503 with Retry-After (never 500), whether it fails at completion or on its cleared scratch file, and charges nothing', async () => {
    for (const afterRefund of [async () => {}, async () => Promise.reject(Object.assign(new Error('ENOENT: scratch directory removed'), { code: 'ENOENT' }))]) {
      const before = await credits();
      const res = await stalledExecute(afterRefund);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = await res.json();
      expect(body).toEqual({ error: 'service_unavailable', detail: expect.stringContaining('stalled') });
      expect(await credits()).toBe(before);
    }
  });
});

describe('account-area forms: only browser form bodies', () => {
  it('answers 415 or 400 for every other body, signed in or not, never a 500, and never cached', async () => {
    const post = (contentType: string | undefined, body: string) =>
      fetch(`${ctx.s.baseUrl}/console/sign-in`, { method: 'POST', redirect: 'manual', headers: { origin: ctx.s.baseUrl, ...(contentType ? { 'content-type': contentType } : {}) }, body });
    const answers = [
      await post('application/json', '{"email":"a@b.org","password":"x"}'),
      await post('application/json', '["a@b.org"]'),
      await post('text/plain', 'email=a@b.org&password=x'),
      await post('application/xml', '<email>a@b.org</email>'),
      await post('multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.org\r\n--x--\r\n'),
      await post(undefined, ''),
    ];
    // A form with broken escapes is still a form (read leniently, as browsers write them), but the
    // broken UTF-8 it decodes to (U+FFFD) is refused as bytes that are not UTF-8: a 422 page, not a fault.
    const broken = await post('application/x-www-form-urlencoded', 'email=%E0%A4%A&password=%');
    expect(broken.status).toBe(422);
    expect(await broken.text()).toContain('not UTF-8');
    expect((await post('application/x-www-form-urlencoded', 'email=a%40b.org&password=%')).status).toBe(401);
    for (const res of answers) {
      expect([400, 415], `${res.status}`).toContain(res.status);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});
