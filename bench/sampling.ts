/**
 * Sampling cost against pool size (docs/pool-store.md): n distinct rows from pools of 10⁶‥10⁹
 * rows, as one range and as 15,000 suburb ranges (an Australia-wide selection). O(n) means
 * the time per row stays flat as the pool grows. In-run baseline: sorting n random indices
 * (Uint32Array.sort), the floor for any sampler that returns them sorted.
 * Usage: node bin/run-ts.js bench/sampling.ts [--sizes 1000,100000,1000000]
 */
import { parseArgs } from 'node:util';
import { sampleRows, type RowRange } from '../src/core/sampling/sample.ts';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1000,100000,1000000' } } });
const sizes = values.sizes!.split(',').map(Number);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const time = (f: () => void, runs = 5): number =>
  median(
    Array.from({ length: runs }, () => {
      const t = performance.now();
      f();
      return performance.now() - t;
    }),
  );

const suburbRanges = (pool: number, suburbs: number): RowRange[] => {
  const size = Math.floor(pool / suburbs);
  return Array.from({ length: suburbs }, (_, i) => ({ offset: i * size, size: i === suburbs - 1 ? pool - i * size : size }));
};

console.log('| n | pool | ranges | sample ms | µs per row | sort-only baseline ms | ratio |');
console.log('|---|---|---|---|---|---|---|');
for (const n of sizes) {
  const baseline = time(() => {
    const a = new Uint32Array(n);
    for (let i = 0; i < n; i++) a[i] = (Math.random() * 0xffffffff) >>> 0;
    a.sort();
  });
  for (const pool of [5_000_000, 26_000_000, 1_000_000_000]) {
    if (n > pool) continue;
    for (const ranges of [[{ offset: 0, size: pool }], suburbRanges(pool, 15_000)]) {
      let seed = 1n;
      const ms = time(() => void sampleRows(ranges, n, seed++));
      console.log(`| ${n.toLocaleString()} | ${pool.toLocaleString()} | ${ranges.length.toLocaleString()} | ${ms.toFixed(1)} | ${((ms * 1000) / n).toFixed(3)} | ${baseline.toFixed(1)} | ${(ms / baseline).toFixed(2)} |`);
    }
  }
}
