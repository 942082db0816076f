/**
 * Parquet encoding off the event loop: one worker thread (parquet-worker.ts), started at the
 * first large parquet file and kept (unreferenced) for the next, encodes row groups while the
 * writer gathers the next one on the main thread, as DuckDB's own thread did before the writer
 * was spq's. The row group's buffers are moved to the thread and back (two sets per file: one
 * filled while the other is encoded); the pages come back as they would be made here, byte for byte.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../worker-thread.ts';
import { groupBuffers, type Chunk, type GroupBuffers, type ParquetColumn, type RowGroupEncoder } from './parquet-pages.ts';

export type ToEncoder =
  | { readonly op: 'open'; readonly file: number; readonly columns: readonly ParquetColumn[]; readonly groupRows: number }
  | { readonly op: 'encode'; readonly file: number; readonly group: number; readonly rows: number; readonly buffers: GroupBuffers }
  | { readonly op: 'close'; readonly file: number };

type FromEncoder =
  | { readonly file: number; readonly group: number; readonly buffers: GroupBuffers }
  | { readonly file: number; readonly group: number; readonly chunks: Chunk[] }
  | { readonly file: number; readonly group: number; readonly error: string };

interface Waiting {
  readonly buffers: (b: GroupBuffers) => void;
  readonly chunks: (c: Chunk[]) => void;
  readonly fail: (e: Error) => void;
}

interface EncodingThread {
  readonly worker: Worker;
  /** The row groups the thread owes an answer, by `file:group`. */
  readonly waiting: Map<string, Waiting>;
}

let thread: EncodingThread | undefined;
let nextFile = 0;

function encodingThread(): EncodingThread {
  if (thread !== undefined) return thread;
  const worker = startWorker(import.meta.url, 'parquet-worker');
  // An idle encoding thread does not keep the process alive; one with row groups out does.
  worker.unref();
  const waiting = new Map<string, Waiting>();
  const current: EncodingThread = { worker, waiting };
  const settle = (id: string) => {
    waiting.delete(id);
    if (waiting.size === 0) worker.unref();
  };
  const failAll = (error: Error) => {
    if (thread === current) thread = undefined;
    for (const w of waiting.values()) w.fail(error);
    waiting.clear();
  };
  worker.on('message', (m: FromEncoder) => {
    const id = `${m.file}:${m.group}`;
    const w = waiting.get(id);
    if (w === undefined) return;
    if ('buffers' in m) return w.buffers(m.buffers);
    settle(id);
    if ('error' in m) w.fail(new Error(m.error));
    else w.chunks(m.chunks);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`parquet encoding thread exited (code ${code})`)));
  thread = current;
  return current;
}

function deferred<T>(): { readonly promise: Promise<T>; readonly resolve: (value: T) => void; readonly reject: (error: Error) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // Awaited by the writer; until then a failure must not go unhandled.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** Column descriptions as the thread needs them (plain data: a column object may carry more). */
const plain = (c: ParquetColumn): ParquetColumn =>
  c.kind === 'coded' ? { kind: 'coded', name: c.name, labels: [...c.labels], ordered: c.ordered ?? false } : { kind: 'id', name: c.name, prefix: c.prefix, digits: c.digits };

/** An encoder for one file on the encoding thread. */
export async function encoderOnThread(columns: readonly ParquetColumn[], groupRows: number): Promise<RowGroupEncoder> {
  const current = encodingThread();
  const { worker, waiting } = current;
  const file = nextFile++;
  worker.postMessage({ op: 'open', file, columns: columns.map(plain), groupRows } satisfies ToEncoder);
  // The set to fill while the thread encodes the other; the other comes back once read.
  let spare: Promise<GroupBuffers> = Promise.resolve(groupBuffers(columns, groupRows));
  let group = 0;
  return {
    async encode(buffers, rows) {
      const next = await spare;
      // A thread that died answers nothing: fail instead of waiting for ever.
      if (thread !== current) throw new Error('parquet encoding thread stopped');
      const back = deferred<GroupBuffers>();
      const chunks = deferred<Chunk[]>();
      waiting.set(`${file}:${group}`, {
        buffers: back.resolve,
        chunks: chunks.resolve,
        fail: (error) => {
          back.reject(error);
          chunks.reject(error);
        },
      });
      worker.ref();
      worker.postMessage({ op: 'encode', file, group: group++, rows, buffers } satisfies ToEncoder, buffers.map((b) => b.buffer as ArrayBuffer));
      spare = back.promise;
      return { next, chunks: chunks.promise };
    },
    close() {
      worker.postMessage({ op: 'close', file } satisfies ToEncoder);
    },
  };
}
