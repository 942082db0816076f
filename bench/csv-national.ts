/**
 * The csv (or --format parquet) export of a national release in-process, for A/B runs of the export path: sample + export
 * --n persons of --scope, --reps times in one process, each with its wall time, the process's CPU
 * time (the file writes run on libuv's pool) and the main thread's (`process.threadCpuUsage`:
 * sampling, gather and writer; robust to a busy machine). Run two checkouts alternately against
 * the same release to compare (docs/performance.md, "Large executes and downloads").
 * Usage: node bin/run-ts.js bench/csv-national.ts [--release /tmp/spq-national-aus/pools/2021.1] [--n 1000000] [--reps 2] [--format csv|parquet] [--out /tmp/csv-national.csv]
 */
import { rm } from 'node:fs/promises';
import { openPoolRelease } from '../src/adapters/pools/release.ts';
import { benchOptions } from './lib.ts';

const values = benchOptions({ release: '/tmp/spq-national-aus/pools/2021.1', scope: 'Australia', n: 1000000, reps: 2, format: 'csv', out: '/tmp/csv-national.csv' });
const release = await openPoolRelease(values.release);
const scope = release.resolve('australia', values.scope);
if (!scope.ok) throw new Error(`no ${values.scope}`);
const metadata = { version: release.version, seed: '1', citation: 'bench' };
const ms = (micros: { user: number; system: number }) => ((micros.user + micros.system) / 1000).toFixed(0);
for (let r = 0; r < values.reps; r++) {
  const cpu0 = process.cpuUsage();
  const main0 = process.threadCpuUsage();
  const t0 = performance.now();
  const rows = release.sample(scope.value, 'persons', values.n, BigInt(r + 7));
  const t1 = performance.now();
  const result = await release.export({ dataset: 'persons', parts: [{ selection: scope.value, rows }], format: values.format as 'csv' | 'parquet', includeGeography: 'none', metadata, destPath: values.out });
  const t2 = performance.now();
  await rm(values.out, { force: true });
  if (result.dictionaryPath) await rm(result.dictionaryPath, { force: true });
  console.log(
    `sample ${(t1 - t0).toFixed(0)} ms, export ${(t2 - t1).toFixed(0)} ms; CPU: process ${ms(process.cpuUsage(cpu0))} ms, main thread ${ms(process.threadCpuUsage(main0))} ms; ${result.rows.toLocaleString()} rows, ${(result.bytes / 1e6).toFixed(0)} MB`,
  );
}
await release.close();
