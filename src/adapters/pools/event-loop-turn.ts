/**
 * A turn of the event loop for a long export: the writers await one every few batches, so a
 * file of a million rows never holds up other requests (a /healthz, a download) for longer than
 * a few batches' work. setImmediate, not a resolved promise: only a macrotask lets I/O callbacks run.
 */
export const eventLoopTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** Batches of rows (2,048 each, export.ts) gathered between two turns: a few milliseconds of work. */
export const BATCHES_PER_TURN = 4;

/** The batches as they come, with a turn of the event loop every BATCHES_PER_TURN of them. */
export async function* withTurns<T>(batches: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T> {
  let count = 0;
  for await (const batch of batches) {
    if (++count % BATCHES_PER_TURN === 0) await eventLoopTurn();
    yield batch;
  }
}
