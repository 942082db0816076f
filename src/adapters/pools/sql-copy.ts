/**
 * pools.duckdb: a copy of a release's records for SQL inspection (records-sql.ts), written beside
 * the column files when the build asks for it. Serving never reads it; the column files are the
 * release. Rows go in a whole DataChunk at a time, in release order.
 */
import { DuckDBDataChunk, DuckDBInstance, ENUM, UINTEGER, type DuckDBAppender, type DuckDBConnection, type DuckDBType, type DuckDBVector } from '@duckdb/node-api';
import { join } from 'node:path';
import { DATASET_TYPES, type DatasetType } from '../../core/dataset.ts';
import { columnLabels, type VariableDef } from '../../synthesis/census/variables.ts';
import { RELEASE_FILES, type CatalogSuburb } from './catalog.ts';
import { LINK_COLUMNS, idColumnsSql, recordsTable } from './records-sql.ts';
import { quoteIdent } from './sql.ts';

const CHUNK_ROWS = 2048;

type Variables = Readonly<Record<DatasetType, readonly VariableDef[]>>;

/** Typed-array access to a vector's item buffer: the public setItem is per value, too slow for 26 M rows × 30 columns. */
interface RawVector {
  readonly items: Uint8Array | Uint16Array | Uint32Array;
  setItem(index: number, value: number | null): void;
  flush(): void;
}

/** Per-dataset appender that moves column slices into DuckDB a whole DataChunk at a time. */
class DatasetAppender {
  private readonly chunk: DuckDBDataChunk;
  /**
   * The chunk's vectors, made once: getColumnVector builds a new wrapper (and reads every ENUM's
   * labels back from DuckDB) at each call, which cost more than the append itself.
   */
  private readonly vectors: RawVector[];
  rows = 0;

  constructor(
    private readonly appender: DuckDBAppender,
    types: readonly DuckDBType[],
  ) {
    this.chunk = DuckDBDataChunk.create(types, CHUNK_ROWS);
    this.vectors = types.map((_, c) => this.chunk.getColumnVector(c) as DuckDBVector as unknown as RawVector);
  }

  /** links: per link column after row_index, a value per row (-1 for NULL); columns: the variables' codes. */
  append(count: number, suburbOrdinal: number, links: readonly (Uint32Array | Int32Array)[], columns: readonly Uint8Array[]): void {
    for (let start = 0; start < count; start += CHUNK_ROWS) {
      const m = Math.min(CHUNK_ROWS, count - start);
      this.chunk.rowCount = m;
      const [rowIndex, ordinal] = this.vectors as [RawVector, RawVector];
      for (let i = 0; i < m; i++) rowIndex.items[i] = this.rows + start + i;
      rowIndex.flush();
      ordinal.items.fill(suburbOrdinal, 0, m);
      ordinal.flush();
      links.forEach((link, k) => {
        const v = this.vectors[2 + k]!;
        for (let i = 0; i < m; i++) {
          const x = link[start + i]!;
          v.setItem(i, x < 0 ? null : x);
        }
        v.flush();
      });
      const first = 2 + links.length;
      columns.forEach((col, k) => {
        const v = this.vectors[first + k]!;
        v.items.set(col.subarray(start, start + m));
        v.flush();
      });
      this.appender.appendDataChunk(this.chunk);
    }
    this.rows += count;
  }

  close(): void {
    this.appender.closeSync();
  }
}

export interface SqlCopy {
  readonly appenders: Readonly<Record<DatasetType, DatasetAppender>>;
  /** Closes the tables, adds the suburbs table and the public views, and checkpoints. */
  finish(suburbs: readonly CatalogSuburb[]): Promise<void>;
  close(): void;
}

/** Creates pools.duckdb in `dir` with each dataset's records table, ready to append to. */
export async function openSqlCopy(dir: string, variables: Variables): Promise<SqlCopy> {
  const instance = await DuckDBInstance.create(join(dir, RELEASE_FILES.pools));
  const connection: DuckDBConnection = await instance.connect();
  const appenders = await createRecordTables(connection, variables);
  return {
    appenders,
    async finish(suburbs) {
      for (const dataset of DATASET_TYPES) appenders[dataset].close();
      await writeSuburbsTable(connection, suburbs);
      await createPublicViews(connection, variables);
      await connection.run('CHECKPOINT');
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** Each dataset's records table (link columns, then one ENUM column per variable) and its appender. */
async function createRecordTables(connection: DuckDBConnection, variables: Variables): Promise<Record<DatasetType, DatasetAppender>> {
  const appenders = {} as Record<DatasetType, DatasetAppender>;
  for (const dataset of DATASET_TYPES) {
    const vars = variables[dataset];
    const links = LINK_COLUMNS[dataset];
    const enumTypes = vars.map((v) => ENUM([...columnLabels(v)]));
    const ddl = [...links.map((c) => `${c} UINTEGER`), ...vars.map((v, k) => `${quoteIdent(v.code)} ${enumTypes[k]!.toString()}`)];
    await connection.run(`CREATE TABLE ${recordsTable(dataset)} (${ddl.join(', ')})`);
    const appender = await connection.createAppender(recordsTable(dataset));
    appenders[dataset] = new DatasetAppender(appender, [...links.map(() => UINTEGER), ...enumTypes]);
  }
  return appenders;
}

/** The suburbs table: ordinal → suburb code, which the public views name each record's suburb by. */
async function writeSuburbsTable(connection: DuckDBConnection, suburbs: readonly CatalogSuburb[]): Promise<void> {
  await connection.run('CREATE TABLE suburbs (ordinal UINTEGER, suburb_code VARCHAR)');
  const appender = await connection.createAppender('suburbs');
  suburbs.forEach((s, ordinal) => {
    appender.appendUInteger(ordinal);
    appender.appendVarchar(s.salCode);
    appender.endRow();
  });
  appender.closeSync();
}

/** One view per dataset (ids, suburb code, variables), after checking its rows are in order. */
async function createPublicViews(connection: DuckDBConnection, variables: Variables): Promise<void> {
  for (const dataset of DATASET_TYPES) {
    const table = recordsTable(dataset);
    // The appender writes in order; sampling relies on row_index being the row's position.
    const misplaced = await connection.runAndReadAll(`SELECT count(*)::BIGINT FROM ${table} WHERE row_index <> rowid`);
    if (misplaced.getRows()[0]![0] !== 0n) throw new Error(`${dataset}: rows out of order after build`);
    const vars = variables[dataset].map((v) => `r.${quoteIdent(v.code)}`);
    await connection.run(
      `CREATE VIEW ${dataset} AS SELECT r.row_index, ${idColumnsSql(dataset, 'r').join(', ')}, ` +
        `(SELECT list(suburb_code ORDER BY ordinal) FROM suburbs)[r.suburb_ordinal + 1] AS suburb_code${vars.map((v) => `, ${v}`).join('')} FROM ${table} r`,
    );
  }
}
