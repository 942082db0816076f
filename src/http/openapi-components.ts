/**
 * What @fastify/swagger leaves inline, made reusable for code generators: the request and
 * response bodies the route schemas share become named schemas in components (replaced by
 * $ref wherever they appear, nested ones too), and every response documents its headers
 * (X-Request-Id always; RateLimit and RateLimit-Policy on authenticated operations; Retry-After
 * on 429 and 503), and each operation carries its worked example (openapi-examples.ts). One pass
 * over the generated document (fastify-swagger's transformObject).
 */
import * as account from '../wire/account.ts';
import * as common from '../wire/common.ts';
import * as geography from '../wire/geography.ts';
import * as health from '../wire/health.ts';
import * as history from '../wire/history.ts';
import * as query from '../wire/query.ts';
import { OPERATION_EXAMPLES } from './openapi-examples.ts';

type Json = Record<string, unknown>;

/** The body schemas worth a name (parameters and headers stay inline, where OpenAPI puts them). */
const NAMED: Readonly<Record<string, unknown>> = {
  QueryRequest: query.QueryRequest,
  GeographyMatch: query.GeographyMatch,
  PreviewResult: query.PreviewResult,
  PreviewInvalid: query.PreviewInvalid,
  QueryMetadata: query.QueryMetadata,
  ExecuteResult: query.ExecuteResult,
  HistoryItem: history.HistoryItem,
  HistoryResult: history.HistoryResult,
  CreditsResult: account.CreditsResult,
  SearchResultItem: geography.SearchResultItem,
  SearchResult: geography.SearchResult,
  VariablesResult: geography.VariablesResult,
  CodebookVariable: geography.CodebookVariable,
  CodebookResult: geography.CodebookResult,
  HealthResult: health.HealthResult,
  ReadyResult: health.ReadyResult,
  ErrorBody: common.ErrorBody,
  UnauthorizedBody: common.UnauthorizedBody,
  InsufficientCreditsBody: common.InsufficientCreditsBody,
  RateLimitedBody: common.RateLimitedBody,
  InternalErrorBody: common.InternalErrorBody,
};

/** As @fastify/swagger writes a schema: `const` as a one-value `enum`. */
function asGenerated(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asGenerated);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === 'const') out['enum'] = [v];
    else out[k] = asGenerated(v);
  }
  return out;
}

/** A schema's identity for matching: its JSON, keys sorted, without the description a response moves up. */
const keyOf = (schema: unknown): string => {
  if (typeof schema !== 'object' || schema === null) return JSON.stringify(schema);
  const { description: _d, ...rest } = schema as Json;
  return JSON.stringify(rest, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Json).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
};

const HEADERS = {
  'X-Request-Id': { description: 'The request id: quote it when reporting a problem', schema: { type: 'string' } },
  RateLimit: { description: 'Requests left in the current window and seconds until it resets (IETF draft RateLimit header)', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The rate-limit windows that apply (IETF draft): the account\'s, shared by all its keys, and the key\'s own ("key-" windows)', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
} as const;
const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

export function withComponents(doc: Json): Json {
  const byKey = new Map<string, string>();
  const named = Object.fromEntries(Object.entries(NAMED).map(([name, schema]) => [name, asGenerated(JSON.parse(JSON.stringify(schema)))]));
  for (const [name, schema] of Object.entries(named)) byKey.set(keyOf(schema), name);
  const used = new Set<string>();
  const replace = (node: unknown, top: string | undefined): unknown => {
    if (Array.isArray(node)) return node.map((x) => replace(x, undefined));
    if (typeof node !== 'object' || node === null) return node;
    const name = byKey.get(keyOf(node));
    if (name && name !== top) {
      used.add(name);
      const description = (node as Json)['description'];
      return { $ref: `#/components/schemas/${name}`, ...(typeof description === 'string' && description !== (named[name] as Json)['description'] ? { description } : {}) };
    }
    return Object.fromEntries(Object.entries(node as Json).map(([k, v]) => [k, replace(v, undefined)]));
  };
  const paths = replace(doc['paths'], undefined) as Record<string, Record<string, Json>>;
  const schemas: Json = {};
  // A named schema's own body may hold other named schemas: replace inside it too, then keep the ones used (transitively).
  const queue = [...used];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (name in schemas) continue;
    const before = new Set(used);
    schemas[name] = replace(named[name], name);
    for (const n of used) if (!before.has(n)) queue.push(n);
  }

  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      const authenticated = Array.isArray(operation['security']) && (operation['security'] as unknown[]).length > 0;
      const examples = OPERATION_EXAMPLES[operation['operationId'] as string];
      const json = (body: Json | undefined) => (body?.['content'] as Record<string, Json> | undefined)?.['application/json'];
      const requestBody = json(operation['requestBody'] as Json | undefined);
      if (examples?.request !== undefined && requestBody) requestBody['example'] = examples.request;
      for (const [status, response] of Object.entries(operation['responses'] as Record<string, Json>)) {
        const example = examples?.responses[status];
        const body = json(response);
        if (example !== undefined && body) body['example'] = example;
        const headers: Json = { ...((response['headers'] as Json | undefined) ?? {}), 'X-Request-Id': headerRef('X-Request-Id') };
        if (authenticated) Object.assign(headers, { RateLimit: headerRef('RateLimit'), 'RateLimit-Policy': headerRef('RateLimit-Policy') });
        if (status === '429' || status === '503') headers['Retry-After'] = headerRef('Retry-After');
        response['headers'] = headers;
      }
    }
  }
  const components = (doc['components'] as Json | undefined) ?? {};
  return {
    ...doc,
    paths,
    components: { ...components, schemas: Object.fromEntries(Object.keys(NAMED).filter((n) => n in schemas).map((n) => [n, schemas[n]])), headers: HEADERS },
  };
}
