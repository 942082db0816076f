import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { isCommonPassword } from './common-passwords.ts';

/**
 * Account-area passwords, hashed with scrypt (memory-hard; in Node's crypto, so no native addon):
 * N = 2^15, r = 8, p = 1 is 32 MiB and ~50–100 ms per hash here, OWASP's minimum for scrypt.
 * Stored as "scrypt$N$r$p$salt$hash" (base64url), so the parameters can be raised later and old
 * hashes still verify.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;

type ScryptParams = { readonly N: number; readonly r: number; readonly p: number };

const optionsOf = (params: ScryptParams): ScryptOptions => ({ ...params, maxmem: 256 * params.N * params.r });

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, optionsOf(params), (error, key) => (error ? reject(error) : resolve(key))));
}

/** The same derivation on the calling thread: for the password-hashing thread, which exists to run it. */
const deriveHere = (password: string, salt: Buffer, params: ScryptParams): Buffer => scryptSync(password.normalize('NFKC'), salt, KEY_LENGTH, optionsOf(params));

const recordOf = (salt: Buffer, key: Buffer): string => `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;

/** A stored hash's parameters, salt and key; undefined for anything that is not a hash this module wrote (or asks too much). */
function parseRecord(stored: string): { readonly params: ScryptParams; readonly salt: Buffer; readonly expected: Buffer } | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every(Number.isSafeInteger) || N > 2 ** 20 || r > 32 || p > 4) return undefined;
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (expected.length !== KEY_LENGTH) return undefined;
  return { params: { N, r, p }, salt: Buffer.from(parts[4]!, 'base64url'), expected };
}

/**
 * On Node's shared thread pool (which file reads and writes use too): for the CLI and tests. The
 * service hashes on its own bounded thread (adapters/password), so guesses never delay file I/O.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return recordOf(salt, await derive(password, salt, PARAMS));
}

/** Constant-time comparison; false for anything that is not a hash this module wrote. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const record = parseRecord(stored);
  return record !== undefined && timingSafeEqual(await derive(password, record.salt, record.params), record.expected);
}

/** hashPassword on the calling thread. */
export function hashPasswordHere(password: string): string {
  const salt = randomBytes(16);
  return recordOf(salt, deriveHere(password, salt, PARAMS));
}

/** verifyPassword on the calling thread. */
export function verifyPasswordHere(password: string, stored: string): boolean {
  const record = parseRecord(stored);
  return record !== undefined && timingSafeEqual(deriveHere(password, record.salt, record.params), record.expected);
}

/** What a new password must be: long enough to resist guessing, short enough to hash cheaply. */
export function passwordProblem(password: string, email: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters (a few unrelated words work well).`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return 'Use something other than your email address.';
  if (new Set(password).size < 4) return 'Use more different characters.';
  if (isCommonPassword(password)) return 'This password, or the words it is made of, is among the most common ones, which are guessed first. Use a few unrelated words instead.';
  return undefined;
}
