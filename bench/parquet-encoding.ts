/**
 * The parquet writer alone (no sampling, no gather): 1 M rows × 46 coded columns from memory,
 * encoded on the main thread and on the encoding thread alternately, with wall, main-thread CPU
 * and the event loop's longest stall (docs/performance.md, "Files at the speed of the disk").
 * Usage: node bin/run-ts.js bench/parquet-encoding.ts [--rows 1000000] [--reps 3]
 */
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeParquet, type ParquetColumn, type ParquetEncoding } from '../src/adapters/pools/parquet.ts';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, reps: { type: 'string', default: '3' } } });
const rows = Number(values.rows);
const BATCH = 2048;
const labels = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} category ${i}`);
const columns: ParquetColumn[] = [
  { kind: 'id', name: 'person_id', prefix: 'P', digits: 9 },
  { kind: 'id', name: 'family_id', prefix: 'F', digits: 9 },
  ...Array.from({ length: 44 }, (_, k): ParquetColumn => ({ kind: 'coded', name: `V${k}`, labels: labels(2 + ((k * 7) % 40), `V${k}`), ordered: k % 3 === 0 })),
];
// Codes with runs and noise, as sampled records' are: a fixed pseudo-random sequence.
let seed = 42;
const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
const batches = Array.from({ length: Math.ceil(rows / BATCH) }, (_, b) => {
  const m = Math.min(BATCH, rows - b * BATCH);
  return {
    rowCount: m,
    columns: columns.map((c) =>
      c.kind === 'id' ? Float64Array.from({ length: m }, (_, i) => b * BATCH + i) : Uint16Array.from({ length: m }, () => next() % c.labels.length),
    ),
  };
});
const dest = join(tmpdir(), `spq-parquet-encoding-${process.pid}.parquet`);
console.log('| encoding | wall ms | main-thread CPU ms | longest event-loop stall ms |');
console.log('|---|---|---|---|');
for (let r = 0; r < Number(values.reps); r++) {
  for (const encoding of ['here', 'thread'] as ParquetEncoding[]) {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const cpu0 = process.threadCpuUsage();
    const t0 = performance.now();
    await writeParquet({ destPath: dest, columns, batches, keyValue: {}, encoding });
    const wall = performance.now() - t0;
    const cpu = process.threadCpuUsage(cpu0);
    delay.disable();
    console.log(`| ${encoding} | ${wall.toFixed(0)} | ${((cpu.user + cpu.system) / 1000).toFixed(0)} | ${(delay.max / 1e6).toFixed(1)} |`);
  }
}
await rm(dest, { force: true });
