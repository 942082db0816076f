/**
 * The demo inputs (DEMO_SEED, demo scale) as `spq build` reads them, shipped packed beside the
 * code (src/demo/inputs.pack.gz, ~1 MB): a first `npm start` unpacks them in a fraction of a
 * second instead of generating them (~14 s on a quiet machine, a third of the first start;
 * docs/performance.md, "First start"). test/demo/shipped-inputs.test.ts checks the pack is what
 * the generator writes today; `node bin/run-ts.js scripts/pack-demo-inputs.ts` writes it again.
 * Format: gzip of, per file in path order, "<relative path>\n<bytes>\n" and the bytes.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

/** Where the pack lives (scripts/build.mjs copies it into dist/ beside the compiled code). */
export const SHIPPED_DEMO_INPUTS = fileURLToPath(new URL('./inputs.pack.gz', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** Every file under `dir`, packed. */
export function packDirectory(dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const name of filesUnder(dir)) {
    const bytes = readFileSync(join(dir, name));
    parts.push(Buffer.from(`${name}\n${bytes.length}\n`, 'utf8'), bytes);
  }
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

/** Writes the packed files under `dir`; returns how many. */
export function unpackInto(pack: Buffer, dir: string): number {
  const bytes = gunzipSync(pack);
  let at = 0;
  let count = 0;
  const line = (): string => {
    const end = bytes.indexOf(10, at);
    if (end < 0) throw new Error('demo inputs pack: truncated header');
    const text = bytes.toString('utf8', at, end);
    at = end + 1;
    return text;
  };
  while (at < bytes.length) {
    const name = line();
    const size = Number(line());
    if (name.split('/').some((p) => p === '..' || p === '') || !Number.isInteger(size) || at + size > bytes.length) throw new Error(`demo inputs pack: bad entry "${name}"`);
    const path = join(dir, ...name.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes.subarray(at, at + size));
    at += size;
    count++;
  }
  return count;
}
