/**
 * POST /query/execute: plan (execute/plan.ts) → charge → sample → write and store the file
 * (execute/result-file.ts) → complete → answer (execute/outcome.ts); a failure after the charge
 * is refunded (execute/refund.ts).
 */
import { OneAtATime } from './one-at-a-time.ts';
import { withServedRelease } from './served-release.ts';
import type { DatasetType, OutputFormat } from '../core/dataset.ts';
import { appError, type AppError } from '../core/errors.ts';
import { err, ok, type Result } from '../core/result.ts';
import type { ChargeFailure } from '../ports/account-store.ts';
import type { OpsLog, UseCaseDeps } from './deps.ts';
import { completedOutcome, outcomeOf, type ExecuteOutcome } from './execute/outcome.ts';
import { planExecute, requestHash, sampleSelections, type ExecuteInput, type ExecutePlan } from './execute/plan.ts';
import { LeaseLapsedError, refundAfterFailure, refundLater } from './execute/refund.ts';
import { storeResultFiles, writeResultFile, type ScratchFiles } from './execute/result-file.ts';

export type { ExecuteOutcome } from './execute/outcome.ts';

/** What a completed execute produced: one fresh charge and one stored file (never a replay or a refunded failure). */
export interface ExecuteCompletion {
  readonly credits: number;
  readonly rows: number;
  readonly bytes: number;
  readonly dataset: DatasetType;
  readonly format: OutputFormat;
}

/** Told about every completed execute, e.g. to count credits charged and rows written for metrics. */
export interface ExecuteObserver {
  executeCompleted(completion: ExecuteCompletion): void;
}

/**
 * Validate → price → charge (the pending history row goes in the same transaction) → sample
 * with a fresh secure seed → write the file → store it → complete. Anything that fails after
 * the charge refunds it: a client is charged for a ready file or not at all.
 */
export async function executeQuery(
  served: UseCaseDeps & { readonly executeObserver?: ExecuteObserver | undefined },
  log: OpsLog,
  input: ExecuteInput,
): Promise<Result<ExecuteOutcome, AppError>> {
  // One release from the plan to the file, whatever the server switches to meanwhile.
  const deps = withServedRelease(served);
  const planned = await planExecute(deps, input);
  if (!planned.ok) return planned;
  const plan = planned.value;
  const charged = await chargeFor(deps, log, input, plan);
  if (charged === 'waited too long') {
    return err(appError('rate_limited', `This account's executes are queued on this server for longer than ${CHARGE_WAIT_MS / 1000} s: nothing was run or charged. Retry after the Retry-After seconds (the same Idempotency-Key is safe to reuse).`, { retry_after_seconds: 2 }));
  }
  if (!charged.ok) return answerRefusedCharge(deps, charged.error);
  const scratch: ScratchFiles = {};
  try {
    const parts = sampleSelections(plan);
    const written = await writeResultFile(deps, plan, parts, scratch);
    await storeResultFiles(deps, plan, written);
    await completeOrCancelled(deps, plan);
    const outcome = await completedOutcome(deps, plan, charged.value.creditsRemaining);
    // Only here is a charge final (a replay charged nothing new; a failure above is refunded).
    const { rows, bytes } = written.exported;
    deps.executeObserver?.executeCompleted({ credits: plan.creditCost, rows, bytes, dataset: plan.query.dataset_type, format: plan.query.output_format });
    return ok(outcome);
  } catch (error) {
    return err(await refundAfterFailure(deps, log, input, plan, scratch, error));
  }
}

/**
 * This process's queue of charges per account, one per store (so per app: tests open many). A
 * charge waits for the account's earlier ones here, holding no database connection (OneAtATime).
 */
const chargeQueues = new WeakMap<object, OneAtATime>();
/**
 * The longest a charge waits for its account's earlier ones before it is answered 429 instead of
 * run: well inside a client's patience (20–30 s is common), so every request gets its real answer
 * (200, 402, or 429 with Retry-After when this instance has more than it can do) and none times out.
 */
const CHARGE_WAIT_MS = 10_000;
function chargesOf(store: object): OneAtATime {
  let queue = chargeQueues.get(store);
  if (queue === undefined) chargeQueues.set(store, (queue = new OneAtATime()));
  return queue;
}

/** Debits the account and writes the pending history row in one transaction (ports/ledger charge). */
async function chargeFor(deps: UseCaseDeps, log: OpsLog, input: ExecuteInput, plan: ExecutePlan): Promise<Result<{ readonly creditsRemaining: number }, ChargeFailure> | 'waited too long'> {
  const { queryId, now, query: q, metadata, expires, creditCost } = plan;
  const chargeRequest = {
    accountId: input.accountId,
    queryId,
    credits: creditCost,
    now,
    query: {
      executedAt: now,
      datasetType: q.dataset_type,
      geographySelections: q.geography_selections,
      nObservations: q.n_observations,
      metadata: metadata as unknown as Record<string, unknown>,
      fileKey: null,
      downloadExpires: expires,
      keyId: input.keyId ?? null,
    },
    ...(input.idempotencyKey !== undefined ? { idempotency: { key: input.idempotencyKey, requestHash: requestHash(q, { seed: input.query.seed === undefined ? undefined : String(input.query.seed), implicate: input.query.implicate }) } } : {}),
    ...(deps.instanceId !== undefined ? { instanceId: deps.instanceId } : {}),
  };
  return chargesOf(deps.accounts).runWithin(input.accountId, CHARGE_WAIT_MS, () => deps.accounts.charge(chargeRequest)).catch((error: unknown) => {
    // The outcome is unknown (the connection may have broken after the commit): refunding the
    // query id settles it either way, as refunding a query that was never charged does nothing.
    log.error({ err: error, queryId, requestId: input.requestId }, 'charge failed; refunding in case it was committed');
    refundLater(deps, log, queryId, input.requestId);
    throw error;
  });
}

/** A charge the ledger refused: the client's error, or (same Idempotency-Key, same body, completed) the stored result again. */
async function answerRefusedCharge(deps: UseCaseDeps, f: ChargeFailure): Promise<Result<ExecuteOutcome, AppError>> {
  switch (f.kind) {
    case 'insufficient_credits':
      return err(appError('insufficient_credits', `This query costs ${f.required} credits; the account has ${f.available} available.`, { credits_remaining: f.available }));
    case 'idempotency_in_flight':
      return err(appError('conflict', 'A request with this Idempotency-Key is still running; wait for it, then retry to get its result.'));
    case 'idempotency_mismatch':
      return err(appError('validation_error', 'This Idempotency-Key was already used with a different request body; use a new key for a different query.'));
    case 'idempotency_replay':
      return ok(await outcomeOf(deps, f.query));
  }
}

/** Marks the query completed; throws when crash recovery refunded it meanwhile (this instance's lease lapsed). */
async function completeOrCancelled(deps: UseCaseDeps, plan: ExecutePlan): Promise<void> {
  if (!(await deps.accounts.completeQuery(plan.queryId, plan.fileKey))) {
    // Recovery refunded it meanwhile (this instance's lease lapsed): the file must not be handed out.
    throw new LeaseLapsedError(plan.queryId);
  }
}
