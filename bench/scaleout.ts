/**
 * The scale-out stack (PostgreSQL + Redis + an S3-compatible server) against the embedded default
 * (SQLite + in-memory limits + local files), in the same run: one real `spq serve` process each,
 * the same pool release, the same requests.
 *   - preview throughput: autocannon (its own process) on POST /query/preview with a paid key;
 *   - execute latency: sequential POST /query/execute, n = 1,000 persons, csv and parquet,
 *     median and p95 of the client-side time (the answer comes once the file is stored and the
 *     history row completed, so it includes the upload to the bucket).
 * PostgreSQL and Redis are the machine's (127.0.0.1:5432 and :6379; a fresh database and a
 * unique key prefix); the S3 server is test/support/s3-server.ts (s3rver behind a SigV4 check)
 * in a process of its own.
 * Usage: node bin/run-ts.js bench/scaleout.ts [--connections 10] [--seconds 10] [--executes 50]
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { createDatabase } from '../test/support/postgres.ts';
import { buildSyntheticRelease } from './pool-release-synthetic.ts';
import { freePort } from './lib.ts';

const { values } = parseArgs({
  options: { connections: { type: 'string', default: '10' }, seconds: { type: 'string', default: '10' }, executes: { type: 'string', default: '50' } },
});
const EXECUTES = Number(values.executes);
const ROOT = join(import.meta.dirname, '..');
const SPQ = join(ROOT, 'bin', 'spq.js');
const AUTOCANNON = join(ROOT, 'node_modules', '.bin', 'autocannon');
const REDIS_URL = 'redis://127.0.0.1:6379';
const SECRET = `bench-scaleout-${randomBytes(12).toString('hex')}`;


const quantile = (xs: readonly number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};


/** The environment of a child: this one's, without settings that would pick another stack. */
function childEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(SPQ_|DATABASE_URL$|REDIS_URL$|AWS_)/.test(k)) env[k] = v;
  return { ...env, ...settings };
}

/** Waits for a line on the child's stderr/stdout that passes `test`; rejects if the child exits first. */
function waitForLine(child: ChildProcess, stream: 'stdout' | 'stderr', test: (line: string) => boolean, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let tail: string[] = [];
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      tail = [...tail, ...lines].slice(-20);
      const hit = lines.find(test);
      if (hit !== undefined) {
        child[stream]!.off('data', onData);
        child.off('exit', onExit);
        // Keep draining so a full pipe never blocks the child.
        child[stream]!.resume();
        resolve(hit);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`${what} exited (${code}) before it was ready:\n${tail.join('\n')}`));
    child[stream]!.on('data', onData);
    child.once('exit', onExit);
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** `spq serve` with request logs going to /dev/null as a log shipper would take them (the JSON is still written). */
async function startSpq(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [SPQ, 'serve', '--port', String(port)], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  await waitForLine(child, 'stderr', (l) => l.startsWith('listening on'), 'spq serve');
  return { url: `http://127.0.0.1:${port}`, child };
}

function admin(env: NodeJS.ProcessEnv, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [SPQ, 'admin', ...args], { cwd: ROOT, env }, (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve(stdout)));
  });
}

interface Load {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
}

function autocannon(url: string, key: string, body: string): Promise<Load> {
  const args = ['-c', values.connections!, '-d', values.seconds!, '-m', 'POST', '-b', body, '-H', 'content-type=application/json', '-H', `authorization=Bearer ${key}`, '--json', url];
  return new Promise((resolve, reject) => {
    execFile(AUTOCANNON, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      if (error) return reject(error);
      const r = JSON.parse(stdout) as { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number };
      resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx });
    });
  });
}

async function executeLatencies(url: string, key: string, format: 'csv' | 'parquet', count: number): Promise<number[]> {
  const body = JSON.stringify({ geography_level: 'suburb', geography_selections: ['Suburb 10003'], dataset_type: 'persons', n_observations: 1000, output_format: format });
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(`${url}/query/execute`, { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } });
    const answer = (await res.json()) as { download_url?: string };
    times.push(performance.now() - started);
    if (res.status !== 200 || answer.download_url === undefined) throw new Error(`execute answered ${res.status}: ${JSON.stringify(answer)}`);
  }
  return times;
}

interface Stack {
  readonly name: string;
  readonly env: NodeJS.ProcessEnv;
  url?: string;
  key?: string;
}

const dir = await mkdtemp(join(tmpdir(), 'spq-bench-scaleout-'));
let database: Awaited<ReturnType<typeof createDatabase>> | undefined;
const prefix = `spq-bench-${randomBytes(5).toString('hex')}:`;
const children: ChildProcess[] = [];
try {
  const release = await buildSyntheticRelease(join(dir, 'pools'), 200, 2000);
  database = await createDatabase('spq_bench');
  const s3 = spawn(process.execPath, [join(ROOT, 'bin', 'run-ts.js'), join(ROOT, 'test', 'support', 's3-server.ts'), '--port', '0', '--bucket', 'spq-bench', '--dir', join(dir, 's3')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(s3);
  const s3Info = JSON.parse(await waitForLine(s3, 'stdout', (l) => l.startsWith('{'), 'S3 server')) as { endpoint: string; bucket: string };

  const common = {
    SPQ_SERVER_SECRET: SECRET,
    SPQ_POOL_DIR: release.dir,
    SPQ_LOG_LEVEL: 'info',
    // Limits far above what the load generator sends: the bench measures the work, not refusals.
    SPQ_RATE_PER_MINUTE: '1000000000',
    SPQ_RATE_PAID_PER_HOUR: '1000000000',
    SPQ_RATE_FREE_PER_HOUR: '1000000000',
  };
  const stacks: Stack[] = [
    { name: 'embedded (SQLite, memory limits, local files)', env: childEnv({ ...common, SPQ_DATA_DIR: join(dir, 'embedded') }) },
    {
      name: 'scale-out (PostgreSQL, Redis, S3 server)',
      env: childEnv({
        ...common,
        SPQ_DATA_DIR: join(dir, 'scaleout'),
        DATABASE_URL: database.url,
        REDIS_URL,
        SPQ_REDIS_PREFIX: prefix,
        SPQ_S3_ENDPOINT: s3Info.endpoint,
        SPQ_S3_BUCKET: s3Info.bucket,
        SPQ_S3_ACCESS_KEY_ID: 'S3RVER',
        SPQ_S3_SECRET_ACCESS_KEY: 'S3RVER',
      }),
    },
  ];
  for (const stack of stacks) {
    const server = await startSpq(stack.env);
    children.push(server.child);
    stack.url = server.url;
    const created = JSON.parse(await admin(stack.env, ['account', 'create', '--email', 'bench@example.org', '--tier', 'paid', '--credits', '1000000', '--days', '30', '--json'])) as { api_key: string };
    stack.key = created.api_key;
  }

  const previewBody = JSON.stringify({ geography_level: 'suburb', geography_selections: ['Suburb 10007', 'Suburb 10042'], dataset_type: 'persons', n_observations: 1000 });
  // Warm-up of both (JIT, connection pools, Redis script cache), then the measured runs.
  for (const s of stacks) await autocannon(`${s.url}/query/preview`, s.key!, previewBody);
  for (const s of stacks) await executeLatencies(s.url!, s.key!, 'csv', 5);
  const preview = [];
  for (const s of stacks) preview.push(await autocannon(`${s.url}/query/preview`, s.key!, previewBody));
  for (const p of preview) if (p.non2xx > 0) throw new Error(`${p.non2xx} previews were not 2xx`);
  const executes: Record<'csv' | 'parquet', number[][]> = { csv: [], parquet: [] };
  for (const format of ['csv', 'parquet'] as const) for (const s of stacks) executes[format].push(await executeLatencies(s.url!, s.key!, format, EXECUTES));

  const [e, o] = [0, 1];
  // Every ratio is scale-out / embedded: above 1 means more requests/s or a longer wait.
  const rows: [string, number, number][] = [
    ['preview req/s', preview[e]!.rps, preview[o]!.rps],
    ['preview p50 latency ms', preview[e]!.p50, preview[o]!.p50],
    ['preview p99 latency ms', preview[e]!.p99, preview[o]!.p99],
  ];
  for (const format of ['csv', 'parquet'] as const) {
    rows.push([`execute n=1000 ${format} median ms`, quantile(executes[format][e]!, 0.5), quantile(executes[format][o]!, 0.5)]);
    rows.push([`execute n=1000 ${format} p95 ms`, quantile(executes[format][e]!, 0.95), quantile(executes[format][o]!, 0.95)]);
  }
  const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const lines = [
    `${new Date().toISOString().slice(0, 16)}Z, ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`,
    `pool: ${release.persons.toLocaleString('en-US')} persons in 200 suburbs; preview: ${values.connections} connections × ${values.seconds} s; executes: ${EXECUTES} sequential per format`,
    `embedded  = ${stacks[e]!.name}`,
    `scale-out = ${stacks[o]!.name}`,
    '',
    `| metric | embedded | scale-out | scale-out / embedded |`,
    `|---|---:|---:|---:|`,
    ...rows.map(([name, a, b]) => `| ${name} | ${fmt(a)} | ${fmt(b)} | ${(b / a).toFixed(2)} |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  for (const child of children.reverse()) await stopChild(child);
  await database?.drop().catch(() => undefined);
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis
    .connect()
    .then(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    })
    .catch(() => undefined);
  redis.disconnect();
  await rm(dir, { recursive: true, force: true });
}
