import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  KEY_LENGTH,
  checkKeyFormat,
  crc32,
  generateApiKey,
  hashApiKey,
  isId,
  last4,
  newId,
} from '../../src/core/keys.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('crc32', () => {
  it('matches the standard check value and zlib', async () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    const zlib = await import('node:zlib');
    if ('crc32' in zlib) expect(crc32('spq_live_abc')).toBe((zlib as unknown as { crc32(s: string): number }).crc32('spq_live_abc'));
  });
});

describe('API keys', () => {
  it('have the documented shape', () => {
    const live = generateApiKey('live');
    const test = generateApiKey('test');
    expect(live).toMatch(/^spq_live_[0-9A-Za-z]{36}$/);
    expect(test).toMatch(/^spq_test_[0-9A-Za-z]{36}$/);
    expect(live).toHaveLength(KEY_LENGTH);
    expect(checkKeyFormat(live)).toEqual({ ok: true, value: { kind: 'live', prefix: 'spq_live_' } });
    expect(checkKeyFormat(test)).toEqual({ ok: true, value: { kind: 'test', prefix: 'spq_test_' } });
  });

  it('are different every time', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('live')));
    expect(keys.size).toBe(1000);
  });

  it('generated keys always pass the format check', () => {
    fc.assert(fc.property(fc.constantFrom('live' as const, 'test' as const), (kind) => checkKeyFormat(generateApiKey(kind)).ok), { numRuns: 500 });
  });

  it('any single-character change is rejected without a look-up', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('live' as const, 'test' as const),
        fc.nat(),
        fc.constantFrom(...BASE62.split(''), '_', '-', 'é'),
        (kind, at, replacement) => {
          const key = generateApiKey(kind);
          const position = at % key.length;
          fc.pre(key[position] !== replacement);
          const typo = key.slice(0, position) + replacement + key.slice(position + 1);
          return !checkKeyFormat(typo).ok;
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('says what is wrong', () => {
    const key = generateApiKey('live');
    expect(checkKeyFormat('sk_live_abc')).toEqual({ ok: false, error: 'prefix' });
    expect(checkKeyFormat(key.slice(0, -1))).toEqual({ ok: false, error: 'length' });
    expect(checkKeyFormat(`${key.slice(0, 12)}!${key.slice(13)}`)).toEqual({ ok: false, error: 'characters' });
    // Swapping two different neighbouring characters is also caught by the checksum.
    const i = [...key.slice(9, 38)].findIndex((c, j) => c !== key[10 + j]) + 9;
    const swapped = key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
    expect(checkKeyFormat(swapped)).toEqual({ ok: false, error: 'checksum' });
    expect(checkKeyFormat('')).toEqual({ ok: false, error: 'prefix' });
  });

  it('hash with a keyed HMAC: same key and secret → same hash, other secret → other hash', () => {
    const key = generateApiKey('live');
    const h = hashApiKey(key, 'secret-a');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key, 'secret-a')).toBe(h);
    expect(hashApiKey(key, 'secret-b')).not.toBe(h);
    expect(h).not.toContain(key.slice(9));
    expect(last4(key)).toBe(key.slice(-4));
  });
});

describe('prefixed ids', () => {
  it('carry their prefix and 20 base62 characters', () => {
    for (const prefix of ['acc', 'key', 'qry', 'led', 'bnd'] as const) {
      const id = newId(prefix);
      expect(id).toMatch(new RegExp(`^${prefix}_[0-9A-Za-z]{20}$`));
      expect(isId(prefix, id)).toBe(true);
    }
    expect(isId('acc', newId('key'))).toBe(false);
    expect(isId('acc', 'acc_short')).toBe(false);
  });
});
