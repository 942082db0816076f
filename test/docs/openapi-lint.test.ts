/**
 * The committed OpenAPI document (docs/openapi.json, which test/http/misc.test.ts checks is the
 * one the server serves) passes both standard linters with no finding of Redocly's recommended
 * errors and no finding at all of Spectral's `oas` ruleset, and every operation has a unique
 * operationId a code generator can name a function after.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const path = join(import.meta.dirname, '..', '..', 'docs', 'openapi.json');
const source = readFileSync(path, 'utf8');
type Response = { headers?: Record<string, unknown>; content?: Record<string, { schema?: { $ref?: string } }> };
type Operation = { operationId?: string; security?: unknown[]; responses?: Record<string, Response>; requestBody?: Response };
const doc = JSON.parse(source) as { paths: Record<string, Record<string, Operation>>; servers?: unknown[]; components: { schemas: Record<string, unknown> } };
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
const operations = Object.entries(doc.paths).flatMap(([route, item]) =>
  Object.entries(item).flatMap(([method, op]) => (METHODS.has(method) ? [{ route, method, op }] : [])),
);

describe('docs/openapi.json', () => {
  it('has no error under the recommended ruleset of a standard OpenAPI linter (Redocly)', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: path, config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} ${p.location[0]?.pointer ?? ''}`);
    expect(errors).toEqual([]);
    // Every worked example conforms to its schema (a warning of the same ruleset, held to 0 here).
    expect(problems.filter((p) => p.ruleId === 'no-invalid-media-type-examples').map((p) => p.message)).toEqual([]);
  });

  it('has no finding, not even a warning, under Spectral\'s recommended OpenAPI ruleset (oas)', async () => {
    const spectral = new spectralCore.Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
    const findings = await spectral.run(new spectralCore.Document(source, spectralParsers.Json, path));
    expect(findings.map((f) => `${f.code} (severity ${f.severity}): ${f.message} ${f.path.join('.')}`)).toEqual([]);
  });

  it('gives every JSON operation a worked example', () => {
    for (const { route, method, op } of operations) {
      if (route.startsWith('/downloads/')) continue; // a binary file
      const examples = Object.values(op.responses ?? {}).filter((r) => (r.content?.['application/json'] as { example?: unknown } | undefined)?.example !== undefined);
      expect(examples.length, `${method} ${route}`).toBeGreaterThan(0);
    }
    expect((doc.paths['/query/execute']!['post']!.requestBody!.content!['application/json'] as { example?: unknown }).example).toBeDefined();
  });

  it('names every operation once, says how each is secured, and has a server', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { route, method, op } of operations) expect(Array.isArray(op.security), `${method} ${route}`).toBe(true);
    // Public routes say so with an empty requirement.
    expect(doc.paths['/healthz']!['get']!.security).toEqual([]);
    expect(doc.paths['/downloads/{token}/{fileName}']!['get']!.security).toEqual([]);
    expect(doc.servers).toHaveLength(1);
  });

  it('names its bodies in components and documents the response headers', () => {
    for (const name of ['QueryRequest', 'ExecuteResult', 'PreviewResult', 'QueryMetadata', 'HistoryResult', 'ErrorBody', 'RateLimitedBody']) expect(Object.keys(doc.components.schemas)).toContain(name);
    const execute = doc.paths['/query/execute']!['post']!;
    expect(execute.requestBody!.content!['application/json']!.schema!.$ref).toBe('#/components/schemas/QueryRequest');
    expect(execute.responses!['200']!.content!['application/json']!.schema!.$ref).toBe('#/components/schemas/ExecuteResult');
    for (const { route, method, op } of operations) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const headers = Object.keys(response.headers ?? {});
        expect(headers, `${method} ${route} ${status}`).toContain('X-Request-Id');
        if ((op.security ?? []).length > 0) expect(headers, `${method} ${route} ${status}`).toContain('RateLimit');
        if (status === '429' || status === '503') expect(headers, `${method} ${route} ${status}`).toContain('Retry-After');
      }
    }
  });
});
