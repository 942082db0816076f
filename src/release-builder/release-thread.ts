/**
 * buildRelease on a worker thread of its own (release-worker.ts), for a build that runs while the
 * service answers requests: the build's main-thread work (reading the inputs, gathering the
 * areas, writing the columns) would otherwise hold the event loop for seconds at a time. Its
 * synthesis workers are that thread's, as in `spq build`; the release written is the same.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startWorker } from '../adapters/worker-thread.ts';
import { BuildAborted, type BuildOptions, type BuildSummary } from './build-release.ts';

const STOP_WAIT_MS = 10_000;

/** What goes to the thread: the build's options less the callbacks, which stay here. */
export type ThreadBuildOptions = Omit<BuildOptions, 'signal' | 'onProgress'>;

/** Messages from release-worker.ts. */
export type ReleaseWorkerMessage =
  | { readonly kind: 'progress'; readonly phase: 'load' | 'synthesize' | 'write'; readonly done: number; readonly total: number }
  | { readonly kind: 'done'; readonly summary: BuildSummary }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'failed'; readonly message: string };

/** Resolves with the summary; rejects with BuildAborted once `signal` has stopped the build (what was half written is removed). */
export function buildReleaseOnThread(options: ThreadBuildOptions, hooks: Pick<BuildOptions, 'signal' | 'onProgress'> = {}): Promise<BuildSummary> {
  const worker = startWorker(import.meta.url, 'release-worker');
  let phase: 'load' | 'synthesize' | 'write' = 'load';
  let stopping: NodeJS.Timeout | undefined;
  const stop = () => {
    // Loading writes nothing and checks no signal (seconds of reading and choosing strengths): cut it off at once.
    if (phase === 'load') return void worker.terminate();
    // Synthesis stops between areas and removes what it wrote; one that does not within this is cut off (removed below).
    worker.postMessage({ kind: 'stop' });
    stopping = setTimeout(() => void worker.terminate(), STOP_WAIT_MS);
  };
  hooks.signal?.addEventListener('abort', stop, { once: true });
  return new Promise<BuildSummary>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      hooks.signal?.removeEventListener('abort', stop);
      clearTimeout(stopping);
      outcome();
      void worker.terminate();
    };
    worker.on('message', (message: ReleaseWorkerMessage) => {
      if (message.kind === 'progress') {
        phase = message.phase;
        hooks.onProgress?.(message.phase, message.done, message.total);
      }
      else if (message.kind === 'done') settle(() => resolve(message.summary));
      else if (message.kind === 'aborted') settle(() => reject(new BuildAborted()));
      else settle(() => reject(new Error(message.message)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => {
      if (settled) return;
      // Cut off: what it had written of the release (never its manifest, which goes last) is removed before the caller hears.
      const dir = join(options.poolsDir, options.version);
      const removed = existsSync(join(dir, 'manifest.json')) ? Promise.resolve() : rm(dir, { recursive: true, force: true });
      void removed.finally(() => settle(() => reject(hooks.signal?.aborted ? new BuildAborted() : new Error(`the release build's thread exited (code ${code}) before it finished`))));
    });
    worker.postMessage({ kind: 'build', options });
    if (hooks.signal?.aborted) stop();
  });
}
