/**
 * Preview throughput with everything a real request does (key check, account look-up, both rate
 * windows, geography resolution, pricing, balance read, JSON logs) against a bare Fastify JSON
 * route answering a body of the same size, in the same run on the same machine. The load
 * generator (autocannon) runs in its own process so it does not share the server's event loop.
 * Usage: node bin/run-ts.js bench/preview.ts [--connections 10] [--seconds 10] [--routes] [--log sync|async|none]
 * --routes also loads GET /healthz and GET /account/credits, to show where the gap is.
 * --log: where the JSON log goes. async (default): a file in the bench's directory, written as
 * `spq serve` writes stdout (queued, asynchronous writes); sync: the same file with one blocking
 * write per line (how the log was written before issue 23); none: discarded in memory.
 * Goal (issue 3): ratio ≥ 0.5.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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
import { buildSyntheticRelease } from './pool-release-synthetic.ts';

const { values } = parseArgs({ options: { connections: { type: 'string', default: '10' }, seconds: { type: 'string', default: '10' }, routes: { type: 'boolean', default: false }, log: { type: 'string', default: 'async' } } });
if (!['sync', 'async', 'none'].includes(values.log!)) throw new Error('--log must be sync, async or none');
const AUTOCANNON = join(import.meta.dirname, '..', 'node_modules', '.bin', 'autocannon');

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
    execFile(AUTOCANNON, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
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

const dir = await mkdtemp(join(tmpdir(), 'spq-bench-preview-'));
try {
  const release = await buildSyntheticRelease(join(dir, 'pools'), 200, 2000);
  const pools = await openPoolRelease(release.dir, { threads: 1 });
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
  });
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const body = JSON.stringify({ geography_level: 'suburb', geography_selections: ['Suburb 10007', 'Suburb 10042'], dataset_type: 'persons', n_observations: 1000 });

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

  const ratio = full.rps / baseline.rps;
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
    ].join('\n') + '\n',
  );
  await app.close();
  await bare.close();
  await pools.close();
  await store.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
