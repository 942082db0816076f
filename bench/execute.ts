/**
 * Execute end to end through a real listening spq app (the serve composition: SQLite, in-memory
 * rate limits, local file store) over a synthetic pool release: POST /query/execute in, the file
 * on disk and the history row checked, for n rows per format. Baselines in the same run and
 * process, on the same rows (those of a parquet execute at that n):
 * - parquet and csv: DuckDB's own COPY from a DuckDB table holding those rows (ids as text,
 *   every other column an ENUM of its labels), parquet zstd and csv with header;
 * - xlsx: exceljs's streaming WorkbookWriter on those rows (held compactly in memory first).
 * Every figure is the median of --reps runs. Goals (issue 3): parquet and csv end to end ≤ 1.5×
 * the COPY; xlsx ≥ 4× exceljs's rows/s.
 * Usage: node bin/run-ts.js bench/execute.ts [--persons 1250000] [--sizes 1000,100000,1000000]
 *   [--formats parquet,csv,xlsx] [--reps 3] [--exceljs-max 1000000] [--wait-load 1.5]
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { composeServices } from '../src/main/compose.ts';
import { Drain } from '../src/app/drain.ts';
import { loadConfig } from '../src/config.ts';
import type { OutputFormat } from '../src/core/dataset.ts';
import { buildApp } from '../src/http/app.ts';
import { benchAccount, fmtInt, fmtMs, freePort, load1, machineLine, median } from './lib.ts';
import { buildSyntheticRelease } from './pool-release-synthetic.ts';

const { values } = parseArgs({
  options: {
    persons: { type: 'string', default: '1250000' },
    sizes: { type: 'string', default: '1000,100000,1000000' },
    formats: { type: 'string', default: 'parquet,csv,xlsx' },
    reps: { type: 'string', default: '3' },
    'exceljs-max': { type: 'string', default: '1000000' },
    'wait-load': { type: 'string', default: '1.5' },
  },
});
const PER_SUBURB = 5000;
const totalPersons = Number(values.persons);
const sizes = values.sizes!.split(',').map(Number);
const formats = values.formats!.split(',') as OutputFormat[];
const reps = Number(values.reps);
const exceljsMax = Number(values['exceljs-max']);
const waitLoad = Number(values['wait-load']);
if (sizes.some((n) => n > totalPersons)) throw new Error(`--sizes must not exceed --persons (${totalPersons})`);

const say = (line: string) => process.stderr.write(`${line}\n`);
const ID_COLUMNS = new Set(['person_id', 'family_id', 'dwelling_id']);

/** Waits (at most 5 minutes) for the 1-minute load average to fall below the threshold; other work on 2 cores skews every figure. */
async function quiet(): Promise<void> {
  if (!(waitLoad > 0)) return;
  const until = Date.now() + 300_000;
  while (load1() > waitLoad && Date.now() < until) {
    say(`load average ${load1().toFixed(2)} > ${waitLoad}: waiting`);
    await sleep(15_000);
  }
}

/** The rows of one of our parquet files as a DuckDB table: ids as VARCHAR, every other column an ENUM of its values. */
async function baselineTable(duck: DuckDBConnection, parquetPath: string, tag: string): Promise<string[]> {
  await duck.run(`CREATE OR REPLACE TABLE raw AS SELECT * FROM read_parquet('${parquetPath}')`);
  const columns = (await duck.runAndReadAll('SELECT column_name FROM (DESCRIBE raw)')).getRowsJS().map((r) => String(r[0]));
  const select: string[] = [];
  for (const [i, c] of columns.entries()) {
    if (ID_COLUMNS.has(c)) {
      select.push(`"${c}"`);
      continue;
    }
    await duck.run(`CREATE TYPE e_${tag}_${i} AS ENUM (SELECT DISTINCT "${c}" FROM raw WHERE "${c}" IS NOT NULL ORDER BY 1)`);
    select.push(`CAST("${c}" AS e_${tag}_${i}) AS "${c}"`);
  }
  await duck.run(`CREATE OR REPLACE TABLE baseline AS SELECT ${select.join(', ')} FROM raw`);
  await duck.run('DROP TABLE raw');
  return columns;
}

/** The baseline rows held compactly for exceljs: id strings, and per coded column its labels and codes. */
interface HeldRows {
  readonly count: number;
  readonly columns: readonly string[];
  readonly cells: readonly ((i: number) => string | null)[];
}

async function holdRows(duck: DuckDBConnection, columns: readonly string[]): Promise<HeldRows> {
  const parts = columns.map((c) => (ID_COLUMNS.has(c) ? `"${c}"` : `enum_code("${c}")`));
  const count = Number((await duck.runAndReadAll('SELECT count(*) FROM baseline')).getRowsJS()[0]![0]);
  const cells = await Promise.all(
    columns.map(async (c, k) => {
      const values = (await duck.runAndReadAll(`SELECT ${parts[k]} FROM baseline`)).getColumnsJS()[0]!;
      if (ID_COLUMNS.has(c)) {
        const ids = values as (string | null)[];
        return (i: number) => ids[i]!;
      }
      const labels = (await duck.runAndReadAll(`SELECT enum_range("${c}") FROM baseline LIMIT 1`)).getRowsJS()[0]![0] as string[];
      const codes = Uint16Array.from(values as (number | null)[], (x) => (x === null ? 0xffff : x));
      return (i: number) => (codes[i] === 0xffff ? null : labels[codes[i]!]!);
    }),
  );
  return { count, columns, cells };
}

async function exceljsWrite(rows: HeldRows, path: string, count = rows.count): Promise<number> {
  const t0 = performance.now();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: false });
  const sheet = book.addWorksheet('persons');
  sheet.addRow([...rows.columns]).commit();
  const width = rows.columns.length;
  for (let i = 0; i < count; i++) {
    const row = new Array<string | null>(width);
    for (let k = 0; k < width; k++) row[k] = rows.cells[k]!(i);
    sheet.addRow(row).commit();
  }
  sheet.commit();
  await book.commit();
  return performance.now() - t0;
}

const tmp = await mkdtemp(join(tmpdir(), 'spq-bench-execute-'));
const dataDir = join(tmp, 'data');
try {
  say(`machine: ${machineLine()}`);
  const built = await buildSyntheticRelease(join(tmp, 'pools'), Math.ceil(totalPersons / PER_SUBURB), PER_SUBURB);
  say(`synthetic release: ${fmtInt(built.persons)} persons in ${built.seconds.toFixed(1)} s`);

  const port = await freePort();
  const limit = '100000000';
  const config = loadConfig(
    {
      SPQ_DATA_DIR: dataDir,
      SPQ_POOL_DIR: built.dir,
      SPQ_SERVER_SECRET: 'bench-execute-secret-0123456789abcdef',
      SPQ_RATE_PER_MINUTE: limit,
      SPQ_RATE_PAID_PER_HOUR: limit,
      SPQ_RATE_FREE_PER_HOUR: limit,
    },
    { port, host: '127.0.0.1' },
  );
  const services = await composeServices(config, say);
  const devNull = new Writable({ write: (_c, _e, done) => done() });
  const app = buildApp({ ...services, logger: { level: 'info', stream: devNull }, drain: new Drain() });
  const url = await app.listen({ host: config.host, port });
  const { accountId, apiKey } = await benchAccount(services.accounts, services.serverSecret);

  /** One execute over HTTP; returns its wall time and the stored file, after checking the history row. */
  const execute = async (n: number, format: OutputFormat): Promise<{ ms: number; path: string; bytes: number }> => {
    const body = JSON.stringify({ geography_level: 'australia', geography_selections: ['Australia'], dataset_type: 'persons', n_observations: n, output_format: format });
    const t0 = performance.now();
    const response = await fetch(`${url}/query/execute`, { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` } });
    const result = (await response.json()) as { query_id?: string; status?: string };
    const ms = performance.now() - t0;
    if (response.status !== 200 || result.status !== 'completed') throw new Error(`execute ${n} ${format}: ${response.status} ${JSON.stringify(result)}`);
    const row = await services.accounts.getQuery(accountId, result.query_id!);
    if (row?.fileKey == null) throw new Error(`execute ${n} ${format}: no completed history row with a file`);
    const path = join(dataDir, 'files', row.fileKey);
    return { ms, path, bytes: (await stat(path)).size };
  };

  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  const table: string[] = [];
  const summary: string[] = [];
  table.push('| n | format | spq end to end, ms | spq rows/s | baseline | baseline ms | baseline rows/s | ratio | goal | met | file MB | load (1 min) |');
  table.push('|---|---|---|---|---|---|---|---|---|---|---|---|');

  for (const [si, n] of sizes.entries()) {
    await quiet();
    // Warm-up at this n (not counted); its parquet file gives the rows of every baseline.
    const warm = await execute(n, 'parquet');
    const columns = await baselineTable(duck, warm.path, String(si));
    const copy = async (format: 'parquet' | 'csv'): Promise<number> => {
      const target = join(tmp, `copy.${format}`);
      const t0 = performance.now();
      await duck.run(format === 'parquet' ? `COPY baseline TO '${target}' (FORMAT parquet, COMPRESSION zstd)` : `COPY baseline TO '${target}' (FORMAT csv, HEADER true)`);
      const ms = performance.now() - t0;
      await rm(target, { force: true });
      return ms;
    };
    const held = formats.includes('xlsx') && n <= exceljsMax ? await holdRows(duck, columns) : undefined;
    for (const format of formats) {
      if (format !== 'parquet') await rm((await execute(n, format)).path);
      if (format === 'xlsx') {
        if (held) await exceljsWrite(held, join(tmp, 'exceljs.xlsx'), Math.min(n, 10_000));
      } else await copy(format);
    }
    await rm(warm.path);

    const ours = new Map<OutputFormat, { ms: number[]; bytes: number }>();
    const base = new Map<OutputFormat, number[]>();
    const loads: number[] = [];
    for (let r = 0; r < reps; r++) {
      for (const format of formats) {
        loads.push(load1());
        const run = await execute(n, format);
        await rm(run.path);
        const o = ours.get(format) ?? { ms: [], bytes: run.bytes };
        o.ms.push(run.ms);
        ours.set(format, o);
        let b: number | undefined;
        if (format === 'xlsx') {
          if (held) b = await exceljsWrite(held, join(tmp, 'exceljs.xlsx'));
        } else b = await copy(format);
        if (b !== undefined) base.set(format, [...(base.get(format) ?? []), b]);
        say(`n=${fmtInt(n)} ${format} run ${r + 1}/${reps}: spq ${fmtMs(run.ms)} ms, ${format === 'xlsx' ? 'exceljs' : 'COPY'} ${b === undefined ? '—' : `${fmtMs(b)} ms`}`);
      }
    }
    await rm(join(tmp, 'exceljs.xlsx'), { force: true });
    await duck.run('DROP TABLE baseline');

    for (const format of formats) {
      const o = ours.get(format)!;
      const ms = median(o.ms);
      const b = base.get(format);
      const bms = b ? median(b) : undefined;
      const xlsx = format === 'xlsx';
      // parquet/csv: time ratio spq / COPY (lower is better); xlsx: rows/s ratio spq / exceljs (higher is better).
      const ratio = bms === undefined ? undefined : xlsx ? bms / ms : ms / bms;
      const met = ratio === undefined ? '—' : (xlsx ? ratio >= 4 : ratio <= 1.5) ? 'yes' : 'no';
      table.push(
        `| ${fmtInt(n)} | ${format} | ${fmtMs(ms)} | ${fmtInt(n / (ms / 1000))} | ${xlsx ? 'exceljs WorkbookWriter' : `DuckDB COPY ${format === 'parquet' ? 'zstd' : 'csv'}`} | ${bms === undefined ? '(skipped)' : fmtMs(bms)} | ${bms === undefined ? '—' : fmtInt(n / (bms / 1000))} | ${ratio === undefined ? '—' : xlsx ? `${ratio.toFixed(1)}× faster` : `${ratio.toFixed(2)}×`} | ${xlsx ? '≥ 4× faster' : '≤ 1.5×'} | ${met} | ${(o.bytes / 1e6).toFixed(1)} | ${median(loads).toFixed(2)} |`,
      );
    }
  }
  summary.push(`end: ${machineLine()}; medians of ${reps} runs; pool ${fmtInt(built.persons)} persons (Australia selection)`);
  process.stdout.write(`${table.join('\n')}\n\n${summary.join('\n')}\n`);

  duck.closeSync();
  await app.close();
  await services.close();
} finally {
  await rm(tmp, { recursive: true, force: true });
}
