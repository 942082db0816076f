import { Type, type Static } from '@sinclair/typebox';
import { DATASET_TYPES, FITTED_TO, STATES } from '../core/dataset.ts';
import { MEASUREMENTS } from '../synthesis/census/variables.ts';
import { StringEnum } from './common.ts';

export const SearchQuery = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 100, description: 'Search term; partial, case- and accent-insensitive match' }),
  state: Type.Optional(StringEnum(STATES, { description: 'Only places in this state or territory' })),
  level: Type.Optional(
    StringEnum(['suburb', 'postcode', 'sa2', 'lga', 'state'] as const, {
      default: 'suburb',
      description: 'The kind of place to find; a postcode search lists the suburbs it covers. Extension: "sa2" finds the ABS Statistical Areas Level 2 the release holds, by name or nine-digit code',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'At most this many results, best first' })),
});
export type SearchQuery = Static<typeof SearchQuery>;

/** The defaults of the optional search parameters, read from the schema. */
export const SEARCH_DEFAULTS = {
  level: SearchQuery.properties.level.default as NonNullable<SearchQuery['level']>,
  limit: SearchQuery.properties.limit.default as number,
} as const;

export const SearchResultItem = Type.Object({
  suburb_id: Type.String(),
  code: Type.String({
    description: 'Extension: the ABS 2021 code of the area the pools were fitted to: "SAL21234" (a suburb), "601021004" (an SA2, nine digits), "POA3121" (a postal area), "LGA26350" (an LGA)',
  }),
  state: Type.String(),
  postcode: Type.String(),
  lga: Type.String(),
  gccsa: Type.String(),
  postcodes: Type.Array(Type.String(), { description: 'Extension: every postcode the area overlaps, the one holding most of its people first' }),
  lgas: Type.Array(Type.String(), { description: 'Extension: every LGA the area lies in, the one holding most of its people first' }),
  sa2: Type.Optional(Type.String({ description: 'Extension: a suburb\'s main SA2 (the one holding most of its people), where the release knows it' })),
  largest_suburbs: Type.Optional(Type.Array(Type.String(), { description: 'Extension: a postal area\'s or SA2\'s suburbs holding most of its people, largest first' })),
  pool_size: Type.Integer({ description: 'The persons pool' }),
  small_suburb_flag: Type.Boolean(),
  fitted_to: StringEnum(FITTED_TO, { description: 'Extension: "census" when the pools were fitted to the real ABS 2021 Census tables, "demo" when to the demo\'s made-up figures' }),
  datasets_available: Type.Array(StringEnum(DATASET_TYPES)),
  pool_sizes: Type.Object(
    { persons: Type.Integer(), families: Type.Integer(), dwellings: Type.Integer() },
    { description: 'Extension: the pool of every dataset' },
  ),
});

export const SearchResult = Type.Object({
  results: Type.Array(SearchResultItem),
  total_matches: Type.Integer(),
});
export type SearchResult = Static<typeof SearchResult>;

export const VariablesParams = Type.Object({ suburb_id: Type.String({ minLength: 1, maxLength: 200, description: 'A suburb_id as search returns it (e.g. "Fitzroy" or "Richmond (VIC)")' }) });
export const VariablesQuery = Type.Object({ dataset_type: StringEnum(DATASET_TYPES, { description: 'Whose variables: persons, families or dwellings' }) });

export const VariablesResult = Type.Object({
  suburb_id: Type.String(),
  dataset_type: StringEnum(DATASET_TYPES),
  variables: Type.Array(
    Type.Object({
      code: Type.String(),
      description: Type.String(),
      n_categories: Type.Integer(),
      measurement: StringEnum(MEASUREMENTS, { description: 'Extension: "ordinal" when the categories run from low to high (an ordered factor), else "nominal" (an unordered one)' }),
    }),
  ),
});
export type VariablesResult = Static<typeof VariablesResult>;
