/**
 * Fails fast, with the command that fixes it, when a service the adapter tests talk to is down
 * (the tests use real PostgreSQL and Redis; .ci/run starts both). Then compiles the release
 * build (incremental), because the tests that start real `spq` processes run dist/, as
 * production does.
 */
import { execFileSync } from 'node:child_process';
import { Socket } from 'node:net';
import { join } from 'node:path';

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(1000);
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('timeout', () => { socket.destroy(); resolve(false); });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

export default async function setup(): Promise<void> {
  const missing: string[] = [];
  if (!(await reachable(5432))) missing.push('PostgreSQL on 127.0.0.1:5432');
  if (!(await reachable(6379))) missing.push('Redis on 127.0.0.1:6379');
  if (missing.length > 0) {
    throw new Error(`tests need ${missing.join(' and ')}; run \`bash .ci/run\` or start them (see README, "Tests")`);
  }
  execFileSync(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'build.mjs')], { stdio: 'inherit' });
}
