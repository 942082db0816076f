import { parentPort } from 'node:worker_threads';
import { populationBuffers, tryRunSuburbJob, type SuburbJob } from './suburb-job.ts';

/** Worker thread: runs suburb jobs as they arrive and sends each outcome back, buffers transferred. */
if (!parentPort) throw new Error('synth-worker.ts runs as a worker thread');
const port = parentPort;
port.on('message', (job: SuburbJob) => {
  try {
    const outcome = tryRunSuburbJob(job);
    port.postMessage({ ok: true, outcome }, 'population' in outcome ? populationBuffers(outcome.population) : []);
  } catch (error) {
    port.postMessage({ ok: false, index: job.index, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
