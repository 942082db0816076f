/**
 * The implicates of a served release (the ImplicateSource port). Implicate 1 is the release
 * directory itself, already open; implicate k ≥ 2 lives in <release>/implicates/<k>/, a complete
 * release of its own (manifest, catalog, columns) with the same version, opened and verified the
 * first time a query asks for it. A directory appears there only once its build has finished
 * (the builder renames it into place), so a release can gain implicates while it is served.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Implicate, ImplicateSource, PoolRelease } from '../../ports/pool-release.ts';
import { RELEASE_FILES, type Catalog } from './catalog.ts';
import { openPoolRelease, type OpenPoolReleaseOptions } from './release.ts';
import { builtImplicates, implicateDir } from './release-dirs.ts';

async function synthesisSeedOf(dir: string): Promise<string | undefined> {
  const catalog = JSON.parse(await readFile(join(dir, RELEASE_FILES.catalog), 'utf8')) as Catalog;
  return catalog.synthesis?.seed;
}

export function openImplicates(releaseDir: string, first: PoolRelease, options: Pick<OpenPoolReleaseOptions, 'threads' | 'memoryLimit' | 'verify'> = {}): ImplicateSource {
  const opening = new Map<number, Promise<Implicate>>();
  const opened: PoolRelease[] = [];
  let closed = false;
  const open = async (k: number): Promise<Implicate> => {
    const dir = implicateDir(releaseDir, k);
    const synthesisSeed = await synthesisSeedOf(dir);
    if (k === 1) return { number: 1, synthesisSeed, pools: first };
    // Same version as the release: an implicate is another synthesis of the same release, never another release.
    const pools = await openPoolRelease(dir, { ...options, expectedVersion: first.version });
    if (closed) {
      await pools.close();
      throw new Error('pool release is closed');
    }
    opened.push(pools);
    return { number: k, synthesisSeed, pools };
  };
  return {
    available: () => builtImplicates(releaseDir),
    async open(k) {
      if (!Number.isInteger(k) || k < 1 || !builtImplicates(releaseDir).includes(k)) return undefined;
      let pending = opening.get(k);
      if (pending === undefined) {
        pending = open(k);
        opening.set(k, pending);
        // A failed open (e.g. an altered file) is tried afresh next time, not remembered.
        pending.catch(() => opening.delete(k));
      }
      return pending;
    },
    async close() {
      closed = true;
      for (const pools of opened.splice(0)) await pools.close();
    },
  };
}
