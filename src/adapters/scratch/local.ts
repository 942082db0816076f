import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScratchSpace } from '../../ports/scratch.ts';

/**
 * Scratch files in `<dataDir>/tmp/<instance id>/`, a directory only the owner may read (0700).
 * The directory is (re)made on every request: one cheap call, and it survives someone removing it.
 */
export function localScratch(dir: string): ScratchSpace {
  return {
    async file(name) {
      if (!/^[^/\\]+$/.test(name) || name === '.' || name === '..') throw new Error(`not a file name: ${name}`);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      return join(dir, name);
    },
    remove: (path) => rm(path, { force: true }),
  };
}
