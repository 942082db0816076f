/**
 * What an execute decides before it charges: the implicate, the validated query and its price,
 * the sandbox's caps, the query's id, time and seed, its metadata and file key; and the draw
 * itself, each selection seeded from the query's one seed.
 */
import { createHash } from 'node:crypto';
import type { FittedTo } from '../../core/dataset.ts';
import type { PopulationBasis } from '../../core/provenance.ts';
import type { AppError } from '../../core/errors.ts';
import { err, ok, type Result } from '../../core/result.ts';
import { withoutTaken } from '../../core/sampling/index.ts';
import type { Implicate, PoolRelease, SampledPart } from '../../ports/pool-release.ts';
import type { UseCaseDeps } from '../deps.ts';
import { householdFileKey, resultFileKey } from '../format.ts';
import { implicateFor, requestedSeed } from '../implicates.ts';
import { validateQuery, type NormalizedQuery, type QueryInput, type ValidatedQuery } from '../query-validation.ts';
import { sandboxDeliveryRefusal, sandboxExecuteRefusal, sandboxRecordsRefusal } from '../sandbox-caps.ts';

export interface ExecuteMetadata extends NormalizedQuery {
  readonly version: string;
  /** Whether the pools were fitted to the real census tables or to demo figures. */
  readonly fitted_to: FittedTo;
  /** Extension: the estimated resident population the release's areas were sized to (absent: the 2021 Census counts). */
  readonly population_estimate?: PopulationBasis;
  readonly generated_at: string;
  readonly seed: string;
  /** Extension: the implicate (independent synthesis of the release) the records come from. */
  readonly implicate: number;
  /** Extension: the seed that implicate's synthesis ran with, when the release records it. */
  readonly synthesis_seed?: string;
  /** Extension: present (true) when a sandbox key ran the query: test data, nothing charged. */
  readonly test_data?: true;
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

/** The request an Idempotency-Key is bound to: the normalised query, so defaults written out or left out are the same request. */
export function requestHash(query: NormalizedQuery, sampling: { readonly seed?: string | undefined; readonly implicate?: number | undefined } = {}): string {
  // Implicate 1 is the default: written out or left out, it is the same request.
  const implicate = sampling.implicate === 1 ? undefined : sampling.implicate;
  const canonical = JSON.stringify([
    query.geography_level,
    query.geography_selections,
    query.dataset_type,
    query.n_observations,
    query.output_format,
    query.include_geography,
    // Only when set: the hash of a query without the extension stays what it was.
    ...(query.linked_records ? [query.linked_records] : []),
    ...(sampling.seed !== undefined || implicate !== undefined ? [{ seed: sampling.seed ?? null, implicate: implicate ?? null }] : []),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** Everything an execute decided before charging: what to draw, from which pools, at what price, under which id. */
export interface ExecutePlan {
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

/** Implicate, validation and price, the requested seed, the sandbox cap; then the query's id, time, seed and metadata. */
export async function planExecute(deps: UseCaseDeps, input: ExecuteInput): Promise<Result<ExecutePlan, AppError>> {
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
    ...(deps.pools.population ? { population_estimate: { ...deps.pools.population } } : {}),
    generated_at: now.toISOString(),
    seed: seed.toString(),
    implicate: implicate.number,
    ...(implicate.synthesisSeed !== undefined ? { synthesis_seed: implicate.synthesisSeed } : {}),
    ...(sandbox ? { test_data: true as const } : {}),
  };
}

/** Each selection's records, seeded by its index; overlapping selections: a record is drawn once in the file (core/sampling withoutTaken). */
export function sampleSelections(plan: Pick<ExecutePlan, 'pools' | 'validated' | 'query' | 'seed'>): SampledPart[] {
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
