/**
 * The specification's copies in docs/spec (interface-v1.md, decisions.md, variables.md) are the
 * contract as kept in ../shared/spec, byte for byte, and none is missing: comments in src/ and
 * the docs cite the copies, so a copy that drifted would cite something the contract never said.
 * Skipped, with a message, when ../shared/spec is not beside the checkout (a clone elsewhere).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '..', '..');
const COPIES = join(REPO, 'docs', 'spec');
const SHARED = resolve(REPO, '..', 'shared', 'spec');
const present = existsSync(SHARED);
if (!present) console.warn(`${SHARED} is not beside the checkout: the copies in docs/spec are not compared with the contract's originals`);

const pages = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.md') && name !== 'README.md').sort();

describe('docs/spec: the contract copied into the repository', () => {
  it('holds the contract, the decisions and the variables', () => {
    expect(pages(COPIES)).toEqual(['decisions.md', 'interface-v1.md', 'variables.md']);
  });

  it.skipIf(!present)('equals ../shared/spec page for page, byte for byte', () => {
    expect(pages(COPIES)).toEqual(pages(SHARED));
    for (const page of pages(SHARED)) expect(readFileSync(join(COPIES, page), 'utf8'), page).toBe(readFileSync(join(SHARED, page), 'utf8'));
  });
});
