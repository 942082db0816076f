/** Reading result files back with independent readers: DuckDB for parquet and csv, read-excel-file for xlsx. */
import { DuckDBInstance } from '@duckdb/node-api';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import readXlsx from 'read-excel-file/node';

export interface Table {
  readonly columns: readonly string[];
  readonly rows: readonly Record<string, string | null>[];
}

export async function download(url: string, dir: string, name: string): Promise<{ path: string; response: Response; bytes: Buffer }> {
  const response = await fetch(url);
  const bytes = Buffer.from(await response.arrayBuffer());
  const path = join(dir, name);
  await writeFile(path, bytes);
  return { path, response, bytes };
}

export async function readTable(path: string, format: 'parquet' | 'csv' | 'xlsx'): Promise<Table> {
  if (format === 'xlsx') {
    const sheets = await readXlsx(path);
    const data = sheets[0]!.data as unknown[][];
    const columns = data[0]!.map(String);
    const rows = data.slice(1).map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] === null || r[i] === undefined ? null : String(r[i])])));
    return { columns, rows };
  }
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const source = format === 'parquet' ? `read_parquet('${path}')` : `read_csv('${path}', header = true, all_varchar = true)`;
    const reader = await connection.runAndReadAll(`SELECT * FROM ${source}`);
    const columns = reader.columnNames();
    const rows = reader.getRowsJS().map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] === null || r[i] === undefined ? null : String(r[i])])));
    return { columns, rows };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

export async function parquetMetadata(path: string): Promise<Record<string, string>> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${path}')`);
    return Object.fromEntries(reader.getRowsJS().map((r) => [String(r[0]), String(r[1])]));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
