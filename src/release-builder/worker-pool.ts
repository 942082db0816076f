import type { Worker } from 'node:worker_threads';
import { startWorker } from '../adapters/worker-thread.ts';
import type { SuburbJob } from '../synthesis/pipeline/area-job.ts';
import { tryRunSuburbJob, type FailedSuburb, type SuburbOutcome } from '../synthesis/pipeline/run-job.ts';

type WorkerReply = { ok: true; outcome: SuburbOutcome | FailedSuburb; cpuMicros?: number } | { ok: false; index: number; message: string };

/** Jobs always read ahead of the next one to consume, per thread, however heavy they are. */
const WINDOW_PER_THREAD = 16;
/** Jobs at most read ahead per thread, however light (many tiny suburbs). */
const MAX_AHEAD_PER_THREAD = 256;
/**
 * Weight (persons) read ahead of the next job to consume, past the minimum window: enough for the
 * other workers to stay busy while one synthesizes the largest area (Brisbane LGA, 1.2 M persons),
 * and a bound on the outcomes held for in-order consumption (about 100 bytes a person).
 */
export const AHEAD_WEIGHT = 2_500_000;

/** How the threads of a run spent it: what the build reports as its synthesis phase. */
export interface PoolStatistics {
  /** Per worker thread: the time it held a job (dispatch to reply), its CPU time, and the jobs it ran. */
  readonly workers: readonly { readonly busyMs: number; readonly cpuMs: number; readonly jobs: number }[];
  /** Wall time of the run. */
  readonly wallMs: number;
  /** Time with a worker idle although jobs were left, because the read-ahead was full (the next job to consume still running). */
  readonly windowFullMs: number;
  /** Each job's weight (persons) and the CPU time its worker spent on it, in job order: what an area costs by its size. */
  readonly jobCosts: readonly { readonly weight: number; readonly cpuMs: number }[];
}

export interface PoolOptions {
  /** A job's weight (the area's persons): the heaviest waiting job runs first, and the read-ahead is bounded by weight. */
  readonly weight?: (job: SuburbJob) => number;
  readonly spawn?: () => Worker;
  /** Weight read ahead of the next job to consume (default AHEAD_WEIGHT). */
  readonly aheadWeight?: number;
}

/**
 * Runs suburb jobs on `threads` worker threads (inline when 0) and hands the outcomes to
 * `consume` strictly in job order, because the pool writer lays suburbs out in release order.
 * At least `threads × WINDOW_PER_THREAD` jobs are read ahead of the next one to consume, and more
 * while their weight is under `aheadWeight` (at most `threads × MAX_AHEAD_PER_THREAD`), which
 * bounds memory; within them an idle worker takes the heaviest (`weight`: the area's persons), so
 * a large area neither holds the other workers idle behind it (the next to consume is large and
 * the rest of a window counted in jobs is soon done: the national build's workers sat idle two
 * thirds of the time so) nor is left to finish alone at the end of the build. The order jobs run
 * in changes nothing in their outcomes (each area has its own seed).
 */
export async function runJobsInOrder(
  jobs: Iterable<SuburbJob>,
  threads: number,
  consume: (outcome: SuburbOutcome | FailedSuburb) => Promise<void>,
  options: PoolOptions = {},
): Promise<PoolStatistics> {
  const started = performance.now();
  if (threads <= 0) {
    for (const job of jobs) await consume(tryRunSuburbJob(job));
    return { workers: [], wallMs: performance.now() - started, windowFullMs: 0, jobCosts: [] };
  }
  const weight = options.weight ?? (() => 0);
  const aheadWeight = options.aheadWeight ?? AHEAD_WEIGHT;
  const workers = Array.from({ length: threads }, options.spawn ?? (() => startWorker(import.meta.url, 'synth-worker')));
  const busy = workers.map(() => ({ busyMs: 0, jobs: 0, since: 0 }));
  const iterator = jobs[Symbol.iterator]();
  const finished = new Map<number, SuburbOutcome | FailedSuburb>();
  const weights = new Map<number, number>();
  const jobCosts: { weight: number; cpuMs: number }[] = [];
  const idle = [...workers];
  const waiting = heaviestFirst(weight);
  const minAhead = threads * WINDOW_PER_THREAD;
  const maxAhead = threads * MAX_AHEAD_PER_THREAD;
  let read = 0;
  let readWeight = 0;
  let nextToConsume = 0;
  let exhausted = false;
  let failure: Error | undefined;
  let stopping = false;
  let windowFullMs = 0;
  let wake: (() => void) | undefined;
  const signal = () => {
    wake?.();
    wake = undefined;
  };

  workers.forEach((worker, w) => {
    worker.on('message', (reply: WorkerReply) => {
      idle.push(worker);
      busy[w]!.busyMs += performance.now() - busy[w]!.since;
      busy[w]!.jobs++;
      if (reply.ok) {
        finished.set(reply.outcome.index, reply.outcome);
        if (reply.cpuMicros !== undefined) jobCosts[reply.outcome.index] = { weight: weights.get(reply.outcome.index) ?? 0, cpuMs: reply.cpuMicros / 1000 };
      }
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
  });

  const roomToRead = () => read - nextToConsume < minAhead || (readWeight < aheadWeight && read - nextToConsume < maxAhead);
  const dispatch = () => {
    while (!exhausted && roomToRead()) {
      const next = iterator.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      const w = weight(next.value);
      weights.set(next.value.index, w);
      readWeight += w;
      waiting.push(next.value);
      read++;
    }
    while (idle.length > 0 && waiting.size() > 0) {
      const worker = idle.pop()!;
      busy[workers.indexOf(worker)]!.since = performance.now();
      worker.postMessage(waiting.pop());
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
        readWeight -= weights.get(nextToConsume) ?? 0;
        weights.delete(nextToConsume);
        nextToConsume++;
        await consume(ready);
        continue;
      }
      const windowFull = idle.length > 0 && !exhausted && waiting.size() === 0;
      const waitStarted = performance.now();
      // Nothing can arrive between the look above and this wait (one event loop), so no reply is missed.
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      if (windowFull) windowFullMs += performance.now() - waitStarted;
    }
    if (failure) throw failure;
    const cpu = await Promise.all(workers.map((worker) => worker.cpuUsage().catch(() => ({ user: 0, system: 0 }))));
    return {
      workers: busy.map((b, w) => ({ busyMs: b.busyMs, jobs: b.jobs, cpuMs: (cpu[w]!.user + cpu[w]!.system) / 1000 })),
      wallMs: performance.now() - started,
      windowFullMs,
      jobCosts: jobCosts.filter((c) => c !== undefined),
    };
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
