import { DATASET_TYPES, type DatasetType, type FittedTo, type GeographyLevel } from '../core/dataset.ts';
import { levelStillBuilding } from './served-release.ts';
import { appError, type AppError } from '../core/errors.ts';
import { err, ok, type Result } from '../core/result.ts';
import type { CodebookEntry, ResolvedSelection, ResolveFailure, SuburbInfo } from '../ports/pool-release.ts';
import type { Static } from '@sinclair/typebox';
import { SEARCH_DEFAULTS, type SearchQuery, type SearchResult, type SearchResultItem, type VariablesResult, type CodebookResult, CodebookVariable } from '../wire/geography.ts';
import type { UseCaseDeps } from './deps.ts';
import { qualityPath, queryLevelOfArea } from './quality/path.ts';
import type { PopulationBasis } from '../core/provenance.ts';

/** One search result, as the published schema defines it (src/wire). */
export type SearchItem = Static<typeof SearchResultItem>;

const searchItem = (s: SuburbInfo, fittedTo: FittedTo, population: PopulationBasis | undefined): SearchItem => ({
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
  ...(s.censusPersons !== undefined ? { census_count: s.censusPersons } : {}),
  ...(s.estimatedPersons !== undefined ? { estimated_population: s.estimatedPersons } : {}),
  fitted_to: fittedTo,
  ...(population ? { population_estimate: { ...population } } : {}),
  datasets_available: DATASET_TYPES.filter((d) => s.pools[d] > 0),
  pool_sizes: s.pools,
  quality_url: qualityPath(queryLevelOfArea(s.level), s.suburbId),
});

/** A search at a level the server is still building: 503 with when to retry (levelStillBuilding), not an empty answer. */
export function searchLevelBuilding(deps: Pick<UseCaseDeps, 'pools'>, level: SearchQuery['level']): AppError | undefined {
  const at = level ?? SEARCH_DEFAULTS.level;
  const building = deps.pools.building;
  if (building === undefined || !building.levels.includes(at)) return undefined;
  return levelStillBuilding(at, { kind: 'unavailable', held: deps.pools.levels, building });
}

export function searchGeography(deps: Pick<UseCaseDeps, 'pools'>, input: SearchQuery): SearchResult {
  const found = deps.pools.search({
    query: input.query,
    level: input.level ?? SEARCH_DEFAULTS.level,
    limit: input.limit ?? SEARCH_DEFAULTS.limit,
    ...(input.state !== undefined ? { state: input.state } : {}),
  });
  return { results: found.results.map((s) => searchItem(s, deps.pools.fittedTo, deps.pools.population)), total_matches: found.total };
}

function suburbNotFound(suburbId: string, failure: ResolveFailure): AppError {
  if (failure.kind === 'ambiguous') {
    return appError('not_found', `"${suburbId}" names suburbs in more than one state; use one of: ${failure.choices.map((c) => `"${c}"`).join(', ')}.`);
  }
  if (failure.kind === 'unavailable') return appError('not_found', `No area "${suburbId}" in this pool release.`);
  const hint = failure.suggestions.length > 0 ? ` Did you mean ${failure.suggestions.map((c) => `"${c}"`).join(', ')}?` : '';
  return appError('not_found', `No suburb, postcode, SA2, LGA or state "${suburbId}" in this pool release.${hint} GET /geography/search finds places; level=… says which kind of place the identifier is.`);
}

/**
 * The free codebook of one area's dataset, at any level: a suburb (or an area the release fits to
 * its own tables) by its identifier, else the first level, in the order below, whose selection the
 * identifier names ("3065" a postcode, "Yarra" an LGA, "VIC", "Australia"); `level` names one.
 */
export function areaVariables(
  deps: Pick<UseCaseDeps, 'pools'>,
  input: { readonly id: string; readonly dataset: DatasetType; readonly level?: GeographyLevel | undefined },
): Result<VariablesResult, AppError> {
  const area = resolveArea(deps.pools, input.id, input.level);
  if (!area.ok) return err(input.level === undefined ? suburbNotFound(input.id, area.error) : areaNotFound(input.id, input.level, area.error));
  return ok({
    suburb_id: area.value.canonical,
    geography_level: area.value.level,
    dataset_type: input.dataset,
    version: deps.pools.version,
    fitted_to: deps.pools.fittedTo,
    ...(deps.pools.population ? { population_estimate: { ...deps.pools.population } } : {}),
    variables: deps.pools.variables(area.value, input.dataset).map(wireVariable),
  });
}

/** The levels an identifier is tried at when the request names none, after suburbs and own-fitted areas. */
const FALLBACK_LEVELS: readonly GeographyLevel[] = ['postcode', 'sa2', 'lga', 'state', 'australia'];

function resolveArea(pools: UseCaseDeps['pools'], id: string, level: GeographyLevel | undefined): Result<ResolvedSelection, ResolveFailure> {
  if (level !== undefined) return pools.resolve(level, id);
  const own = pools.suburb(id);
  if (own.ok) return ok({ level: levelOfArea(own.value), input: id, canonical: own.value.suburbId, suburbs: [own.value] });
  if (own.error.kind === 'ambiguous') return own;
  for (const other of FALLBACK_LEVELS.filter((l) => pools.levels.includes(l))) {
    const found = pools.resolve(other, id);
    if (found.ok) return found;
  }
  return own;
}

/** The query level that selects an area fitted to its own tables. */
const levelOfArea = (s: SuburbInfo): GeographyLevel => ({ sal: 'suburb', sa2: 'sa2', poa: 'postcode', lga: 'lga' } as const)[s.level];

function areaNotFound(id: string, level: GeographyLevel, failure: ResolveFailure): AppError {
  const building = levelStillBuilding(level, failure);
  if (building) return building;
  if (failure.kind === 'unavailable') return appError('not_found', `This pool release holds no ${level} pools; it holds: ${failure.held.join(', ')}.`);
  if (failure.kind === 'ambiguous') return appError('not_found', `"${id}" names more than one ${level}; use one of: ${failure.choices.map((c) => `"${c}"`).join(', ')}.`);
  const hint = failure.suggestions.length > 0 ? ` Did you mean ${failure.suggestions.map((c) => `"${c}"`).join(', ')}?` : '';
  return appError('not_found', `No ${level} "${id}".${hint}`);
}

/** A port's read-only entry as its wire form (mutable copies of its lists). */
function wireVariable<V extends CodebookEntry>(v: V): Omit<V, 'categories' | 'missing' | 'coarse_categories'> & Static<typeof CodebookVariable> {
  const { coarse_categories: coarse, categories: _categories, missing: _missing, ...rest } = v;
  return {
    ...rest,
    categories: [...v.categories],
    missing: { not_applicable: [...v.missing.not_applicable], non_response: [...v.missing.non_response], partial_response: [...v.missing.partial_response] },
    ...(coarse ? { coarse_categories: [...coarse] } : {}),
  };
}

/** The release's whole codebook (every dataset, or one), free: what every file's columns can hold. */
export function releaseCodebook(deps: Pick<UseCaseDeps, 'pools'>, dataset: DatasetType | undefined): CodebookResult {
  const datasets = dataset === undefined ? DATASET_TYPES : [dataset];
  return {
    version: deps.pools.version,
    fitted_to: deps.pools.fittedTo,
    ...(deps.pools.population ? { population_estimate: { ...deps.pools.population } } : {}),
    datasets: Object.fromEntries(datasets.map((d) => [d, deps.pools.codebook(d).map(wireVariable)])),
  };
}
