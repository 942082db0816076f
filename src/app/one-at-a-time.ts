/**
 * Runs tasks one at a time per key, in the order they come, and tasks of different keys side by
 * side. Charges of one account serialize in the database anyway (each takes the account's balance
 * row FOR UPDATE): waiting here instead holds no pooled connection while it waits, so a burst of
 * executes on one account (300 at once over two instances, the fourth probe's) leaves the pool to
 * the work it can do, and no request times out waiting for a connection behind a row lock.
 */
export class OneAtATime {
  /** The last task queued per key; a key leaves the map when its queue drains. */
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    return this.#queue(key, task);
  }

  /**
   * run(), unless the task's turn comes more than `maxWaitMs` after it was queued: then it is not
   * run and the answer is 'waited too long' (a burst bigger than the work this instance can do in
   * that time answers the rest at once, for them to come back later, instead of holding each
   * request until its client gives up). `now` is monotonic milliseconds.
   */
  runWithin<T>(key: string, maxWaitMs: number, task: () => Promise<T>, now: () => number = () => performance.now()): Promise<T | 'waited too long'> {
    const queuedAt = now();
    return this.#queue<T | 'waited too long'>(key, () => (now() - queuedAt > maxWaitMs ? Promise.resolve('waited too long' as const) : task()));
  }

  #queue<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    const result = before.then(task, task); // a failed task never blocks the ones after it
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Keys with a task running or waiting (for tests and metrics). */
  get busyKeys(): number {
    return this.#tails.size;
  }
}
