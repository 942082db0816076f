/**
 * A real `spq serve` process: SIGTERM while an execute runs lets that execute finish (200 and
 * its file), refuses what arrives meanwhile, then exits 0. And a pool release other than the
 * one configured stops start-up with one line.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteAccountStore } from '../../src/adapters/db/sqlite.ts';
import { resultFileKey } from '../../src/app/format.ts';
import { FIXTURE_VERSION, buildFixtureRelease } from '../adapters/pools/fixture.ts';
import { readTable } from '../http/files.ts';
import { freePort } from '../support/free-port.ts';

const SPQ = join(import.meta.dirname, '..', '..', 'bin', 'spq.js');
/** Long enough to send a signal and a second request while the first execute is held. */
const EXPORT_DELAY_MS = 4000;

let root: string;
let releaseDir: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'spq-shutdown-'));
  releaseDir = await buildFixtureRelease(join(root, 'pools'));
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});


/** This machine's environment without any spq, database, Redis or S3 setting a developer may have exported. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(SPQ_|DATABASE_URL$|REDIS_URL$|AWS_)/.test(k)) env[k] = v;
  }
  return { ...env, ...extra };
}

/** Collects a stream's lines and resolves waits for a line that matches. */
class Lines {
  readonly all: string[] = [];
  #partial = '';
  #waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];

  constructor(stream: NodeJS.ReadableStream) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (this.#partial + chunk).split('\n');
      this.#partial = parts.pop()!;
      for (const line of parts) {
        this.all.push(line);
        for (const w of this.#waiters.filter((x) => x.pattern.test(line))) {
          this.#waiters.splice(this.#waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    });
  }

  waitFor(pattern: RegExp, ms: number, what: string): Promise<string> {
    const seen = this.all.find((l) => pattern.test(l));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} (${what}) within ${ms} ms; so far:\n${this.all.join('\n')}`)), ms);
      this.#waiters.push({ pattern, resolve: (line) => (clearTimeout(timer), resolve(line)) });
    });
  }
}

/** Status of a request, or "refused" when nothing listens any more. */
async function statusOrRefused(url: string, init?: RequestInit): Promise<number | 'refused'> {
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    return res.status;
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'refused';
    throw error;
  }
}

describe('spq serve', () => {
  let child: ChildProcessWithoutNullStreams | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('on SIGTERM finishes the running execute, refuses new ones, then exits 0', async () => {
    const dataDir = join(root, 'data');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [SPQ, 'serve', '--port', String(port), '--host', '127.0.0.1'], {
      env: cleanEnv({ SPQ_DATA_DIR: dataDir, SPQ_POOL_DIR: releaseDir, SPQ_POOL_VERSION: FIXTURE_VERSION, SPQ_TEST_EXPORT_DELAY_MS: String(EXPORT_DELAY_MS) }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child!.once('exit', (code, signal) => resolve({ code, signal })));
    const stdout = new Lines(child.stdout);
    const stderr = new Lines(child.stderr);

    await stderr.waitFor(/^listening on /, 60_000, 'start-up');
    // The demo account's key, printed once on stdout on an empty database.
    const key = await stdout.waitFor(/^spq_live_[0-9A-Za-z]+$/, 1000, 'demo key');
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const body = JSON.stringify({
      geography_level: 'suburb',
      geography_selections: ['Richmond (VIC)', 'Burnley'],
      dataset_type: 'persons',
      n_observations: 100,
      output_format: 'csv',
    });

    const running = fetch(`${base}/query/execute`, { method: 'POST', headers: auth, body });
    // The execute has been charged and its export is held: it is in flight now.
    // (Once listening, the adapters' reports are JSON log lines on stdout.)
    await stdout.waitFor(/"msg":"SPQ_TEST_EXPORT_DELAY_MS: export held/, 20_000, 'execute in flight');
    const sentAt = Date.now();
    child.kill('SIGTERM');
    await stderr.waitFor(/^SIGTERM: finishing 1 running execute\(s\), refusing new ones$/, 10_000, 'drain started');

    const late = await statusOrRefused(`${base}/query/execute`, { method: 'POST', headers: auth, body });
    expect([503, 'refused']).toContain(late);
    expect([503, 'refused']).toContain(await statusOrRefused(`${base}/readyz`));
    // Both answered while the first execute was still held, so they met a draining server.
    expect(Date.now() - sentAt).toBeLessThan(EXPORT_DELAY_MS);

    const finished = await running;
    const result = (await finished.json()) as { query_id: string; credit_cost: number; download_url: string };
    expect(finished.status, JSON.stringify(result)).toBe(200);
    expect(result.credit_cost).toBe(1);

    const { code, signal } = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stderr.all).toContain('stopped');
    expect(await statusOrRefused(`${base}/healthz`)).toBe('refused');

    // The file the response links to is complete: 100 distinct persons from each suburb.
    const file = join(dataDir, 'files', resultFileKey(result.query_id, 'csv'));
    expect(existsSync(file)).toBe(true);
    const table = await readTable(file, 'csv');
    expect(table.rows).toHaveLength(200);
    expect(new Set(table.rows.map((r) => r.person_id)).size).toBe(200);
    expect(result.download_url).toContain(`/downloads/`);

    // Logs are JSON lines: the execute's access line says 200, the refused one 503 (when it reached the server).
    const logs = stdout.all.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; req?: { url: string; method: string }; status?: number });
    const executes = logs.filter((l) => l.msg === 'request' && l.req?.url === '/query/execute').map((l) => l.status);
    expect(executes).toContain(200);
    if (late === 503) expect(executes).toContain(503);
    // The database agrees: the query completed with this file, and the demo account paid for it once.
    const store = createSqliteAccountStore({ file: join(dataDir, 'spq.sqlite') });
    try {
      const [account] = await store.listAccounts();
      const query = await store.getQuery(account!.accountId, result.query_id);
      expect(query).toMatchObject({ status: 'completed', fileKey: resultFileKey(result.query_id, 'csv'), creditCost: 1 });
      expect((await store.credits(account!.accountId, new Date())).creditsUsed).toBe(1);
      expect((await store.history({ accountId: account!.accountId, page: 1, perPage: 10 })).total).toBe(1);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('refuses to start on a pool release other than SPQ_POOL_VERSION / SPQ_POOL_CHECKSUM, with one line', async () => {
    const run = promisify(execFile);
    const other = 'a'.repeat(64);
    const dataDir = join(root, 'refused');
    const failure = await run(process.execPath, [SPQ, 'serve', '--port', String(await freePort())], {
      env: cleanEnv({ SPQ_DATA_DIR: dataDir, SPQ_POOL_DIR: releaseDir, SPQ_POOL_CHECKSUM: other }),
    }).then(
      () => undefined,
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(failure?.code).toBe(1);
    const lines = failure!.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^spq: refusing to serve: pool release ${releaseDir}: manifest checksum [0-9a-f]{64} \\(version "${FIXTURE_VERSION}"\\) is not the expected ${other}$`));
    expect(existsSync(join(dataDir, 'spq.sqlite'))).toBe(false);
  }, 60_000);

  it('after kill -9 mid-execute, the next start refunds it at once, removes orphaned temp files, and the Idempotency-Key runs afresh', async () => {
    const dataDir = join(root, 'crash');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const start = (extra: Record<string, string>) => {
      const proc = spawn(process.execPath, [SPQ, 'serve', '--port', String(port), '--host', '127.0.0.1'], {
        env: cleanEnv({ SPQ_DATA_DIR: dataDir, SPQ_POOL_DIR: releaseDir, SPQ_POOL_VERSION: FIXTURE_VERSION, ...extra }),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      return { proc, stdout: new Lines(proc.stdout), stderr: new Lines(proc.stderr), exited: new Promise<void>((resolve) => proc.once('exit', () => resolve())) };
    };
    const first = start({ SPQ_TEST_EXPORT_DELAY_MS: '30000' });
    child = first.proc;
    await first.stderr.waitFor(/^listening on /, 60_000, 'start-up');
    const key = await first.stdout.waitFor(/^spq_live_[0-9A-Za-z]+$/, 1000, 'demo key');
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'crash-retry-1' };
    const creditsOf = async () => ((await (await fetch(`${base}/account/credits`, { headers: auth })).json()) as { credits_remaining: number }).credits_remaining;
    const before = await creditsOf();
    const body = JSON.stringify({ geography_level: 'suburb', geography_selections: ['Fitzroy'], dataset_type: 'persons', n_observations: 20 });
    void fetch(`${base}/query/execute`, { method: 'POST', headers: auth, body }).catch(() => undefined);
    await first.stdout.waitFor(/export held for/, 10_000, 'the execute charged and held');
    expect(await creditsOf()).toBeLessThan(before);
    first.proc.kill('SIGKILL');
    await first.exited;
    await mkdir(join(dataDir, 'tmp'), { recursive: true });
    await writeFile(join(dataDir, 'tmp', 'orphan.parquet'), 'partial');

    const second = start({});
    child = second.proc;
    await second.stderr.waitFor(/^refunded 1 query interrupted by an earlier stop$/, 60_000, 'refund at start');
    await second.stderr.waitFor(/^removed \d+ temporary files? left by an earlier stop$/, 5000, 'temp files');
    await second.stderr.waitFor(/^listening on /, 60_000, 'second start-up');
    expect(await creditsOf()).toBe(before);
    expect(await readdir(join(dataDir, 'tmp'))).toEqual([]);
    // The refunded execute's Idempotency-Key is not stuck: the retry runs and charges once.
    const retried = await fetch(`${base}/query/execute`, { method: 'POST', headers: auth, body });
    expect(retried.status).toBe(200);
    expect(await creditsOf()).toBe(before - 1);
    second.proc.kill('SIGTERM');
    await second.exited;
  }, 120_000);
});
