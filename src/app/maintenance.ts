import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { OpsLog, UseCaseDeps } from './deps.ts';
import { dictionaryFileKey, formatOfFileName, resultFileKey } from './format.ts';

type Deps = Pick<UseCaseDeps, 'accounts' | 'files' | 'clock' | 'config'>;

const HOUR_MS = 3_600_000;

/**
 * Deletes result files whose link expired more than the grace period ago and records it;
 * history then reports download_expired = true. Returns how many files it deleted.
 */
export async function sweepExpiredFiles(deps: Deps, log: OpsLog, batch = 100): Promise<number> {
  let deleted = 0;
  for (;;) {
    const now = deps.clock.now();
    const before = new Date(now.getTime() - deps.config.fileGraceHours * HOUR_MS);
    const expired = await deps.accounts.expiredFiles(before, batch);
    for (const q of expired) {
      if (q.fileKey !== null) await deps.files.delete(q.fileKey);
      await deps.files.delete(dictionaryFileKey(q.queryId));
      await deps.accounts.markFileDeleted(q.queryId, now);
      deleted++;
    }
    if (expired.length < batch) break;
  }
  if (deleted > 0) log.info({ deleted }, 'sweeper deleted expired result files');
  return deleted;
}

/**
 * Runs the sweeper every intervalMs (first run at once); returns a function that stops it. Each
 * run also refunds executes left pending past PENDING_TIMEOUT_MS: with several instances, one
 * that died mid-execute may never start again, so recovery cannot wait for a restart.
 */
export function startSweeper(deps: Deps, log: OpsLog, intervalMs: number): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = (async () => {
      await sweepExpiredFiles(deps, log);
      await recoverPendingQueries(deps, log);
    })().catch((error: unknown) => log.error({ err: error }, 'sweeper run failed; retrying next interval'));
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * Files left in an instance's temp directory by a crash (partial exports): removed at start-up of
 * the embedded deployment, where no other process can be writing there. Returns how many.
 */
export async function removeOrphanTemps(tmpDir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tmpDir);
  } catch {
    return 0; // no temp directory yet
  }
  for (const name of names) await rm(join(tmpDir, name), { recursive: true, force: true });
  return names.length;
}

/** Executes still pending after this long are taken as lost in a crash (the slowest execute takes minutes). */
export const PENDING_TIMEOUT_MS = 30 * 60_000;

/**
 * Crash recovery at start-up: a query left pending (the process died between charge and
 * completion) is refunded, and any partial file removed. Returns how many it refunded.
 */
export async function recoverPendingQueries(deps: Deps, log: OpsLog, timeoutMs = PENDING_TIMEOUT_MS): Promise<number> {
  const now = deps.clock.now();
  const pending = await deps.accounts.pendingQueriesBefore(new Date(now.getTime() - timeoutMs));
  for (const q of pending) {
    // The file, if the crash came after the upload, sits under the key execute would have used.
    const format = formatOfFileName(q.fileKey ?? `.${String(q.metadata.output_format)}`);
    if (format !== undefined) await deps.files.delete(q.fileKey ?? resultFileKey(q.queryId, format)).catch(() => undefined);
    await deps.files.delete(dictionaryFileKey(q.queryId)).catch(() => undefined);
    await deps.accounts.refundQuery(q.queryId, now, 'interrupted: refunded by crash recovery');
    log.info({ queryId: q.queryId, credits: q.creditCost }, 'refunded a query left pending by an earlier crash');
  }
  return pending.length;
}
