/**
 * The parquet encoding thread (parquet-thread.ts starts it): encodes the row groups of any number
 * of files, each with its own encoder (parquet-pages.ts), in the order they arrive. A row group's
 * buffers go back (moved) as soon as they are read, its chunks (copied) when compressed.
 */
import { parentPort } from 'node:worker_threads';
import { encoderHere, type RowGroupEncoder } from './parquet-pages.ts';
import type { ToEncoder } from './parquet-thread.ts';

const files = new Map<number, RowGroupEncoder>();
const port = parentPort!;

port.on('message', (message: ToEncoder) => {
  if (message.op === 'open') {
    files.set(message.file, encoderHere(message.columns, message.groupRows));
    return;
  }
  if (message.op === 'close') {
    files.get(message.file)?.close();
    files.delete(message.file);
    return;
  }
  const { file, group, buffers, rows } = message;
  const encoder = files.get(file);
  if (encoder === undefined) return port.postMessage({ file, group, error: `parquet encoding thread: no file ${file}` });
  encoder.encode(buffers, rows).then(
    ({ next, chunks }) => {
      port.postMessage({ file, group, buffers: next }, next.map((b) => b.buffer as ArrayBuffer));
      chunks.then(
        // Copied, not moved: a dictionary page is the same bytes in every row group, and small
        // pages share Node's buffer pool.
        (done) => port.postMessage({ file, group, chunks: done }),
        (error: unknown) => port.postMessage({ file, group, error: error instanceof Error ? error.message : String(error) }),
      );
    },
    (error: unknown) => port.postMessage({ file, group, error: error instanceof Error ? error.message : String(error) }),
  );
});
