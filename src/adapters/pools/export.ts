/**
 * Sampled rows → file. DuckDB gathers the rows (a join of the pool table with a temporary
 * table of the sorted selected row indices) and writes parquet and csv with its own COPY;
 * xlsx goes through our streaming writer from DuckDB's result chunks.
 */
import { DuckDBDataChunk, UINTEGER, type DuckDBConnection } from '@duckdb/node-api';
import { stat, writeFile } from 'node:fs/promises';
import { HIERARCHICAL_COLUMNS, type DatasetType } from '../../core/dataset.ts';
import type { ExportRequest, ExportResult, SampledPart } from '../../ports/pool-release.ts';
import { type Catalog, type CatalogSuburb, type CatalogVariable } from './catalog.ts';
import { ID_COLUMNS, idColumnsSql, recordsTable } from './records-sql.ts';
import { quoteIdent, quoteLiteral } from './sql.ts';
import { writeXlsx, type XlsxBatch, type XlsxColumn } from './xlsx.ts';


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

const CHUNK = 2048;

/** Loads (part, row_index) into a connection-local temporary table with whole DataChunks. */
async function loadSelection(connection: DuckDBConnection, parts: readonly SampledPart[]): Promise<void> {
  await connection.run('CREATE OR REPLACE TEMP TABLE selected (part UINTEGER, row_index UINTEGER)');
  const appender = await connection.createAppender('selected', 'main', 'temp');
  const chunk = DuckDBDataChunk.create([UINTEGER, UINTEGER]);
  parts.forEach((part, p) => {
    for (let start = 0; start < part.rows.length; start += CHUNK) {
      const m = Math.min(CHUNK, part.rows.length - start);
      chunk.reset();
      chunk.rowCount = m;
      const partVector = chunk.getColumnVector(0) as unknown as { items: Uint32Array; flush(): void };
      const rowVector = chunk.getColumnVector(1) as unknown as { items: Uint32Array; flush(): void };
      partVector.items.fill(p, 0, m);
      rowVector.items.set(part.rows.subarray(start, start + m));
      partVector.flush();
      rowVector.flush();
      appender.appendDataChunk(chunk);
    }
  });
  appender.closeSync();
}

/** The suburbs the parts draw from (by ordinal = position in the catalog), with their code and geography columns. */
async function loadGeography(connection: DuckDBConnection, suburbs: ReadonlyMap<number, CatalogSuburb>): Promise<void> {
  await connection.run('CREATE OR REPLACE TEMP TABLE geography (ordinal UINTEGER, suburb_code VARCHAR, suburb VARCHAR, postcode VARCHAR, lga VARCHAR, gccsa VARCHAR, state VARCHAR)');
  const appender = await connection.createAppender('geography', 'main', 'temp');
  for (const [ordinal, s] of suburbs) {
    appender.appendUInteger(ordinal);
    for (const v of [s.salCode, s.suburbId, s.postcode, s.lga, s.gccsa, s.state]) appender.appendVarchar(v);
    appender.endRow();
  }
  appender.closeSync();
}

function selectSql(dataset: DatasetType, variables: readonly CatalogVariable[], hierarchical: boolean, coded: boolean): string {
  const vars = variables.map((v) => (coded ? `enum_code(r.${quoteIdent(v.code)}) AS ${quoteIdent(v.code)}` : `r.${quoteIdent(v.code)}`));
  const columns = [...idColumnsSql(dataset, 'r'), 'g.suburb_code', ...vars, ...(hierarchical ? HIERARCHICAL_COLUMNS.map((c) => `g.${c}`) : [])];
  return (
    `SELECT ${columns.join(', ')} FROM selected s JOIN pools.${recordsTable(dataset)} r ON r.row_index = s.row_index` +
    ' JOIN geography g ON g.ordinal = r.suburb_ordinal ORDER BY s.part, s.row_index'
  );
}

export async function exportRows(
  connection: DuckDBConnection,
  catalog: Catalog,
  suburbsOf: (part: SampledPart) => readonly { readonly ordinal: number; readonly suburb: CatalogSuburb }[],
  request: ExportRequest,
): Promise<ExportResult> {
  const { dataset, parts, format, destPath } = request;
  const hierarchical = request.includeGeography === 'hierarchical';
  const variables = catalog.variables[dataset];
  const dictionary = dictionaryOf(catalog, dataset);
  const rows = parts.reduce((n, p) => n + p.rows.length, 0);
  await loadSelection(connection, parts);
  const involved = new Map<number, CatalogSuburb>();
  for (const p of parts) for (const { ordinal, suburb } of suburbsOf(p)) involved.set(ordinal, suburb);
  await loadGeography(connection, involved);
  const path = quoteLiteral(destPath);
  if (format === 'parquet') {
    const kv = { ...request.metadata, dictionary: JSON.stringify(dictionary) };
    const kvSql = `{${Object.entries(kv).map(([k, v]) => `${quoteLiteral(k)}: ${quoteLiteral(v)}`).join(', ')}}`;
    await connection.run(`COPY (${selectSql(dataset, variables, hierarchical, false)}) TO ${path} (FORMAT parquet, COMPRESSION zstd, KV_METADATA ${kvSql})`);
  } else if (format === 'csv') {
    await connection.run(`COPY (${selectSql(dataset, variables, hierarchical, false)}) TO ${path} (FORMAT csv, HEADER true)`);
    // csv has no place for it: the dictionary (and the query metadata) is a separate download.
    await writeFile(dictionaryPathOf(destPath), JSON.stringify({ ...dictionary, metadata: request.metadata }, null, 2) + '\n');
  } else {
    await exportXlsx(connection, dataset, variables, hierarchical, request);
  }
  return { rows, bytes: (await stat(destPath)).size };
}

/** Where the csv export writes its dictionary: next to the file, `<destPath>.dictionary.json`. */
export const dictionaryPathOf = (csvPath: string): string => `${csvPath}.dictionary.json`;

async function exportXlsx(connection: DuckDBConnection, dataset: DatasetType, variables: readonly CatalogVariable[], hierarchical: boolean, request: ExportRequest): Promise<void> {
  const columns: XlsxColumn[] = [
    ...ID_COLUMNS[dataset].map((name) => ({ name, kind: 'inline' as const })),
    { name: 'suburb_code', kind: 'shared' },
    ...variables.map((v) => ({ name: v.code, kind: 'coded' as const, labels: v.labels })),
    ...(hierarchical ? HIERARCHICAL_COLUMNS.map((name) => ({ name, kind: 'shared' as const })) : []),
  ];
  const result = await connection.stream(selectSql(dataset, variables, hierarchical, true));
  async function* batches(): AsyncGenerator<XlsxBatch> {
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) return;
      const n = chunk.rowCount;
      yield {
        rowCount: n,
        columns: columns.map((col, c) => {
          const vector = chunk.getColumnVector(c);
          if (col.kind === 'coded') return (vector as unknown as { items: Uint8Array }).items;
          const out: (string | null)[] = new Array(n);
          for (let i = 0; i < n; i++) out[i] = vector.getItem(i) as string | null;
          return out;
        }),
      };
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
    columns,
    batches: batches(),
    extraSheets: [
      { name: 'dictionary', rows: dictionaryRows },
      { name: 'metadata', rows: [['key', 'value'], ...Object.entries(request.metadata).map(([k, v]) => [k, v])] },
    ],
  });
}
