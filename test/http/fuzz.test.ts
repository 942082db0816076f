/**
 * Issue 12, item 5: a schema-driven fuzzer over every route of the OpenAPI document the server
 * publishes. Requests come from fast-check arbitraries derived from the route schemas (valid
 * ones, mutated ones) and from hostile forms (bad JSON, wrong content types, oversized bodies and
 * URLs, bad percent-encoding, odd methods, garbage and duplicate Authorization headers, odd
 * Idempotency-Keys and integer forms), sent with the keys of a free, a paid and a sandbox
 * account or none. Every response must have a status the document lists for the route (any
 * request may also be a 400 or 404 in the error shape: a malformed or unknown request), a body
 * its schema accepts, an X-Request-Id, and never echo a key, a signature or the URL; no 5xx at
 * all. And rejected requests change nothing: at the end each account's ledger equals its
 * balance, the credits spent equal the cost of the executes answered 200, and the history and
 * the stored files hold those executes and nothing else.
 * SPQ_FUZZ_REQUESTS sets the count (10,000), SPQ_FUZZ_SEED the seed (printed).
 */
import { Agent } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arbitraryOf, hostileString, mutatedOf, type JsonSchema, type SchemaContext } from './fuzz/arbitraries.ts';
import { query, startTestServer, type TestServer } from './harness.ts';
import { type RawAnswer, sendRaw } from '../support/raw-request.ts';

const REQUESTS = Number(process.env.SPQ_FUZZ_REQUESTS ?? 10_000);
const SEED = Number(process.env.SPQ_FUZZ_SEED ?? 1_2026_1124);
const CONCURRENCY = 12;

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly parameters: readonly { name: string; in: string; required?: boolean; schema: JsonSchema }[];
  readonly body?: JsonSchema;
  readonly responses: Readonly<Record<string, { content?: Readonly<Record<string, { schema: JsonSchema }>> }>>;
}

interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[]>;
  readonly body?: string;
  /** The documented operation this request was made for (undefined: an undocumented route). */
  readonly operation?: Operation;
}

type Answer = RawAnswer;

let s: TestServer;
let doc: { paths: Record<string, Record<string, Operation & { requestBody?: { content: { 'application/json': { schema: JsonSchema } } } }>>; components: { schemas: Record<string, JsonSchema> } };
const accounts: Record<'free' | 'paid' | 'sandbox', { accountId: string; key: string }> = {} as never;
let realQueryId = '';
let realDownloadPath = '';

beforeAll(async () => {
  s = await startTestServer({ rateLimits: { perMinute: 10_000_000, freePerHour: 10_000_000, paidPerHour: 10_000_000, failedAuthPerMinute: 10_000_000, downloadsPerMinute: 10_000_000 } });
  accounts.free = await s.account();
  accounts.paid = await s.account({ grant: 1_000_000 });
  const sandbox = await s.addKey(accounts.paid.accountId, 'test');
  accounts.sandbox = { accountId: accounts.paid.accountId, key: sandbox.key };
  doc = (await (await fetch(`${s.baseUrl}/openapi.json`)).json()) as typeof doc;
  // A real query and link, so the routes that take them are reached past their look-ups.
  const executed = await s.call('/query/execute', { key: accounts.paid.key, body: query({ geography_selections: ['Burnley'], n_observations: 5, output_format: 'csv' }) });
  expect(executed.status).toBe(200);
  const body = (await executed.json()) as { query_id: string; download_url: string };
  realQueryId = body.query_id;
  realDownloadPath = body.download_url.startsWith(s.baseUrl) ? body.download_url.slice(s.baseUrl.length) : '/downloads/x/y.csv';
});
afterAll(async () => s?.close());

/** The documented operations, with path parameters and bodies as schemas. */
function operations(): Operation[] {
  const ops: Operation[] = [];
  for (const [path, byMethod] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(byMethod)) {
      ops.push({ method: method.toUpperCase(), path, parameters: op.parameters ?? [], responses: op.responses, ...(op.requestBody ? { body: op.requestBody.content['application/json'].schema } : {}) });
    }
  }
  return ops;
}

/** What Node's HTTP client lets into a header value (it refuses the rest before sending). */
const headerSafe = (v: string) => /^[\t\x20-\x7e\x80-\xff]*$/.test(v);

/** A query the fixture release can serve, with the optional fields varied. */
const servableQuery = fc.record(
  {
    geography_level: fc.constant('suburb'),
    geography_selections: fc.array(fc.constantFrom('Burnley', 'Fitzroy', 'Richmond (VIC)', 'Brisbane City'), { minLength: 1, maxLength: 3 }),
    dataset_type: fc.constantFrom('persons', 'families', 'dwellings'),
    n_observations: fc.integer({ min: 1, max: 60 }),
    output_format: fc.constantFrom('csv', 'parquet', 'xlsx'),
    include_geography: fc.constantFrom('hierarchical', 'none'),
  },
  { requiredKeys: ['geography_level', 'geography_selections', 'dataset_type', 'n_observations'] },
);

function requestArbitrary(ops: readonly Operation[], ctx: SchemaContext): fc.Arbitrary<FuzzRequest> {
  const auth = fc.oneof(
    { arbitrary: fc.constantFrom(accounts.paid.key, accounts.free.key, accounts.sandbox.key).map((k) => `Bearer ${k}`), weight: 6 },
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: hostileString.filter(headerSafe).map((v) => `Bearer ${v}`), weight: 1 },
    { arbitrary: fc.constantFrom('Basic dXNlcjpwYXNz', 'Bearer', 'bearer  ', `Bearer ${accounts.paid.key.slice(0, -1)}x`, `Token ${accounts.paid.key}`), weight: 1 },
  );
  const contentType = fc.oneof({ arbitrary: fc.constant('application/json'), weight: 8 }, { arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', ''), weight: 1 });
  const pathValue = (name: string, schema: JsonSchema) =>
    name === 'query_id'
      ? fc.oneof(fc.constant(realQueryId), fc.constant(realQueryId.slice(0, -1) + 'A'), hostileString, arbitraryOf(schema, ctx, name))
      : fc.oneof(arbitraryOf(schema, ctx, name), hostileString);
  const documented = fc.constantFrom(...ops).chain((op) => {
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    const queryParams = op.parameters.filter((p) => p.in === 'query');
    const download = op.path.startsWith('/downloads/');
    const path = download
      ? fc.oneof(
          fc.constant(realDownloadPath),
          fc.tuple(fc.nat(realDownloadPath.length - 1), fc.constantFrom('A', '_', '-', '%41', '')).map(([at, c]) => realDownloadPath.slice(0, at) + c + realDownloadPath.slice(at + 1)),
          fc.tuple(hostileString, hostileString).map(([a, b]) => `/downloads/${enc(a) || 'x'}/${enc(b) || 'y'}`),
        )
      : fc.tuple(...pathParams.map((p) => pathValue(p.name, p.schema))).map((values) =>
          pathParams.reduce((acc, p, i) => acc.replace(`{${p.name}}`, enc(values[i])), op.path),
        );
    const queryString = fc
      .tuple(...queryParams.map((p) => fc.option(fc.oneof(arbitraryOf(p.schema, ctx, p.name), hostileString), { nil: undefined })))
      .map((values) => values.map((v, i) => (v === undefined ? '' : `${queryParams[i]!.name}=${enc(v)}`)).filter(Boolean).join('&'));
    const body =
      op.body === undefined
        ? fc.constant(undefined)
        : fc.oneof(
            { arbitrary: arbitraryOf(op.body, ctx).map((v) => JSON.stringify(v)), weight: 3 },
            // Queries that can succeed, so the charging path is fuzzed too (random ones rarely resolve).
            { arbitrary: servableQuery.map((v) => JSON.stringify(v)), weight: 2 },
            { arbitrary: mutatedOf(op.body, ctx).map((v) => (v !== null && typeof v === 'object' && 'raw' in v ? String((v as { raw: string }).raw) : JSON.stringify(v))), weight: 3 },
            { arbitrary: fc.constantFrom('{', '{"a":1,}', 'null', '[]', '"text"', '{"geography_level":"suburb"', '\uFEFF{}', '{"a":1}{"b":2}'), weight: 1 },
            { arbitrary: hostileString, weight: 1 },
          );
    const idempotencyKey = fc.option(fc.oneof(fc.uuid(), hostileString.filter((v) => headerSafe(v) && v.length < 300), fc.constant(accounts.paid.key)), { nil: undefined });
    return fc.record({ path, queryString, body, auth, contentType, idempotencyKey }).map(({ path: p, queryString: q, body: b, auth: a, contentType: ct, idempotencyKey: k }) => {
      const headers: Record<string, string | string[]> = {};
      if (a !== undefined) headers.authorization = a;
      if (b !== undefined && ct !== '') headers['content-type'] = ct;
      if (k !== undefined && op.method === 'POST') headers['idempotency-key'] = k;
      return { method: op.method, path: q ? `${p}?${q}` : p, headers, ...(b !== undefined ? { body: b } : {}), operation: op };
    });
  });
  const undocumented = fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
    path: fc.oneof(
      fc.constantFrom('/', '/query', '/query/', '/account', '/admin', '/downloads', '/../etc/passwd', '/query/preview/extra', '//query//preview', '/%2e%2e/', '/query/%E0%A4%A', `/${'a'.repeat(3000)}`),
      hostileString.map((v) => `/${enc(v)}`),
    ),
    auth,
  }).map(({ method, path, auth: a }) => ({ method, path, headers: a === undefined ? {} : { authorization: a } }) as FuzzRequest);
  const wrongMethod = fc.constantFrom(...ops).chain((op) =>
    fc.constantFrom('PUT', 'DELETE', 'PATCH', op.method === 'GET' ? 'POST' : 'GET').map((method) => ({ method, path: op.path.replace(/\{[^}]+\}/g, 'x'), headers: {} }) as FuzzRequest),
  );
  const duplicateHeaders = fc.constantFrom(...ops).map(
    (op) => ({ method: op.method, path: op.path.replace(/\{[^}]+\}/g, 'x'), headers: { authorization: [`Bearer ${accounts.paid.key}`, `Bearer ${accounts.free.key}`] }, operation: op }) as FuzzRequest,
  );
  return fc.oneof({ arbitrary: documented, weight: 16 }, { arbitrary: undocumented, weight: 2 }, { arbitrary: wrongMethod, weight: 1 }, { arbitrary: duplicateHeaders, weight: 1 });
}

/** Percent-encodes a value; a lone surrogate (not encodable) becomes the bytes of one, which the server must refuse. */
function enc(value: unknown): string {
  try {
    return encodeURIComponent(String(value));
  } catch {
    return '%ED%A0%80';
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

const send = (r: FuzzRequest) => sendRaw(s.baseUrl, agent, r);

/** The documented operation a request reaches: its path template and method (HEAD is served as GET). */
function operationOf(method: string, path: string): { template: string; op: Operation } | undefined {
  const bare = path.split('?')[0]!;
  const key = method === 'HEAD' ? 'get' : method.toLowerCase();
  // Literal templates first (/query/execute before /query/{query_id}); an empty parameter still routes.
  const templates = Object.keys(doc.paths).sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')));
  for (const template of templates) {
    if (!new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]*')}$`).test(bare)) continue;
    const op = doc.paths[template]![key] as Operation | undefined;
    if (op !== undefined) return { template, op };
  }
  return undefined;
}

describe('schema-driven fuzzer', () => {
  it(`${REQUESTS} requests across every route: no 5xx, every response as documented, rejected requests change nothing`, async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    ajv.addSchema({ $id: 'spq.json', components: doc.components });
    const validators = new Map<string, ReturnType<typeof ajv.compile>>();
    const validatorFor = (schema: JsonSchema) => {
      const text = JSON.stringify(schema).replaceAll('"#/components/', '"spq.json#/components/');
      let v = validators.get(text);
      if (v === undefined) validators.set(text, (v = ajv.compile(JSON.parse(text) as object)));
      return v;
    };
    const errorBody = validatorFor({ $ref: '#/components/schemas/ErrorBody' });
    const ctx: SchemaContext = {
      resolve: (ref) => doc.components.schemas[ref.replace('#/components/schemas/', '')]!,
      samples: {
        geography_selections: ['Burnley', 'Fitzroy', 'Richmond (VIC)', '3121', 'Yarra', 'VIC', 'Australia', 'Brisbane City'],
        suburb_id: ['Burnley', 'Fitzroy', 'SAL20394', 'Richmond (VIC)'],
        query: ['fitz', 'rich', 'bur', 'Yarra', '3121'],
        state: ['VIC', 'NSW', 'QLD'],
      },
    };
    const ops = operations();
    const requests = fc.sample(requestArbitrary(ops, ctx), { numRuns: REQUESTS, seed: SEED });
    const seen = new Map<string, number>();
    const problems: string[] = [];
    const executedCosts = new Map<string, number>();
    const statuses = new Map<number, number>();
    const perOperation = new Map<string, number>();
    const secrets = [accounts.paid.key, accounts.free.key, accounts.sandbox.key].map((k) => k.slice(9));

    const check = (r: FuzzRequest, a: Answer) => {
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      const where = `${r.method} ${r.path.slice(0, 120)} → ${a.status} ${a.text.slice(0, 200)}`;
      if (a.status >= 500) problems.push(`5xx: ${where}`);
      if (typeof a.headers['x-request-id'] !== 'string' || !/^req_/.test(a.headers['x-request-id'])) problems.push(`no X-Request-Id: ${where}`);
      if (secrets.some((secret) => a.text.includes(secret))) problems.push(`a key echoed: ${where}`);
      if (r.path.length > 200 && a.text.includes(r.path.slice(0, 200))) problems.push(`the URL echoed: ${where}`);
      const reached = operationOf(r.method, r.path);
      const template = reached?.template;
      const op = reached?.op;
      if (op !== undefined) {
        const label = `${r.method === 'HEAD' ? 'GET' : r.method} ${template}`;
        seen.set(label, (seen.get(label) ?? 0) + 1);
        const byStatus = `${label} ${a.status}`;
        perOperation.set(byStatus, (perOperation.get(byStatus) ?? 0) + 1);
      }
      const documented = op?.responses[String(a.status)];
      const json = r.method === 'HEAD' || a.text === '' ? undefined : (() => { try { return JSON.parse(a.text) as unknown; } catch { return Symbol('not JSON'); } })();
      if (documented === undefined) {
        // Malformed or unknown requests, on any route: 400 or 404 in the error shape.
        if (![400, 404].includes(a.status)) problems.push(`undocumented status: ${where}`);
        else if (r.method !== 'HEAD' && !errorBody(json)) problems.push(`error body not ErrorBody: ${where}`);
        return;
      }
      // The body is checked against the schema of the media type it was served as; a file the
      // download link serves (even a JSON dictionary) is documented as bytes, not as a JSON shape.
      const mediaType = String(a.headers['content-type'] ?? '').split(';')[0]!.trim();
      const media = documented.content?.[mediaType];
      if (documented.content !== undefined && a.text !== '' && r.method !== 'HEAD' && media === undefined) problems.push(`undocumented content type ${mediaType}: ${where}`);
      const schema = mediaType === 'application/json' && (media?.schema as { format?: string } | undefined)?.format !== 'binary' ? media?.schema : undefined;
      if (schema !== undefined && r.method !== 'HEAD') {
        const validate = validatorFor(schema);
        if (!validate(json)) problems.push(`body does not match the documented schema (${ajv.errorsText(validate.errors)}): ${where}`);
      }
      if (a.status === 200 && template === '/query/execute' && json !== null && typeof json === 'object') {
        const body = json as { query_id: string; credit_cost: number };
        executedCosts.set(body.query_id, body.credit_cost);
      }
    };

    const before = await Promise.all([accounts.free, accounts.paid].map(async (a) => s.store.credits(a.accountId, s.clock.now())));
    const filesBefore = await s.listFiles();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const r = requests[next++]!;
          check(r, await send(r));
        }
      }),
    );
    agent.destroy();
    process.stderr.write(`fuzz (${s.stack}, seed ${SEED}): ${requests.length} requests; statuses ${JSON.stringify(Object.fromEntries(statuses))}; executes answered 200: ${executedCosts.size}\n`);
    process.stderr.write(`fuzz by route and status: ${JSON.stringify(Object.fromEntries([...perOperation].sort()))}\n`);

    expect(problems.slice(0, 20)).toEqual([]);
    for (const op of ops) expect(seen.get(`${op.method} ${op.path}`) ?? 0, `requests to ${op.method} ${op.path}`).toBeGreaterThan(10);

    // Only the executes answered 200 changed anything.
    const spent = [...executedCosts.values()].reduce((a, b) => a + b, 0);
    const after = await Promise.all([accounts.free, accounts.paid].map(async (a) => s.store.credits(a.accountId, s.clock.now())));
    for (const [i, a] of [accounts.free, accounts.paid].entries()) expect(await s.store.ledgerBalance(a.accountId)).toBe(after[i]!.creditsRemaining);
    expect(before[0]!.creditsRemaining + before[1]!.creditsRemaining - after[0]!.creditsRemaining - after[1]!.creditsRemaining).toBe(spent);
    const history = new Set<string>();
    for (const a of [accounts.free, accounts.paid]) {
      for (let page = 1; ; page++) {
        const { items } = await s.store.history({ accountId: a.accountId, page, perPage: 100 });
        for (const q of items) history.add(q.queryId);
        if (items.length < 100) break;
      }
    }
    expect([...history].filter((id) => id !== realQueryId).sort()).toEqual([...executedCosts.keys()].filter((id) => id !== realQueryId).sort());
    const newFiles = (await s.listFiles()).filter((f) => !filesBefore.includes(f));
    for (const file of newFiles) expect(executedCosts.has(/qry_[0-9A-Za-z]{20}/.exec(file)?.[0] ?? ''), `file ${file} belongs to an execute answered 200`).toBe(true);
  }, 600_000);
});
