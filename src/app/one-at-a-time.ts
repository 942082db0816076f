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
