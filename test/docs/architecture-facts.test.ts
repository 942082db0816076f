/**
 * docs/architecture.md's figures (files, lines and floors of src/, and its table of parts) are what
 * their own script prints today (scripts/architecture-facts.ts), so the document cannot drift
 * from the code as it did (252 files and 31,211 lines shown while the script printed 267 and 42,550).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ARCHITECTURE_DOC, architectureFacts, factsInDocument } from '../../scripts/architecture-facts.ts';

const FIX = 'run `node bin/run-ts.js scripts/architecture-facts.ts --write` to rewrite them';

describe("docs/architecture.md's figures", () => {
  it('finds the figures in a document: the summary line through the last row of the table after it', () => {
    const doc = ['intro', '', 'src/: 3 files, 40 lines, 2 floors', '', '| floor | part | lines | imports (files importing) |', '|---:|---|---:|---|', '| 0 | a | 10 | — |', '| 1 | b | 30 | a (2) |', '', '| other | table |', 'after'].join('\n');
    const { start, end } = factsInDocument(doc);
    expect(doc.slice(start, end)).toBe(['src/: 3 files, 40 lines, 2 floors', '', '| floor | part | lines | imports (files importing) |', '|---:|---|---:|---|', '| 0 | a | 10 | — |', '| 1 | b | 30 | a (2) |'].join('\n'));
    expect(() => factsInDocument('no figures here')).toThrow(/no "src\/: N files/);
  });

  it(`match what scripts/architecture-facts.ts prints (when not: ${FIX})`, () => {
    const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
    const { start, end } = factsInDocument(doc);
    const facts = architectureFacts();
    expect(facts).toMatch(/^src\/: \d{3,} files, \d{5,} lines, \d floors\n/);
    expect(doc.slice(start, end), FIX).toBe(facts);
  });
});
