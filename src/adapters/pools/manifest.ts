import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RELEASE_FILES, type Manifest } from './catalog.ts';

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const checksumOf = (files: Manifest['files']): string =>
  createHash('sha256')
    .update(Object.keys(files).sort().map((name) => `${name} ${files[name]!.sha256}\n`).join(''))
    .digest('hex');

export async function writeManifest(dir: string, version: string, names: readonly string[]): Promise<Manifest> {
  const files: Record<string, { sha256: string; bytes: number }> = {};
  for (const name of [...names].sort()) {
    const path = join(dir, name);
    files[name] = { sha256: await sha256OfFile(path), bytes: (await stat(path)).size };
  }
  const manifest: Manifest = { format: 1, version, files, checksum: checksumOf(files) };
  await writeFile(join(dir, RELEASE_FILES.manifest), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/**
 * Reads manifest.json and re-hashes every file it names; throws an Error that says what does
 * not match. Files for which `keep` says yes are read whole and returned (hashed once, not read twice).
 */
export interface ExpectedRelease {
  /** Refuse a manifest that names another version. */
  readonly version?: string | undefined;
  /** Refuse a release whose content checksum (Manifest.checksum) is another. */
  readonly checksum?: string | undefined;
}

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
  const kept = new Map<string, Buffer>();
  for (const [name, want] of Object.entries(manifest.files)) {
    const path = join(dir, name);
    let got: string;
    try {
      if (keep(name)) {
        const bytes = await readFile(path);
        got = createHash('sha256').update(bytes).digest('hex');
        kept.set(name, bytes);
      } else got = await sha256OfFile(path);
    } catch (cause) {
      throw new Error(`pool release ${dir}: ${name} is missing or unreadable`, { cause });
    }
    if (got !== want.sha256) throw new Error(`pool release ${dir}: ${name} does not match its manifest checksum (release altered or incomplete)`);
  }
  return { manifest, kept };
}
