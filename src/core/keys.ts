import { createHmac, randomBytes } from 'node:crypto';
import { err, ok, type Result } from './result.ts';

/**
 * API key format (docs/spec/decisions.md, "Keys and accounts"):
 *   "spq_live_" | "spq_test_"  +  30 random base62 characters  +  6-character base62 CRC32
 * of everything before it. The prefix lets a secret scanner recognise a leaked key; the
 * checksum rejects a mistyped key without a database look-up.
 */
export type KeyKind = 'live' | 'test';

export const KEY_PREFIXES: Readonly<Record<KeyKind, string>> = { live: 'spq_live_', test: 'spq_test_' };
export const KEY_RANDOM_LENGTH = 30;
export const KEY_CHECKSUM_LENGTH = 6;
export const KEY_LENGTH = 9 + KEY_RANDOM_LENGTH + KEY_CHECKSUM_LENGTH;

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * CSPRNG bytes drawn 4 KiB at a time, each byte used once (as crypto.randomUUID pools its
 * entropy): a randomBytes call per request id cost ~3.5 µs, a pooled draw ~0.2 µs.
 */
const randomPool = { bytes: Buffer.alloc(0), at: 0 };
function randomByte(): number {
  if (randomPool.at >= randomPool.bytes.length) {
    randomPool.bytes = randomBytes(4096);
    randomPool.at = 0;
  }
  return randomPool.bytes[randomPool.at++]!;
}

/** Uniform base62 characters from a CSPRNG (rejection sampling: 248 = 4 × 62, so no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, as zlib) of the string's UTF-8 bytes. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Fixed-width base62 (62^6 > 2^32, so six characters hold any CRC-32). */
function base62Fixed(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

const checksumOf = (body: string): string => base62Fixed(crc32(body), KEY_CHECKSUM_LENGTH);

export function generateApiKey(kind: KeyKind): string {
  const body = KEY_PREFIXES[kind] + randomBase62(KEY_RANDOM_LENGTH);
  return body + checksumOf(body);
}

export type KeyFormatProblem = 'prefix' | 'length' | 'characters' | 'checksum';

/** Checks a presented key's shape and checksum; says which kind it is. No secret, no I/O. */
export function checkKeyFormat(key: string): Result<{ readonly kind: KeyKind; readonly prefix: string }, KeyFormatProblem> {
  const kind = (Object.keys(KEY_PREFIXES) as KeyKind[]).find((k) => key.startsWith(KEY_PREFIXES[k]));
  if (kind === undefined) return err('prefix');
  if (key.length !== KEY_LENGTH) return err('length');
  const prefix = KEY_PREFIXES[kind];
  const tail = key.slice(prefix.length);
  for (const ch of tail) if (!BASE62.includes(ch)) return err('characters');
  const body = key.slice(0, KEY_LENGTH - KEY_CHECKSUM_LENGTH);
  if (checksumOf(body) !== key.slice(-KEY_CHECKSUM_LENGTH)) return err('checksum');
  return ok({ kind, prefix });
}

/** What the database stores instead of the key: HMAC-SHA256 keyed with the server secret, hex. */
export function hashApiKey(key: string, serverSecret: string): string {
  return createHmac('sha256', serverSecret).update(key, 'utf8').digest('hex');
}

/** The last four characters, shown in key listings so an operator can tell keys apart. */
export const last4 = (key: string): string => key.slice(-4);

export type IdPrefix = 'acc' | 'key' | 'qry' | 'led' | 'bnd' | 'ins' | 'ses';
export const ID_RANDOM_LENGTH = 20;

/** Prefixed random ids: "acc_…", "key_…", "qry_…" (ledger entries "led_…", bundles "bnd_…"). */
export const newId = (prefix: IdPrefix): string => `${prefix}_${randomBase62(ID_RANDOM_LENGTH)}`;

const ID_PATTERN = /^(acc|key|qry|led|bnd|ins|ses)_[0-9A-Za-z]{20}$/;

/** True when `id` has the shape of an id of this kind (cheap input validation before a look-up). */
export const isId = (prefix: IdPrefix, id: string): boolean => ID_PATTERN.test(id) && id.startsWith(`${prefix}_`);
