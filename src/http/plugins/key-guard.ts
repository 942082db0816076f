import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { appError } from '../../core/errors.ts';
import { sendError } from '../errors.ts';

const KEY_PATTERN = /spq_(live|test)_/i;
const KEY_PARAM_NAMES = new Set(['api_key', 'apikey', 'api-key', 'access_token', 'key', 'authorization']);

const DETAIL =
  'An API key was sent in the URL or the request body, where it can end up in logs. It was not used and the request was not served. Send it only as "Authorization: Bearer <API_KEY>", and if this URL was shared or logged, revoke the key and create a new one.';

function urlCarriesKey(rawUrl: string): boolean {
  let decoded = rawUrl;
  try {
    decoded = decodeURIComponent(rawUrl);
  } catch {
    // A malformed escape is no key; the router answers it.
  }
  if (KEY_PATTERN.test(decoded)) return true;
  const query = decoded.indexOf('?');
  if (query < 0) return false;
  return [...new URLSearchParams(decoded.slice(query + 1)).keys()].some((name) => KEY_PARAM_NAMES.has(name.toLowerCase()));
}

function bodyCarriesKey(value: unknown, depth = 0): boolean {
  if (depth > 20) return false;
  if (typeof value === 'string') return KEY_PATTERN.test(value);
  if (Array.isArray(value)) return value.some((v) => bodyCarriesKey(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => KEY_PARAM_NAMES.has(k.toLowerCase()) || bodyCarriesKey(v, depth + 1));
  }
  return false;
}

export const keyInRequestError = () => appError('bad_request', DETAIL);

/**
 * onRequest: a key in the URL is refused with 400 before anything else happens (docs/spec/decisions.md).
 * Hooks in callback style (answer, or call done), like refuseKeyInBody: an async hook costs every
 * request a promise and a turn of the microtask queue.
 */
export function refuseKeyInUrl(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (urlCarriesKey(request.url)) sendError(reply, keyInRequestError());
  else done();
}

/** preValidation: the same for a key inside a JSON body. */
export function refuseKeyInBody(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (request.body !== undefined && bodyCarriesKey(request.body)) sendError(reply, keyInRequestError());
  else done();
}

const KEY_FIELD_IN_JSON = new RegExp(`"(${[...KEY_PARAM_NAMES].join('|')})"\\s*:`, 'i');

/**
 * For a request refused as unauthenticated: does its body (read raw, never parsed, at most
 * `limit` bytes) hold an API key? Then the answer is docs/spec/decisions.md's 400, not 401, so the sender
 * learns the key went where it should not. Larger or unreadable bodies are not read at all.
 */
export async function rawBodyCarriesKey(raw: IncomingMessage, limit: number): Promise<boolean> {
  const declared = Number(raw.headers['content-length'] ?? 0);
  if (!(declared > 0) || declared > limit) return false;
  const text = await new Promise<string | undefined>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    raw.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        raw.removeAllListeners('data');
        resolve(undefined);
      } else chunks.push(chunk);
    });
    raw.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    raw.once('error', () => resolve(undefined));
    raw.once('aborted', () => resolve(undefined));
  });
  return text !== undefined && (KEY_PATTERN.test(text) || KEY_FIELD_IN_JSON.test(text));
}
