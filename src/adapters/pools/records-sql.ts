/**
 * How records are stored in pools.duckdb and how their public columns are derived. The
 * `<dataset>_records` tables hold integers and ENUMs only (fast to build: no strings cross from
 * JavaScript); ids and suburb codes are derived in SQL, for the sampled rows only at export, and
 * for whole tables by the `persons`, `families`, `dwellings` views (for ad-hoc SQL and tests).
 */
import type { DatasetType } from '../../core/dataset.ts';
import { ID_DIGITS, ID_PREFIX } from './catalog.ts';

export const recordsTable = (dataset: DatasetType): string => `${dataset}_records`;

/** Leading integer columns of each records table, before the variables. */
export const LINK_COLUMNS: Readonly<Record<DatasetType, readonly string[]>> = {
  persons: ['row_index', 'suburb_ordinal', 'family_row', 'dwelling_row'],
  families: ['row_index', 'suburb_ordinal', 'dwelling_row'],
  dwellings: ['row_index', 'suburb_ordinal'],
};

/** Id columns of each dataset's files, in file order. */
export const ID_COLUMNS: Readonly<Record<DatasetType, readonly string[]>> = {
  persons: ['person_id', 'family_id', 'dwelling_id'],
  families: ['family_id', 'dwelling_id'],
  dwellings: ['dwelling_id'],
};

const idOf = (dataset: DatasetType, column: string): string => `printf('${ID_PREFIX[dataset]}%0${ID_DIGITS}d', ${column})`;

/** SELECT-list items producing the id columns from a records table aliased `alias`. */
export function idColumnsSql(dataset: DatasetType, alias: string): string[] {
  const a = (c: string): string => `${alias}.${c}`;
  switch (dataset) {
    case 'persons':
      return [
        `${idOf('persons', a('row_index'))} AS person_id`,
        `CASE WHEN ${a('family_row')} IS NULL THEN NULL ELSE ${idOf('families', a('family_row'))} END AS family_id`,
        `${idOf('dwellings', a('dwelling_row'))} AS dwelling_id`,
      ];
    case 'families':
      return [`${idOf('families', a('row_index'))} AS family_id`, `${idOf('dwellings', a('dwelling_row'))} AS dwelling_id`];
    case 'dwellings':
      return [`${idOf('dwellings', a('row_index'))} AS dwelling_id`];
  }
}
