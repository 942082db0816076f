/**
 * The census's own names, which the service serves by and the science works in: its three kinds of
 * record, the ABS areas pools are fitted at, and the states. The ground floor under both domains:
 * src/core (the service's domain, re-exported by core/dataset.ts) and src/synthesis (the census
 * science) each import these names and nothing of the other, so neither stands on the other.
 * Names only: it imports nothing. The states' ASGS codes are here too: the census reader
 * (src/census-input) keys state rows by them and the demo generator writes them.
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

/** ASGS 2021 state and territory codes (STATE_CODE_2021): the first digit of every main-structure code. */
export const STATE_BY_ABS_CODE: Readonly<Record<string, StateAbbr>> = {
  '1': 'NSW',
  '2': 'VIC',
  '3': 'QLD',
  '4': 'SA',
  '5': 'WA',
  '6': 'TAS',
  '7': 'NT',
  '8': 'ACT',
  '9': 'OT',
};

export const ABS_CODE_OF_STATE: Readonly<Record<StateAbbr, string>> = Object.fromEntries(
  Object.entries(STATE_BY_ABS_CODE).map(([code, state]) => [state, code]),
) as Record<StateAbbr, string>;
