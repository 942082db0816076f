import { DATASET_TYPES, type DatasetType, type FittedTo } from '../core/dataset.ts';
import { appError, type AppError } from '../core/errors.ts';
import { err, ok, type Result } from '../core/result.ts';
import type { ResolveFailure, SuburbInfo } from '../ports/pool-release.ts';
import type { Static } from '@sinclair/typebox';
import { SEARCH_DEFAULTS, type SearchQuery, type SearchResult, type SearchResultItem, type VariablesResult } from '../wire/geography.ts';
import type { UseCaseDeps } from './deps.ts';

/** One search result, as the published schema defines it (src/wire). */
export type SearchItem = Static<typeof SearchResultItem>;

const searchItem = (s: SuburbInfo, fittedTo: FittedTo): SearchItem => ({
  suburb_id: s.suburbId,
  code: s.salCode,
  state: s.state,
  postcode: s.postcode,
  lga: s.lga,
  gccsa: s.gccsa,
  postcodes: [...(s.postcodes ?? [s.postcode])].filter(Boolean),
  lgas: (s.lgas ?? []).map((l) => l.name).filter(Boolean),
  ...(s.sa2 ? { sa2: s.sa2 } : {}),
  ...(s.largestSuburbs && s.largestSuburbs.length > 0 ? { largest_suburbs: [...s.largestSuburbs] } : {}),
  pool_size: s.pools.persons,
  small_suburb_flag: s.smallSuburb,
  fitted_to: fittedTo,
  datasets_available: DATASET_TYPES.filter((d) => s.pools[d] > 0),
  pool_sizes: s.pools,
});

export function searchGeography(deps: Pick<UseCaseDeps, 'pools'>, input: SearchQuery): SearchResult {
  const found = deps.pools.search({
    query: input.query,
    level: input.level ?? SEARCH_DEFAULTS.level,
    limit: input.limit ?? SEARCH_DEFAULTS.limit,
    ...(input.state !== undefined ? { state: input.state } : {}),
  });
  return { results: found.results.map((s) => searchItem(s, deps.pools.fittedTo)), total_matches: found.total };
}

function suburbNotFound(suburbId: string, failure: ResolveFailure): AppError {
  if (failure.kind === 'ambiguous') {
    return appError('not_found', `"${suburbId}" names suburbs in more than one state; use one of: ${failure.choices.map((c) => `"${c}"`).join(', ')}.`);
  }
  if (failure.kind === 'unavailable') return appError('not_found', `No area "${suburbId}" in this pool release.`);
  const hint = failure.suggestions.length > 0 ? ` Did you mean ${failure.suggestions.map((c) => `"${c}"`).join(', ')}?` : '';
  return appError('not_found', `No suburb "${suburbId}".${hint}`);
}

export function suburbVariables(
  deps: Pick<UseCaseDeps, 'pools'>,
  suburbId: string,
  dataset: DatasetType,
): Result<VariablesResult, AppError> {
  const suburb = deps.pools.suburb(suburbId);
  if (!suburb.ok) return err(suburbNotFound(suburbId, suburb.error));
  const variables = deps.pools.variables(suburb.value.suburbId, dataset);
  if (!variables.ok) return err(suburbNotFound(suburbId, variables.error));
  return ok({ suburb_id: suburb.value.suburbId, dataset_type: dataset, variables: [...variables.value] });
}
