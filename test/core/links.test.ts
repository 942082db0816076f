import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signLink, verifyLink } from '../../src/core/links.ts';
import { err, ok } from '../../src/core/result.ts';

const SECRET = 'test-secret-0123456789abcdef';
const NOW = 1_800_000_000;

describe('signed download links', () => {
  it('round-trips the key and expiry until the expiry second', () => {
    const token = signLink(SECRET, 'files/qry_abc.parquet', NOW + 60);
    expect(verifyLink(SECRET, token, NOW)).toEqual(ok({ key: 'files/qry_abc.parquet', expiresAt: NOW + 60 }));
    expect(verifyLink(SECRET, token, NOW + 59)).toMatchObject({ ok: true });
    expect(verifyLink(SECRET, token, NOW + 60)).toEqual(err('expired'));
  });

  it('is URL-safe and carries no secret', () => {
    const token = signLink(SECRET, 'qry_01/ä ü.csv', NOW);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(token).not.toContain(SECRET);
  });

  it('refuses a token signed with another secret, or with its expiry moved', () => {
    const token = signLink(SECRET, 'k', NOW + 10);
    expect(verifyLink('another-secret', token, NOW)).toEqual(err('tampered'));
    const [, sig] = token.split('.');
    const extended = `${Buffer.from(`${NOW + 999_999}:k`).toString('base64url')}.${sig}`;
    expect(verifyLink(SECRET, extended, NOW)).toEqual(err('tampered'));
  });

  it('calls an altered expired link tampered, not expired (signature first)', () => {
    const token = signLink(SECRET, 'k', NOW - 10);
    expect(verifyLink(SECRET, token, NOW)).toEqual(err('expired'));
    expect(verifyLink(SECRET, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, NOW)).toEqual(err('tampered'));
  });

  it('refuses malformed tokens without throwing', () => {
    for (const bad of ['', '.', 'abc', '.abc', 'abc.', 'a.b.c', '%%%.%%%']) expect(verifyLink(SECRET, bad, NOW)).toEqual(err('tampered'));
  });

  it('property: any one-line key and expiry (and file name) verifies as signed', () => {
    const line = fc.string({ minLength: 1, maxLength: 80, unit: 'binary' }).filter((k) => !k.includes('\n'));
    fc.assert(
      fc.property(line, fc.integer({ min: 1, max: 2 ** 40 }), fc.option(line, { nil: undefined }), (key, ttl, name) => {
        expect(verifyLink(SECRET, signLink(SECRET, key, NOW + ttl, name), NOW)).toEqual(ok({ key, expiresAt: NOW + ttl, ...(name !== undefined ? { fileName: name } : {}) }));
      }),
    );
  });

  it('signs the file name with the key: links made before still verify, a key or name of two lines is refused', () => {
    const token = signLink(SECRET, 'qry_a.csv', NOW + 60, 'spq-qry_a-persons.csv');
    expect(verifyLink(SECRET, token, NOW)).toEqual(ok({ key: 'qry_a.csv', expiresAt: NOW + 60, fileName: 'spq-qry_a-persons.csv' }));
    expect(verifyLink(SECRET, signLink(SECRET, 'qry_a.csv', NOW + 60), NOW)).toEqual(ok({ key: 'qry_a.csv', expiresAt: NOW + 60 }));
    expect(() => signLink(SECRET, 'qry_a.csv\nx', NOW + 60)).toThrow(/one line/);
  });

  it('property: changing any single character of a token makes it tampered', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/% é';
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.constantFrom(...alphabet),
        (key, position, replacement) => {
          const token = signLink(SECRET, key, NOW + 3600);
          const i = position % token.length;
          fc.pre(token[i] !== replacement);
          const altered = token.slice(0, i) + replacement + token.slice(i + 1);
          expect(verifyLink(SECRET, altered, NOW)).toEqual(err('tampered'));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
