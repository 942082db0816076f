import { Worker } from 'node:worker_threads';

/**
 * Runs `source` (CommonJS text, eval'd) in a worker thread of its own: a load or a probe on an
 * event loop apart from the one it measures. The source loops until any message arrives from
 * here, then posts its result once. stop() asks it to end and resolves with that result.
 */
export function workerLoop<T>(source: string, workerData: unknown): { stop(): Promise<T> } {
  const worker = new Worker(source, { eval: true, workerData });
  const done = new Promise<T>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const result = await done;
      await worker.terminate();
      return result;
    },
  };
}
