/**
 * Start-up's check of a release against its manifest (SPQ_POOL_VERIFY): "sampled" reads sizes,
 * small files whole and 16 blocks of each large file; "full" reads every byte. What each catches
 * is checked on a real large file: a truncated or extended file and a byte changed in a sampled
 * block fail both; a byte changed between the blocks fails only "full", which is why it exists.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, truncate, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyManifest, WHOLE_BELOW, writeManifest } from '../../../src/adapters/pools/manifest.ts';

let dir: string;
const LARGE = 3 * WHOLE_BELOW + 12_345;
let original: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spq-manifest-'));
  original = randomBytes(LARGE);
  await writeFile(join(dir, 'large.bin'), original);
  await writeFile(join(dir, 'small.json'), '{"a":1}\n');
  await writeManifest(dir, 'v1', ['large.bin', 'small.json']);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function withLarge(change: (path: string) => Promise<void>, check: () => Promise<void>): Promise<void> {
  const path = join(dir, 'large.bin');
  await change(path);
  try {
    await check();
  } finally {
    await writeFile(path, original);
  }
}

const flipAt = (offset: number) => async (path: string) => {
  const bytes = await readFile(path);
  bytes[offset] = bytes[offset]! ^ 0x01;
  await writeFile(path, bytes);
};
const ALTERED = /large\.bin does not match its manifest checksum/;

describe('verifyManifest', () => {
  it('records a sample hash for large files only, and accepts the release as written in both modes', async () => {
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { files: Record<string, { sample?: string; bytes: number }> };
    expect(manifest.files['large.bin']!.sample).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.files['large.bin']!.bytes).toBe(LARGE);
    expect(manifest.files['small.json']!.sample).toBeUndefined();
    await expect(verifyManifest(dir)).resolves.toBeDefined();
    await expect(verifyManifest(dir, { verify: 'full' })).resolves.toBeDefined();
  });

  it('refuses a truncated or extended file in both modes', async () => {
    await withLarge((p) => truncate(p, LARGE - 1), async () => {
      await expect(verifyManifest(dir)).rejects.toThrow(ALTERED);
      await expect(verifyManifest(dir, { verify: 'full' })).rejects.toThrow(ALTERED);
    });
    await withLarge((p) => appendFile(p, 'x'), async () => {
      await expect(verifyManifest(dir)).rejects.toThrow(ALTERED);
    });
  });

  it('refuses a byte changed in a sampled block (the first, the last) in both modes', async () => {
    for (const offset of [0, 100, LARGE - 1]) {
      await withLarge(flipAt(offset), async () => {
        await expect(verifyManifest(dir)).rejects.toThrow(ALTERED);
        await expect(verifyManifest(dir, { verify: 'full' })).rejects.toThrow(ALTERED);
      });
    }
  });

  it('catches a byte changed between the sampled blocks only with verify "full"', async () => {
    // Blocks start at k·(size − 4096)/15: 8,192 bytes in is between the first and the second.
    await withLarge(flipAt(8192), async () => {
      await expect(verifyManifest(dir)).resolves.toBeDefined();
      await expect(verifyManifest(dir, { verify: 'full' })).rejects.toThrow(ALTERED);
    });
  });

  it('refuses a missing file, saying so', async () => {
    await withLarge((p) => rm(p), async () => {
      await expect(verifyManifest(dir)).rejects.toThrow(/large\.bin is missing or unreadable/);
    });
  });
});
