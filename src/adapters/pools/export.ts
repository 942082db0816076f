/**
 * Sampled rows → file, O(n) whatever the pool size: the chosen rows are gathered from the
 * in-memory column arrays a DataChunk (2,048 rows) at a time. parquet and csv: the chunks go
 * (integers and ENUM codes only, bulk copies) into a connection-local temporary table and DuckDB
 * writes the file with its own COPY, deriving the id strings for those rows only. xlsx: the
 * chunks go straight to our streaming writer.
 */
import { DuckDBDataChunk, ENUM, UINTEGER, type DuckDBConnection, type DuckDBType } from '@duckdb/node-api';
import { stat, writeFile } from 'node:fs/promises';
import { HIERARCHICAL_COLUMNS, type DatasetType } from '../../core/dataset.ts';
import type { ExportRequest, ExportResult } from '../../ports/pool-release.ts';
import { ID_DIGITS, ID_PREFIX, type Catalog, type CatalogSuburb } from './catalog.ts';
import type { ColumnArray } from './columns.ts';
import { ID_COLUMNS, idColumnsSql } from './records-sql.ts';
import { quoteIdent, quoteLiteral } from './sql.ts';
import { writeXlsx, type XlsxBatch, type XlsxColumn } from './xlsx.ts';

/** One dataset's columns in memory: link columns by name, variables in catalog order (ENUM indices). */
export interface DatasetColumns {
  readonly links: Readonly<Record<string, ColumnArray>>;
  readonly variables: readonly Uint8Array[];
}

/** A selection's rows with the catalog ordinals of the suburbs it draws from. */
export interface ExportPart {
  readonly rows: Uint32Array;
  readonly suburbOrdinals: readonly number[];
}

/** The dictionary shipped with every file: variable code → description and labels, ABS order. */
export function dictionaryOf(catalog: Catalog, dataset: DatasetType) {
  return {
    version: catalog.version,
    dataset_type: dataset,
    variables: catalog.variables[dataset].map((v) => ({
      code: v.code,
      description: v.description,
      categories: v.categories,
      ...(v.coarseCategories ? { coarse_categories: v.coarseCategories } : {}),
    })),
  };
}

/** Where the csv export writes its dictionary: next to the file, `<destPath>.dictionary.json`. */
export const dictionaryPathOf = (csvPath: string): string => `${csvPath}.dictionary.json`;

const CHUNK = 2048;

/** A geography column coded per export: its distinct values, and each involved suburb's value index. */
interface GeoColumn {
  readonly name: string;
  readonly labels: readonly string[];
  /** local suburb index → label index */
  readonly valueOf: Uint32Array;
}

function geographyColumns(catalog: Catalog, parts: readonly ExportPart[], hierarchical: boolean): { localOf: Int32Array; columns: GeoColumn[] } {
  const localOf = new Int32Array(catalog.suburbs.length).fill(-1);
  const involved: CatalogSuburb[] = [];
  for (const p of parts) {
    for (const o of p.suburbOrdinals) {
      if (localOf[o] === -1) {
        localOf[o] = involved.length;
        involved.push(catalog.suburbs[o]!);
      }
    }
  }
  const pick: Record<string, (s: CatalogSuburb) => string> = {
    suburb_code: (s) => s.salCode,
    suburb: (s) => s.suburbId,
    postcode: (s) => s.postcode,
    lga: (s) => s.lga,
    gccsa: (s) => s.gccsa,
    state: (s) => s.state,
  };
  const names = ['suburb_code', ...(hierarchical ? HIERARCHICAL_COLUMNS : [])];
  const columns = names.map((name) => {
    const labels: string[] = [];
    const index = new Map<string, number>();
    const valueOf = Uint32Array.from(involved, (s) => {
      const v = pick[name]!(s);
      let i = index.get(v);
      if (i === undefined) {
        i = labels.push(v) - 1;
        index.set(v, i);
      }
      return i;
    });
    return { name, labels, valueOf };
  });
  return { localOf, columns };
}

/** Row chunks in file order: part by part, rows ascending within a part. */
function* rowChunks(parts: readonly ExportPart[]): Generator<Uint32Array> {
  for (const p of parts) for (let start = 0; start < p.rows.length; start += CHUNK) yield p.rows.subarray(start, Math.min(start + CHUNK, p.rows.length));
}

interface RawVector {
  readonly items: { [i: number]: number; set(a: ArrayLike<number>): void };
  setItem(index: number, value: number | null): void;
  flush(): void;
}

/** Links kept in the temporary table (ids are derived from them in SQL). */
const LINKS_OUT: Readonly<Record<DatasetType, readonly string[]>> = {
  persons: ['family_row', 'dwelling_row'],
  families: ['dwelling_row'],
  dwellings: [],
};

async function loadGathered(connection: DuckDBConnection, dataset: DatasetType, catalog: Catalog, columns: DatasetColumns, parts: readonly ExportPart[], geo: { localOf: Int32Array; columns: GeoColumn[] }): Promise<void> {
  const variables = catalog.variables[dataset];
  const links = LINKS_OUT[dataset];
  const geoTypes = geo.columns.map((g) => ENUM(g.labels));
  const varTypes = variables.map((v) => ENUM(v.labels));
  const types: DuckDBType[] = [UINTEGER, ...links.map(() => UINTEGER), ...geoTypes, ...varTypes];
  const ddl = [
    'row_index UINTEGER',
    ...links.map((l) => `${l} UINTEGER`),
    ...geo.columns.map((g, k) => `${quoteIdent(g.name)} ${geoTypes[k]!.toString()}`),
    ...variables.map((v, k) => `${quoteIdent(v.code)} ${varTypes[k]!.toString()}`),
  ];
  await connection.run(`CREATE OR REPLACE TEMP TABLE gathered (${ddl.join(', ')})`);
  const appender = await connection.createAppender('gathered', 'main', 'temp');
  const chunk = DuckDBDataChunk.create(types);
  const ordinal = columns.links['suburb_ordinal']!;
  const local = new Uint32Array(CHUNK);
  for (const rows of rowChunks(parts)) {
    const m = rows.length;
    chunk.reset();
    chunk.rowCount = m;
    const vec = (c: number): RawVector => chunk.getColumnVector(c) as unknown as RawVector;
    let c = 0;
    const rowIndex = vec(c++);
    rowIndex.items.set(rows);
    rowIndex.flush();
    for (const l of links) {
      const source = columns.links[l]!;
      const v = vec(c++);
      for (let i = 0; i < m; i++) {
        const x = source[rows[i]!]!;
        v.setItem(i, x < 0 ? null : x);
      }
      v.flush();
    }
    for (let i = 0; i < m; i++) local[i] = geo.localOf[ordinal[rows[i]!]!]!;
    for (const g of geo.columns) {
      const v = vec(c++);
      for (let i = 0; i < m; i++) v.items[i] = g.valueOf[local[i]!]!;
      v.flush();
    }
    for (const source of columns.variables) {
      const v = vec(c++);
      const items = v.items;
      for (let i = 0; i < m; i++) items[i] = source[rows[i]!]!;
      v.flush();
    }
    appender.appendDataChunk(chunk);
  }
  appender.closeSync();
}

export async function exportRows(connection: DuckDBConnection, catalog: Catalog, dataset: DatasetType, columns: DatasetColumns, parts: readonly ExportPart[], request: ExportRequest): Promise<ExportResult> {
  const { format, destPath } = request;
  const hierarchical = request.includeGeography === 'hierarchical';
  const variables = catalog.variables[dataset];
  const dictionary = dictionaryOf(catalog, dataset);
  const rows = parts.reduce((n, p) => n + p.rows.length, 0);
  const geo = geographyColumns(catalog, parts, hierarchical);

  if (format === 'xlsx') {
    await exportXlsx(catalog, dataset, columns, parts, geo, request);
  } else {
    await loadGathered(connection, dataset, catalog, columns, parts, geo);
    // A pure projection of one table: DuckDB keeps insertion order (part, then row).
    const select =
      `SELECT ${[...idColumnsSql(dataset, 'r'), 'r.suburb_code', ...variables.map((v) => `r.${quoteIdent(v.code)}`), ...(hierarchical ? HIERARCHICAL_COLUMNS.map((h) => `r.${h}`) : [])].join(', ')} ` +
      'FROM temp.gathered r';
    const path = quoteLiteral(destPath);
    if (format === 'parquet') {
      const kv = { ...request.metadata, dictionary: JSON.stringify(dictionary) };
      const kvSql = `{${Object.entries(kv).map(([k, v]) => `${quoteLiteral(k)}: ${quoteLiteral(v)}`).join(', ')}}`;
      await connection.run(`COPY (${select}) TO ${path} (FORMAT parquet, COMPRESSION zstd, KV_METADATA ${kvSql})`);
    } else {
      await connection.run(`COPY (${select}) TO ${path} (FORMAT csv, HEADER true)`);
      // csv has no place for it: the dictionary (and the query metadata) is a separate file.
      await writeFile(dictionaryPathOf(destPath), JSON.stringify({ ...dictionary, metadata: request.metadata }, null, 2) + '\n');
    }
    await connection.run('DROP TABLE temp.gathered');
  }
  return { rows, bytes: (await stat(destPath)).size };
}

const idText = (dataset: DatasetType, row: number): string => ID_PREFIX[dataset] + String(row).padStart(ID_DIGITS, '0');

async function exportXlsx(catalog: Catalog, dataset: DatasetType, columns: DatasetColumns, parts: readonly ExportPart[], geo: { localOf: Int32Array; columns: GeoColumn[] }, request: ExportRequest): Promise<void> {
  const variables = catalog.variables[dataset];
  const [codeColumn, ...hierarchy] = geo.columns;
  const xlsxColumns: XlsxColumn[] = [
    ...ID_COLUMNS[dataset].map((name) => ({ name, kind: 'inline' as const })),
    { name: 'suburb_code', kind: 'coded', labels: codeColumn!.labels },
    ...variables.map((v) => ({ name: v.code, kind: 'coded' as const, labels: v.labels })),
    ...hierarchy.map((g) => ({ name: g.name, kind: 'coded' as const, labels: g.labels })),
  ];
  const ordinal = columns.links['suburb_ordinal']!;
  const idSources: { dataset: DatasetType; column: ColumnArray | undefined }[] = ID_COLUMNS[dataset].map((name) => {
    const target = (name === 'person_id' ? 'persons' : name === 'family_id' ? 'families' : 'dwellings') as DatasetType;
    return { dataset: target, column: target === dataset ? undefined : columns.links[target === 'families' ? 'family_row' : 'dwelling_row'] };
  });
  function* batches(): Generator<XlsxBatch> {
    for (const rows of rowChunks(parts)) {
      const m = rows.length;
      const ids = idSources.map(({ dataset: d, column }) => {
        const out: (string | null)[] = new Array(m);
        for (let i = 0; i < m; i++) {
          const x = column === undefined ? rows[i]! : column[rows[i]!]!;
          out[i] = x < 0 ? null : idText(d, x);
        }
        return out;
      });
      const local = new Uint32Array(m);
      for (let i = 0; i < m; i++) local[i] = geo.localOf[ordinal[rows[i]!]!]!;
      const geoValues = geo.columns.map((g) => Uint32Array.from(local, (l) => g.valueOf[l]!));
      const vars = columns.variables.map((source) => {
        const out = new Uint8Array(m);
        for (let i = 0; i < m; i++) out[i] = source[rows[i]!]!;
        return out;
      });
      yield { rowCount: m, columns: [...ids, geoValues[0]!, ...vars, ...geoValues.slice(1)] };
    }
  }
  const dictionaryRows: (string | number)[][] = [['code', 'description', 'category_index', 'label']];
  for (const v of variables) {
    v.categories.forEach((label, i) => dictionaryRows.push([v.code, v.description, i + 1, label]));
    v.coarseCategories?.forEach((label, i) => dictionaryRows.push([v.code, `${v.description} (coarse, small suburbs)`, i + 1, label]));
  }
  await writeXlsx({
    destPath: request.destPath,
    sheetName: dataset,
    columns: xlsxColumns,
    batches: batches(),
    extraSheets: [
      { name: 'dictionary', rows: dictionaryRows },
      { name: 'metadata', rows: [['key', 'value'], ...Object.entries(request.metadata).map(([k, v]) => [k, v])] },
    ],
  });
}
