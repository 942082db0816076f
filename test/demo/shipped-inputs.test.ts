/**
 * The demo inputs shipped packed (src/demo/inputs.pack.gz) are byte for byte what the generator
 * writes for DEMO_SEED at demo scale today: a first start that unpacks them builds the same demo
 * as one that generates them. When the generator changes, this fails until
 * `node bin/run-ts.js scripts/pack-demo-inputs.ts` writes the pack again.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoInputs } from '../../src/demo/generate.ts';
import { SHIPPED_DEMO_INPUTS, packDirectory, unpackInto } from '../../src/demo/shipped-inputs.ts';
import { DEMO_SEED } from '../../src/release-builder/releases.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'spq-shipped-inputs-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function files(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

describe('the shipped demo inputs', () => {
  it('unpack to exactly the files the generator writes for DEMO_SEED', async () => {
    const generated = join(root, 'generated');
    const unpacked = join(root, 'unpacked');
    await generateDemoInputs({ outDir: generated, scale: 'demo', seed: DEMO_SEED });
    const count = unpackInto(readFileSync(SHIPPED_DEMO_INPUTS), unpacked);
    const names = await files(generated);
    expect(await files(unpacked)).toEqual(names);
    expect(count).toBe(names.length);
    for (const name of names) expect((await readFile(join(unpacked, name))).equals(await readFile(join(generated, name))), name).toBe(true);
  }, 300_000);

  it('round-trip through the pack, and a pack naming a path outside its directory is refused', async () => {
    const dir = join(root, 'small');
    unpackInto(packDirectory(join(root, 'unpacked', 'asgs')), dir);
    expect(await files(dir)).toEqual(await files(join(root, 'unpacked', 'asgs')));
    const { gzipSync } = await import('node:zlib');
    expect(() => unpackInto(gzipSync(Buffer.from('../evil\n1\nx')), join(root, 'evil'))).toThrow(/bad entry/);
  });
});
