import { createHmac, timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from './result.ts';

/**
 * Signed download links: the token names a file key (or query id) and an expiry, and carries an
 * HMAC-SHA256 over both made with the server secret, so a link needs no API key and cannot be
 * altered or extended. Pure maths: the caller passes the secret and the clock.
 *
 * Token = base64url(payload) "." base64url(signature), payload = "<expiresAt>:<key>" and, for
 * links made since the file name is signed too, "\n<file name>"; expiresAt in unix seconds. The signature is computed over the payload *as written in the token* and
 * compared as text, so no alternative spelling of the same bytes (base64 has some) verifies.
 */
export type LinkSecret = string | Uint8Array;

export interface LinkClaims {
  readonly key: string;
  /** Unix seconds after which the link is expired. */
  readonly expiresAt: number;
  /** The file name the link was made for (links made before names were signed have none). */
  readonly fileName?: string;
}

/** tampered: not made by us, or altered (403). expired: genuine, but past its expiry (410). */
export type LinkError = 'tampered' | 'expired';

// A domain label so a signature made for links can never be replayed as any other HMAC we make.
const DOMAIN = 'spq-download-link-v1\n';

function signature(secret: LinkSecret, encodedPayload: string): string {
  return createHmac('sha256', secret).update(DOMAIN).update(encodedPayload).digest('base64url');
}

export function signLink(secret: LinkSecret, key: string, expiresAt: number, fileName?: string): string {
  if (!Number.isSafeInteger(expiresAt) || expiresAt < 0) throw new RangeError('expiresAt must be whole unix seconds');
  if (key.includes('\n') || fileName?.includes('\n')) throw new RangeError('key and file name must be one line');
  const encodedPayload = Buffer.from(`${expiresAt}:${key}${fileName !== undefined ? `\n${fileName}` : ''}`, 'utf8').toString('base64url');
  return `${encodedPayload}.${signature(secret, encodedPayload)}`;
}

/** Checks the signature first (in constant time), then the expiry: an altered expired link is tampered. */
export function verifyLink(secret: LinkSecret, token: string, nowSeconds: number): Result<LinkClaims, LinkError> {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return err('tampered');
  const encodedPayload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'utf8');
  const expected = Buffer.from(signature(secret, encodedPayload), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return err('tampered');

  const payload = Buffer.from(encodedPayload, 'base64url').toString('utf8');
  const match = /^(\d{1,15}):([^\n]*)(?:\n([\s\S]*))?$/.exec(payload);
  // Signed by us but not in our shape: only possible if the secret signed something else.
  if (match === null) return err('tampered');
  const expiresAt = Number(match[1]);
  if (nowSeconds >= expiresAt) return err('expired');
  return ok({ key: match[2] as string, expiresAt, ...(match[3] !== undefined ? { fileName: match[3] } : {}) });
}
