import { Type, type Static } from '@sinclair/typebox';
import { DATASET_TYPES, FITTED_TO, GEOGRAPHY_LEVELS, STATES } from '../core/dataset.ts';
import { MEASUREMENTS } from '../synthesis/census/variables.ts';
import { PopulationEstimateInfo, StringEnum } from './common.ts';

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
  census_count: Type.Optional(Type.Integer({ description: 'Extension: in a release sized to an estimated resident population, the 2021 Census count of the area (G01 persons; for a selection, of its areas summed)' })),
  estimated_population: Type.Optional(Type.Integer({ description: 'Extension: in a release sized to an estimated resident population, the area\'s estimate, which its pool is sized to (population_estimate says which)' })),
  fitted_to: StringEnum(FITTED_TO, { description: 'Extension: "census" when the pools were fitted to the real ABS 2021 Census tables, "demo" when to the demo\'s made-up figures' }),
  population_estimate: Type.Optional(PopulationEstimateInfo),
  datasets_available: Type.Array(StringEnum(DATASET_TYPES)),
  pool_sizes: Type.Object(
    { persons: Type.Integer(), families: Type.Integer(), dwellings: Type.Integer() },
    { description: 'Extension: the pool of every dataset' },
  ),
  quality_url: Type.String({
    description: 'Extension: the area\'s quality page (its records beside the census tables it was fitted to, with the census\'s noise; HTML, free of credits, with the API key or signed in to the account area at the same path under /console), a path on this service, e.g. "/quality/areas/suburb/Fitzroy"',
  }),
});

export const SearchResult = Type.Object({
  results: Type.Array(SearchResultItem),
  total_matches: Type.Integer(),
});
export type SearchResult = Static<typeof SearchResult>;

export const VariablesParams = Type.Object({
  suburb_id: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'A suburb_id as search returns it (e.g. "Fitzroy" or "Richmond (VIC)"). Extension: any area a query can select — a postcode ("3065"), SA2 ("Hobart"), LGA ("Yarra"), state ("VIC") or "Australia"',
  }),
});
export const VariablesQuery = Type.Object({
  dataset_type: StringEnum(DATASET_TYPES, { description: 'Whose variables: persons, families or dwellings' }),
  level: Type.Optional(
    StringEnum(GEOGRAPHY_LEVELS, {
      description: 'Extension: the kind of place suburb_id names, as geography_level in a query. Absent: a suburb (or an area fitted to its own tables), else the first of postcode, sa2, lga, state, australia that the identifier names',
    }),
  ),
});

const MissingCodes = Type.Object(
  {
    not_applicable: Type.Array(Type.String(), { description: 'The question does not apply ("Not applicable")' }),
    non_response: Type.Array(Type.String(), { description: 'No usable answer ("Not stated")' }),
    partial_response: Type.Array(Type.String(), { description: 'Part of the answer missing ("Partial income stated")' }),
  },
  { description: 'Extension: the categories that are missing-value codes, by kind: files leave the variable empty there and name the code in its _missing column (docs/api.md, "Missing values")' },
);

/** A variable as the free codebook gives it: the same categories and missing codes a file's dictionary carries. */
export const CodebookVariable = Type.Object({
  code: Type.String({ description: 'The column name in files (ABS 2021 Census mnemonic)' }),
  description: Type.String({ description: 'The variable label' }),
  measurement: StringEnum(MEASUREMENTS, { description: 'Extension: "ordinal" when the categories run from low to high (an ordered factor), else "nominal" (an unordered one)' }),
  categories: Type.Array(Type.String(), { description: 'Extension: every category label in ABS order, missing-value codes last' }),
  missing: MissingCodes,
  coarse_categories: Type.Optional(Type.Array(Type.String(), { description: 'Extension: the coarse categories that small suburbs carry instead (in the CODE_coarse column)' })),
});

export const VariablesResult = Type.Object({
  suburb_id: Type.String({ description: 'The area, as a query selects it' }),
  geography_level: Type.Optional(StringEnum(GEOGRAPHY_LEVELS, { description: 'Extension: the level the area was found at' })),
  dataset_type: StringEnum(DATASET_TYPES),
  version: Type.Optional(Type.String({ description: 'Extension: the pool release' })),
  fitted_to: Type.Optional(StringEnum(FITTED_TO)),
  population_estimate: Type.Optional(PopulationEstimateInfo),
  variables: Type.Array(
    Type.Composite([
      CodebookVariable,
      Type.Object({
        n_categories: Type.Integer({ description: 'The categories this area\'s records can take: fewer where a small suburb carries coarse categories only' }),
        coarse_areas: Type.Optional(Type.Integer({ description: 'Extension: how many of the area\'s suburbs carry the variable in coarse categories only' })),
      }),
    ]),
  ),
});
export type VariablesResult = Static<typeof VariablesResult>;

export const CodebookQuery = Type.Object({
  dataset_type: Type.Optional(StringEnum(DATASET_TYPES, { description: 'Only this dataset\'s variables (absent: all three)' })),
});

export const CodebookResult = Type.Object(
  {
    version: Type.String({ description: 'The pool release the codebook describes' }),
    fitted_to: StringEnum(FITTED_TO),
    population_estimate: Type.Optional(PopulationEstimateInfo),
    datasets: Type.Object(
      {
        persons: Type.Optional(Type.Array(CodebookVariable)),
        families: Type.Optional(Type.Array(CodebookVariable)),
        dwellings: Type.Optional(Type.Array(CodebookVariable)),
      },
      { description: 'Each dataset\'s variables in file order' },
    ),
  },
  { description: 'Extension: the codebook of the served release, free of credits' },
);
export type CodebookResult = Static<typeof CodebookResult>;
