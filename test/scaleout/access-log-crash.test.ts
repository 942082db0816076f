/**
 * Issue 23, item 4: the access log is written off the event loop (lines queued, written by
 * asynchronous writes) without losing lines when the process ends abruptly. A real `spq serve`
 * (embedded stack) writes its JSON log to a file (its standard output) while 24 clients keep
 * requests in flight; half-way it is ended by process.exit, by an uncaught exception, or by
 * SIGTERM. Every request that was answered must have its line in the file, every line whole.
 * (With pino's write-on-exit disabled, runs of each of the three lost 2–21 lines of 2,023.)
 */
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRelease } from '../adapters/pools/fixture.ts';
import { childEnv, freePort, REPO, waitFor } from './stack.ts';

const PRELOAD = join(import.meta.dirname, 'fixtures', 'crash-on-signal.mjs');
const CLIENTS = 24;
const REQUESTS = 4000;

let dir: string;
let releaseDir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spq-log-crash-'));
  releaseDir = await buildFixtureRelease(join(dir, 'pools'));
}, 120_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Run {
  /** Request ids of the answered requests (x-request-id). */
  readonly answered: string[];
  readonly log: string;
  readonly exit: { code: number | null; signal: NodeJS.Signals | null };
}

/** Serves with stdout to a file, loads it, and ends it with `signal` once half the requests are answered. */
async function crashUnderLoad(name: string, signal: NodeJS.Signals, crash?: 'exit' | 'throw'): Promise<Run> {
  const port = await freePort();
  const logFile = join(dir, `${name}.log`);
  const out = openSync(logFile, 'w');
  const env = childEnv({ SPQ_DATA_DIR: join(dir, name), SPQ_POOL_DIR: releaseDir, SPQ_SMALL_SUBURB_THRESHOLD: '100', ...(crash ? { SPQ_TEST_CRASH: crash } : {}) });
  const child = spawn(process.execPath, ['--import', PRELOAD, join(REPO, 'bin', 'spq.js'), 'serve', '--port', String(port)], { cwd: REPO, env, stdio: ['ignore', out, 'pipe'] });
  closeSync(out);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<Run['exit']>((resolve) => child.once('exit', (code, sig) => resolve({ code, signal: sig })));
  await waitFor(`spq serve (${name}) to listen`, 60_000, async () => (stderr.includes('listening on') ? true : undefined));

  const answered: string[] = [];
  let next = 0;
  let ended = false;
  const client = async () => {
    while (!ended && next < REQUESTS) {
      next++;
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        await res.arrayBuffer();
        if (res.status === 200) answered.push(res.headers.get('x-request-id')!);
        if (answered.length === REQUESTS / 2 && !ended) {
          ended = true;
          child.kill(signal);
        }
      } catch {
        ended = true; // the server is gone
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const exit = await exited;
  return { answered, log: await readFile(logFile, 'utf8'), exit };
}

function expectEveryLine(run: Run): void {
  expect(run.answered.length).toBeGreaterThanOrEqual(REQUESTS / 2);
  const lines = run.log.split('\n');
  expect(lines.pop()).toBe(''); // the file ends with a whole line
  const logged = new Set<string>();
  for (const line of lines) {
    if (/^spq_live_[0-9A-Za-z]+$/.test(line)) continue; // the demo account's key, printed once on a first start
    const entry = JSON.parse(line) as { msg?: string; reqId?: string };
    if (entry.msg === 'request' && entry.reqId !== undefined) logged.add(entry.reqId);
  }
  const missing = run.answered.filter((id) => !logged.has(id));
  expect(missing, `${missing.length} of ${run.answered.length} answered requests have no log line`).toEqual([]);
}

describe('the access log survives the end of the process', () => {
  it('process.exit in the middle of serving: every answered request is in the log file', async () => {
    const run = await crashUnderLoad('exit', 'SIGUSR2', 'exit');
    expect(run.exit.code).toBe(3);
    expectEveryLine(run);
  }, 120_000);

  it('an uncaught exception in the middle of serving: every answered request is in the log file', async () => {
    const run = await crashUnderLoad('throw', 'SIGUSR2', 'throw');
    expect(run.exit.code).toBe(1);
    expectEveryLine(run);
  }, 120_000);

  it('SIGTERM in the middle of serving: every answered request is in the log file', async () => {
    const run = await crashUnderLoad('term', 'SIGTERM');
    expect(run.exit.code).toBe(0);
    expectEveryLine(run);
  }, 120_000);
});
