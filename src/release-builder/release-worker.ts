import { parentPort } from 'node:worker_threads';
import { BuildAborted, buildRelease } from './build-release.ts';
import type { ReleaseWorkerMessage, ThreadBuildOptions } from './release-thread.ts';

/** Worker thread: runs one buildRelease (release-thread.ts), posting its progress and its summary; "stop" aborts it. */
if (!parentPort) throw new Error('release-worker.ts runs as a worker thread');
const port = parentPort;
const stop = new AbortController();
const send = (message: ReleaseWorkerMessage) => port.postMessage(message);

port.on('message', (message: { readonly kind: 'build'; readonly options: ThreadBuildOptions } | { readonly kind: 'stop' }) => {
  if (message.kind === 'stop') {
    stop.abort();
    return;
  }
  buildRelease({ ...message.options, signal: stop.signal, onProgress: (phase, done, total) => send({ kind: 'progress', phase, done, total }) }).then(
    (summary) => send({ kind: 'done', summary }),
    (error: unknown) => send(error instanceof BuildAborted ? { kind: 'aborted' } : { kind: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
