/**
 * The census's own names, which the service serves by and the science works in: its three kinds of
 * record, the ABS areas pools are fitted at, and the states. The ground floor under both domains:
 * src/core (the service's domain, re-exported by core/dataset.ts) and src/synthesis (the census
 * science) each import these names and nothing of the other, so neither stands on the other.
 * Names only: it imports nothing.
 */

export const DATASET_TYPES = ['persons', 'families', 'dwellings'] as const;
export type DatasetType = (typeof DATASET_TYPES)[number];

/**
 * The levels a release's pools are fitted at, each to its own census tables, finest first:
 * suburbs (ABS SAL), Statistical Areas Level 2 (SA2), postal areas (POA) and local government
 * areas (LGA). States and Australia are served from the finest level a release holds.
 */
export const AREA_LEVELS = ['sal', 'sa2', 'poa', 'lga'] as const;
export type AreaLevel = (typeof AREA_LEVELS)[number];

/** The eight states and territories; OT (Other Territories) can appear in real ABS inputs. */
export const STATES = ['NSW', 'VIC', 'QLD', 'SA', 'WA', 'TAS', 'NT', 'ACT'] as const;
export type StateAbbr = (typeof STATES)[number] | 'OT';
