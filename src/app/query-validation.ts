import type { DatasetType, GeographyLevel, IncludeGeography, LinkedRecords } from '../core/dataset.ts';
import { levelStillBuilding } from './served-release.ts';
import { listed, OUTPUT_FORMAT_SPECS, OUTPUT_FORMATS, type OutputFormat } from '../core/formats.ts';
import { appError, type AppError } from '../core/errors.ts';
import { creditCost, creditCostOfRecords, householdRecords } from '../core/pricing.ts';
import { err, ok, type Result } from '../core/result.ts';
import type { PoolRelease, ResolveFailure, ResolvedSelection } from '../ports/pool-release.ts';
import { QUERY_DEFAULTS } from '../wire/query.ts';
import { foldSpaces } from '../core/geography/matching.ts';
import { qualityPath } from './quality/path.ts';

/** A query as the client sent it, defaults applied (the body schema has checked the types). */
export interface QueryInput {
  readonly geography_level: GeographyLevel;
  readonly geography_selections: readonly string[];
  readonly dataset_type: DatasetType;
  readonly n_observations: number;
  readonly output_format?: OutputFormat | undefined;
  readonly include_geography?: IncludeGeography | undefined;
  readonly linked_records?: LinkedRecords | undefined;
  /** Extension: the sampling seed (< 2^64; decimal text, or a safe JSON integer) to reproduce a draw; a fresh secure one when absent. */
  readonly seed?: string | number | undefined;
  /** Extension: which implicate (independent synthesis) of the release to draw from; 1 when absent. */
  readonly implicate?: number | undefined;
}

export interface NormalizedQuery {
  readonly geography_level: GeographyLevel;
  readonly geography_selections: readonly string[];
  readonly dataset_type: DatasetType;
  readonly n_observations: number;
  readonly output_format: OutputFormat;
  readonly include_geography: IncludeGeography;
  /** Present only when not "none", so queries without the extension look as they always did. */
  readonly linked_records?: Exclude<LinkedRecords, 'none'>;
}

export interface GeographyMatch {
  readonly suburb_id: string;
  readonly pool_size: number;
  readonly small_suburb_flag: boolean;
  /** Extension: the selection's quality page (its records beside the census), a path on this service. */
  readonly quality_url: string;
  /** A release sized to an estimated resident population: the selection's areas' census counts and estimates, summed. */
  readonly census_count?: number;
  readonly estimated_population?: number;
}

export interface ValidatedQuery {
  readonly query: NormalizedQuery;
  readonly selections: readonly ResolvedSelection[];
  /** Later selections sharing suburbs with earlier ones (a record is drawn once in a file). */
  readonly overlaps: readonly SelectionOverlap[];
  readonly matches: readonly GeographyMatch[];
  readonly poolAvailable: number;
  readonly totalRows: number;
  readonly creditCost: number;
}

export interface QueryLimits {
  readonly maxRowsPerExecute: number;
}

export const normalizeQuery = (input: QueryInput): NormalizedQuery => ({
  geography_level: input.geography_level,
  // Surrounding and repeated white space (tabs, line breaks, U+2028 pasted along) is no part of a name: it never reaches metadata or history.
  geography_selections: input.geography_selections.map(foldSpaces),
  dataset_type: input.dataset_type,
  n_observations: input.n_observations,
  output_format: input.output_format ?? QUERY_DEFAULTS.output_format,
  include_geography: input.include_geography ?? QUERY_DEFAULTS.include_geography,
  ...(input.linked_records !== undefined && input.linked_records !== 'none' ? { linked_records: input.linked_records } : {}),
});

const LEVEL_WORD: Readonly<Record<GeographyLevel, string>> = {
  suburb: 'suburb',
  postcode: 'postcode',
  sa2: 'SA2',
  lga: 'LGA',
  state: 'state',
  australia: 'geography',
};

/** Same folding as identifier matching (case, surrounding and repeated spaces), to spot a selection listed twice. */
const fold = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase();

const quoteList = (items: readonly string[]): string => items.map((s) => `"${s}"`).join(', ');

function resolveFailureDetail(level: GeographyLevel, input: string, failure: ResolveFailure): string {
  const word = LEVEL_WORD[level];
  if (failure.kind === 'ambiguous') {
    return `The ${word} name "${input}" is used in more than one state; write one of: ${quoteList(failure.choices)}.`;
  }
  if (failure.kind === 'unavailable') {
    return `This pool release has no pools at geography_level "${level}": it holds ${quoteList(failure.held)}. Choose one of those levels.`;
  }
  const hint = failure.suggestions.length > 0 ? ` Did you mean ${quoteList(failure.suggestions)}?` : '';
  return `Unknown ${word} "${input}" at geography_level "${level}".${hint} GET /geography/search finds identifiers.`;
}

/**
 * Checks a query against the pool release and the server's limits, and prices it
 * (docs/spec/decisions.md: "Geography identifiers", "n_observations and pools", "Billing").
 * bad_request for an empty selection list; validation_error for everything logically wrong.
 */
export function validateQuery(pools: PoolRelease, limits: QueryLimits, input: QueryInput): Result<ValidatedQuery, AppError> {
  const query = normalizeQuery(input);
  const shapeError = checkShape(query);
  if (shapeError) return err(shapeError);
  const resolved = resolveSelections(pools, query);
  if (!resolved.ok) return resolved;
  const selections = resolved.value;
  const poolSizes = selections.map((s) => pools.poolSize(s, query.dataset_type));
  const sizeError = checkPoolSizes(query, selections, poolSizes);
  if (sizeError) return err(sizeError);
  const overlaps = overlapsOf(selections, query.dataset_type, query.n_observations);
  const overlapError = checkOverlaps(query, selections, poolSizes, overlaps);
  if (overlapError) return err(overlapError);
  const totalRows = billableRecords(pools, query, selections);
  const limitError = checkRowLimits(limits, query, totalRows);
  if (limitError) return err(limitError);
  return ok({
    query,
    selections,
    overlaps,
    matches: matchesOf(selections, poolSizes),
    poolAvailable: poolSizes.reduce((a, b) => a + b, 0),
    totalRows,
    creditCost: priceOf(query, selections.length, totalRows),
  });
}

/** What is wrong with the query before any geography is looked up: no selections, n below 1, linked_records that does not fit the dataset. */
function checkShape(query: NormalizedQuery): AppError | undefined {
  const { geography_selections: raw, dataset_type: dataset, n_observations: n } = query;
  if (raw.length === 0) return appError('bad_request', 'geography_selections must list at least one geography.');
  if (n < 1) return appError('validation_error', `n_observations must be at least 1, got ${n}.`);
  if (query.linked_records === 'household' && dataset !== 'dwellings') {
    return appError('validation_error', 'linked_records "household" draws dwellings and returns them with all their families and persons: set dataset_type to "dwellings" (n_observations counts dwellings).');
  }
  if (query.linked_records === 'joined' && dataset === 'dwellings') {
    return appError('validation_error', 'linked_records "joined" adds a record\'s family and dwelling columns; dwellings have neither above them. Ask for persons or families, or leave linked_records out.');
  }
  return undefined;
}

/** Each selection resolved against the release, none empty and none listed twice (however spelled). */
function resolveSelections(pools: PoolRelease, query: NormalizedQuery): Result<ResolvedSelection[], AppError> {
  const level = query.geography_level;
  const seen = new Map<string, string>();
  const selections: ResolvedSelection[] = [];
  for (const input of query.geography_selections) {
    const key = fold(input);
    if (key === '') return err(appError('validation_error', 'geography_selections contains an empty identifier.'));
    if (seen.has(key)) return err(appError('validation_error', `The selection "${input}" is listed twice in geography_selections; list each geography once.`));
    seen.set(key, input);
    const resolved = pools.resolve(level, input);
    if (!resolved.ok) return err(levelStillBuilding(level, resolved.error) ?? appError('validation_error', resolveFailureDetail(level, input, resolved.error)));
    selections.push(resolved.value);
  }
  // Two spellings of one geography ("AUS" and "Australia", "vic" and "Victoria") are also a duplicate.
  const canonicalSeen = new Set<string>();
  for (const s of selections) {
    if (canonicalSeen.has(s.canonical)) return err(appError('validation_error', `"${s.canonical}" is listed twice in geography_selections (under different spellings); list each geography once.`));
    canonicalSeen.add(s.canonical);
  }
  return ok(selections);
}

/** n_observations past a selection's pool: the error names the smallest such pool. */
function checkPoolSizes(query: NormalizedQuery, selections: readonly ResolvedSelection[], poolSizes: readonly number[]): AppError | undefined {
  const { dataset_type: dataset, n_observations: n } = query;
  let smallest = -1;
  for (let i = 0; i < selections.length; i++) {
    if (n > poolSizes[i]! && (smallest < 0 || poolSizes[i]! < poolSizes[smallest]!)) smallest = i;
  }
  if (smallest < 0) return undefined;
  const name = selections[smallest]!.canonical;
  return appError('validation_error', `n_observations (${n}) exceeds the ${dataset} pool of ${name}: ${poolSizes[smallest]} records. Ask for at most ${poolSizes[smallest]}.`);
}

/** A later overlapping selection whose pool, after the records the earlier ones may draw, may hold fewer than n. */
function checkOverlaps(query: NormalizedQuery, selections: readonly ResolvedSelection[], poolSizes: readonly number[], overlaps: readonly SelectionOverlap[]): AppError | undefined {
  const { dataset_type: dataset, n_observations: n } = query;
  for (const o of overlaps) {
    if (poolSizes[o.index]! - o.extra < n) {
      const s = selections[o.index]!;
      return appError(
        'validation_error',
        `"${s.canonical}" shares ${o.sharedSuburbs} suburb(s) with ${o.with.map((w) => `"${w}"`).join(', ')}; a record is drawn once in a file, so after the records drawn for ${o.with.length > 1 ? 'those' : 'it'} its ${dataset} pool of ${poolSizes[o.index]} may hold fewer than ${n}. Ask for fewer records, or leave out one of the overlapping selections.`,
      );
    }
  }
  return undefined;
}

/** The records a query returns: n per selection, or for a household sample its dwellings with the families and persons they hold on average. */
function billableRecords(pools: PoolRelease, query: NormalizedQuery, selections: readonly ResolvedSelection[]): number {
  const n = query.n_observations;
  return query.linked_records === 'household'
    ? householdRecords(n, selections.map((s) => ({ dwellings: pools.poolSize(s, 'dwellings'), families: pools.poolSize(s, 'families'), persons: pools.poolSize(s, 'persons') })))
    : n * selections.length;
}

/** The server's per-execute row limit, and the format's own (an xlsx sheet's). */
function checkRowLimits(limits: QueryLimits, query: NormalizedQuery, totalRows: number): AppError | undefined {
  if (totalRows > limits.maxRowsPerExecute) {
    return appError('validation_error', `This query asks for ${totalRows} records; one execute may produce at most ${limits.maxRowsPerExecute}. Split it into several queries.`);
  }
  const cap = OUTPUT_FORMAT_SPECS[query.output_format].maxRows;
  if (cap !== undefined && totalRows > cap.rows) {
    return appError('validation_error', `This query asks for ${totalRows} records, more than ${cap.holder} holds (${cap.rows}); use output_format ${uncappedFormats(totalRows)}.`);
  }
  return undefined;
}

/** The formats that hold this many records, as the refusal offers them: "parquet" or "csv". */
const uncappedFormats = (rows: number): string => listed(OUTPUT_FORMATS.filter((f) => (OUTPUT_FORMAT_SPECS[f].maxRows?.rows ?? Infinity) >= rows).map((f) => `"${f}"`));

const matchesOf = (selections: readonly ResolvedSelection[], poolSizes: readonly number[]): GeographyMatch[] =>
  selections.map((s, i) => ({
    suburb_id: s.canonical,
    pool_size: poolSizes[i]!,
    small_suburb_flag: s.suburbs.length > 0 && s.suburbs.every((sub) => sub.smallSuburb),
    quality_url: qualityPath(s.level, s.canonical),
    ...populationOf(s),
  }));

/** A selection's census count and estimate (its areas' summed), where every area of it has both. */
function populationOf(s: ResolvedSelection): Pick<GeographyMatch, 'census_count' | 'estimated_population'> {
  if (s.suburbs.length === 0 || !s.suburbs.every((a) => a.censusPersons !== undefined && a.estimatedPersons !== undefined)) return {};
  return { census_count: s.suburbs.reduce((n, a) => n + a.censusPersons!, 0), estimated_population: s.suburbs.reduce((n, a) => n + a.estimatedPersons!, 0) };
}

function priceOf(query: NormalizedQuery, selectionCount: number, billable: number): number {
  return query.linked_records === 'household'
    ? creditCostOfRecords(billable, query.include_geography)
    : creditCost(query.n_observations, selectionCount, query.include_geography, query.linked_records ?? QUERY_DEFAULTS.linked_records);
}

/**
 * A later selection sharing suburbs with earlier ones: a record is drawn once in a file (the
 * first selection that draws it keeps it), so it draws `extra` more and drops those already
 * taken (core/sampling withoutTaken).
 */
export interface SelectionOverlap {
  /** Index of the later selection. */
  readonly index: number;
  /** The earlier selections it shares suburbs with (canonical spellings). */
  readonly with: readonly string[];
  readonly sharedSuburbs: number;
  /** The most records the earlier selections can have drawn from its pool. */
  readonly extra: number;
}

export function overlapsOf(selections: readonly ResolvedSelection[], dataset: DatasetType, n: number): SelectionOverlap[] {
  // Suburb → the selections so far that hold it: O(suburbs × selections), whatever their sizes.
  const heldBy = new Map<string, number[]>();
  const out: SelectionOverlap[] = [];
  selections.forEach((selection, index) => {
    const earlier = new Set<number>();
    let shared = 0;
    let sharedPool = 0;
    for (const suburb of selection.suburbs) {
      const holders = heldBy.get(suburb.salCode);
      if (!holders) continue;
      for (const h of holders) earlier.add(h);
      shared++;
      sharedPool += suburb.pools[dataset];
    }
    if (shared > 0) {
      // Each earlier selection that holds some of these suburbs may have drawn up to n from them.
      out.push({ index, with: [...earlier].sort((a, b) => a - b).map((i) => selections[i]!.canonical), sharedSuburbs: shared, extra: Math.min(sharedPool, n * earlier.size) });
    }
    for (const suburb of selection.suburbs) {
      const holders = heldBy.get(suburb.salCode);
      if (holders) holders.push(index);
      else heldBy.set(suburb.salCode, [index]);
    }
  });
  return out;
}
