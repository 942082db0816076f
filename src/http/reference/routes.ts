import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api } from '../types.ts';
import { preferredCoding } from '../content-coding.ts';
import { renderReference, type OpenApiDocument } from './render.ts';
import { REFERENCE_CSS } from './style.ts';

/**
 * No script, no inline style, no frames, no forms: the page is text and one stylesheet. The rest
 * as the account area's pages (src/http/web/session.ts).
 */
const CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

/** Public and the same for everyone until the next deployment: caches may keep it a while. */
const CACHE = 'public, max-age=300';

/** A body in each content coding a browser may ask for, compressed once (the page is the same until restart). */
interface Served {
  readonly identity: Buffer;
  readonly br: Buffer;
  readonly gzip: Buffer;
  readonly etag: string;
}

function served(text: string): Served {
  const identity = Buffer.from(text);
  return {
    identity,
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzip: gzipSync(identity, { level: 9 }),
    etag: createHash('sha256').update(identity).digest('base64url').slice(0, 27),
  };
}

/** The coding to send: brotli, else gzip, else none (the downloads' Accept-Encoding negotiation). */
const codingFor = (request: FastifyRequest): 'br' | 'gzip' | undefined => preferredCoding(request.headers['accept-encoding'], ['br', 'gzip'] as const);

function send(request: FastifyRequest, reply: FastifyReply, type: string, what: Served): FastifyReply {
  const coding = codingFor(request);
  // Each coding is its own representation, so its own strong validator.
  const etag = `"${what.etag}${coding ? `-${coding}` : ''}"`;
  void reply
    .type(type)
    .header('cache-control', CACHE)
    .header('vary', 'accept-encoding')
    .header('etag', etag)
    .header('content-security-policy', CSP)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  if (coding !== undefined) void reply.header('content-encoding', coding);
  return reply.send(coding === undefined ? what.identity : what[coding]);
}

/**
 * The API reference at /docs: one server-rendered page made from the OpenAPI document the app
 * serves at /openapi.json (rendered once, on first request, when every route is registered).
 * /docs/json and /docs/yaml stay as the Swagger UI served them, for clients that read them there.
 */
export function registerReference(app: Api, openApi: { readonly json: () => unknown; readonly yaml: () => string }): void {
  const hidden = { schema: { hide: true } } as const;
  let page: Served | undefined;
  const css = served(REFERENCE_CSS);
  const html = (request: FastifyRequest, reply: FastifyReply) => {
    page ??= served(renderReference(openApi.json() as OpenApiDocument, { json: '/openapi.json', console: '/console' }));
    return send(request, reply, 'text/html; charset=utf-8', page);
  };
  app.get('/docs', hidden, html);
  app.get('/docs/', hidden, html);
  app.get('/docs/assets/reference.css', hidden, async (request, reply) => send(request, reply, 'text/css; charset=utf-8', css));
  app.get('/docs/json', hidden, async () => openApi.json());
  app.get('/docs/yaml', hidden, async (_request, reply) => reply.type('application/x-yaml; charset=utf-8').send(openApi.yaml()));
}
