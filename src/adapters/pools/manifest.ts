import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RELEASE_FILES, type Manifest, type ManifestFile } from './catalog.ts';

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Files up to this size are hashed whole at every start; larger ones by their sample (or whole, with verify "full"). */
// Sampling 16 blocks of 4 KiB reads 64 KiB: a file no larger costs no more read whole.
export const WHOLE_BELOW = 64 * 1024;
const SAMPLE_BLOCKS = 16;
const SAMPLE_BLOCK = 4096;

/**
 * SHA-256 over a file's length (8 bytes, little-endian) and SAMPLE_BLOCKS blocks of SAMPLE_BLOCK
 * bytes at evenly spaced offsets, the first at 0 and the last ending at the end: a truncated, extended or
 * swapped file, or one written over in places, fails it at the cost of 64 KiB of reads.
 */
export async function sampleHashOf(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const bytes = (await file.stat()).size;
    const hash = createHash('sha256');
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(bytes));
    hash.update(length);
    const block = Buffer.alloc(SAMPLE_BLOCK);
    const span = Math.max(0, bytes - SAMPLE_BLOCK);
    for (let k = 0; k < SAMPLE_BLOCKS; k++) {
      const at = Math.floor((span * k) / (SAMPLE_BLOCKS - 1));
      const want = Math.min(SAMPLE_BLOCK, bytes - at);
      let done = 0;
      while (done < want) {
        const { bytesRead } = await file.read(block, done, want - done, at + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      hash.update(block.subarray(0, done));
    }
    return hash.digest('hex');
  } finally {
    await file.close();
  }
}

const checksumOf = (files: Manifest['files']): string =>
  createHash('sha256')
    .update(Object.keys(files).sort().map((name) => `${name} ${files[name]!.sha256}\n`).join(''))
    .digest('hex');

export async function writeManifest(dir: string, version: string, names: readonly string[]): Promise<Manifest> {
  const files: Record<string, ManifestFile> = {};
  for (const name of [...names].sort()) {
    const path = join(dir, name);
    const bytes = (await stat(path)).size;
    files[name] = { sha256: await sha256OfFile(path), bytes, ...(bytes > WHOLE_BELOW ? { sample: await sampleHashOf(path) } : {}) };
  }
  const manifest: Manifest = { format: 1, version, files, checksum: checksumOf(files) };
  await writeFile(join(dir, RELEASE_FILES.manifest), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/**
 * How start-up checks a release's files against its manifest. "sampled" (the default): every
 * file's size; files up to WHOLE_BELOW hashed whole (the catalog among them, read anyway), larger
 * ones by their sample hash. "full": every byte of every file hashed (the cost is in
 * docs/performance.md: about a second per ~1 GB of page-cached release here, longer from disk).
 */
export type VerifyMode = 'sampled' | 'full';

export interface ExpectedRelease {
  /** Refuse a manifest that names another version. */
  readonly version?: string | undefined;
  /** Refuse a release whose content checksum (Manifest.checksum) is another. */
  readonly checksum?: string | undefined;
  readonly verify?: VerifyMode | undefined;
}

/**
 * Reads manifest.json and checks every file it names (as `expected.verify` says); throws an Error
 * that says what does not match. Files for which `keep` says yes are read whole, hashed whole and
 * returned (hashed once, not read twice).
 */
export async function verifyManifest(dir: string, expected: ExpectedRelease = {}, keep: (name: string) => boolean = () => false): Promise<{ manifest: Manifest; kept: Map<string, Buffer> }> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, RELEASE_FILES.manifest), 'utf8')) as Manifest;
  } catch (cause) {
    throw new Error(`pool release ${dir}: cannot read ${RELEASE_FILES.manifest}`, { cause });
  }
  if (manifest.format !== 1) throw new Error(`pool release ${dir}: unsupported manifest format ${String(manifest.format)}`);
  if (expected.version !== undefined && manifest.version !== expected.version) {
    throw new Error(`pool release ${dir}: manifest version "${manifest.version}" is not the expected "${expected.version}"`);
  }
  if (checksumOf(manifest.files) !== manifest.checksum) throw new Error(`pool release ${dir}: manifest checksum does not match its file list`);
  if (expected.checksum !== undefined && manifest.checksum !== expected.checksum.toLowerCase()) {
    throw new Error(`pool release ${dir}: manifest checksum ${manifest.checksum} (version "${manifest.version}") is not the expected ${expected.checksum.toLowerCase()}`);
  }
  const full = expected.verify === 'full';
  const kept = new Map<string, Buffer>();
  const altered = (name: string) => new Error(`pool release ${dir}: ${name} does not match its manifest checksum (release altered or incomplete)`);
  for (const [name, want] of Object.entries(manifest.files)) {
    const path = join(dir, name);
    try {
      if (keep(name)) {
        const bytes = await readFile(path);
        if (createHash('sha256').update(bytes).digest('hex') !== want.sha256) throw altered(name);
        kept.set(name, bytes);
        continue;
      }
      const bytes = (await stat(path)).size;
      if (bytes !== want.bytes) throw altered(name);
      if (full || bytes <= WHOLE_BELOW) {
        if ((await sha256OfFile(path)) !== want.sha256) throw altered(name);
      } else if (want.sample !== undefined && (await sampleHashOf(path)) !== want.sample) throw altered(name);
    } catch (cause) {
      if (cause instanceof Error && cause.message.startsWith(`pool release ${dir}:`)) throw cause;
      throw new Error(`pool release ${dir}: ${name} is missing or unreadable`, { cause });
    }
  }
  return { manifest, kept };
}
