import { Type, type Static } from '@sinclair/typebox';
import { DATASET_TYPES, FITTED_TO, GEOGRAPHY_LEVELS, INCLUDE_GEOGRAPHY, LINKED_RECORDS, OUTPUT_FORMATS } from '../core/dataset.ts';
import { StringEnum, Timestamp } from './common.ts';
import { DictionaryUrl, QueryRequest } from './query.ts';

export const HistoryItem = Type.Object({
  query_id: Type.String(),
  executed_at: Timestamp('When the query ran'),
  dataset_type: StringEnum(DATASET_TYPES),
  geography_selections: Type.Array(Type.String()),
  n_observations: Type.Integer(),
  credit_cost: Type.Integer(),
  download_url: Type.String(),
  download_expired: Type.Boolean(),
  dictionary_url: Type.Optional(DictionaryUrl),
  test_data: Type.Optional(
    Type.Literal(true, { description: 'Extension: present when a sandbox (spq_test_) key ran the query: nothing charged, test data, not for analysis' }),
  ),
  seed: Type.Optional(Type.String({ description: "Extension: the query's 64-bit sampling seed (decimal), as its metadata.seed: with implicate, the same query reproduces the file" })),
  implicate: Type.Optional(Type.Integer({ description: 'Extension: the implicate the records were drawn from (1 for queries run before implicates)' })),
  version: Type.Optional(Type.String({ description: 'Extension: version of the pool release the records come from' })),
  fitted_to: Type.Optional(StringEnum(FITTED_TO, { description: 'Extension: "census" (real ABS 2021 tables) or "demo" (absent on queries run before 2026-11-25)' })),
  geography_level: Type.Optional(StringEnum(GEOGRAPHY_LEVELS, { description: 'Extension: the level the selections were made at' })),
  output_format: Type.Optional(StringEnum(OUTPUT_FORMATS, { description: 'Extension: the format of the file' })),
  include_geography: Type.Optional(StringEnum(INCLUDE_GEOGRAPHY, { description: 'Extension: whether geography columns were added' })),
  linked_records: Type.Optional(StringEnum(LINKED_RECORDS, { description: 'Extension: the linked records the file carries (none, joined or household)' })),
  // The whole request as it ran, defaults filled in, with its seed and implicate: POST it to
  // /query/execute to draw the same records again (charged as any execute), or drop seed for a fresh draw.
  request: Type.Optional(QueryRequest),
});
export type HistoryItem = Static<typeof HistoryItem>;

export const HistoryQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1 (newest queries first)' })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Queries per page' })),
  dataset_type: Type.Optional(StringEnum(DATASET_TYPES, { description: 'Only queries of this dataset type' })),
});
export type HistoryQuery = Static<typeof HistoryQuery>;

export const HistoryResult = Type.Object({
  queries: Type.Array(HistoryItem),
  pagination: Type.Object({
    page: Type.Integer(),
    per_page: Type.Integer(),
    total_pages: Type.Integer(),
    total_queries: Type.Integer(),
  }),
});
export type HistoryResult = Static<typeof HistoryResult>;

export const QueryIdParams = Type.Object({ query_id: Type.String({ maxLength: 100, description: 'The query_id execute returned (qry_…)' }) });
