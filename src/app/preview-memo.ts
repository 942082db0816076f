import type { AppError } from '../core/errors.ts';
import type { Result } from '../core/result.ts';
import type { PoolRelease } from '../ports/pool-release.ts';
import { QUERY_DEFAULTS, type PreviewResult } from '../wire/query.ts';
import { validateQuery, type QueryInput, type QueryLimits, type ValidatedQuery } from './query-validation.ts';

/** A query checked and priced against one release, and the preview it gives a live key whose balance pays for it. */
export interface PricedQuery {
  readonly validated: Result<ValidatedQuery, AppError>;
  /** Set by previewQuery the first time; the same frozen object after that, so its serialization can be kept too. */
  paidPreview?: Readonly<PreviewResult>;
}

/** Queries remembered per release; past this the oldest is dropped first. */
const MAX_QUERIES = 1000;

/**
 * Checking and pricing a query depends on nothing but the query and the release it is drawn
 * from (an immutable release: its resolutions, pool sizes and overlaps never change) and the
 * process's fixed limits. So a preview asked again, as clients poll the same query, reuses the
 * first answer instead of resolving the selections again; what depends on the caller (a sandbox
 * key, a balance too small) is applied per request by previewQuery, and the rate limits and
 * the balance are read per request by the gate. Remembered per release object: a release that
 * is no longer served takes its queries with it.
 */
export class PreviewMemo {
  readonly #byRelease = new WeakMap<PoolRelease, Map<string, PricedQuery>>();

  /** `limits` are the process's (fixed while it runs): a query's answer depends on them too. */
  constructor(
    private readonly limits: QueryLimits,
    private readonly maxQueries = MAX_QUERIES,
  ) {}

  priced(pools: PoolRelease, input: QueryInput): PricedQuery {
    let queries = this.#byRelease.get(pools);
    if (queries === undefined) this.#byRelease.set(pools, (queries = new Map()));
    const key = queryKey(input);
    let priced = queries.get(key);
    if (priced === undefined) {
      priced = { validated: validateQuery(pools, this.limits, input) };
      if (queries.size >= this.maxQueries) queries.delete(queries.keys().next().value!);
      queries.set(key, priced);
    }
    return priced;
  }
}

/** Every field validation reads, defaults applied, in a fixed order (the seed and the implicate are not among them). */
const queryKey = (input: QueryInput): string =>
  JSON.stringify([
    input.geography_level,
    input.geography_selections,
    input.dataset_type,
    input.n_observations,
    input.output_format ?? QUERY_DEFAULTS.output_format,
    input.include_geography ?? QUERY_DEFAULTS.include_geography,
    input.linked_records ?? QUERY_DEFAULTS.linked_records,
  ]);
