import type { Worker } from 'node:worker_threads';
import { startWorker } from '../adapters/worker-thread.ts';

type Reply<T> = { ok: true; value: T } | { ok: false; message: string };

/** Worker threads that answer one message with one reply each; tasks wait in a queue for a free thread. */
export interface TaskPool<Request, Result> {
  /** Runs a task; its message is made only when a thread takes it (a task's data can be large). */
  run(message: () => Request): Promise<Result>;
  close(): Promise<void>;
}

interface Queued<Request, Result> {
  readonly message: () => Request;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: Error) => void;
}

/**
 * `threads` worker threads running the module `name` beside this file (its replies are
 * { ok, value } or { ok: false, message }). A thread that stops fails its task and every later one.
 */
export function createTaskPool<Request, Result>(threads: number, name: string, spawn: () => Worker = () => startWorker(import.meta.url, name)): TaskPool<Request, Result> {
  const queue: Queued<Request, Result>[] = [];
  const idle: Worker[] = [];
  const running = new Map<Worker, Queued<Request, Result>>();
  let failure: Error | undefined;
  let closing = false;
  const next = () => {
    while (idle.length > 0 && queue.length > 0) {
      const task = queue.shift()!;
      if (failure) {
        task.reject(failure);
        continue;
      }
      const worker = idle.pop()!;
      running.set(worker, task);
      try {
        worker.postMessage(task.message());
      } catch (error) {
        running.delete(worker);
        idle.push(worker);
        task.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
  };
  const fail = (worker: Worker, error: Error) => {
    failure ??= error;
    running.get(worker)?.reject(error);
    running.delete(worker);
    for (const task of queue.splice(0)) task.reject(error);
  };
  const workers = Array.from({ length: Math.max(1, threads) }, () => {
    const worker = spawn();
    worker.on('message', (reply: Reply<Result>) => {
      const task = running.get(worker);
      running.delete(worker);
      idle.push(worker);
      if (reply.ok) task?.resolve(reply.value);
      else task?.reject(new Error(reply.message));
      next();
    });
    worker.on('error', (error) => fail(worker, error));
    worker.on('exit', (code) => {
      if (!closing) fail(worker, new Error(`a ${name} thread stopped (exit code ${code})`));
    });
    idle.push(worker);
    return worker;
  });
  return {
    run(message) {
      if (failure) return Promise.reject(failure);
      return new Promise<Result>((resolve, reject) => {
        queue.push({ message, resolve, reject });
        next();
      });
    },
    async close() {
      closing = true;
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
