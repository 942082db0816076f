import { existsSync, readdirSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** Where pool releases live in a data directory: <dataDir>/pools/<version>/. */
export const poolsRoot = (dataDir: string): string => join(dataDir, 'pools');

/**
 * Where `spq serve --inputs` of several levels keeps the release of the level it serves first
 * until the complete one is built (src/release-builder/staged-start.ts): <dataDir>/pools/.first-level/<version>.
 * newestRelease never picks it: it has no manifest.json of its own.
 */
export const firstLevelRoot = (dataDir: string): string => join(poolsRoot(dataDir), '.first-level');

/** Whether `dir` is a first level's release (the complete one is still to be built). */
export const isFirstLevelRelease = (dataDir: string, dir: string): boolean => dir.startsWith(firstLevelRoot(dataDir) + sep);

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

/** Where a release keeps its extra implicates: <release>/implicates/<k>/ for k ≥ 2. */
export const implicatesRoot = (releaseDir: string): string => join(releaseDir, 'implicates');

/** Implicate k's directory: the release directory itself for k = 1 (every release is its own first implicate). */
export const implicateDir = (releaseDir: string, k: number): string => (k === 1 ? releaseDir : join(implicatesRoot(releaseDir), String(k)));

/** The implicates of a release that are complete (a manifest written last), ascending; 1 is always among them. */
export function builtImplicates(releaseDir: string): number[] {
  const root = implicatesRoot(releaseDir);
  const built = [1];
  if (!existsSync(root)) return built;
  for (const name of readdirSync(root)) {
    const k = /^[1-9][0-9]*$/.test(name) ? Number(name) : 0;
    if (k >= 2 && existsSync(join(root, name, 'manifest.json'))) built.push(k);
  }
  return built.sort((a, b) => a - b);
}
