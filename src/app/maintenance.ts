import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { QueryRecord } from '../ports/account-store.ts';
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
      await collectFailedFiles(deps, log, HOUR_MS);
      await removeStalePartials(deps, log, new Date(deps.clock.now().getTime() - PARTIAL_IDLE_MS));
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
 * Files left in the temp directory by a crash (partial exports), removed at start-up. Each
 * instance writes under tmp/<instance id>/, so what belongs to an instance without a live lease
 * (and anything loose, from before) is nobody's; a live instance's directory is left alone, in
 * case two instances share a data directory. Returns how many entries it removed.
 */
export async function removeOrphanTemps(tmpDir: string, liveInstances: ReadonlySet<string> = new Set()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tmpDir);
  } catch {
    return 0; // no temp directory yet
  }
  const orphans = names.filter((name) => !liveInstances.has(name));
  for (const name of orphans) await rm(join(tmpDir, name), { recursive: true, force: true });
  return orphans.length;
}

/**
 * A partial copy in the file store (a compression or copy cut off by a kill) not written for this
 * long has lost its writer: a live one writes every few milliseconds, even on a loaded machine.
 */
export const PARTIAL_IDLE_MS = 10 * 60_000;

/**
 * Removes the partial copies a killed process left in the file store, last written before
 * `olderThan`: a completed query's file keeps its key for days, and its delete would be the only
 * other thing that removes them. Returns how many it removed.
 */
export async function removeStalePartials(deps: Pick<UseCaseDeps, 'files'>, log: OpsLog, olderThan: Date): Promise<number> {
  const removed = (await deps.files.removeStalePartials?.(olderThan)) ?? 0;
  if (removed > 0) log.info({ removed }, 'removed partial copies left in the file store by an earlier stop');
  return removed;
}

/** Executes still pending after this long are taken as lost in a crash (the slowest execute takes minutes). */
export const PENDING_TIMEOUT_MS = 30 * 60_000;

/**
 * Crash recovery at start-up: a query left pending (the process died between charge and
 * completion) is refunded, and any partial file removed. Returns how many it refunded.
 */
export async function recoverPendingQueries(deps: Deps, log: OpsLog, timeoutMs = PENDING_TIMEOUT_MS): Promise<number> {
  const now = deps.clock.now();
  return refundInterrupted(deps, log, await deps.accounts.pendingQueriesBefore(new Date(now.getTime() - timeoutMs)), now);
}

/** Scale-out crash recovery: refunds the pending executes of instances whose lease lapsed. Returns how many. */
export async function recoverLapsedInstances(deps: Deps, log: OpsLog): Promise<number> {
  const now = deps.clock.now();
  return refundInterrupted(deps, log, await deps.accounts.pendingQueriesOfLapsedInstances(now), now);
}

/**
 * Deletes whatever files refunded queries may still have (an upload that landed after the refund,
 * a delete that failed) and marks them deleted, so no stored file lacks a completed query. Only
 * queries executed more than `settleMs` ago: by then a stalled instance has cleaned up after itself
 * or is dead. Returns how many queries it settled.
 */
export async function collectFailedFiles(deps: Deps, log: OpsLog, settleMs: number, batch = 100): Promise<number> {
  let settled = 0;
  for (;;) {
    const now = deps.clock.now();
    const failed = await deps.accounts.failedQueriesWithFiles(new Date(now.getTime() - settleMs), batch);
    for (const q of failed) {
      try {
        await deleteQueryFiles(deps, q);
      } catch (error) {
        log.error({ err: error, queryId: q.queryId }, 'could not delete the files of a refunded query; retrying next run');
        continue;
      }
      await deps.accounts.markFileDeleted(q.queryId, now);
      settled++;
    }
    if (failed.length < batch) return settled;
  }
}

/** Deletes a query's result file (under the key execute would have used) and its dictionary. */
async function deleteQueryFiles(deps: Deps, q: QueryRecord): Promise<void> {
  const format = formatOfFileName(q.fileKey ?? `.${String(q.metadata.output_format)}`);
  if (format !== undefined) await deps.files.delete(q.fileKey ?? resultFileKey(q.queryId, format));
  await deps.files.delete(dictionaryFileKey(q.queryId));
}

async function refundInterrupted(deps: Deps, log: OpsLog, pending: readonly QueryRecord[], now: Date): Promise<number> {
  let refunded = 0;
  for (const q of pending) {
    // Listed as pending a moment ago, it may have completed since (an instance that only stalled):
    // then it stays completed, with its file.
    await deps.accounts.refundQuery(q.queryId, now, 'interrupted: refunded by crash recovery', { onlyIfPending: true });
    if ((await deps.accounts.getQuery(q.accountId, q.queryId))?.status !== 'failed') continue;
    // The file, if the crash came after the upload (collectFailedFiles tries again if this fails).
    await deleteQueryFiles(deps, q).catch(() => undefined);
    log.info({ queryId: q.queryId, credits: q.creditCost }, 'refunded a query left pending by an earlier crash');
    refunded++;
  }
  return refunded;
}

/**
 * Holds this instance's lease: renews it at once and then every quarter of its length, and after
 * each renewal refunds the pending executes of instances whose lease lapsed (killed, frozen, cut
 * off), so a dead instance's clients are refunded within seconds, not at its restart; then the
 * files of refunded queries and the partial files a dead instance left in `tmpDir` are removed. Returns a
 * function that stops renewing and gives the lease up (call it after the executes drained).
 */
export async function holdInstanceLease(deps: Deps, log: OpsLog, instanceId: string, leaseMs: number, tmpDir?: string): Promise<() => Promise<void>> {
  const renew = async () => {
    const now = deps.clock.now();
    await deps.accounts.renewInstanceLease({ instanceId, until: new Date(now.getTime() + leaseMs), now });
  };
  await renew();
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = (async () => {
      await renew();
      // A dead instance that shared this data directory left its partial files here. Swept first and
      // on its own: a slow or failing refund or file collection must not hold it back.
      if (tmpDir !== undefined) {
        await (async () => removeOrphanTemps(tmpDir, new Set([instanceId, ...(await deps.accounts.liveInstances(deps.clock.now()))])))().catch((error: unknown) =>
          log.error({ err: error }, 'could not remove a dead instance\'s temp files; retrying'),
        );
      }
      const refunded = await recoverLapsedInstances(deps, log);
      if (refunded > 0) log.info({ refunded }, 'refunded the executes of an instance whose lease lapsed');
      await collectFailedFiles(deps, log, leaseMs);
    })().catch((error: unknown) => log.error({ err: error }, 'instance lease renewal or recovery failed; retrying'));
  }, Math.max(250, Math.floor(leaseMs / 4)));
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
    await deps.accounts.releaseInstanceLease(instanceId).catch((error: unknown) => log.error({ err: error }, 'could not release the instance lease; it lapses by itself'));
  };
}
