// The census's names (its record kinds, fitted area levels, states): the service serves by them,
// the science works in them. One definition, in src/census-names.ts, the floor under both.
import type { AreaLevel, DatasetType, StateAbbr } from '../census-names.ts';
export { AREA_LEVELS, DATASET_TYPES, STATES, type AreaLevel, type DatasetType, type StateAbbr } from '../census-names.ts';

/** The query levels; "sa2" (ABS Statistical Areas Level 2) is an extension of the contract's five. */
export const GEOGRAPHY_LEVELS = ['suburb', 'postcode', 'sa2', 'lga', 'state', 'australia'] as const;
export type GeographyLevel = (typeof GEOGRAPHY_LEVELS)[number];

/** The query level each fitted level serves directly. */
export const QUERY_LEVEL_OF_AREA: Readonly<Record<AreaLevel, GeographyLevel>> = { sal: 'suburb', sa2: 'sa2', poa: 'postcode', lga: 'lga' };

/** What a release's pools were fitted to: the real ABS census tables, or the demo's made-up figures. */
export const FITTED_TO = ['census', 'demo'] as const;
export type FittedTo = (typeof FITTED_TO)[number];

/** The output formats: their registry (extension, content type, caps, companion files) is formats.ts. */
export { OUTPUT_FORMATS, type OutputFormat } from './formats.ts';

export const INCLUDE_GEOGRAPHY = ['none', 'hierarchical'] as const;
export type IncludeGeography = (typeof INCLUDE_GEOGRAPHY)[number];

/**
 * Extension: "joined" gives each record its family's and dwelling's variables as prefixed
 * columns (family_*, dwelling_*), so a person comes with their household in one file;
 * "household" draws dwellings and returns them with all their families and persons, one file
 * per dataset in one zip.
 */
export const LINKED_RECORDS = ['none', 'joined', 'household'] as const;
export type LinkedRecords = (typeof LINKED_RECORDS)[number];

/** The datasets a record's own row links to (through the family_row / dwelling_row links), and their column prefixes. */
export const LINKED_DATASETS: Readonly<Record<DatasetType, readonly { readonly dataset: DatasetType; readonly link: string; readonly prefix: string }[]>> = {
  persons: [
    { dataset: 'families', link: 'family_row', prefix: 'family_' },
    { dataset: 'dwellings', link: 'dwelling_row', prefix: 'dwelling_' },
  ],
  families: [{ dataset: 'dwellings', link: 'dwelling_row', prefix: 'dwelling_' }],
  dwellings: [],
};

export const STATE_NAMES: Readonly<Record<StateAbbr, string>> = {
  NSW: 'New South Wales',
  VIC: 'Victoria',
  QLD: 'Queensland',
  SA: 'South Australia',
  WA: 'Western Australia',
  TAS: 'Tasmania',
  NT: 'Northern Territory',
  ACT: 'Australian Capital Territory',
  OT: 'Other Territories',
};

/** Columns that include_geography = hierarchical adds to each record, in file order (the SA2's two after the contract's five). */
export const HIERARCHICAL_COLUMNS = ['suburb', 'postcode', 'lga', 'gccsa', 'state', 'sa2_code', 'sa2_name'] as const;
