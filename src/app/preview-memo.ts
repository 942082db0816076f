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

/** How much a memo may hold, and for how long. */
export interface PreviewMemoBounds {
  /** Estimated bytes of the remembered queries of one release (keys, resolutions, answers); past it the least recently asked go first. */
  readonly maxBytes: number;
  /** A query not asked again for this long is forgotten. */
  readonly ttlMs: number;
  /** The time, in milliseconds (the service's clock; a test's fake one). */
  readonly now: () => number;
}

/** 8 MiB and ten minutes: thousands of ordinary queries, polled for as long as a client polls. */
export const DEFAULT_MEMO_BOUNDS: PreviewMemoBounds = { maxBytes: 8 * 1024 * 1024, ttlMs: 10 * 60_000, now: () => Date.now() };

interface Entry {
  readonly priced: PricedQuery;
  readonly bytes: number;
  lastAsked: number;
}

interface ReleaseQueries {
  /** In least-recently-asked order (a Map keeps insertion order; an asked entry is moved to the end). */
  readonly entries: Map<string, Entry>;
  bytes: number;
}

/**
 * Checking and pricing a query depends on nothing but the query and the release it is drawn
 * from (an immutable release: its resolutions, pool sizes and overlaps never change) and the
 * process's fixed limits. So a preview asked again, as clients poll the same query, reuses the
 * first answer instead of resolving the selections again; what depends on the caller (a sandbox
 * key, a balance too small) is applied per request by previewQuery, and the rate limits and
 * the balance are read per request by the gate. Remembered per release object: a release that
 * is no longer served takes its queries with it. Bounded in bytes and in time (the fourth probe:
 * 1.1 MB a preview, unbounded, killed a 600 MB instance after 447 previews), and a refused query
 * is never remembered: refusals are what an attacker can vary without end.
 */
export class PreviewMemo {
  readonly #byRelease = new WeakMap<PoolRelease, ReleaseQueries>();

  /** `limits` are the process's (fixed while it runs): a query's answer depends on them too. */
  constructor(
    private readonly limits: QueryLimits,
    private readonly bounds: PreviewMemoBounds = DEFAULT_MEMO_BOUNDS,
  ) {}

  priced(pools: PoolRelease, input: QueryInput): PricedQuery {
    let queries = this.#byRelease.get(pools);
    if (queries === undefined) this.#byRelease.set(pools, (queries = { entries: new Map(), bytes: 0 }));
    const now = this.bounds.now();
    this.#expire(queries, now);
    const key = queryKey(input);
    const known = queries.entries.get(key);
    if (known !== undefined) {
      queries.entries.delete(key); // to the most recently asked end
      queries.entries.set(key, known);
      known.lastAsked = now;
      return known.priced;
    }
    const priced: PricedQuery = { validated: validateQuery(pools, this.limits, input) };
    if (!priced.validated.ok) return priced;
    const entry: Entry = { priced, bytes: estimatedBytes(key, priced.validated.value), lastAsked: now };
    if (entry.bytes > this.bounds.maxBytes) return priced;
    queries.entries.set(key, entry);
    queries.bytes += entry.bytes;
    while (queries.bytes > this.bounds.maxBytes) this.#drop(queries, queries.entries.keys().next().value!);
    return priced;
  }

  /** What one release's memo holds now (for tests and the operator's figures). */
  held(pools: PoolRelease): { readonly queries: number; readonly bytes: number } {
    const queries = this.#byRelease.get(pools);
    return { queries: queries?.entries.size ?? 0, bytes: queries?.bytes ?? 0 };
  }

  #expire(queries: ReleaseQueries, now: number): void {
    for (const [key, entry] of queries.entries) {
      if (now - entry.lastAsked < this.bounds.ttlMs) break; // the rest were asked later
      this.#drop(queries, key);
    }
  }

  #drop(queries: ReleaseQueries, key: string): void {
    queries.bytes -= queries.entries.get(key)?.bytes ?? 0;
    queries.entries.delete(key);
  }
}

/**
 * A generous estimate of what an entry keeps alive: its key and the normalized query (UTF-16
 * text), each selection's strings and suburb references, the matches and overlaps, the preview
 * answer once made (suburbs themselves are the release's, shared, and not counted).
 */
function estimatedBytes(key: string, v: ValidatedQuery): number {
  const text = (t: string) => 40 + 2 * t.length;
  let bytes = 512 + 2 * text(key);
  for (const s of v.selections) bytes += 96 + text(s.input) + text(s.canonical) + 8 * s.suburbs.length;
  bytes += v.matches.length * 320 + v.overlaps.length * 160; // a match twice: in the check and in the kept preview
  return bytes;
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
