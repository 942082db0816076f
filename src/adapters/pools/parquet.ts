/**
 * A streaming parquet writer for sampled records, straight from the coded columns (no DuckDB
 * table in between): the rows are gathered into row groups here and encoded (parquet-pages.ts:
 * a dictionary page of the labels and a data page of the codes per coded column, plain strings
 * for ids, zstd) on the encoding thread (parquet-thread.ts) while the next row group is gathered,
 * or on this thread for a file of one row group. Every column is a nullable UTF-8 string (what
 * every reader takes), with min/max, null and distinct counts. The footer carries the caller's
 * key-value metadata and an Arrow schema (arrow-schema.ts) that marks the coded columns as
 * dictionaries, ordered for ordinal variables, and carries the same key-value metadata as its own.
 */
import { BATCHES_PER_TURN, eventLoopTurn } from './event-loop-turn.ts';
import { writeNewFile } from './file-output.ts';
import { arrowSchemaBase64 } from './arrow-schema.ts';
import type { CsvBatch } from './csv.ts';
import {
  BYTE_ARRAY,
  encoderHere,
  groupBuffers,
  OPTIONAL,
  PLAIN,
  RLE,
  RLE_DICTIONARY,
  UTF8,
  ZSTD,
  type Chunk,
  type GroupBuffers,
  type ParquetColumn,
  type RowGroupEncoder,
} from './parquet-pages.ts';
import { encoderOnThread } from './parquet-thread.ts';
import { binary, encodeStruct, i32, i64, list, struct, type ThriftValue } from './thrift.ts';

export type { ParquetColumn } from './parquet-pages.ts';

/** Where row groups are encoded: on the encoding thread (the default for files of several row groups) or on this one. */
export type ParquetEncoding = 'thread' | 'here';

export interface ParquetOptions {
  readonly destPath: string;
  readonly columns: readonly ParquetColumn[];
  readonly batches: Iterable<CsvBatch>;
  readonly keyValue: Readonly<Record<string, string>>;
  /** Rows per row group (DuckDB's 122,880 by default: a reader's unit of parallelism and skipping). */
  readonly rowGroupRows?: number;
  /** Where to encode; by default on the encoding thread once a file has more than one row group. */
  readonly encoding?: ParquetEncoding;
  /**
   * The file's rows, when the caller knows them: a file smaller than a row group gets buffers of
   * its own size (a 10,000-row file of 100 columns took 30 MB of row-group buffers otherwise,
   * memory that stayed in the server's malloc heap after the export). More rows than this fail.
   */
  readonly rows?: number;
}

const ROW_GROUP_ROWS = 122_880;
// The writer gives the event loop a turn every few batches gathered (and, encoding here, every
// few columns encoded), so a 1 M-row export does not hold up other requests for a row group's
// worth of work at a time.
const turn = eventLoopTurn;
const MAGIC = Buffer.from('PAR1', 'ascii');

/** Copies rows [from, from + count) of a batch column into a row group buffer at `at`. */
function copyRows(into: Uint16Array | Float64Array, at: number, from: ArrayLike<number>, start: number, count: number): void {
  if (ArrayBuffer.isView(from)) into.set((from as unknown as Uint32Array).subarray(start, start + count), at);
  else for (let i = 0; i < count; i++) into[at + i] = from[start + i]!;
}

/** The schema: a root, then one nullable UTF-8 string per column. */
function schemaOf(columns: readonly ParquetColumn[]): ThriftValue[] {
  return [
    struct([[4, binary('schema')], [5, i32(columns.length)]]),
    ...columns.map((c) => struct([[1, i32(BYTE_ARRAY)], [3, i32(OPTIONAL)], [4, binary(c.name)], [6, i32(UTF8)], [10, struct([[1, struct([])]])]])),
  ];
}

/** Writes the file; resolves with the number of data rows once it is complete on disk (removes it on failure). */
export async function writeParquet(opts: ParquetOptions): Promise<number> {
  return writeNewFile(opts.destPath, (write) => writeGroups(opts, write));
}

async function writeGroups(opts: ParquetOptions, write: (bytes: Uint8Array) => Promise<void>): Promise<number> {
  const groupRows = opts.rowGroupRows ?? ROW_GROUP_ROWS;
  // Where the file fits one row group, its buffers (and the encoder's scratch, here) need only its rows.
  const bufferRows = Math.max(1, Math.min(groupRows, opts.rows ?? groupRows));
  let encoder: RowGroupEncoder | undefined;
  /**
   * Chosen at the first full (or last) row group: a file of one row group is encoded here, since
   * handing it over costs more than it saves; a larger one on the encoding thread, in parallel
   * with the gathering of the next row group.
   */
  const encoderFor = async (rows: number): Promise<RowGroupEncoder> => {
    const where = opts.encoding ?? (rows === groupRows ? 'thread' : 'here');
    encoder ??= where === 'thread' ? await encoderOnThread(opts.columns, groupRows) : encoderHere(opts.columns, bufferRows, turn);
    return encoder;
  };
  try {
    return await writeGroupsWith(opts, groupRows, bufferRows, write, encoderFor);
  } finally {
    encoder?.close();
  }
}

async function writeGroupsWith(
  opts: ParquetOptions,
  groupRows: number,
  bufferRows: number,
  write: (bytes: Uint8Array) => Promise<void>,
  encoderFor: (rows: number) => Promise<RowGroupEncoder>,
): Promise<number> {
  const { columns } = opts;
  let buffers: GroupBuffers = groupBuffers(columns, bufferRows);
  let offset = MAGIC.length;
  const groups: ThriftValue[] = [];
  await write(MAGIC);

  /** Writes a row group's chunks in column order and records them for the footer. */
  const writeGroup = async (chunks: Chunk[], rows: number) => {
    const groupStart = offset;
    let groupUncompressed = 0;
    const columnChunks: ThriftValue[] = [];
    for (const [k, chunk] of chunks.entries()) {
      const start = offset;
      let uncompressed = 0;
      const pageOffsets: number[] = [];
      for (const p of chunk.pages) {
        pageOffsets.push(offset);
        await write(p.header);
        await write(p.body);
        offset += p.header.length + p.body.length;
        uncompressed += p.header.length + p.uncompressed;
      }
      groupUncompressed += uncompressed;
      const coded = columns[k]!.kind === 'coded';
      const meta = struct([
        [1, i32(BYTE_ARRAY)],
        [2, list('i32', (coded ? [PLAIN, RLE, RLE_DICTIONARY] : [PLAIN, RLE]).map(i32))],
        [3, list('binary', [binary(columns[k]!.name)])],
        [4, i32(ZSTD)],
        [5, i64(rows)],
        [6, i64(uncompressed)],
        [7, i64(offset - start)],
        [9, i64(pageOffsets[coded ? 1 : 0]!)],
        coded ? [11, i64(pageOffsets[0]!)] : undefined,
        [12, chunk.stats],
      ]);
      columnChunks.push(struct([[2, i64(start)], [3, meta]]));
    }
    groups.push(struct([[1, list('struct', columnChunks)], [2, i64(groupUncompressed)], [3, i64(rows)], [5, i64(groupStart)], [6, i64(offset - groupStart)]]));
  };

  let pending: Promise<void> = Promise.resolve();
  /**
   * Hands the filled rows to the encoder (resolving with the buffers to fill next), then writes
   * their chunks after the group before.
   */
  const flush = async (rows: number) => {
    await pending;
    const { next, chunks } = await (await encoderFor(rows)).encode(buffers, rows);
    buffers = next;
    pending = chunks.then((done) => writeGroup(done, rows));
    // Awaited at the next flush or the end; until then a failure must not go unhandled.
    pending.catch(() => undefined);
  };

  let fill = 0;
  let total = 0;
  let batches = 0;
  for (const batch of opts.batches) {
    if (++batches % BATCHES_PER_TURN === 0) await turn();
    for (let from = 0; from < batch.rowCount; ) {
      const take = Math.min(batch.rowCount - from, groupRows - fill);
      if (fill + take > bufferRows) throw new Error(`parquet: more rows than the ${opts.rows} announced`);
      for (let k = 0; k < columns.length; k++) copyRows(buffers[k]!, fill, batch.columns[k]!, from, take);
      fill += take;
      from += take;
      if (fill === groupRows) {
        await flush(fill);
        total += fill;
        fill = 0;
      }
    }
  }
  if (fill > 0) await flush(fill);
  total += fill;
  await pending;

  const arrowFields = columns.map((c) => (c.kind === 'coded' ? { name: c.name, dictionary: { ordered: c.ordered ?? false } } : { name: c.name }));
  const keyValue = { ...opts.keyValue, 'ARROW:schema': arrowSchemaBase64(arrowFields, opts.keyValue) };
  const footer = encodeStruct([
    [1, i32(1)],
    [2, list('struct', schemaOf(columns))],
    [3, i64(total)],
    [4, list('struct', groups)],
    [5, list('struct', Object.entries(keyValue).map(([k, v]) => struct([[1, binary(k)], [2, binary(v)]])))],
    [6, binary('spq (coded columns)')],
    [7, list('struct', columns.map(() => struct([[1, struct([])]])))],
  ]);
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(footer.length, 0);
  MAGIC.copy(tail, 4);
  await write(footer);
  await write(tail);
  return total;
}
