/**
 * Memory of a 1,000,000-row execute per format through a real spq server process
 * (`node bin/spq.js serve`, SQLite, local files) over a synthetic pool release. The bench samples
 * the server's RSS (VmRSS from /proc/<pid>/status) every 50 ms: idle is the median over 2 s
 * after warm-up executes of every format; each 1 M execute reports its peak above that idle.
 * Baseline in the same run: exceljs's streaming WorkbookWriter writing the same rows (read
 * from the server's csv, line by line) in a child process sampled the same way, above its own
 * idle after imports. Goal (issue 3): peak < 600 MB above idle in every format.
 * Usage: node bin/run-ts.js bench/memory.ts [--persons 1250000] [--n 1000000] [--formats parquet,csv,xlsx]
 *   [--reps 3] [--exceljs true]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { openAccountStore } from '../src/adapters/db/open-store.ts';
import { loadConfig } from '../src/config.ts';
import type { OutputFormat } from '../src/core/dataset.ts';
import { benchAccount, fmtInt, freePort, MB, machineLine, median, rssOf, rssSampler } from './lib.ts';
import { buildSyntheticRelease } from './pool-release-synthetic.ts';

const { values, positionals } = parseArgs({
  options: {
    persons: { type: 'string', default: '1250000' },
    n: { type: 'string', default: '1000000' },
    formats: { type: 'string', default: 'parquet,csv,xlsx' },
    reps: { type: 'string', default: '3' },
    exceljs: { type: 'string', default: 'true' },
    'exceljs-child': { type: 'string' },
  },
  allowPositionals: true,
});

const say = (line: string) => process.stderr.write(`${line}\n`);

/** Splits one csv line as DuckDB writes it (fields with commas or quotes are quoted, quotes doubled; no embedded newlines). */
function csvFields(line: string): (string | null)[] {
  const out: (string | null)[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error(`unterminated quote in: ${line}`);
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 2;
          break;
        }
      }
      out.push(value);
    } else {
      const c = line.indexOf(',', i);
      const end = c < 0 ? line.length : c;
      out.push(end === i ? null : line.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

/** Child mode: after "go" on stdin, streams the csv's rows into exceljs's WorkbookWriter and prints the seconds taken. */
async function exceljsChild(csvPath: string, outPath: string): Promise<void> {
  const { default: ExcelJS } = await import('exceljs');
  process.stdout.write('ready\n');
  await once(process.stdin, 'data');
  const t0 = performance.now();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: outPath, useSharedStrings: false });
  const sheet = book.addWorksheet('persons');
  const lines = createInterface({ input: createReadStream(csvPath), crlfDelay: Infinity });
  for await (const line of lines) sheet.addRow(csvFields(line)).commit();
  sheet.commit();
  await book.commit();
  process.stdout.write(`done ${((performance.now() - t0) / 1000).toFixed(1)}\n`);
  process.exit(0);
}

async function waitForLine(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs: number): Promise<string> {
  const lines = createInterface({ input: child[stream]! });
  const timer = setTimeout(() => lines.emit('error', new Error(`no line matching ${pattern} within ${timeoutMs} ms`)), timeoutMs);
  try {
    for await (const line of lines) if (pattern.test(line)) return line;
    throw new Error(`process ended before a line matching ${pattern}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Median RSS over `ms`, sampled every 50 ms. */
async function idleRss(pid: number, ms = 2000): Promise<number> {
  const xs: number[] = [];
  for (let t = 0; t < ms; t += 50) {
    xs.push(rssOf(pid));
    await sleep(50);
  }
  return median(xs);
}

async function main(): Promise<void> {
  const n = Number(values.n);
  const formats = values.formats!.split(',') as OutputFormat[];
  const reps = Number(values.reps);
  const tmp = await mkdtemp(join(tmpdir(), 'spq-bench-memory-'));
  let server: ChildProcess | undefined;
  try {
    say(`machine: ${machineLine()}`);
    const PER_SUBURB = 5000;
    const built = await buildSyntheticRelease(join(tmp, 'pools'), Math.ceil(Number(values.persons) / PER_SUBURB), PER_SUBURB);
    say(`synthetic release: ${fmtInt(built.persons)} persons in ${built.seconds.toFixed(1)} s`);

    const dataDir = join(tmp, 'data');
    const port = await freePort();
    const limit = '100000000';
    const env = {
      SPQ_DATA_DIR: dataDir,
      SPQ_POOL_DIR: built.dir,
      SPQ_SERVER_SECRET: 'bench-memory-secret-0123456789abcdef',
      SPQ_RATE_PER_MINUTE: limit,
      SPQ_RATE_PAID_PER_HOUR: limit,
      SPQ_RATE_FREE_PER_HOUR: limit,
      SPQ_LOG_LEVEL: 'warn',
    };
    // The account exists before the server starts (so serve creates no demo account), paid with enough credits.
    const config = loadConfig(env, { port });
    const store = await openAccountStore(config);
    const { apiKey } = await benchAccount(store, config.serverSecret!);
    await store.close();

    const root = join(import.meta.dirname, '..');
    server = spawn(process.execPath, [join(root, 'bin', 'spq.js'), 'serve', '--port', String(port)], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    await waitForLine(server, 'stderr', /listening on/, 120_000);
    server.stderr!.resume();
    const pid = server.pid!;
    const url = `http://127.0.0.1:${port}`;
    const started = await idleRss(pid, 500);

    const execute = async (rows: number, format: OutputFormat): Promise<{ path: string; ms: number }> => {
      const t0 = performance.now();
      const response = await fetch(`${url}/query/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ geography_level: 'australia', geography_selections: ['Australia'], dataset_type: 'persons', n_observations: rows, output_format: format }),
      });
      const result = (await response.json()) as { query_id?: string };
      if (response.status !== 200) throw new Error(`execute ${rows} ${format}: ${response.status} ${JSON.stringify(result)}`);
      return { path: join(dataDir, 'files', `${result.query_id}.${format}`), ms: performance.now() - t0 };
    };

    // Warm-up: every format once at 10,000 rows, so code, DuckDB and the allocator have settled.
    for (const format of formats) await rm((await execute(10_000, format)).path);
    const idle = await idleRss(pid);
    say(`server RSS: ${(started / MB).toFixed(0)} MB after start, idle ${(idle / MB).toFixed(0)} MB after warm-up`);

    const rows: string[] = [];
    let csvPath: string | undefined;
    for (const format of formats) {
      const peaks: number[] = [];
      const before: number[] = [];
      let bytes = 0;
      for (let r = 0; r < reps; r++) {
        before.push(rssOf(pid));
        const sampler = rssSampler(pid, 50);
        const run = await execute(n, format);
        const peak = sampler.stop();
        peaks.push(peak);
        bytes = (await stat(run.path)).size;
        say(`${format} ${fmtInt(n)} run ${r + 1}/${reps}: ${(run.ms / 1000).toFixed(1)} s, peak RSS ${(peak / MB).toFixed(0)} MB (${((peak - idle) / MB).toFixed(0)} MB above idle), file ${(bytes / 1e6).toFixed(0)} MB`);
        if (format === 'csv' && csvPath === undefined) csvPath = run.path;
        else await rm(run.path);
        await sleep(1000);
      }
      const above = median(peaks) - idle;
      rows.push(
        `| spq ${format} | ${(idle / MB).toFixed(0)} | ${(median(before) / MB).toFixed(0)} | ${(median(peaks) / MB).toFixed(0)} (max ${(Math.max(...peaks) / MB).toFixed(0)}) | ${(above / MB).toFixed(0)} (max ${((Math.max(...peaks) - idle) / MB).toFixed(0)}) | ${(bytes / 1e6).toFixed(0)} | ${Math.max(...peaks) - idle < 600 * MB ? 'yes' : 'no'} |`,
      );
    }
    const after = await idleRss(pid, 1000);

    if (values.exceljs === 'true') {
      if (csvPath === undefined) csvPath = (await execute(n, 'csv')).path;
      const child = spawn(process.execPath, [join(root, 'bin', 'run-ts.js'), join(root, 'bench', 'memory.ts'), '--exceljs-child', csvPath, join(tmp, 'exceljs.xlsx')], {
        cwd: root,
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      await waitForLine(child, 'stdout', /^ready$/, 60_000);
      await sleep(500);
      const childIdle = await idleRss(child.pid!, 1000);
      const sampler = rssSampler(child.pid!, 50);
      child.stdin!.write('go\n');
      const done = await waitForLine(child, 'stdout', /^done /, 1_800_000);
      const peak = sampler.stop();
      await once(child, 'exit');
      const bytes = (await stat(join(tmp, 'exceljs.xlsx'))).size;
      say(`exceljs ${fmtInt(n)} rows: ${done.slice(5)} s, peak RSS ${(peak / MB).toFixed(0)} MB`);
      rows.push(`| exceljs WorkbookWriter (xlsx, separate process) | ${(childIdle / MB).toFixed(0)} | — | ${(peak / MB).toFixed(0)} | ${((peak - childIdle) / MB).toFixed(0)} | ${(bytes / 1e6).toFixed(0)} | — |`);
    }

    process.stdout.write(
      [
        `| ${fmtInt(n)} rows | idle RSS MB | RSS before run MB | peak RSS MB (median of ${reps}) | peak above idle MB | file MB | < 600 MB above idle |`,
        '|---|---|---|---|---|---|---|',
        ...rows,
        '',
        `server RSS ${(started / MB).toFixed(0)} MB after start, ${(idle / MB).toFixed(0)} MB idle after warm-up, ${(after / MB).toFixed(0)} MB idle after the runs; pool ${fmtInt(built.persons)} persons`,
        `end: ${machineLine()}`,
      ].join('\n') + '\n',
    );
  } finally {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    await rm(tmp, { recursive: true, force: true });
  }
}

if (values['exceljs-child'] !== undefined) await exceljsChild(values['exceljs-child'], positionals[0] ?? '');
else await main();
