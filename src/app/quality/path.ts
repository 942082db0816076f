import type { AreaLevel, GeographyLevel } from '../../core/dataset.ts';

/**
 * The path of an area's quality page (behind the API key, like search; the account area's copy is
 * the same under /console): what search results and previews give as `quality_url`, relative to
 * the URL the client called.
 */
export const qualityPath = (level: GeographyLevel, canonical: string): string => `/quality/areas/${level}/${encodeURIComponent(canonical)}`;

/** The query level that selects an area fitted to its own tables. */
export const queryLevelOfArea = (level: AreaLevel): GeographyLevel => ({ sal: 'suburb', sa2: 'sa2', poa: 'postcode', lga: 'lga' } as const)[level];
