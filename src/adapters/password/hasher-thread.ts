/**
 * PasswordHasher on dedicated worker threads (hasher-worker.ts) with a bounded queue. The threads
 * are the service's own: Node's scrypt() would run on the shared libuv pool of four threads, where
 * 16 parallel guesses held every file read and write of executes and downloads for seconds. Here a
 * flood waits only for itself, and past `queue` waiting requests it is refused at once (busy).
 */
import type { Worker } from 'node:worker_threads';
import { err, ok, type Result } from '../../core/result.ts';
import type { HasherBusy, HasherLoad, PasswordHasher } from '../../ports/password-hasher.ts';
import { startWorker } from '../worker-thread.ts';

type HasherRequest = { readonly op: 'hash'; readonly password: string } | { readonly op: 'verify'; readonly password: string; readonly stored: string };
export type ToHasher = HasherRequest & { readonly id: number };
type FromHasher = { readonly id: number; readonly value?: string | boolean; readonly error?: string };
type Job = { readonly message: ToHasher; readonly settle: (reply: FromHasher) => void };

export interface HasherThreadOptions {
  /** Hashing threads (default 1: on two cores, the other core stays the service's). */
  readonly threads?: number;
  /** Requests that may wait for a thread; more are refused at once (default 16). */
  readonly queue?: number;
}

/** Roughly one scrypt (~50–100 ms) per queued request ahead, rounded up to whole seconds. */
const retryAfter = (waiting: number, threads: number): number => Math.max(1, Math.ceil((waiting * 0.1) / threads));

export function createThreadHasher(options: HasherThreadOptions = {}): PasswordHasher {
  const threads = Math.max(1, options.threads ?? 1);
  const queueLimit = Math.max(0, options.queue ?? 16);
  const idle: Worker[] = [];
  const workers: Worker[] = [];
  const waiting: Job[] = [];
  const busyWith = new Map<Worker, Job>();
  let nextId = 1;
  let refused = 0;
  let closed = false;

  const run = (worker: Worker, job: Job) => {
    busyWith.set(worker, job);
    worker.postMessage(job.message);
  };
  const onReply = (worker: Worker, reply: FromHasher) => {
    const job = busyWith.get(worker);
    busyWith.delete(worker);
    job?.settle(reply);
    const next = waiting.shift();
    if (next !== undefined) run(worker, next);
    else idle.push(worker);
  };
  // Started on the first password to hash, not with the process: most instances (an API behind a
  // balancer, a restart after a crash) never check one, and a thread costs start-up time and memory.
  const start = () => {
    for (let k = 0; k < threads; k++) {
      const worker = startWorker(import.meta.url, 'hasher-worker');
      worker.unref(); // an idle hasher never keeps the process alive
      worker.on('message', (reply: FromHasher) => onReply(worker, reply));
      worker.on('error', (error) => onReply(worker, { id: -1, error: error.message }));
      workers.push(worker);
      idle.push(worker);
    }
  };

  function submit<T extends string | boolean>(message: HasherRequest): Promise<Result<T, HasherBusy>> {
    if (closed) return Promise.reject(new Error('password hasher closed'));
    if (workers.length === 0) start();
    if (idle.length === 0 && waiting.length >= queueLimit) {
      refused++;
      return Promise.resolve(err({ kind: 'busy', retryAfterSeconds: retryAfter(waiting.length, threads) }));
    }
    return new Promise((resolve, reject) => {
      const job: Job = {
        message: { ...message, id: nextId++ },
        settle: (reply) => (reply.error !== undefined ? reject(new Error(`password hashing failed: ${reply.error}`)) : resolve(ok(reply.value as T))),
      };
      const worker = idle.pop();
      if (worker !== undefined) run(worker, job);
      else waiting.push(job);
    });
  }

  return {
    hash: (password) => submit<string>({ op: 'hash', password }),
    verify: (password, stored) => submit<boolean>({ op: 'verify', password, stored }),
    load: (): HasherLoad => ({ running: busyWith.size, queued: waiting.length, capacity: threads + queueLimit, refused }),
    async close() {
      closed = true;
      for (const job of [...waiting.splice(0), ...busyWith.values()]) job.settle({ id: job.message.id, error: 'the service is shutting down' });
      busyWith.clear();
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
