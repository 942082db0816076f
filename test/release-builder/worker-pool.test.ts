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
      { weight: (job) => weightOf(job.index), spawn: echoWorker },
    );
    expect(consumed).toEqual(jobs.map((job) => job.index));
  }, 30_000);

  it('keeps the other workers busy past a heavy area at the head: the read-ahead is bounded by weight, not only by a count of jobs', async () => {
    // Job 0 is a large area; the 200 after it are small suburbs. Counted in jobs (the old window
    // of 16 a thread) the second worker runs out of jobs long before job 0 is done and sits idle.
    const jobs = [{ index: 0, delay: 800 }, ...Array.from({ length: 200 }, (_, i) => ({ index: i + 1, delay: 2 }))];
    const weight = (job: SuburbJob) => (job.index === 0 ? 1_000_000 : 100);
    const run = (aheadWeight: number) => runJobsInOrder(asJobs(jobs), 2, async () => {}, { weight, spawn: echoWorker, aheadWeight });
    const byCount = await run(0);
    const byWeight = await run(2_000_000);
    expect(byCount.windowFullMs).toBeGreaterThan(400);
    expect(byWeight.windowFullMs).toBeLessThan(byCount.windowFullMs / 2);
    // Both workers report their jobs and the share of the run they held one.
    expect(byWeight.workers.map((w) => w.jobs).reduce((a, b) => a + b, 0)).toBe(201);
    expect(Math.max(...byWeight.workers.map((w) => w.busyMs))).toBeGreaterThanOrEqual(790);
  }, 30_000);

  it('fails the build when a worker thread stops, rather than waiting for it', async () => {
    const jobs = [{ index: 0, delay: 1 }, { index: 1, delay: 1, exit: true }, { index: 2, delay: 1 }];
    await expect(runJobsInOrder(asJobs(jobs), 2, async () => {}, { spawn: echoWorker })).rejects.toThrow(/worker thread stopped \(exit code 3\)/);
  }, 30_000);
});
