import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';

/** The charsets a body may be declared in: every text here is UTF-8 (RFC 8259 §8.1 for JSON). */
const UTF8 = /^"?utf-?8"?$/i;

/**
 * preParsing: a body the service would misread is refused (400) before it is read. A request
 * Content-Encoding (gzip, …) is not decoded here, so its bytes would be parsed as text; a
 * charset other than UTF-8 would be decoded as UTF-8 all the same. Both are refused with what to
 * send instead, rather than answered from bytes the client did not mean.
 */
export function refuseUnreadableBody(request: FastifyRequest, _reply: FastifyReply, payload: RequestPayload, done: (error: Error | null, payload?: RequestPayload) => void): void {
  const coding = request.headers['content-encoding']?.trim().toLowerCase();
  if (coding !== undefined && coding !== '' && coding !== 'identity') {
    return done(Object.assign(new Error(`A request body with Content-Encoding "${coding}" is not accepted: send it uncompressed, without Content-Encoding`), { statusCode: 400 }));
  }
  const charset = /;\s*charset\s*=\s*([^;\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && !UTF8.test(charset)) {
    return done(Object.assign(new Error(`A request body in charset "${charset}" is not accepted: send it as UTF-8 (charset=utf-8, or no charset)`), { statusCode: 400 }));
  }
  done(null, payload);
}
