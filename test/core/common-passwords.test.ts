/**
 * The common-password list is data beside the code that reads it (src/core/common-passwords.json,
 * once a TypeScript file holding the list as a string). It loads, it is the same list as it was
 * (9,913 entries; the sha-256 of the entries joined by newlines, taken from the TypeScript file it
 * replaced), and the check refuses every entry of it, so the check reads the whole file.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCommonPassword } from '../../src/core/common-passwords.ts';

const FILE = new URL('../../src/core/common-passwords.json', import.meta.url);
const ENTRIES = 9913;
const SHA256_OF_ENTRIES = '4240bdac3fb816ac3080545372335893c8ec484c4205c0f7c731b72c412eb761';

describe('the common-password list (src/core/common-passwords.json)', () => {
  const list = JSON.parse(readFileSync(FILE, 'utf8')) as { about: string; passwords: string[] };

  it('is the list it was: 9,913 distinct lower-case printable ASCII entries of 3 characters or more, in the same order', () => {
    expect(list.passwords).toHaveLength(ENTRIES);
    expect(new Set(list.passwords).size).toBe(ENTRIES);
    for (const word of list.passwords) expect(word, word).toMatch(/^[\x20-\x7e]{3,}$/);
    expect(list.passwords.every((w) => w === w.toLowerCase())).toBe(true);
    expect(createHash('sha256').update(list.passwords.join('\n')).digest('hex')).toBe(SHA256_OF_ENTRIES);
    expect(list.passwords.slice(0, 3)).toEqual(['123456', 'password', '12345678']);
    expect(list.about).toMatch(/SecLists.*MIT licence/);
  });

  it('is what the check reads: every entry is refused, whatever its case; words not on it are kept', () => {
    // The check ignores separators (space . _ -), so an entry holding one ("w_pass") is checked as another word.
    const plain = list.passwords.filter((w) => !/[ ._-]/.test(w));
    expect(plain.length).toBeGreaterThan(9800);
    const kept = plain.filter((w) => !isCommonPassword(w) || !isCommonPassword(w.toUpperCase()));
    expect(kept).toEqual([]);
    for (const word of ['quixotic lantern', 'zebra-fjord-vellum', 'glockenspiel']) expect(isCommonPassword(word), word).toBe(false);
  });
});
