import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { SuburbJob } from '../../src/synthesis/pipeline/area-job.ts';
import { runJobsInOrder } from '../../src/release-builder/worker-pool.ts';

const echoWorker = () => new Worker(new URL('./fixtures/echo-worker.mjs', import.meta.url));
type EchoJob = { index: number; delay: number; exit?: boolean };
const asJobs = (jobs: EchoJob[]) => jobs as unknown as SuburbJob[];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runJobsInOrder on worker threads', () => {
  it('hands every outcome over in job order although the heaviest jobs run first, even when the workers go idle while an outcome is consumed', async () => {
    // Weights in no order, so the next job to consume is often still waiting while heavier ones
    // run; a slow consume lets both workers finish and fall idle meanwhile (the build of the
    // whole country hung exactly so).
    const weightOf = (index: number) => (index * 7919) % 97;
    const jobs = Array.from({ length: 200 }, (_, index) => ({ index, delay: Math.floor(weightOf(index) / 10) }));
    const consumed: number[] = [];
    await runJobsInOrder(
      asJobs(jobs),
      2,
      async (outcome) => {
        consumed.push(outcome.index);
        await sleep(outcome.index % 3 === 0 ? 20 : 0);
      },
      (job) => weightOf(job.index),
      echoWorker,
    );
    expect(consumed).toEqual(jobs.map((job) => job.index));
  }, 30_000);

  it('fails the build when a worker thread stops, rather than waiting for it', async () => {
    const jobs = [{ index: 0, delay: 1 }, { index: 1, delay: 1, exit: true }, { index: 2, delay: 1 }];
    await expect(runJobsInOrder(asJobs(jobs), 2, async () => {}, () => 0, echoWorker)).rejects.toThrow(/worker thread stopped \(exit code 3\)/);
  }, 30_000);
});
