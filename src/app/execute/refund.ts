/**
 * After a failure past the charge: the files removed, the charge refunded now or, while the
 * ledger does not answer, in the background; and what the client is told.
 */
import { appError, type AppError } from '../../core/errors.ts';
import { StoreUnavailableError } from '../../ports/account-store.ts';
import type { OpsLog, UseCaseDeps } from '../deps.ts';
import type { ExecuteInput, ExecutePlan } from './plan.ts';
import { discardFiles, type ScratchFiles } from './result-file.ts';

/**
 * After a failure past the charge: removes what was written, refunds the charge (or leaves it to
 * the background when the ledger is out of reach), and says what happened in the client's error.
 */
export async function refundAfterFailure(deps: UseCaseDeps, log: OpsLog, input: ExecuteInput, plan: ExecutePlan, scratch: ScratchFiles, error: unknown): Promise<AppError> {
  const { queryId } = plan;
  const cancelled = await wasCancelled(deps, input.accountId, queryId, error);
  log.error({ err: error, queryId, requestId: input.requestId }, 'execute failed after the charge; refunding');
  await discardFiles(deps, plan, scratch);
  const settled = await refundNow(deps, log, queryId, input.requestId);
  if (cancelled) {
    // Not a fault of the query: this instance stalled past its lease and another one refunded it.
    return appError('service_unavailable', 'This server stalled while running the query, so the query was cancelled and nothing was charged. Retry it (the same Idempotency-Key runs it afresh).');
  }
  if (error instanceof StoreUnavailableError) {
    // The database was out of reach for a moment (as the request gate answers it): retryable, not a fault.
    return appError('service_unavailable', `The database was out of reach for a moment, so the query could not be completed and ${settled}. Retry in a few seconds; the same Idempotency-Key is never charged twice.`);
  }
  return appError('internal_error', `The query could not be completed and ${settled}. Retry with backoff; quote request id ${input.requestId}.`);
}

/**
 * Crash recovery refunds the queries of an instance whose lease lapsed (and clears its scratch
 * files); a stalled instance that resumes then fails anywhere, not only at completeQuery.
 * (A database out of reach is not asked: that would only wait out another timeout.)
 */
async function wasCancelled(deps: UseCaseDeps, accountId: string, queryId: string, error: unknown): Promise<boolean> {
  return (
    error instanceof LeaseLapsedError ||
    (!(error instanceof StoreUnavailableError) && (await deps.accounts.getQuery(accountId, queryId).catch(() => undefined))?.status === 'failed')
  );
}

/** Refunds the charge; when the ledger does not answer, keeps trying in the background. Returns how the charge was settled, for the client. */
async function refundNow(deps: UseCaseDeps, log: OpsLog, queryId: string, requestId: string): Promise<string> {
  try {
    await deps.accounts.refundQuery(queryId, deps.clock.now(), REFUND_REASON);
    return 'nothing was charged';
  } catch (refundError) {
    // Typically the database is unreachable, which is often why the execute failed at all.
    log.error({ err: refundError, queryId, requestId }, 'refund failed; retrying in the background');
    refundLater(deps, log, queryId, requestId);
    return 'its charge will be refunded automatically as soon as the ledger answers';
  }
}

const REFUND_REASON = 'generation failed';

export class LeaseLapsedError extends Error {
  constructor(queryId: string) {
    super(`query ${queryId} was refunded by crash recovery while it ran (this instance's lease lapsed)`);
  }
}
/** Pauses between background refund attempts (the last one repeats). */
const REFUND_RETRY_DELAYS_MS = [250, 500, 1000, 2000, 5000, 10_000, 30_000];
/** After this the pending query is left to crash recovery at the next start. */
const REFUND_RETRY_FOR_MS = 30 * 60_000;

/**
 * Refunds a failed execute in the background, retrying until the store answers: a database
 * restart must not leave a client charged without a file until the process restarts.
 * refundQuery is idempotent, so an attempt whose acknowledgement was lost is harmless.
 */
export function refundLater(deps: Pick<UseCaseDeps, 'accounts' | 'clock'>, log: OpsLog, queryId: string, requestId: string): void {
  const started = Date.now();
  let attempt = 0;
  const schedule = () => {
    const delay = REFUND_RETRY_DELAYS_MS[Math.min(attempt, REFUND_RETRY_DELAYS_MS.length - 1)]!;
    attempt++;
    setTimeout(() => void tryOnce(), delay).unref();
  };
  const tryOnce = async () => {
    try {
      await deps.accounts.refundQuery(queryId, deps.clock.now(), REFUND_REASON);
      log.info({ queryId, requestId, attempts: attempt }, 'refund made in the background');
    } catch (error) {
      if (Date.now() - started < REFUND_RETRY_FOR_MS) return schedule();
      log.error({ err: error, queryId, requestId }, 'refund still failing; crash recovery will refund the pending query at the next start');
    }
  };
  schedule();
}

