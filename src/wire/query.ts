import { Type, type Static } from '@sinclair/typebox';
import { DATASET_TYPES, FITTED_TO, GEOGRAPHY_LEVELS, INCLUDE_GEOGRAPHY, LINKED_RECORDS, OUTPUT_FORMATS } from '../core/dataset.ts';
import { DICTIONARY_BESIDE_FORMATS, listed } from '../core/formats.ts';
import { PopulationEstimateInfo, StringEnum, Timestamp } from './common.ts';

/** The signed link of a result's dictionary, for the formats that have it beside the file (the format registry says which). */
export const DictionaryUrl = Type.String({
  description: `Extension, ${listed(DICTIONARY_BESIDE_FORMATS, 'and')} results only: signed link to the dictionary of codes and labels (JSON), valid as long as download_url`,
});

/** What a seed may be, said whenever a request's seed is not one (the schema's own words for a union say nothing useful). */
export const SEED_RULE =
  'must be a whole number from 0 to 2^64 − 1 (18446744073709551615): a string of decimal digits such as "5619307297291908987", or a JSON integer up to 2^53 − 1 (9007199254740991); no sign, decimal point or exponent';

/** Body of POST /query/preview and POST /query/execute (one schema for both, as v1 says). */
export const QueryRequest = Type.Object(
  {
    geography_level: StringEnum(GEOGRAPHY_LEVELS, {
      description: 'The kind of place selected. Extension: "sa2", the ABS Statistical Areas Level 2, where the release holds SA2 pools (a query at a level the release does not hold is refused with the levels it holds)',
    }),
    geography_selections: Type.Array(Type.String({ maxLength: 200 }), {
      maxItems: 5000,
      description: 'Identifiers at geography_level, e.g. "Richmond (VIC)", "3121", "601051027" or "Hobart" (an SA2 by its nine-digit code or ABS name), "Melbourne (VIC)", "VIC", "Australia"',
    }),
    dataset_type: StringEnum(DATASET_TYPES),
    n_observations: Type.Integer({ description: 'Records generated per geography selection' }),
    output_format: Type.Optional(StringEnum(OUTPUT_FORMATS, { default: 'parquet' })),
    include_geography: Type.Optional(StringEnum(INCLUDE_GEOGRAPHY, { default: 'none' })),
    linked_records: Type.Optional(
      StringEnum(LINKED_RECORDS, {
        default: 'none',
        description:
          'Extension: "joined" adds each record\'s family and dwelling variables as family_* and dwelling_* columns (persons; dwelling_* for families), billed at 1.5 times the standard rate (2 times with hierarchical geography). "household" (dataset_type dwellings; n_observations counts dwellings) returns the dwellings drawn with all their families and persons, one file per dataset in one zip, billed by the records it holds on average: n × (dwellings + families + persons) / dwellings of each selection\'s pools',
      }),
    ),
    seed: Type.Optional(
      Type.Union(
        [
          Type.String({ pattern: '^[0-9]{1,20}$', description: 'Decimal digits, below 2^64' }),
          Type.Integer({
            minimum: 0,
            maximum: Number.MAX_SAFE_INTEGER,
            description: 'A JSON integer up to 2^53 − 1 (larger ones lose digits in JSON parsers: send those as a string)',
          }),
        ],
        {
          'x-invalid': SEED_RULE,
          description:
            'Extension: the 64-bit sampling seed (below 2^64) of an earlier draw, e.g. its metadata.seed, as a decimal string or a JSON integer up to 2^53 − 1. The same query with the same seed and implicate returns the same records. Absent: a fresh seed from a secure source (every execute a new sample, as v1 says)',
        },
      ),
    ),
    implicate: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        description:
          'Extension: which implicate of the pool release to draw from. Each implicate is an independent synthesis of every pool from the same census tables with its own seed, so draws from different implicates carry the uncertainty of the synthesis (multiple imputation; docs/multiple-imputation.md). Absent: implicate 1. A number the release does not hold (yet) is a 422 that lists the ones it holds',
      }),
    ),
  },
  // An unknown field is a 400 that names it: a misspelt or invented option ("variables",
  // "include_weights") would otherwise be ignored in silence and the query run without it.
  { description: 'Query request', additionalProperties: false },
);
export type QueryRequest = Static<typeof QueryRequest>;

/** The defaults of the optional fields, read from the schema (the one place they are written). */
export const QUERY_DEFAULTS = {
  output_format: QueryRequest.properties.output_format.default as NonNullable<QueryRequest['output_format']>,
  include_geography: QueryRequest.properties.include_geography.default as NonNullable<QueryRequest['include_geography']>,
  linked_records: QueryRequest.properties.linked_records.default as NonNullable<QueryRequest['linked_records']>,
} as const;

export const GeographyMatch = Type.Object({
  suburb_id: Type.String({ description: 'Canonical identifier of the selection' }),
  pool_size: Type.Integer(),
  small_suburb_flag: Type.Boolean(),
  quality_url: Type.String({
    description: 'Extension: the selection\'s quality page (its records beside the census tables they were fitted to; HTML, free of credits, with the API key or signed in to the account area at the same path under /console), a path on this service, e.g. "/quality/areas/postcode/3065"',
  }),
  census_count: Type.Optional(Type.Integer({ description: 'Extension: in a release sized to an estimated resident population, the 2021 Census count of the area (G01 persons; for a selection, of its areas summed)' })),
  estimated_population: Type.Optional(Type.Integer({ description: 'Extension: in a release sized to an estimated resident population, the area\'s estimate, which its pool is sized to (population_estimate says which)' })),
});

export const PreviewResult = Type.Object(
  {
    valid: Type.Literal(true),
    n_observations: Type.Integer(),
    credit_cost: Type.Integer(),
    pool_available: Type.Integer(),
    geography_matches: Type.Array(GeographyMatch),
    warnings: Type.Array(Type.String()),
  },
  { description: 'Preview result' },
);
export type PreviewResult = Static<typeof PreviewResult>;

export const PreviewInvalid = Type.Object(
  {
    valid: Type.Literal(false),
    detail: Type.String(),
    geography_matches: Type.Array(GeographyMatch, { maxItems: 0 }),
  },
  { description: 'Invalid-query preview result' },
);

export const QueryMetadata = Type.Object(
  {
    geography_level: StringEnum(GEOGRAPHY_LEVELS),
    geography_selections: Type.Array(Type.String()),
    dataset_type: StringEnum(DATASET_TYPES),
    n_observations: Type.Integer(),
    output_format: StringEnum(OUTPUT_FORMATS),
    include_geography: StringEnum(INCLUDE_GEOGRAPHY),
    linked_records: Type.Optional(StringEnum(LINKED_RECORDS)),
    version: Type.String({ description: 'Version of the pool release the records come from' }),
    fitted_to: Type.Optional(
      StringEnum(FITTED_TO, {
        description: 'Extension: "census" when the pools were fitted to the real ABS 2021 Census tables, "demo" when to the demo\'s made-up figures (absent on queries run before 2026-11-25)',
      }),
    ),
    population_estimate: Type.Optional(PopulationEstimateInfo),
    generated_at: Timestamp('When the file was generated'),
    seed: Type.String({ description: 'Extension: the 64-bit sampling seed (decimal), to reproduce the file' }),
    implicate: Type.Optional(
      Type.Integer({ description: 'Extension: the implicate (independent synthesis of the release) the records were drawn from; with seed it reproduces the draw (absent on queries run before 2026-11-25: implicate 1)' }),
    ),
    synthesis_seed: Type.Optional(Type.String({ description: "Extension: the seed that implicate's synthesis ran with (decimal), when the release records it" })),
    test_data: Type.Optional(
      Type.Literal(true, { description: 'Extension: present when a sandbox (spq_test_) key ran the query: nothing charged, at most 100 records per selection, test data' }),
    ),
  },
  { additionalProperties: true },
);
export type QueryMetadata = Static<typeof QueryMetadata>;

export const ExecuteResult = Type.Object(
  {
    query_id: Type.String(),
    status: Type.Literal('completed'),
    credit_cost: Type.Integer(),
    credits_remaining: Type.Integer(),
    download_url: Type.String({ description: 'Signed URL of the result file; needs no API key' }),
    download_expires: Timestamp('Expiry of download_url (SPQ_DOWNLOAD_TTL_DAYS after execution: 7 days unless the deployment says otherwise)'),
    metadata: QueryMetadata,
    dictionary_url: Type.Optional(DictionaryUrl),
  },
  { description: 'Execution result' },
);
export type ExecuteResult = Static<typeof ExecuteResult>;

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'Extension: the same key and body within 24 h returns the first result without a new charge' }),
  ),
});
