/**
 * The API reference at /docs, over HTTP: one page and one stylesheet well under 500 KB, the
 * security headers of the account area's pages (CSP with frame-ancestors 'none'), cacheable, and
 * made from the served OpenAPI document: every operation with its method, path, parameters,
 * request body, responses and examples, every schema, and the error codes table.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/core/errors.ts';
import { escapeHtml } from '../../src/http/web/html.ts';
import { operationsOf, type OpenApiDocument } from '../../src/http/reference/render.ts';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
let doc: OpenApiDocument & { paths: Record<string, Record<string, Record<string, unknown>>> };
let page: string;
let pageResponse: Response;

beforeAll(async () => {
  s = await startTestServer();
  doc = await (await fetch(`${s.baseUrl}/openapi.json`)).json();
  pageResponse = await fetch(`${s.baseUrl}/docs`);
  page = await pageResponse.text();
});
afterAll(async () => s?.close());

/** The HTML of one operation's section (sections do not nest). */
function section(id: string): string {
  const start = page.indexOf(`<section class="op" id="${id}"`);
  expect(start, `no section for ${id}`).toBeGreaterThanOrEqual(0);
  return page.slice(start, page.indexOf('</section>', start));
}

/** A GET as sent on the wire (fetch would decode the body): status, headers and the raw bytes. */
function raw(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${s.baseUrl}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const escapedJson = (value: unknown) => escapeHtml(JSON.stringify(value, null, 2));

describe('the API reference at /docs', () => {
  it('is one HTML page and one stylesheet, under 500 KB together, with no script and nothing from elsewhere', async () => {
    expect(pageResponse.status).toBe(200);
    expect(pageResponse.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const css = await fetch(`${s.baseUrl}/docs/assets/reference.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const cssBytes = (await css.arrayBuffer()).byteLength;
    const total = Buffer.byteLength(page) + cssBytes;
    expect(total).toBeLessThan(500 * 1024);
    expect(total).toBeGreaterThan(20 * 1024); // a real reference, not an empty shell
    expect(page).not.toMatch(/<script|<iframe|\sstyle=|\son[a-z]+=/i);
    // Every linked resource is this server's: the stylesheet and the page's own anchors.
    const references = [...page.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]!);
    expect(references.filter((r) => !r.startsWith('#') && !r.startsWith('/'))).toEqual([]);
    expect(page).toContain('<link rel="stylesheet" href="/docs/assets/reference.css">');
  });

  it('is sent compressed to browsers that accept it (brotli, else gzip), at most a fifth of its size on the wire', async () => {
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync } as const;
    for (const [accept, coding] of [['gzip, deflate, br, zstd', 'br'], ['gzip, deflate', 'gzip'], ['br;q=0, gzip', 'gzip'], ['identity', undefined]] as const) {
      for (const path of ['/docs', '/docs/assets/reference.css']) {
        const res = await raw(path, { 'accept-encoding': accept });
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding'], `${path} ${accept}`).toBe(coding);
        expect(res.headers.vary).toContain('accept-encoding');
        const body = coding === undefined ? res.body : decoders[coding](res.body);
        if (path === '/docs') {
          expect(body.toString('utf8')).toBe(page);
          if (coding !== undefined) expect(res.body.length).toBeLessThan(Buffer.byteLength(page) / 5);
        }
        // Each coding has its own validator, and a cache revalidates each.
        const etag = res.headers.etag as string;
        expect(etag.endsWith(coding ? `-${coding}"` : '"')).toBe(true);
        expect((await raw(path, { 'accept-encoding': accept, 'if-none-match': etag })).status).toBe(304);
      }
    }
  });

  it('sends the account pages’ security headers, CSP with frame-ancestors, and may be cached (ETag, 304)', async () => {
    for (const path of ['/docs', '/docs/', '/docs/assets/reference.css']) {
      const res = await fetch(`${s.baseUrl}${path}`);
      expect(res.status, path).toBe(200);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).not.toMatch(/unsafe|script-src/);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}-(br|gzip)"$/); // fetch accepts compressed bodies
      expect(res.headers.get('vary')).toBe('accept-encoding');
      const again = await fetch(`${s.baseUrl}${path}`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    }
    expect(await (await fetch(`${s.baseUrl}/docs/`)).text()).toBe(page);
  });

  it('shows every operation of the OpenAPI document: method, path, description, parameters, body, responses, examples', () => {
    const operations = operationsOf(doc);
    expect(operations.length).toBe(Object.values(doc.paths).flatMap((item) => Object.keys(item)).length);
    expect(operations.length).toBeGreaterThanOrEqual(10);
    for (const op of operations) {
      const html = section(op.anchor);
      const o = op.operation;
      expect(html, op.anchor).toContain(`<span class="method ${op.method}">${op.method.toUpperCase()}</span> <code>${escapeHtml(op.path)}</code>`);
      expect(html).toContain(escapeHtml(o.summary!));
      // The description's words (its `code` spans become <code>).
      expect(html).toContain(escapeHtml(o.description!.replace(/`[^`]*`.*$/s, '')));
      // The table of contents links to it.
      expect(page).toContain(`<a href="#${op.anchor}"><span class="method ${op.method}">`);
      for (const parameter of o.parameters ?? []) {
        expect(html, `${op.anchor} ${parameter.name}`).toContain(`<code class="name">${escapeHtml(parameter.name)}</code>`);
        expect(html).toContain(`in ${parameter.in}`);
      }
      const body = o.requestBody?.content?.['application/json'];
      if (body !== undefined) {
        // The request schema expanded: each of its fields.
        const name = body.schema!.$ref!.split('/').pop()!;
        for (const field of Object.keys(doc.components!.schemas![name]!.properties!)) expect(html, `${op.anchor} body ${field}`).toContain(`<code class="name">${field}</code>`);
        expect(html).toContain(escapedJson(body.example));
      }
      for (const [status, response] of Object.entries(o.responses!)) {
        expect(html, `${op.anchor} ${status}`).toContain(`id="${op.anchor}-${status}"`);
        expect(html).toContain(`<span class="status">${status}</span> ${escapeHtml(response.description!)}`);
        for (const [type, media] of Object.entries(response.content ?? {})) {
          expect(html).toContain(`<code>${escapeHtml(type)}</code>`);
          if (media.example !== undefined) expect(html, `${op.anchor} ${status} example`).toContain(escapedJson(media.example));
        }
        for (const header of Object.keys(response.headers ?? {})) expect(html).toContain(`<a href="#header-${header}">`);
      }
    }
  });

  it('shows every schema and response header, and the error codes table with every code of the catalogue', () => {
    for (const [name, schema] of Object.entries(doc.components!.schemas!)) {
      expect(page, name).toContain(`<section id="schema-${name}"`);
      for (const field of Object.keys(schema.properties ?? {})) expect(page).toContain(`<code class="name">${field}</code>`);
    }
    for (const header of Object.keys(doc.components!.headers!)) expect(page).toContain(`<div id="header-${header}">`);
    // Every in-page link has its target.
    const ids = new Set([...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));
    const targets = [...page.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!);
    expect(targets.filter((t) => !ids.has(t))).toEqual([]);
    expect(ids.size).toBe([...page.matchAll(/\sid="/g)].length); // no id twice

    const errors = page.slice(page.indexOf('<h2 id="errors">'));
    const table = errors.slice(0, errors.indexOf('</table>'));
    expect(page).toContain('<a href="#errors">Errors</a>');
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) expect(table, code).toContain(`<tr><td>${entry.status}</td><td>${code}</td><td>${escapeHtml(entry.summary)}</td></tr>`);
  });

  it('keeps the OpenAPI document where clients read it: /openapi.json, and /docs/json and /docs/yaml as the Swagger UI served them', async () => {
    const json = await fetch(`${s.baseUrl}/docs/json`);
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual(doc);
    const yaml = await fetch(`${s.baseUrl}/docs/yaml`);
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toContain('yaml');
    const text = await yaml.text();
    expect(text).toMatch(/^openapi: 3\.1\.0$/m);
    expect(text).toContain('operationId: executeQuery');
    // Only the page and its stylesheet may be cached: anything else under /docs is not.
    for (const path of ['/docs/json', '/docs/nope', '/docs/assets/other.css']) expect((await fetch(`${s.baseUrl}${path}`)).headers.get('cache-control'), path).toBe('no-store');
    expect((await fetch(`${s.baseUrl}/docs/nope`)).status).toBe(404);
    // The document itself does not list the reference's own routes.
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/docs'))).toEqual([]);
  });
});
