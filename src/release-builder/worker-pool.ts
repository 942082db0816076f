import type { Worker } from 'node:worker_threads';
import { startWorker } from '../adapters/worker-thread.ts';
import type { SuburbJob } from '../synthesis/pipeline/area-job.ts';
import { tryRunSuburbJob, type FailedSuburb, type SuburbOutcome } from '../synthesis/pipeline/run-job.ts';

type WorkerReply = { ok: true; outcome: SuburbOutcome | FailedSuburb } | { ok: false; index: number; message: string };

/** Jobs read ahead of the next one to consume, per thread (the reorder window; bounds memory). */
const WINDOW_PER_THREAD = 16;

/**
 * Runs suburb jobs on `threads` worker threads (inline when 0) and hands the outcomes to
 * `consume` strictly in job order, because the pool writer lays suburbs out in release order.
 * At most `threads × WINDOW_PER_THREAD` jobs are read ahead of the next one to consume, which
 * bounds memory; within them an idle worker takes the heaviest (`weight`: the area's persons),
 * so a large area neither holds a worker idle behind it (the next to consume is large and the
 * others have run out of jobs) nor is left to finish alone at the end of the build. The order
 * jobs run in changes nothing in their outcomes (each area has its own seed).
 */
export async function runJobsInOrder(
  jobs: Iterable<SuburbJob>,
  threads: number,
  consume: (outcome: SuburbOutcome | FailedSuburb) => Promise<void>,
  weight: (job: SuburbJob) => number = () => 0,
  spawn: () => Worker = () => startWorker(import.meta.url, 'synth-worker'),
): Promise<void> {
  if (threads <= 0) {
    for (const job of jobs) await consume(tryRunSuburbJob(job));
    return;
  }
  const workers = Array.from({ length: threads }, spawn);
  const iterator = jobs[Symbol.iterator]();
  const finished = new Map<number, SuburbOutcome | FailedSuburb>();
  const idle = [...workers];
  const waiting = heaviestFirst(weight);
  const window = threads * WINDOW_PER_THREAD;
  let read = 0;
  let nextToConsume = 0;
  let exhausted = false;
  let failure: Error | undefined;
  let stopping = false;
  let wake: (() => void) | undefined;
  const signal = () => {
    wake?.();
    wake = undefined;
  };

  for (const worker of workers) {
    worker.on('message', (reply: WorkerReply) => {
      idle.push(worker);
      if (reply.ok) finished.set(reply.outcome.index, reply.outcome);
      else failure ??= new Error(`suburb job ${reply.index} failed: ${reply.message}`);
      signal();
    });
    worker.on('error', (error) => {
      failure ??= error;
      signal();
    });
    worker.on('exit', (code) => {
      if (!stopping) failure ??= new Error(`a synthesis worker thread stopped (exit code ${code})`);
      signal();
    });
  }

  const dispatch = () => {
    while (!exhausted && read - nextToConsume < window) {
      const next = iterator.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      waiting.push(next.value);
      read++;
    }
    while (idle.length > 0 && waiting.size() > 0) {
      idle.pop()!.postMessage(waiting.pop());
    }
  };

  try {
    while (!(exhausted && nextToConsume === read)) {
      if (failure) throw failure;
      // Every turn hands idle workers the waiting jobs before it looks or waits: replies that came
      // in while an outcome was consumed found no one waiting, and with the heaviest first the next
      // job to consume may still be waiting (idle workers and no wake-up: the build would hang).
      dispatch();
      const ready = finished.get(nextToConsume);
      if (ready) {
        finished.delete(nextToConsume);
        nextToConsume++;
        await consume(ready);
        continue;
      }
      // Nothing can arrive between the look above and this wait (one event loop), so no reply is missed.
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    if (failure) throw failure;
  } finally {
    stopping = true;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/** The jobs read and not yet dispatched, the heaviest out first (a binary heap; ties: the earlier job). */
function heaviestFirst(weight: (job: SuburbJob) => number) {
  const heap: { job: SuburbJob; weight: number }[] = [];
  const before = (a: number, b: number) => heap[a]!.weight > heap[b]!.weight || (heap[a]!.weight === heap[b]!.weight && heap[a]!.job.index < heap[b]!.job.index);
  const exchange = (a: number, b: number) => {
    const x = heap[a]!;
    heap[a] = heap[b]!;
    heap[b] = x;
  };
  return {
    size: () => heap.length,
    push(job: SuburbJob) {
      heap.push({ job, weight: weight(job) });
      for (let i = heap.length - 1; i > 0 && before(i, (i - 1) >> 1); i = (i - 1) >> 1) exchange(i, (i - 1) >> 1);
    },
    pop(): SuburbJob {
      const top = heap[0]!.job;
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        for (let i = 0; ; ) {
          const l = 2 * i + 1;
          const r = l + 1;
          let best = i;
          if (l < heap.length && before(l, best)) best = l;
          if (r < heap.length && before(r, best)) best = r;
          if (best === i) break;
          exchange(i, best);
          i = best;
        }
      }
      return top;
    },
  };
}
