/**
 * A per-process queue per key. Two SQLite stores in one process on the same file must not both
 * sit in BEGIN IMMEDIATE: node:sqlite waits for the lock synchronously, which would block the
 * very event loop the holder needs to finish. Across processes SQLite's busy_timeout does the waiting.
 */
const tails = new Map<string, Promise<void>>();

export async function withProcessMutex<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => mine);
  tails.set(key, tail);
  await previous;
  try {
    return await fn();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}
