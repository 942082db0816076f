/**
 * The demo build's output pinned to the byte: the sha-256 of every column file of the release
 * `spq build` makes from the shipped demo inputs (DEMO_SEED), against
 * test/release-builder/demo-columns.sha256.json. A change meant to make the build faster must
 * leave them as they are; a change meant to change the synthesis writes them again, on purpose:
 *   SPQ_WRITE_DEMO_HASHES=1 npx vitest run test/release-builder/demo-columns.test.ts
 * (and says in its commit why the records changed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHIPPED_DEMO_INPUTS, unpackInto } from '../../src/demo/shipped-inputs.ts';
import { buildRelease, type BuildSummary } from '../../src/release-builder/build-release.ts';
import { DEMO_SEED } from '../../src/release-builder/releases.ts';

const PINNED = fileURLToPath(new URL('./demo-columns.sha256.json', import.meta.url));

/** Each column file's sha-256, by its path under columns/. */
function columnHashes(release: string): Record<string, string> {
  const root = join(release, 'columns');
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  return Object.fromEntries(files.map((file) => [relative(root, file).split(sep).join('/'), createHash('sha256').update(readFileSync(file)).digest('hex')]));
}

describe('the demo build, byte for byte', () => {
  let root: string;
  let built: BuildSummary;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'spq-demo-columns-'));
    unpackInto(readFileSync(SHIPPED_DEMO_INPUTS), join(root, 'inputs'));
    // Worker threads, as `spq build` runs: the order areas finish in must not matter.
    built = await buildRelease({ inputsDir: join(root, 'inputs'), poolsDir: join(root, 'pools'), version: 'demo-columns', seed: DEMO_SEED, smallSuburbThreshold: 500, threads: 2 });
  }, 900_000); // 300 suburbs: about 15 s on a quiet machine, minutes on a loaded one

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes the column files the pinned hashes name', () => {
    const hashes = columnHashes(built.dir);
    if (process.env['SPQ_WRITE_DEMO_HASHES'] === '1') writeFileSync(PINNED, `${JSON.stringify(hashes, null, 2)}\n`);
    const pinned = JSON.parse(readFileSync(PINNED, 'utf8')) as Record<string, string>;
    expect(Object.keys(hashes).length).toBeGreaterThan(40);
    expect(hashes).toEqual(pinned);
  });
});
