import { startWorker } from '../adapters/worker-thread.ts';
import { tryRunSuburbJob, type FailedSuburb, type SuburbJob, type SuburbOutcome } from './suburb-job.ts';

type WorkerReply = { ok: true; outcome: SuburbOutcome | FailedSuburb } | { ok: false; index: number; message: string };

/**
 * Runs suburb jobs on `threads` worker threads (inline when 0) and hands the outcomes to
 * `consume` strictly in job order, because the pool writer lays suburbs out in release order.
 * At most `threads × 2` jobs are outstanding beyond the next one to consume, which bounds memory.
 */
export async function runJobsInOrder(
  jobs: Iterable<SuburbJob>,
  threads: number,
  consume: (outcome: SuburbOutcome | FailedSuburb) => Promise<void>,
): Promise<void> {
  if (threads <= 0) {
    for (const job of jobs) await consume(tryRunSuburbJob(job));
    return;
  }
  const workers = Array.from({ length: threads }, () => startWorker(import.meta.url, 'synth-worker'));
  const iterator = jobs[Symbol.iterator]();
  const finished = new Map<number, SuburbOutcome | FailedSuburb>();
  const idle = [...workers];
  let dispatched = 0;
  let nextToConsume = 0;
  let exhausted = false;
  let failure: Error | undefined;
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
  }

  const dispatch = () => {
    while (!exhausted && idle.length > 0 && dispatched - nextToConsume < threads * 2) {
      const next = iterator.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      idle.pop()!.postMessage(next.value);
      dispatched++;
    }
  };

  try {
    dispatch();
    while (!(exhausted && nextToConsume === dispatched)) {
      if (failure) throw failure;
      const ready = finished.get(nextToConsume);
      if (ready) {
        finished.delete(nextToConsume);
        nextToConsume++;
        dispatch();
        await consume(ready);
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      dispatch();
    }
    if (failure) throw failure;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
