/**
 * Export throughput against in-run baselines (docs/pool-store.md):
 * - parquet and csv: sample + PoolRelease.export end to end, against DuckDB's own COPY of the
 *   same rows from a DuckDB table (the rows are loaded from our parquet output into a table);
 * - xlsx: our streaming writer against exceljs's streaming WorkbookWriter on the same rows.
 * `parquet-here` in --formats is the parquet export with its row groups encoded on the main
 * thread (what parquet did before the encoding thread), for a before/after in one run. Each export
 * also reports its main thread's CPU time and its peak RSS above the RSS at its start (sampled every 10 ms).
 * Usage: node bin/run-ts.js bench/export.ts [--persons 5000000] [--sizes 1000,100000,1000000] [--exceljs-max 100000] [--formats parquet,parquet-here,csv,xlsx] [--reps 1]
 */
import { DuckDBInstance } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openPoolRelease } from '../src/adapters/pools/release.ts';
import type { OutputFormat } from '../src/core/dataset.ts';
import { buildSyntheticRelease } from './pool-release-synthetic.ts';

const { values } = parseArgs({
  options: {
    persons: { type: 'string', default: '5000000' },
    sizes: { type: 'string', default: '1000,100000,1000000' },
    'exceljs-max': { type: 'string', default: '100000' },
    formats: { type: 'string', default: 'parquet,csv,xlsx' },
    reps: { type: 'string', default: '1' },
  },
});
type BenchFormat = OutputFormat | 'parquet-here';
const totalPersons = Number(values.persons);
const sizes = values.sizes!.split(',').map(Number);
const formats = values.formats!.split(',') as BenchFormat[];
const reps = Number(values.reps);
const exceljsMax = Number(values['exceljs-max']);
const PER_SUBURB = 5000;

const ms = (t0: number): number => performance.now() - t0;
const fmt = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

const tmp = await mkdtemp(join(tmpdir(), 'spq-bench-export-'));
try {
  const built = await buildSyntheticRelease(tmp, Math.ceil(totalPersons / PER_SUBURB), PER_SUBURB);
  console.log(`build: ${built.persons.toLocaleString()} persons (+ dwellings, families) in ${built.seconds.toFixed(1)} s = ${Math.round(built.persons / built.seconds).toLocaleString()} persons/s; pools.duckdb ${((await stat(join(built.dir, 'pools.duckdb'))).size / 1e6).toFixed(0)} MB`);
  let t0 = performance.now();
  const release = await openPoolRelease(built.dir);
  console.log(`open (manifest verified): ${fmt(ms(t0))} ms`);
  const encodingHere = await openPoolRelease(built.dir, { parquetEncoding: 'here' });
  const australia = release.resolve('australia', 'Australia');
  if (!australia.ok) throw new Error('no Australia');
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  const metadata = { version: release.version, seed: '1', citation: 'bench' };

  console.log('\n| n | format | sample ms | export ms | baseline ms | ratio (sample+export)/baseline | rows/s | MB | main-thread CPU ms | peak RSS above its start, MB |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const n of sizes.flatMap((size) => Array<number>(reps).fill(size))) {
    t0 = performance.now();
    const rows = release.sample(australia.value, 'persons', n, BigInt(n));
    const sampleMs = ms(t0);
    const parts = [{ selection: australia.value, rows }];
    const parquetPath = join(tmp, `out-${n}.parquet`);
    for (const benchFormat of formats) {
      const format: OutputFormat = benchFormat === 'parquet-here' ? 'parquet' : benchFormat;
      const destPath = benchFormat === 'parquet' ? parquetPath : join(tmp, benchFormat === 'parquet-here' ? `out-${n}-here.parquet` : `out-${n}.${benchFormat}`);
      const main0 = process.threadCpuUsage();
      // Peak RSS above the export's start, sampled (the process's maxRSS would include the baselines' DuckDB).
      const rss0 = process.memoryUsage.rss();
      let rssPeak = rss0;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 10);
      t0 = performance.now();
      const result = await (benchFormat === 'parquet-here' ? encodingHere : release).export({ dataset: 'persons', parts, format, includeGeography: 'none', metadata, destPath });
      const exportMs = ms(t0);
      clearInterval(sampler);
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
      const mainCpu = process.threadCpuUsage(main0);
      const cpuAndPeak = `${((mainCpu.user + mainCpu.system) / 1000).toFixed(0)} | +${((rssPeak - rss0) / 1e6).toFixed(0)}`;
      let baselineMs: number;
      if (format === 'xlsx') {
        if (n > exceljsMax) {
          console.log(`| ${n.toLocaleString()} | xlsx | ${fmt(sampleMs)} | ${fmt(exportMs)} | (exceljs skipped above ${exceljsMax.toLocaleString()}) | | ${Math.round(n / ((sampleMs + exportMs) / 1000)).toLocaleString()} | ${(result.bytes / 1e6).toFixed(1)} | ${cpuAndPeak} |`);
          continue;
        }
        const data = (await duck.runAndReadAll(`SELECT * FROM read_parquet('${parquetPath}')`)).getRowsJS();
        const columns = (await duck.runAndReadAll(`SELECT * FROM read_parquet('${parquetPath}') LIMIT 0`)).columnNames();
        t0 = performance.now();
        const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: join(tmp, `exceljs-${n}.xlsx`), useSharedStrings: false });
        const sheet = book.addWorksheet('persons');
        sheet.addRow(columns).commit();
        for (const row of data) sheet.addRow(row as unknown[]).commit();
        sheet.commit();
        await book.commit();
        baselineMs = ms(t0);
      } else {
        await duck.run(`CREATE OR REPLACE TABLE baseline AS SELECT * FROM read_parquet('${destPath.endsWith('.parquet') ? destPath : parquetPath}')`);
        t0 = performance.now();
        await duck.run(format === 'parquet' ? `COPY baseline TO '${join(tmp, `base-${n}.parquet`)}' (FORMAT parquet, COMPRESSION zstd)` : `COPY baseline TO '${join(tmp, `base-${n}.csv`)}' (FORMAT csv, HEADER true)`);
        baselineMs = ms(t0);
      }
      const ratio = format === 'xlsx' ? baselineMs / (sampleMs + exportMs) : (sampleMs + exportMs) / baselineMs;
      console.log(`| ${n.toLocaleString()} | ${benchFormat} | ${fmt(sampleMs)} | ${fmt(exportMs)} | ${fmt(baselineMs)} ${format === 'xlsx' ? '(exceljs)' : '(COPY)'} | ${ratio.toFixed(2)}${format === 'xlsx' ? '× faster' : ''} | ${Math.round(n / ((sampleMs + exportMs) / 1000)).toLocaleString()} | ${(result.bytes / 1e6).toFixed(1)} | ${cpuAndPeak} |`);
    }
  }
  duck.closeSync();
  await release.close();
  await encodingHere.close();
  console.log(`\npeak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
} finally {
  await rm(tmp, { recursive: true, force: true });
}
