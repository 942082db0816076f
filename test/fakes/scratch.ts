import type { ScratchSpace } from '../../src/ports/scratch.ts';

/** Scratch space with nothing on disk: paths are names under a virtual directory; what is live is kept in a set. */
export function memoryScratch(): ScratchSpace & { readonly live: ReadonlySet<string> } {
  const live = new Set<string>();
  return {
    live,
    async file(name) {
      if (!/^[^/\\]+$/.test(name) || name === '.' || name === '..') throw new Error(`not a file name: ${name}`);
      const path = `/scratch/${name}`;
      live.add(path);
      return path;
    },
    async remove(path) {
      live.delete(path);
    },
  };
}
