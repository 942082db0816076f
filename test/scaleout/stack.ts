/**
 * Pieces of the scale-out stack for the multi-instance and fault tests: real `spq serve`
 * processes (bin/spq.js, as an operator runs it), the admin CLI, fresh PostgreSQL databases on
 * the machine's server, and a Redis server and a PostgreSQL cluster of the test's own that it
 * may stop and restart without disturbing other test files.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort } from '../support/free-port.ts';
import { MACHINE_PG, pgQuery } from '../support/postgres.ts';
import { callApi } from '../support/call-api.ts';
export { MACHINE_PG, pgQuery };
export { freePort };

export const REPO = resolve(import.meta.dirname, '..', '..');
const SPQ = join(REPO, 'bin', 'spq.js');


export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a value other than undefined, or fails after `ms`. */
export async function waitFor<T>(what: string, ms: number, check: () => Promise<T | undefined>, everyMs = 100): Promise<T> {
  const deadline = Date.now() + ms;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    await sleep(everyMs);
  }
}

/** The environment of a child spq process: this process's, without any spq, database, Redis or S3 setting it may carry. */
export function childEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(SPQ_|DATABASE_URL$|REDIS_URL$|AWS_)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...settings };
}

export interface SpqProcess {
  readonly baseUrl: string;
  readonly child: ChildProcess;
  /** stdout and stderr lines, as they arrive (JSON request logs and the operator lines). */
  readonly lines: string[];
  /** null while it runs. */
  exitCode(): number | null | 'signal';
  call(path: string, init?: { key?: string; body?: unknown; headers?: Record<string, string>; method?: string; timeoutMs?: number }): Promise<Response>;
  /** SIGTERM and wait (SIGKILL after 15 s). */
  stop(): Promise<void>;
}

/** Starts `node bin/spq.js serve --port P [args…]` and waits until it listens (its "listening on" line). */
export async function startSpq(env: NodeJS.ProcessEnv, port: number, timeoutMs = 120_000, args: readonly string[] = []): Promise<SpqProcess> {
  const child = spawn(process.execPath, [SPQ, 'serve', '--port', String(port), ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let exit: number | null | 'signal' = null;
  const exited = new Promise<void>((done) =>
    child.once('exit', (code) => {
      exit = code ?? 'signal';
      done();
    }),
  );
  const collect = (stream: NodeJS.ReadableStream) => {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts.filter((l) => l.length > 0));
    });
  };
  collect(child.stdout!);
  collect(child.stderr!);
  const baseUrl = `http://127.0.0.1:${port}`;
  const proc: SpqProcess = {
    baseUrl,
    child,
    lines,
    exitCode: () => exit,
    call: (path, init = {}) => callApi(baseUrl, path, { ...init, timeoutMs: init.timeoutMs ?? 30_000 }),
    async stop() {
      if (exit !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
  try {
    await waitFor(`spq serve on port ${port} to listen`, timeoutMs, async () => {
      if (exit !== null) throw new Error(`spq serve exited with ${exit}:\n${lines.slice(-20).join('\n')}`);
      return lines.some((l) => l.startsWith('listening on')) ? true : undefined;
    });
  } catch (error) {
    await proc.stop();
    throw error;
  }
  return proc;
}

/** Deletes the keys a test's instances made under `prefix` in the machine's Redis. */
export async function clearRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis('redis://127.0.0.1:6379');
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

/** Runs `node bin/spq.js admin ARGS` with the servers' environment; resolves its stdout, rejects with its stderr. */
export function spqAdmin(env: NodeJS.ProcessEnv, args: readonly string[]): Promise<string> {
  return new Promise((resolveRun, reject) => {
    execFile(process.execPath, [SPQ, 'admin', ...args], { cwd: REPO, env, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`spq admin ${args.join(' ')} failed: ${stderr || error.message}`));
      else resolveRun(stdout);
    });
  });
}

/** A redis-server of the test's own (nothing on disk), which the test may stop and start again on the same port. */
export class OwnRedis {
  #child: ChildProcess | undefined;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    await waitFor(`redis-server on port ${this.port}`, 10_000, async () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited: ${output}`);
      return output.includes('Ready to accept connections') ? true : undefined;
    });
  }

  /** Stops the server (SIGKILL: gone at once, as when a host dies) and waits until its port is closed. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    this.#child = undefined;
  }
}

/** The newest PostgreSQL server binaries on this machine (Debian layout), if any. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

function run(command: string, args: readonly string[], timeoutMs = 60_000): Promise<string> {
  return new Promise((resolveRun, reject) => {
    execFile(command, args, { timeout: timeoutMs }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')}: ${stderr || stdout || error.message}`));
      else resolveRun(stdout);
    });
  });
}

/**
 * A PostgreSQL cluster of the test's own (initdb into a temp dir, run as the postgres user,
 * trust auth, its own port and socket dir), so a test can restart the server without touching
 * the machine's, which other test files use.
 */
export class OwnPostgres {
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly bin: string,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** undefined when this machine cannot run a cluster of our own (no server binaries or not root). */
  static available(): string | undefined {
    const bin = postgresBinDir();
    if (bin === undefined) return 'no PostgreSQL server binaries under /usr/lib/postgresql';
    if (process.getuid?.() !== 0) return 'not root (initdb must run as the postgres user through runuser)';
    return undefined;
  }

  static async create(): Promise<OwnPostgres> {
    const reason = OwnPostgres.available();
    if (reason !== undefined) throw new Error(`cannot run a PostgreSQL cluster of our own: ${reason}`);
    const bin = postgresBinDir()!;
    const dir = await mkdtemp(join(tmpdir(), 'spq-own-pg-'));
    const owner = Number((await run('id', ['-u', 'postgres'])).trim());
    const group = Number((await run('id', ['-g', 'postgres'])).trim());
    await chown(dir, owner, group);
    const cluster = new OwnPostgres(await freePort(), dir, bin);
    await cluster.asPostgres('initdb', ['-D', cluster.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
    await cluster.start();
    return cluster;
  }

  private get dataDir(): string {
    return join(this.dir, 'data');
  }

  private asPostgres(program: string, args: readonly string[]): Promise<string> {
    return run('runuser', ['-u', 'postgres', '--', join(this.bin, program), ...args]);
  }

  /**
   * A restart that keeps the server down for `downMs` (a real host's restart takes seconds, far
   * longer than any retry budget): pg_ctl stop cuts every connection, then pg_ctl start brings
   * it back on the same port with the same settings (kept in postmaster.opts).
   */
  async restart(mode: 'fast' | 'immediate', downMs: number): Promise<void> {
    await this.asPostgres('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    await sleep(downMs);
    await this.start();
  }

  private start(): Promise<string> {
    // -l: without a log file the postmaster would hold pg_ctl's stdout pipe open.
    return this.asPostgres('pg_ctl', [
      '-D', this.dataDir, '-l', join(this.dir, 'server.log'), '-w', '-t', '60',
      '-o', `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`,
      'start',
    ]);
  }

  async destroy(): Promise<void> {
    await this.asPostgres('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
  }
}
