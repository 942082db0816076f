import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Where pool releases live in a data directory: <dataDir>/pools/<version>/. */
export const poolsRoot = (dataDir: string): string => join(dataDir, 'pools');

/** The newest complete release under <dataDir>/pools (one with a manifest), or undefined. */
export async function newestRelease(dataDir: string): Promise<string | undefined> {
  const root = poolsRoot(dataDir);
  if (!existsSync(root)) return undefined;
  const complete: { dir: string; mtime: number }[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const manifest = join(root, entry.name, 'manifest.json');
    if (existsSync(manifest)) complete.push({ dir: join(root, entry.name), mtime: (await stat(manifest)).mtimeMs });
  }
  complete.sort((a, b) => b.mtime - a.mtime);
  return complete[0]?.dir;
}
