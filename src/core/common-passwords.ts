// The list is data, beside this file: common-passwords.json (its "about" says where it comes from).
// The module loader reads it once, with this module; the core itself does no I/O.
import list from './common-passwords.json' with { type: 'json' };

/**
 * Whether a password is one of the commonly used ones, or made of them: attackers try the top of
 * the leaked lists first, and then the same words glued together ("password123456" is not in the
 * top million, but "password" and "123456" are at its head). So a password is refused when,
 * lower-cased and ignoring separators (space . _ -), it splits into at most MAX_PIECES pieces that
 * are each a common password or a run of one or two digits or symbols ("!", "42").
 */
const COMMON: ReadonlySet<string> = new Set(list.passwords);
const LONGEST = Math.max(...[...COMMON].map((w) => w.length));
const MAX_PIECES = 3;
const SEPARATORS = /[ ._-]+/g;

const isFiller = (piece: string): boolean => piece.length <= 2 && /^[^a-z]+$/.test(piece);

export function isCommonPassword(password: string): boolean {
  const text = password.normalize('NFKC').toLowerCase().replace(SEPARATORS, '');
  if (text.length === 0) return true;
  // fewest[i]: fewest pieces that make up text[0, i) (Infinity when none do).
  const fewest = new Array<number>(text.length + 1).fill(Infinity);
  fewest[0] = 0;
  for (let end = 1; end <= text.length; end++) {
    for (let start = Math.max(0, end - LONGEST); start < end; start++) {
      if (fewest[start]! + 1 >= fewest[end]!) continue;
      const piece = text.slice(start, end);
      if (COMMON.has(piece) || isFiller(piece)) fewest[end] = fewest[start]! + 1;
    }
  }
  return fewest[text.length]! <= MAX_PIECES;
}
