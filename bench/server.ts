/**
 * A real `spq serve` process for the benches (dist/, as production runs it): started on a free
 * port over one pool release, timed from spawn to /readyz 200, and stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './lib.ts';

const root = join(import.meta.dirname, '..');

export interface Server {
  readonly child: ChildProcess;
  readonly url: string;
  readonly readyMs: number;
}

export async function startServer(release: string, serverDataDir: string, extra: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(root, 'bin', 'spq.js'), 'serve', '--port', String(port)], {
    cwd: root,
    env: { ...process.env, ...serverEnv(release, serverDataDir), ...extra },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}`);
    const ready = await fetch(`${url}/readyz`).then((r) => r.status === 200, () => false);
    if (ready) return { child, url, readyMs: performance.now() - t0 };
    await sleep(10);
  }
}

export async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
}

const LIMIT = '100000000';
/** The server's environment: the release, its own data directory, limits no bench reaches. */
export const serverEnv = (release: string, serverDataDir: string) => ({
  SPQ_DATA_DIR: serverDataDir,
  SPQ_POOL_DIR: release,
  SPQ_SERVER_SECRET: 'bench-national-secret-0123456789abcdef',
  SPQ_RATE_PER_MINUTE: LIMIT,
  SPQ_RATE_PAID_PER_HOUR: LIMIT,
  SPQ_RATE_FREE_PER_HOUR: LIMIT,
  SPQ_LOG_LEVEL: 'warn',
});
