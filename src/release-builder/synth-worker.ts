import { parentPort } from 'node:worker_threads';
import type { Population } from '../synthesis/census/population.ts';
import type { SuburbJob } from '../synthesis/pipeline/area-job.ts';
import { tryRunSuburbJob } from '../synthesis/pipeline/run-job.ts';

/** Worker thread: runs suburb jobs as they arrive and sends each outcome back, buffers transferred. */
if (!parentPort) throw new Error('synth-worker.ts runs as a worker thread');
const port = parentPort;
port.on('message', (job: SuburbJob) => {
  try {
    const cpu = process.threadCpuUsage();
    const outcome = tryRunSuburbJob(job);
    const used = process.threadCpuUsage(cpu);
    // The job's CPU time on this thread: what the build's per-area cost figures are fitted to.
    port.postMessage({ ok: true, outcome, cpuMicros: used.user + used.system }, 'population' in outcome ? populationBuffers(outcome.population) : []);
  } catch (error) {
    port.postMessage({ ok: false, index: job.index, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});

/** The distinct buffers of a population, to transfer (not copy) it between threads. */
function populationBuffers(population: Population): ArrayBuffer[] {
  const arrays = [
    population.persons.age,
    population.persons.dwelling,
    population.persons.family,
    population.families.dwelling,
    ...Object.values(population.persons.variables),
    ...Object.values(population.families.variables),
    ...Object.values(population.dwellings.variables),
  ];
  return [...new Set(arrays.map((array) => array.buffer as ArrayBuffer))];
}
