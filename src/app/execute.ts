import { createHash } from 'node:crypto';
import type { DatasetType, FittedTo, OutputFormat } from '../core/dataset.ts';
import { citationOf } from '../core/provenance.ts';
import { appError, type AppError } from '../core/errors.ts';
import { withoutTaken } from '../core/sampling/index.ts';
import { err, ok, type Result } from '../core/result.ts';
import { StoreUnavailableError, type ChargeFailure, type QueryRecord } from '../ports/account-store.ts';
import type { ExportResult, Implicate, PoolRelease, SampledPart } from '../ports/pool-release.ts';
import type { OpsLog, UseCaseDeps } from './deps.ts';
import { COMPANION_FILES, HOUSEHOLD_FILE, OUTPUT_FORMAT_SPECS } from '../core/formats.ts';
import { dictionaryFileKey, dictionaryFileName, downloadNameOf, hasDictionaryLink, householdFileKey, resultFileKey, resultFileName } from './format.ts';
import { implicateFor, requestedSeed } from './implicates.ts';
import { sandboxDeliveryRefusal, sandboxExecuteRefusal, sandboxRecordsRefusal } from './sandbox-caps.ts';
import { validateQuery, type NormalizedQuery, type QueryInput } from './query-validation.ts';
import type { ExecuteResult } from '../wire/query.ts';
import type { ValidatedQuery } from './query-validation.ts';

export interface ExecuteMetadata extends NormalizedQuery {
  readonly version: string;
  /** Whether the pools were fitted to the real census tables or to demo figures. */
  readonly fitted_to: FittedTo;
  readonly generated_at: string;
  readonly seed: string;
  /** Extension: the implicate (independent synthesis of the release) the records come from. */
  readonly implicate: number;
  /** Extension: the seed that implicate's synthesis ran with, when the release records it. */
  readonly synthesis_seed?: string;
  /** Extension: present (true) when a sandbox key ran the query: test data, nothing charged. */
  readonly test_data?: true;
}

/** A completed execute, as the published schema defines it (src/wire). */
export type ExecuteOutcome = ExecuteResult;

/** The metadata echo in its wire form (the one copy of the selections the response needs). */
const wireMetadata = (m: ExecuteMetadata): ExecuteResult['metadata'] => ({ ...m, geography_selections: [...m.geography_selections] });

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

export interface ExecuteInput {
  readonly accountId: string;
  readonly query: QueryInput;
  readonly idempotencyKey?: string | undefined;
  /** For the operator's logs when something fails after the charge. */
  readonly requestId: string;
  /** A sandbox (spq_test_) key: nothing is charged, n is capped, the result is marked test data. */
  readonly sandbox?: boolean;
  /** The API key that sent it (kept on the query row for usage per key); absent from the account area. */
  readonly keyId?: string | undefined;
}

const DAY_MS = 86_400_000;
const MASK64 = (1n << 64n) - 1n;
/** 2^64 / golden ratio: consecutive selections get well-spread seeds (splitmix64's increment). */
const SEED_STEP = 0x9e3779b97f4a7c15n;

/** Selection i samples with seed + i·SEED_STEP (mod 2^64), so one stored seed reproduces the whole file. */
export const selectionSeed = (seed: bigint, index: number): bigint => (seed + BigInt(index) * SEED_STEP) & MASK64;

/** What a sandbox key's file says of itself, before the citation. */
export const TEST_DATA_NOTICE = 'TEST DATA from a sandbox (spq_test_) key: capped and not charged; not for analysis.';

/** The request an Idempotency-Key is bound to: the normalised query, so defaults written out or left out are the same request. */
export function requestHash(query: NormalizedQuery, sampling: { readonly seed?: string | undefined; readonly implicate?: number | undefined } = {}): string {
  const canonical = JSON.stringify([
    query.geography_level,
    query.geography_selections,
    query.dataset_type,
    query.n_observations,
    query.output_format,
    query.include_geography,
    // Only when set: the hash of a query without the extension stays what it was.
    ...(query.linked_records ? [query.linked_records] : []),
    ...(sampling.seed !== undefined || sampling.implicate !== undefined ? [{ seed: sampling.seed ?? null, implicate: sampling.implicate ?? null }] : []),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** Rebuilds the execution result of a stored query (idempotent replay). */
async function outcomeOf(deps: Pick<UseCaseDeps, 'files' | 'accounts' | 'clock'>, q: QueryRecord): Promise<ExecuteOutcome> {
  const metadata = q.metadata as unknown as ExecuteMetadata;
  const balance = await deps.accounts.credits(q.accountId, deps.clock.now());
  return {
    query_id: q.queryId,
    status: 'completed',
    credit_cost: q.creditCost,
    credits_remaining: balance.creditsRemaining,
    download_url: await deps.files.downloadUrl(q.fileKey ?? '', downloadNameOf(q.queryId, q.datasetType, q.fileKey, metadata.output_format, metadata.test_data === true), q.downloadExpires),
    download_expires: q.downloadExpires.toISOString(),
    metadata: wireMetadata(metadata),
    ...(hasDictionaryLink(metadata.output_format, q.fileKey === householdFileKey(q.queryId)) ? await dictionaryLink(deps, q.queryId, q.datasetType, q.downloadExpires, metadata.test_data === true) : {}),
  };
}

async function dictionaryLink(deps: Pick<UseCaseDeps, 'files'>, queryId: string, dataset: QueryRecord['datasetType'], expires: Date, testData: boolean) {
  return { dictionary_url: await deps.files.downloadUrl(dictionaryFileKey(queryId), dictionaryFileName(queryId, dataset, testData), expires) };
}

/**
 * Validate → price → charge (the pending history row goes in the same transaction) → sample
 * with a fresh secure seed → write the file → store it → complete. Anything that fails after
 * the charge refunds it: a client is charged for a ready file or not at all.
 */
export async function executeQuery(
  deps: UseCaseDeps & { readonly executeObserver?: ExecuteObserver | undefined },
  log: OpsLog,
  input: ExecuteInput,
): Promise<Result<ExecuteOutcome, AppError>> {
  const planned = await planExecute(deps, input);
  if (!planned.ok) return planned;
  const plan = planned.value;
  const charged = await chargeFor(deps, log, input, plan);
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

/** Everything an execute decided before charging: what to draw, from which pools, at what price, under which id. */
interface ExecutePlan {
  /** The implicate's own pools: each synthesis fits the same tables, but its records are its own. */
  readonly pools: PoolRelease;
  readonly validated: ValidatedQuery;
  readonly query: NormalizedQuery;
  readonly sandbox: boolean;
  readonly creditCost: number;
  readonly queryId: string;
  readonly now: Date;
  readonly expires: Date;
  readonly seed: bigint;
  readonly metadata: ExecuteMetadata;
  readonly household: boolean;
  readonly fileKey: string;
}

/** Scratch files written so far, for the cleanup after a failure. */
interface ScratchFiles {
  tmpPath?: string;
  dictionaryPath?: string;
}

/** Implicate, validation and price, the requested seed, the sandbox cap; then the query's id, time, seed and metadata. */
async function planExecute(deps: UseCaseDeps, input: ExecuteInput): Promise<Result<ExecutePlan, AppError>> {
  const chosen = await implicateFor(deps, input.query.implicate);
  if (!chosen.ok) return chosen;
  const pools = chosen.value.pools;
  const validated = validateQuery(pools, deps.config, input.query);
  if (!validated.ok) return validated;
  const v = validated.value;
  const named = input.query.seed !== undefined ? requestedSeed(input.query.seed) : undefined;
  if (named !== undefined && !named.ok) return named;
  const q = v.query;
  const sandbox = input.sandbox === true;
  const overCap = sandbox ? sandboxRecordsRefusal(deps.config.sandbox, pools, v) : undefined;
  if (overCap) return err(overCap);
  const creditCost = sandbox ? 0 : v.creditCost;

  const queryId = deps.randomness.id('qry');
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + deps.config.downloadTtlDays * DAY_MS);
  const seed = named?.value ?? deps.randomness.seed();
  const household = q.linked_records === 'household';
  // The estimate above is an average; a household draw is counted as it would be delivered.
  const overDrawn = sandbox ? ((household ? sandboxDeliveryRefusal(deps.config.sandbox, pools, sampleSelections({ pools, validated: v, query: q, seed })) : undefined) ?? (await sandboxExecuteRefusal(deps, input.accountId))) : undefined;
  if (overDrawn) return err(overDrawn);
  return ok({
    pools,
    validated: v,
    query: q,
    sandbox,
    creditCost,
    queryId,
    now,
    expires,
    seed,
    metadata: executeMetadata(deps, q, now, seed, chosen.value, sandbox),
    household,
    fileKey: household ? householdFileKey(queryId) : resultFileKey(queryId, q.output_format),
  });
}

function executeMetadata(deps: Pick<UseCaseDeps, 'pools'>, q: NormalizedQuery, now: Date, seed: bigint, implicate: Implicate, sandbox: boolean): ExecuteMetadata {
  return {
    ...q,
    version: deps.pools.version,
    fitted_to: deps.pools.fittedTo,
    generated_at: now.toISOString(),
    seed: seed.toString(),
    implicate: implicate.number,
    ...(implicate.synthesisSeed !== undefined ? { synthesis_seed: implicate.synthesisSeed } : {}),
    ...(sandbox ? { test_data: true as const } : {}),
  };
}

/** Debits the account and writes the pending history row in one transaction (ports/ledger charge). */
async function chargeFor(deps: UseCaseDeps, log: OpsLog, input: ExecuteInput, plan: ExecutePlan): Promise<Result<{ readonly creditsRemaining: number }, ChargeFailure>> {
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
  return deps.accounts.charge(chargeRequest).catch((error: unknown) => {
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

/** Each selection's records, seeded by its index; overlapping selections: a record is drawn once in the file (core/sampling withoutTaken). */
function sampleSelections(plan: Pick<ExecutePlan, 'pools' | 'validated' | 'query' | 'seed'>): SampledPart[] {
  const { pools, validated: v, query: q, seed } = plan;
  const extraOf = new Map(v.overlaps.map((o) => [o.index, o.extra]));
  const taken = extraOf.size > 0 ? new Set<number>() : undefined;
  return v.selections.map((selection, i) => {
    const n = q.n_observations;
    const extra = extraOf.get(i) ?? 0;
    const partSeed = selectionSeed(seed, i);
    const rows =
      extra > 0 && taken
        ? withoutTaken(pools.sample(selection, q.dataset_type, Math.min(v.matches[i]!.pool_size, n + extra), partSeed), n, taken, partSeed)
        : pools.sample(selection, q.dataset_type, n, partSeed);
    if (taken) for (const row of rows) taken.add(row);
    return { selection, rows };
  });
}

/** A result file written to scratch space, not yet stored. */
interface WrittenFile {
  readonly path: string;
  readonly exported: ExportResult;
}

/** Writes the sampled records to a scratch file in the requested format (a zip of three files for household). */
async function writeResultFile(deps: UseCaseDeps, plan: ExecutePlan, parts: readonly SampledPart[], scratch: ScratchFiles): Promise<WrittenFile> {
  const { pools, query: q, queryId } = plan;
  const tmpPath = await deps.scratch.file(plan.fileKey);
  scratch.tmpPath = tmpPath;
  const metadata = fileMetadata(deps, plan);
  const exported = plan.household
    ? // The dwellings drawn, then every family and person of them: one file per dataset, in one zip.
      await pools.exportBundle({
        files: (['dwellings', 'families', 'persons'] as const).map((dataset) => ({
          name: resultFileName(queryId, dataset, q.output_format),
          dataset,
          parts: dataset === 'dwellings' ? parts : parts.map((p) => ({ selection: p.selection, rows: pools.members(dataset, p.rows) })),
        })),
        format: q.output_format,
        includeGeography: q.include_geography,
        metadata,
        destPath: tmpPath,
      })
    : await pools.export({
        dataset: q.dataset_type,
        parts,
        format: q.output_format,
        includeGeography: q.include_geography,
        ...(q.linked_records ? { linkedRecords: q.linked_records } : {}),
        metadata,
        destPath: tmpPath,
      });
  if (exported.dictionaryPath !== undefined) scratch.dictionaryPath = exported.dictionaryPath;
  return { path: tmpPath, exported };
}

/** What the file says of itself (parquet key-value metadata, the csv dictionary, the xlsx About sheet). */
function fileMetadata(deps: Pick<UseCaseDeps, 'pools'>, plan: ExecutePlan): Record<string, string> {
  const { metadata, query: q, sandbox } = plan;
  return {
    query_id: plan.queryId,
    version: metadata.version,
    seed: metadata.seed,
    implicate: String(metadata.implicate),
    ...(metadata.synthesis_seed !== undefined ? { synthesis_seed: metadata.synthesis_seed } : {}),
    generated_at: metadata.generated_at,
    dataset_type: q.dataset_type,
    geography_level: q.geography_level,
    geography_selections: JSON.stringify(q.geography_selections),
    n_observations: String(q.n_observations),
    include_geography: q.include_geography,
    ...(q.linked_records ? { linked_records: q.linked_records } : {}),
    fitted_to: deps.pools.fittedTo,
    citation: sandbox ? `${TEST_DATA_NOTICE} ${citationOf(deps.pools.fittedTo)}` : citationOf(deps.pools.fittedTo),
    ...(sandbox ? { test_data: 'true' } : {}),
  };
}

/** Stores the dictionary (when the format has one) and the result file under their keys. */
async function storeResultFiles(deps: UseCaseDeps, plan: ExecutePlan, { path, exported }: WrittenFile): Promise<void> {
  if (exported.dictionaryPath !== undefined) await deps.files.put(dictionaryFileKey(plan.queryId), exported.dictionaryPath, COMPANION_FILES.dictionary.contentType);
  await deps.files.put(plan.fileKey, path, plan.household ? HOUSEHOLD_FILE.contentType : OUTPUT_FORMAT_SPECS[plan.query.output_format].contentType);
}

/** Marks the query completed; throws when crash recovery refunded it meanwhile (this instance's lease lapsed). */
async function completeOrCancelled(deps: UseCaseDeps, plan: ExecutePlan): Promise<void> {
  if (!(await deps.accounts.completeQuery(plan.queryId, plan.fileKey))) {
    // Recovery refunded it meanwhile (this instance's lease lapsed): the file must not be handed out.
    throw new LeaseLapsedError(plan.queryId);
  }
}

/** The response: download link (and the csv dictionary's), the balance after the charge, the metadata echo. */
async function completedOutcome(deps: UseCaseDeps, plan: ExecutePlan, creditsRemaining: number): Promise<ExecuteOutcome> {
  const { queryId, query: q, fileKey, expires, sandbox } = plan;
  const downloadUrl = await deps.files.downloadUrl(fileKey, downloadNameOf(queryId, q.dataset_type, fileKey, q.output_format, sandbox), expires);
  return {
    query_id: queryId,
    status: 'completed',
    credit_cost: plan.creditCost,
    credits_remaining: creditsRemaining,
    download_url: downloadUrl,
    download_expires: expires.toISOString(),
    metadata: wireMetadata(plan.metadata),
    ...(hasDictionaryLink(q.output_format, plan.household) ? await dictionaryLink(deps, queryId, q.dataset_type, expires, sandbox) : {}),
  };
}

/**
 * After a failure past the charge: removes what was written, refunds the charge (or leaves it to
 * the background when the ledger is out of reach), and says what happened in the client's error.
 */
async function refundAfterFailure(deps: UseCaseDeps, log: OpsLog, input: ExecuteInput, plan: ExecutePlan, scratch: ScratchFiles, error: unknown): Promise<AppError> {
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

/** Best effort: the scratch files and whatever was already stored under the query's keys. */
async function discardFiles(deps: UseCaseDeps, plan: ExecutePlan, scratch: ScratchFiles): Promise<void> {
  if (scratch.tmpPath !== undefined) await deps.scratch.remove(scratch.tmpPath).catch(() => undefined);
  if (scratch.dictionaryPath !== undefined) await deps.scratch.remove(scratch.dictionaryPath).catch(() => undefined);
  await deps.files.delete(plan.fileKey).catch(() => undefined);
  await deps.files.delete(dictionaryFileKey(plan.queryId)).catch(() => undefined);
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

class LeaseLapsedError extends Error {
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
function refundLater(deps: Pick<UseCaseDeps, 'accounts' | 'clock'>, log: OpsLog, queryId: string, requestId: string): void {
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
