import { Worker } from 'node:worker_threads';

/**
 * Starts the worker thread whose entry is the module `name` beside `callerUrl` (import.meta.url).
 * Compiled (dist/, production) the entry is JavaScript. From the sources (tests, benches) a worker
 * thread does not inherit the TypeScript loader, so a bootstrap registers it first.
 */
export function startWorker(callerUrl: string, name: string): Worker {
  return callerUrl.endsWith('.js')
    ? new Worker(new URL(`./${name}.js`, callerUrl))
    : new Worker(new URL('./worker-bootstrap.js', import.meta.url), { workerData: { entry: new URL(`./${name}.ts`, callerUrl).href } });
}
