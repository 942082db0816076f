/**
 * Serving at national scale (issue 23): a real spq server process (`node bin/spq.js serve`,
 * SQLite, local files) over a release built from real census tables, every figure of the issue's
 * table in one run, each execute beside DuckDB writing the same rows in the same run:
 *   - start to ready (/readyz 200), default verification and SPQ_POOL_VERIFY=full;
 *   - idle memory: VmRSS split into private (RssAnon) and file-backed (RssFile), and a second
 *     instance serving the same release beside the first;
 *   - Australia (or --scope) persons, --n rows, parquet and csv: execute, then the download
 *     (identity and zstd), against DuckDB's COPY of the same rows read from spq's parquet file
 *     (to zstd parquet, to csv) in this process, and the server's peak RSS above idle;
 *   - preview p50 / p99 over --previews sequential requests;
 *   - csv bytes per row at state and Australia level, with and without the `_coarse` twins.
 * The release is built once into --data (`spq build --inputs <dir> --levels <levels>`) and reused.
 *
 * Usage: node bin/run-ts.js bench/national.ts [--data DIR] [--inputs census/2021-gcp]
 *   [--levels poa] [--n 1000000] [--scope Australia] [--state Tasmania] [--previews 200] [--reps 2]
 * The whole country: --inputs "../shared/abs/2021-gcp/datapack/2021 Census GCP All Geographies for AUS"
 *   --data /tmp/spq-national-aus (a build of ~7 minutes on a quiet 2-core machine).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { openAccountStore } from '../src/adapters/db/open-store.ts';
import { newestRelease, poolsRoot } from '../src/adapters/pools/release-dirs.ts';
import { loadConfig } from '../src/config.ts';
import { benchAccount, fmtInt, MB, machineLine, median, rssSampler } from './lib.ts';
import { serverEnv, startServer, stopServer, type Server } from './server.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '/tmp/spq-national' },
    inputs: { type: 'string', default: 'census/2021-gcp' },
    levels: { type: 'string', default: 'poa' },
    n: { type: 'string', default: '1000000' },
    scope: { type: 'string', default: 'Australia' },
    state: { type: 'string', default: 'Tasmania' },
    previews: { type: 'string', default: '200' },
    reps: { type: 'string', default: '2' },
  },
});
const say = (line: string) => process.stderr.write(`${line}\n`);
const root = join(import.meta.dirname, '..');
const dataDir = resolve(values.data!);
const seconds = (ms: number) => (ms / 1000).toFixed(2);

interface WireGet {
  readonly bytes: number;
  readonly contentLength: string | undefined;
  readonly encoding: string | undefined;
}

/** A GET (or HEAD) of a link as a client accepting `coding` sends it (node:http: fetch would decode), bytes counted on the wire. */
function wireGet(url: string, coding: string, method = 'GET'): Promise<WireGet> {
  return new Promise<WireGet>((done, fail) => {
    let bytes = 0;
    httpRequest(url, { method, headers: { 'accept-encoding': coding } }, (res) => {
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => done({ bytes, contentLength: res.headers['content-length'], encoding: res.headers['content-encoding'] }));
      res.on('error', fail);
    })
      .on('error', fail)
      .end();
  });
}

const lengthsText = (lengths: Record<string, WireGet>): string =>
  Object.entries(lengths)
    .map(([accept, r]) => `${accept} ${r.contentLength === undefined ? 'none' : `${(Number(r.contentLength) / 1e6).toFixed(1)} MB`}${r.encoding ? ` (${r.encoding}, ${(r.bytes / 1e6).toFixed(1)} MB sent)` : ''}`)
    .join(', ');

/** The release in the data directory, built first when there is none. */
async function ensureRelease(): Promise<string> {
  const existing = await newestRelease(dataDir);
  if (existing) {
    say(`reusing the release in ${existing}`);
    return existing;
  }
  say(`building ${values.levels} pools from ${values.inputs} into ${poolsRoot(dataDir)} (once)`);
  if (spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' }).status !== 0) throw new Error('the build of dist/ failed');
  const t0 = performance.now();
  const built = spawnSync(process.execPath, [join(root, 'bin', 'spq.js'), 'build', '--inputs', resolve(values.inputs!), '--out', poolsRoot(dataDir), '--levels', values.levels!, '--json'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 28,
  });
  if (built.status !== 0) throw new Error(`spq build exited ${built.status}`);
  const summary = JSON.parse(built.stdout) as { dir: string; persons: number; peak_rss_mb: number };
  say(`built ${summary.dir}: ${fmtInt(summary.persons)} persons in ${seconds(performance.now() - t0)} s, peak ${summary.peak_rss_mb} MB`);
  return summary.dir;
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  return total;
}

/** A process's memory from /proc/<pid>/status: resident in all, private (anonymous) and file-backed, bytes. */
function memoryOf(pid: number): { rss: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
}

async function main(): Promise<void> {
  say(`machine: ${machineLine()}`);
  const release = await ensureRelease();
  const releaseBytes = await sizeOf(release);
  const columnBytes = await sizeOf(join(release, 'columns'));
  const catalog = JSON.parse(await readFile(join(release, 'catalog.json'), 'utf8')) as { totals: Record<string, number>; suburbs: unknown[] };
  say(`release: ${(releaseBytes / 1e6).toFixed(0)} MB (columns ${(columnBytes / 1e6).toFixed(0)} MB), ${catalog.suburbs.length} areas, ${fmtInt(catalog.totals['persons']!)} persons`);
  const work = join(dataDir, 'bench');
  await rm(work, { recursive: true, force: true });
  const serverDirs = [join(work, 'a'), join(work, 'b')];
  const keys: string[] = [];
  for (const dir of serverDirs) {
    await mkdir(dir, { recursive: true });
    const config = loadConfig(serverEnv(release, dir));
    const store = await openAccountStore(config);
    keys.push((await benchAccount(store, config.serverSecret!)).apiKey);
    await store.close();
  }
  const rows: string[] = [];
  const row = (figure: string, measured: string, note = '') => {
    rows.push(`| ${figure} | ${measured} | ${note} |`);
    say(`${figure}: ${measured} ${note}`);
  };

  // Start to ready: the page cache warm (a previous start read the same files), as on a restart.
  const readies: number[] = [];
  for (let r = 0; r < 3; r++) {
    const s = await startServer(release, serverDirs[0]!);
    readies.push(s.readyMs);
    await stopServer(s);
  }
  const full = await startServer(release, serverDirs[0]!, { SPQ_POOL_VERIFY: 'full' });
  await stopServer(full);
  row('start to ready (/readyz 200), 3 starts', `${readies.map(seconds).join(' / ')} s`, `SPQ_POOL_VERIFY=full: ${seconds(full.readyMs)} s (hashes ${(releaseBytes / 1e6).toFixed(0)} MB)`);

  const a = await startServer(release, serverDirs[0]!);
  const apiKey = keys[0]!;
  const call = async (url: string, path: string, body: unknown, key = apiKey) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const pool = Number(((await call(a.url, '/query/preview', { geography_level: 'australia', geography_selections: [values.scope], dataset_type: 'persons', n_observations: 1 })) as { pool_size?: number }).pool_size ?? catalog.totals['persons']);
  const n = Math.min(Number(values.n), pool);
  const scopeBody = (format: string, rowsWanted = n) => ({ geography_level: 'australia', geography_selections: [values.scope], dataset_type: 'persons', n_observations: rowsWanted, output_format: format });
  try {
    // Warm-up: small executes of both formats, then idle.
    for (const format of ['parquet', 'csv']) await call(a.url, '/query/execute', scopeBody(format, 10_000));
    await sleep(1500);
    const idle = memoryOf(a.child.pid!);
    row('idle RSS of the server after warm-up', `${(idle.rss / MB).toFixed(0)} MB: private ${(idle.anon / MB).toFixed(0)} MB, file-backed ${(idle.file / MB).toFixed(0)} MB`, `column files ${(columnBytes / MB).toFixed(0)} MB stay in the page cache`);

    // Executes beside DuckDB's COPY of the same rows read from spq's parquet file.
    const duck = await DuckDBInstance.create(':memory:');
    const db = await duck.connect();
    const reps = Number(values.reps);
    let parquetPath = '';
    let peakAbove = 0;
    for (const format of ['parquet', 'csv'] as const) {
      const executes: number[] = [];
      const downloads: number[] = [];
      let lengths: Record<string, WireGet> = {};
      const zstdDownloads: number[] = [];
      const copies: number[] = [];
      let bytes = 0;
      let wire = 0;
      for (let r = 0; r < reps; r++) {
        const sampler = rssSampler(a.child.pid!, 50);
        const t0 = performance.now();
        const result = (await call(a.url, '/query/execute', scopeBody(format))) as { query_id: string; download_url: string };
        executes.push(performance.now() - t0);
        const t1 = performance.now();
        const file = join(work, `spq.${format}`);
        await pipeline(Readable.fromWeb((await fetch(result.download_url, { headers: { 'accept-encoding': 'identity' } })).body as never), createWriteStream(file));
        downloads.push(performance.now() - t1);
        if (format === 'csv') {
          // The same link as a client that accepts zstd fetches it (node:http: fetch would decode it), bytes counted on the wire.
          const t2 = performance.now();
          const zstd = await wireGet(result.download_url, 'zstd');
          wire = zstd.bytes;
          lengths = { zstd, gzip: await wireGet(result.download_url, 'gzip'), identity: await wireGet(result.download_url, 'identity', 'HEAD') };
          zstdDownloads.push(performance.now() - t2);
        }
        peakAbove = Math.max(peakAbove, sampler.stop() - idle.rss);
        bytes = (await stat(file)).size;
        if (format === 'parquet') parquetPath = file;
        const target = join(work, `duckdb.${format}`);
        const t3 = performance.now();
        await db.run(`COPY (SELECT * FROM read_parquet('${parquetPath}')) TO '${target}' ${format === 'parquet' ? '(FORMAT parquet, COMPRESSION zstd)' : '(FORMAT csv, HEADER true)'}`);
        copies.push(performance.now() - t3);
        await rm(target);
        await rm(join(serverDirs[0]!, 'files'), { recursive: true, force: true }).catch(() => undefined);
      }
      const e = median(executes);
      const d = median(downloads);
      const c = median(copies);
      row(
        `${values.scope}, ${fmtInt(n)} persons, ${format}: execute (+ download)`,
        `${seconds(e)} s (${seconds(e + d)} s), ${(bytes / 1e6).toFixed(0)} MB`,
        `DuckDB COPY from parquet ${seconds(c)} s: ratio ${(e / c).toFixed(2)}× (${((e + d) / c).toFixed(2)}× with the download)${format === 'csv' ? `; download with zstd ${seconds(median(zstdDownloads))} s, ${(wire / 1e6).toFixed(0)} MB on the wire; Content-Length: ${lengthsText(lengths)}` : ''}`,
      );
    }
    row('peak RSS above idle during those executes', `+${(peakAbove / MB).toFixed(0)} MB`);

    // A second instance on the same host serving the same release.
    const b = await startServer(release, serverDirs[1]!);
    try {
      await call(b.url, '/query/execute', scopeBody('csv', 100_000), keys[1]);
      await sleep(1000);
      const ma = memoryOf(a.child.pid!);
      const mb = memoryOf(b.child.pid!);
      row(
        'two instances, same release, after executes',
        `A ${(ma.rss / MB).toFixed(0)} MB (private ${(ma.anon / MB).toFixed(0)}), B ${(mb.rss / MB).toFixed(0)} MB (private ${(mb.anon / MB).toFixed(0)})`,
        `the ${(columnBytes / MB).toFixed(0)} MB of columns are read through the one page cache, in neither's private memory`,
      );
    } finally {
      await stopServer(b);
    }

    // Preview latency, sequential.
    const previewMs: number[] = [];
    const previewBody = { geography_level: 'australia', geography_selections: [values.scope], dataset_type: 'persons', n_observations: 1000 };
    for (let i = 0; i < 20; i++) await call(a.url, '/query/preview', previewBody);
    for (let i = 0; i < Number(values.previews); i++) {
      const t0 = performance.now();
      await call(a.url, '/query/preview', previewBody);
      previewMs.push(performance.now() - t0);
    }
    previewMs.sort((x, y) => x - y);
    const at = (q: number) => previewMs[Math.min(previewMs.length - 1, Math.floor(q * previewMs.length))]!;
    row(`preview p50 / p99, ${previewMs.length} sequential`, `${at(0.5).toFixed(1)} / ${at(0.99).toFixed(1)} ms`);

    // csv bytes per row, with and without the coarse twins.
    for (const [level, selection] of [['state', values.state!], ['australia', values.scope!]] as const) {
      const rowsWanted = Math.min(100_000, n);
      const result = (await call(a.url, '/query/execute', { geography_level: level, geography_selections: [selection], dataset_type: 'persons', n_observations: rowsWanted, output_format: 'csv' })) as { download_url: string };
      const file = join(work, `${level}.csv`);
      await pipeline(Readable.fromWeb((await fetch(result.download_url)).body as never), createWriteStream(file));
      const header = (await readFile(file, 'utf8')).slice(0, 20_000).split('\n')[0]!.split(',');
      const twins = header.filter((c) => c.endsWith('_coarse'));
      const plain = join(work, `${level}-no-coarse.csv`);
      await db.run(`COPY (SELECT ${header.filter((c) => !c.endsWith('_coarse')).map((c) => `"${c}"`).join(', ')} FROM read_csv('${file}', header = true, all_varchar = true)) TO '${plain}' (FORMAT csv, HEADER true)`);
      const withTwins = (await stat(file)).size / rowsWanted;
      const without = (await stat(plain)).size / rowsWanted;
      // How many records a fine column leaves empty (their area is small, so coarsened): what dropping its twin would lose.
      const emptyShare = async (code: string) =>
        Number((await (await db.runAndReadAll(`SELECT avg(("${code}" IS NULL)::INTEGER) FROM read_csv('${file}', header = true, all_varchar = true)`)).getRows())[0]![0]);
      const shares = await Promise.all(twins.slice(0, 3).map((t) => emptyShare(t.replace(/_coarse$/, ''))));
      row(
        `csv bytes per row, ${level} (${selection}), ${header.length} columns`,
        `${withTwins.toFixed(0)}`,
        `without the ${twins.length} _coarse twins: ${without.toFixed(0)} (${((1 - without / withTwins) * 100).toFixed(0)}% less); records whose fine column is empty (coarsened area): ${shares.map((x) => `${(x * 100).toFixed(1)}%`).join(', ')} (${twins.slice(0, 3).map((t) => t.replace(/_coarse$/, '')).join(', ')})`,
      );
    }
    db.closeSync();
    duck.closeSync();
  } finally {
    await stopServer(a);
    // The result files run to hundreds of MB; the release stays for the next run.
    await rm(work, { recursive: true, force: true });
  }
  process.stdout.write(['| figure | measured | beside it |', '|---|---|---|', ...rows, '', `end: ${machineLine()}`].join('\n') + '\n');
}

if (!existsSync(join(root, 'dist'))) say('dist/ missing: it is built first');
await main();
