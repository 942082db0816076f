/**
 * Preview throughput with everything a real request does (key check, account look-up, both rate
 * windows, geography resolution, pricing, balance read, JSON logs) against a bare Fastify JSON
 * route answering a body of the same size, in the same run on the same machine; then the
 * latency of --sequential previews sent one after another (and the same for the bare route).
 * The load generators (autocannon, bench/sequential-client.ts) run in processes of their own and,
 * where `taskset` exists, on another core than this process (the server), so the two do not
 * take turns on one core and each route's socket cost is the server's own (--no-pin: as before).
 * Usage: node bin/run-ts.js bench/preview.ts [--connections 10] [--seconds 10] [--routes] [--log sync|async|none]
 *   [--sequential 200] [--inject 20000] [--release DIR | --suburbs 200 --persons 2000] [--level suburb --select "Suburb 10007" --select …]
 * --inject: previews and bare requests answered in this process through Fastify's inject (first
 * round a warm-up), for the CPU each costs the server without sockets.
 * --routes also loads GET /healthz and GET /account/credits, to show where the gap is.
 * --log: where the JSON log goes. async (default): a file in the bench's directory, written as
 * `spq serve` writes stdout (queued, asynchronous writes); sync: the same file with one blocking
 * write per line (how the log was written before issue 23); none: discarded in memory.
 * --release serves a built pool release (e.g. the national one, bench/national.ts) instead of a
 * synthetic one of --suburbs × --persons; `--suburbs 2641 --level australia --select Australia`
 * is a synthetic release with as many areas as the country's postal areas.
 * Goals (issues 3, 23, 32): ratio ≥ 0.5; p99 of 200 sequential previews ≤ 3 ms.
 */
import { createThreadHasher } from '../src/adapters/password/hasher-thread.ts';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { destination } from 'pino';
import { asyncLog } from '../src/http/logging.ts';
import { createSqliteAccountStore } from '../src/adapters/db/sqlite.ts';
import { createLocalFileStore } from '../src/adapters/filestore/local.ts';
import { openPoolRelease } from '../src/adapters/pools/release.ts';
import { cryptoRandomness } from '../src/adapters/randomness/crypto.ts';
import { localScratch } from '../src/adapters/scratch/local.ts';
import { createMemoryRateLimiter } from '../src/adapters/ratelimit/memory.ts';
import { createAccountWithKey } from '../src/app/accounts.ts';
import { Drain } from '../src/app/drain.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { systemClock } from '../src/ports/clock.ts';
import { machineLine } from './lib.ts';
import { buildSyntheticRelease } from './pool-release-synthetic.ts';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '10' },
    routes: { type: 'boolean', default: false },
    log: { type: 'string', default: 'async' },
    sequential: { type: 'string', default: '200' },
    pin: { type: 'boolean', default: true },
    release: { type: 'string' },
    suburbs: { type: 'string', default: '200' },
    persons: { type: 'string', default: '2000' },
    level: { type: 'string', default: 'suburb' },
    select: { type: 'string', multiple: true, default: ['Suburb 10007', 'Suburb 10042'] },
    inject: { type: 'string', default: '20000' },
  },
});
if (!['sync', 'async', 'none'].includes(values.log!)) throw new Error('--log must be sync, async or none');
const AUTOCANNON = join(import.meta.dirname, '..', 'node_modules', '.bin', 'autocannon');
const RUN_TS = join(import.meta.dirname, '..', 'bin', 'run-ts.js');
const CLIENT = join(import.meta.dirname, 'sequential-client.ts');

/** Server on core 0, load generators on core 1, when taskset exists and the machine has two cores or more. */
const pinned = values.pin! && availableParallelism() >= 2 && spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' }).status === 0;
/** A load generator's command, on the other core when pinned. */
const onLoadCore = (command: string, args: string[]): [string, string[]] => (pinned ? ['taskset', ['-c', '1', command, ...args]] : [command, args]);

interface LoadResult {
  readonly rps: number;
  readonly p99: number;
  readonly non2xx: number;
}

function load(url: string, headers: Record<string, string>, body?: string): Promise<LoadResult> {
  const args = ['-c', values.connections!, '-d', values.seconds!, '--json'];
  if (body !== undefined) args.push('-m', 'POST', '-b', body);
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    execFile(...onLoadCore(AUTOCANNON, args), { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      if (error) return reject(error);
      const r = JSON.parse(stdout) as { requests: { average: number }; latency: { p99: number }; non2xx: number };
      resolve({ rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx });
    });
  });
}

/** A load run with the server's CPU per request (this process serves; autocannon runs in its own). */
async function measured(run: () => Promise<LoadResult>): Promise<LoadResult & { cpuMicros: number }> {
  const before = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(before);
  return { ...result, cpuMicros: (used.user + used.system) / (result.rps * Number(values.seconds)) };
}

interface Sequential {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly statuses: Record<string, number>;
}

/** --sequential requests one after another from a process of their own (bench/sequential-client.ts). */
function sequential(url: string, headers: Record<string, string>, body: string): Promise<Sequential> {
  const args = [RUN_TS, CLIENT, url, '--requests', values.sequential!, '--body', body, ...Object.entries(headers).flatMap(([k, v]) => ['--header', `${k}=${v}`])];
  return new Promise((resolve, reject) => {
    execFile(...onLoadCore(process.execPath, args), (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as Sequential)));
  });
}

const dir = await mkdtemp(join(tmpdir(), 'spq-bench-preview-'));
try {
  const releaseDir = values.release ?? (await buildSyntheticRelease(join(dir, 'pools'), Number(values.suburbs), Number(values.persons))).dir;
  const pools = await openPoolRelease(releaseDir, { threads: 1 });
  const base = loadConfig({ SPQ_DATA_DIR: dir });
  const config = { ...base, rateLimits: { ...base.rateLimits, perMinute: 10_000_000, paidPerHour: 10_000_000, freePerHour: 10_000_000 } };
  const store = createSqliteAccountStore({ file: join(dir, 'spq.sqlite') });
  await store.migrate();
  const secret = 'bench-secret-0123456789abcdef0123456789';
  const account = await createAccountWithKey({ store, serverSecret: secret, clock: systemClock }, { email: 'bench@example.org', tier: 'paid' });
  if (!account.ok) throw new Error(account.error.detail);
  const logFile = join(dir, 'access.log');
  const logStream = values.log === 'none' ? new Writable({ write: (_c, _e, done) => done() }) : values.log === 'sync' ? destination({ dest: logFile, sync: true }) : asyncLog(logFile);
  const app = buildApp({
    config, accounts: store, limiter: createMemoryRateLimiter(), pools, clock: systemClock, serverSecret: secret, randomness: cryptoRandomness, scratch: localScratch(join(dir, 'tmp')),
    files: createLocalFileStore({ dir, baseUrl: 'http://127.0.0.1', secret }), logger: { level: 'info', stream: logStream }, drain: new Drain(),
    passwords: createThreadHasher(),
  });
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const body = JSON.stringify({ geography_level: values.level, geography_selections: values.select, dataset_type: 'persons', n_observations: 1000 });

  // The answer a preview gives, served as fast as Fastify can: the ceiling for any JSON route.
  const sample = await (await fetch(`${appUrl}/query/preview`, { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${account.value.apiKey}` } })).text();
  if (!sample.includes('"valid":true')) throw new Error(`preview failed: ${sample}`);
  const bare = Fastify({ logger: false });
  bare.post('/preview', async () => JSON.parse(sample));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  const json = { 'content-type': 'application/json' };
  const auth = { ...json, authorization: `Bearer ${account.value.apiKey}` };
  await load(`${bareUrl}/preview`, json, body); // warm-up of both, so neither pays for JIT in its run
  await load(`${appUrl}/query/preview`, auth, body);
  const baseline = await measured(() => load(`${bareUrl}/preview`, json, body));
  const full = await measured(() => load(`${appUrl}/query/preview`, auth, body));
  if (full.non2xx > 0) throw new Error(`${full.non2xx} previews were not 2xx`);
  // Where the gap is: our hooks without a key (healthz), and an authenticated route that reads the ledger.
  const healthz = values.routes ? await measured(() => load(`${appUrl}/healthz`, {})) : undefined;
  const credits = values.routes ? await measured(() => load(`${appUrl}/account/credits`, { authorization: auth.authorization })) : undefined;

  // The server's own work without sockets or a load generator (Fastify's inject, alternated in
  // rounds): the least load-sensitive figure when the machine is shared.
  const injected = { bare: 0, preview: 0 };
  for (let round = 0; round < 4; round++) {
    for (const [side, server, url, headers] of [['bare', bare, '/preview', json], ['preview', app, '/query/preview', auth]] as const) {
      const calls = Number(values.inject) / 4;
      const before = process.cpuUsage();
      for (let i = 0; i < calls; i++) await server.inject({ method: 'POST', url, headers, payload: body });
      const used = process.cpuUsage(before);
      if (round > 0) injected[side] += (used.user + used.system) / calls / 3;
    }
  }
  const bareSequential = await sequential(`${bareUrl}/preview`, json, body);
  const previewSequential = await sequential(`${appUrl}/query/preview`, auth, body);
  if (previewSequential.statuses['200'] !== Number(values.sequential)) throw new Error(`sequential previews answered ${JSON.stringify(previewSequential.statuses)}`);

  const ratio = full.rps / baseline.rps;
  const latency = (name: string, r: Sequential) => `${name}, ${values.sequential} sequential: p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, max ${r.max.toFixed(2)} ms`;
  const line = (name: string, r: LoadResult & { cpuMicros: number }) => `${name}: ${r.rps.toFixed(0)} req/s (p99 ${r.p99} ms), server CPU ${r.cpuMicros.toFixed(0)} µs/request`;
  process.stdout.write(
    [
      line('bare Fastify JSON route', baseline),
      line('POST /query/preview (auth + rate limits + SQLite + pools + logs)', full),
      ...(healthz ? [line('GET /healthz (our hooks, no key)', healthz)] : []),
      ...(credits ? [line('GET /account/credits (auth + a ledger read)', credits)] : []),
      `ratio: ${ratio.toFixed(2)} (goal ≥ 0.5) with ${values.connections} connections × ${values.seconds} s, log ${values.log}`,
      // Throughput swings with whatever else the machine runs; CPU per request of this process does much less.
      `CPU ratio (bare µs ÷ preview µs per request): ${(baseline.cpuMicros / full.cpuMicros).toFixed(2)}`,
      `in-process (inject, no sockets): bare ${injected.bare.toFixed(1)} µs, preview ${injected.preview.toFixed(1)} µs CPU per request, ratio ${(injected.bare / injected.preview).toFixed(2)}`,
      latency('bare Fastify JSON route', bareSequential),
      latency('POST /query/preview', previewSequential),
      `p99 goal ≤ 3 ms; release ${pools.version} (${values.release ?? `synthetic, ${values.suburbs} suburbs × ${values.persons} persons`}), body ${body}`,
      `load generators ${pinned ? 'on core 1, server on core 0 (taskset)' : 'not pinned'}; ${machineLine()}`,
    ].join('\n') + '\n',
  );
  await app.close();
  await bare.close();
  await pools.close();
  await store.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
