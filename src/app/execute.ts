import { createHash } from 'node:crypto';
import type { DatasetType, FittedTo, OutputFormat } from '../core/dataset.ts';
import { citationOf } from '../core/provenance.ts';
import { appError, type AppError } from '../core/errors.ts';
import { withoutTaken } from '../core/sampling/index.ts';
import { err, ok, type Result } from '../core/result.ts';
import { StoreUnavailableError, type QueryRecord } from '../ports/account-store.ts';
import type { ExportResult, SampledPart } from '../ports/pool-release.ts';
import type { OpsLog, UseCaseDeps } from './deps.ts';
import {
  CONTENT_TYPES,
  DICTIONARY_CONTENT_TYPE,
  dictionaryFileKey,
  dictionaryFileName,
  downloadNameOf,
  HOUSEHOLD_CONTENT_TYPE,
  householdFileKey,
  resultFileKey,
  resultFileName,
} from './format.ts';
import { implicateFor, requestedSeed } from './implicates.ts';
import { sandboxExecuteRefusal, sandboxRecordsRefusal } from './sandbox-caps.ts';
import { validateQuery, type NormalizedQuery, type QueryInput } from './query-validation.ts';
import type { ExecuteResult } from '../wire/query.ts';

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
    ...(q.fileKey?.endsWith('.zip') ? {} : await dictionaryLink(deps, q.queryId, q.datasetType, metadata.output_format, q.downloadExpires, metadata.test_data === true)),
  };
}

async function dictionaryLink(deps: Pick<UseCaseDeps, 'files'>, queryId: string, dataset: QueryRecord['datasetType'], format: string, expires: Date, testData: boolean) {
  if (format !== 'csv') return {};
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
  const chosen = await implicateFor(deps, input.query.implicate);
  if (!chosen.ok) return chosen;
  // Pool sizes are the implicate's own: each synthesis fits the same tables, but its records are its own.
  const pools = chosen.value.pools;
  const validated = validateQuery(pools, deps.config, input.query);
  if (!validated.ok) return validated;
  const v = validated.value;
  const named = input.query.seed !== undefined ? requestedSeed(input.query.seed) : undefined;
  if (named !== undefined && !named.ok) return named;
  const q = v.query;
  const sandbox = input.sandbox === true;
  const overCap = sandbox ? (sandboxRecordsRefusal(deps.config.sandbox, pools, v) ?? (await sandboxExecuteRefusal(deps, input.accountId))) : undefined;
  if (overCap) return err(overCap);
  const creditCost = sandbox ? 0 : v.creditCost;

  const queryId = deps.randomness.id('qry');
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + deps.config.downloadTtlDays * DAY_MS);
  const seed = named?.value ?? deps.randomness.seed();
  const metadata: ExecuteMetadata = {
    ...q,
    version: deps.pools.version,
    fitted_to: deps.pools.fittedTo,
    generated_at: now.toISOString(),
    seed: seed.toString(),
    implicate: chosen.value.number,
    ...(chosen.value.synthesisSeed !== undefined ? { synthesis_seed: chosen.value.synthesisSeed } : {}),
    ...(sandbox ? { test_data: true as const } : {}),
  };
  const household = q.linked_records === 'household';
  const fileKey = household ? householdFileKey(queryId) : resultFileKey(queryId, q.output_format);

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
    ...(input.idempotencyKey !== undefined ? { idempotency: { key: input.idempotencyKey, requestHash: requestHash(q, { seed: input.query.seed, implicate: input.query.implicate }) } } : {}),
    ...(deps.instanceId !== undefined ? { instanceId: deps.instanceId } : {}),
  };
  const charged = await deps.accounts.charge(chargeRequest).catch((error: unknown) => {
    // The outcome is unknown (the connection may have broken after the commit): refunding the
    // query id settles it either way, as refunding a query that was never charged does nothing.
    log.error({ err: error, queryId, requestId: input.requestId }, 'charge failed; refunding in case it was committed');
    refundLater(deps, log, queryId, input.requestId);
    throw error;
  });
  if (!charged.ok) {
    const f = charged.error;
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

  const scratchName = household ? householdFileKey(queryId) : `${queryId}.${q.output_format}`;
  let tmpPath: string | undefined;
  let exported: ExportResult | undefined;
  try {
    // Overlapping selections: a record is drawn once in the file (core/sampling withoutTaken).
    const extraOf = new Map(v.overlaps.map((o) => [o.index, o.extra]));
    const taken = extraOf.size > 0 ? new Set<number>() : undefined;
    const parts: SampledPart[] = v.selections.map((selection, i) => {
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
    tmpPath = await deps.scratch.file(scratchName);
    const fileMetadata: Record<string, string> = {
      query_id: queryId,
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
    exported = household
      ? // The dwellings drawn, then every family and person of them: one file per dataset, in one zip.
        await pools.exportBundle({
          files: (['dwellings', 'families', 'persons'] as const).map((dataset) => ({
            name: resultFileName(queryId, dataset, q.output_format),
            dataset,
            parts: dataset === 'dwellings' ? parts : parts.map((p) => ({ selection: p.selection, rows: pools.members(dataset, p.rows) })),
          })),
          format: q.output_format,
          includeGeography: q.include_geography,
          metadata: fileMetadata,
          destPath: tmpPath,
        })
      : await pools.export({
          dataset: q.dataset_type,
          parts,
          format: q.output_format,
          includeGeography: q.include_geography,
          ...(q.linked_records ? { linkedRecords: q.linked_records } : {}),
          metadata: fileMetadata,
          destPath: tmpPath,
        });
    if (exported.dictionaryPath !== undefined) await deps.files.put(dictionaryFileKey(queryId), exported.dictionaryPath, DICTIONARY_CONTENT_TYPE);
    await deps.files.put(fileKey, tmpPath, household ? HOUSEHOLD_CONTENT_TYPE : CONTENT_TYPES[q.output_format]);
    if (!(await deps.accounts.completeQuery(queryId, fileKey))) {
      // Recovery refunded it meanwhile (this instance's lease lapsed): the file must not be handed out.
      throw new LeaseLapsedError(queryId);
    }
    const downloadUrl = await deps.files.downloadUrl(fileKey, downloadNameOf(queryId, q.dataset_type, fileKey, q.output_format, sandbox), expires);
    const outcome: ExecuteOutcome = {
      query_id: queryId,
      status: 'completed',
      credit_cost: creditCost,
      credits_remaining: charged.value.creditsRemaining,
      download_url: downloadUrl,
      download_expires: expires.toISOString(),
      metadata: wireMetadata(metadata),
      ...(household ? {} : await dictionaryLink(deps, queryId, q.dataset_type, q.output_format, expires, sandbox)),
    };
    // Only here is a charge final (a replay charged nothing new; a failure above is refunded).
    deps.executeObserver?.executeCompleted({ credits: creditCost, rows: exported.rows, bytes: exported.bytes, dataset: q.dataset_type, format: q.output_format });
    return ok(outcome);
  } catch (error) {
    // Crash recovery refunds the queries of an instance whose lease lapsed (and clears its scratch
    // files); a stalled instance that resumes then fails anywhere, not only at completeQuery.
    // (A database out of reach is not asked: that would only wait out another timeout.)
    const cancelled =
      error instanceof LeaseLapsedError ||
      (!(error instanceof StoreUnavailableError) && (await deps.accounts.getQuery(input.accountId, queryId).catch(() => undefined))?.status === 'failed');
    log.error({ err: error, queryId, requestId: input.requestId }, 'execute failed after the charge; refunding');
    if (tmpPath !== undefined) await deps.scratch.remove(tmpPath).catch(() => undefined);
    if (exported?.dictionaryPath !== undefined) await deps.scratch.remove(exported.dictionaryPath).catch(() => undefined);
    await deps.files.delete(fileKey).catch(() => undefined);
    await deps.files.delete(dictionaryFileKey(queryId)).catch(() => undefined);
    let settled = 'nothing was charged';
    try {
      await deps.accounts.refundQuery(queryId, deps.clock.now(), REFUND_REASON);
    } catch (refundError) {
      // Typically the database is unreachable, which is often why the execute failed at all.
      log.error({ err: refundError, queryId, requestId: input.requestId }, 'refund failed; retrying in the background');
      refundLater(deps, log, queryId, input.requestId);
      settled = 'its charge will be refunded automatically as soon as the ledger answers';
    }
    if (cancelled) {
      // Not a fault of the query: this instance stalled past its lease and another one refunded it.
      return err(appError('service_unavailable', 'This server stalled while running the query, so the query was cancelled and nothing was charged. Retry it (the same Idempotency-Key runs it afresh).'));
    }
    if (error instanceof StoreUnavailableError) {
      // The database was out of reach for a moment (as the request gate answers it): retryable, not a fault.
      return err(appError('service_unavailable', `The database was out of reach for a moment, so the query could not be completed and ${settled}. Retry in a few seconds; the same Idempotency-Key is never charged twice.`));
    }
    return err(appError('internal_error', `The query could not be completed and ${settled}. Retry with backoff; quote request id ${input.requestId}.`));
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
