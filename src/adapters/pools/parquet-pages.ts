/**
 * A parquet row group's column chunks, encoded from the coded columns: for a coded column a
 * dictionary page of its labels in category order (the same page in every row group, compressed
 * once per file) and one data page of the codes, RLE / bit-packed (rle.ts), with definition
 * levels where the column can be NULL; for an id column one page of plain strings. Pages are zstd
 * frames of one compression context. parquet.ts lays the chunks out and writes the footer; this
 * module runs on the writer's thread or on the encoding thread (parquet-thread.ts), with the same
 * bytes either way.
 */
import { constants, createZstdCompress, type ZstdCompress } from 'node:zlib';
import { putPaddedId } from './ascii.ts';
import { NULL_CODE } from './coded.ts';
import type { CsvCodedColumn, CsvIdColumn } from './csv.ts';
import { bitWidthOf, HybridEncoder } from './rle.ts';
import { binary, bool, encodeStruct, i32, i64, struct, type ThriftValue } from './thrift.ts';

export type ParquetColumn = CsvIdColumn | (CsvCodedColumn & { readonly ordered?: boolean });

const ZSTD_LEVEL = 3;
// parquet.thrift enums
export const BYTE_ARRAY = 6;
export const OPTIONAL = 1;
export const UTF8 = 0;
export const ZSTD = 6;
export const PLAIN = 0;
export const RLE = 3;
export const RLE_DICTIONARY = 8;
const DATA_PAGE = 0;
const DICTIONARY_PAGE = 2;

/**
 * zstd frames, one per page, from one compression context on libuv's thread pool, a page at a
 * time in order: a context per page (zlib's zstdCompress) cost several times the compression
 * itself (each allocates its window), and pages compressed at once on the pool fought over the
 * two cores with the gather.
 */
class FrameCompressor {
  readonly #stream: ZstdCompress = createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: ZSTD_LEVEL } });
  #queue: Promise<unknown> = Promise.resolve();

  /** One complete zstd frame of `bytes` (which must stay unchanged until it resolves). */
  frame(bytes: Uint8Array): Promise<Buffer> {
    const next = this.#queue.then(
      () =>
        new Promise<Buffer>((resolve, reject) => {
          const chunks: Buffer[] = [];
          const onData = (chunk: Buffer) => chunks.push(chunk);
          const onError = (error: Error) => reject(error);
          this.#stream.on('data', onData).once('error', onError);
          this.#stream.write(bytes);
          this.#stream.flush(constants.ZSTD_e_end, () => {
            this.#stream.off('data', onData).off('error', onError);
            resolve(Buffer.concat(chunks));
          });
        }),
    );
    this.#queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.#stream.destroy();
  }
}

/** A page ready to be written: its header and compressed body. */
export interface Page {
  readonly header: Uint8Array;
  readonly body: Uint8Array;
  readonly uncompressed: number;
}

async function page(zstd: FrameCompressor, type: number, body: Uint8Array, detail: readonly [number, ThriftValue], compressed?: Uint8Array): Promise<Page> {
  const packed = compressed ?? (await zstd.frame(body));
  const header = encodeStruct([[1, i32(type)], [2, i32(body.length)], [3, i32(packed.length)], detail]);
  return { header, body: packed, uncompressed: body.length };
}

const utf8 = new TextEncoder();

/** PLAIN byte arrays: each a 4-byte little-endian length and the bytes. */
function plainStrings(values: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(values.reduce((n, v) => n + 4 + v.length, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const v of values) {
    view.setUint32(at, v.length, true);
    out.set(v, at + 4);
    at += 4 + v.length;
  }
  return out;
}

const compareBytes = (a: Uint8Array, b: Uint8Array): number => Buffer.compare(a, b);

/** Statistics: null and distinct counts, and the smallest and largest value (bytes, unsigned order). */
const statistics = (nulls: number, distinct: number | undefined, min: Uint8Array | undefined, max: Uint8Array | undefined): ThriftValue =>
  struct([
    [3, i64(nulls)],
    distinct === undefined ? undefined : [4, i64(distinct)],
    max === undefined ? undefined : [5, binary(max)],
    min === undefined ? undefined : [6, binary(min)],
    max === undefined ? undefined : [7, bool(true)],
    min === undefined ? undefined : [8, bool(true)],
  ]);

/** Definition levels (1 = a value, 0 = NULL) as a data page v1 holds them: a 4-byte length, then the hybrid at width 1. */
function definitionLevels(encoder: HybridEncoder, levels: Uint16Array, rows: number, nulls: number): Uint8Array {
  encoder.reset();
  // No NULL: one run of ones (most columns), without looking at the levels.
  const rle = nulls === 0 ? runOfOnes(rows) : encoder.encode(levels, rows, 1);
  const out = new Uint8Array(4 + rle.length);
  new DataView(out.buffer).setUint32(0, rle.length, true);
  out.set(rle, 4);
  return out;
}

/** The hybrid's RLE run of `rows` ones at width 1. */
function runOfOnes(rows: number): Uint8Array {
  const out: number[] = [];
  for (let n = rows * 2; ; n = Math.floor(n / 128)) {
    if (n < 128) {
      out.push(n, 1);
      return Uint8Array.from(out);
    }
    out.push((n % 128) | 0x80);
  }
}

/** A coded column's per-file state: its dictionary page (compressed once) and the labels' byte order. */
interface CodedState {
  readonly column: CsvCodedColumn;
  readonly labelBytes: readonly Uint8Array[];
  readonly dictionary: Uint8Array;
  readonly dictionaryPage: Promise<Uint8Array>;
  /** rank of each label in unsigned byte order (statistics compare that way) */
  readonly rank: Int32Array;
  readonly byRank: Int32Array;
  readonly nullable: boolean;
  readonly width: number;
}

function codedState(column: CsvCodedColumn, zstd: FrameCompressor): CodedState {
  const labelBytes = column.labels.map((l) => utf8.encode(l));
  const byRank = Int32Array.from(labelBytes.keys()).sort((a, b) => compareBytes(labelBytes[a]!, labelBytes[b]!));
  const rank = new Int32Array(labelBytes.length);
  byRank.forEach((label, r) => (rank[label] = r));
  const dictionary = plainStrings(labelBytes);
  const dictionaryPage = zstd.frame(dictionary);
  // Awaited by the first row group; a file of no rows never asks, and its failure must not go unhandled.
  dictionaryPage.catch(() => undefined);
  // A coded column's NULL is NULL_CODE where it has fewer labels than that (as in csv.ts).
  return { column, labelBytes, dictionary, dictionaryPage, rank, byRank, nullable: column.labels.length <= NULL_CODE, width: Math.max(1, bitWidthOf(column.labels.length)) };
}

/** Scratch arrays shared by every column chunk of a file. */
interface Scratch {
  readonly levels: Uint16Array;
  readonly dense: Uint16Array;
  readonly seen: Uint8Array;
  readonly levelEncoder: HybridEncoder;
  readonly valueEncoder: HybridEncoder;
  readonly zstd: FrameCompressor;
}

/** A coded column's chunk of a row group: pages (dictionary, data) and its statistics. */
async function codedChunk(state: CodedState, codes: Uint16Array, rows: number, scratch: Scratch): Promise<{ pages: Page[]; stats: ThriftValue }> {
  const { levels, dense, seen } = scratch;
  const labels = state.labelBytes.length;
  seen.fill(0, 0, Math.max(labels, NULL_CODE + 1));
  // NULL_CODE marks a NULL where the column has fewer labels than that; else it is a label like any other.
  const nullCode = state.nullable ? NULL_CODE : -1;
  let n = 0;
  let top = 0;
  for (let i = 0; i < rows; i++) {
    const v = codes[i]!;
    dense[n] = v;
    seen[v] = 1;
    if (v === nullCode) continue;
    n++;
    if (v > top) top = v;
  }
  if (n > 0 && top >= labels) throw new Error(`parquet: value ${top} has no label in column ${state.column.name}`);
  const nulls = rows - n;
  if (nulls > 0) for (let i = 0; i < rows; i++) levels[i] = codes[i] === nullCode ? 0 : 1;
  scratch.valueEncoder.reset();
  const values = scratch.valueEncoder.encode(dense, n, state.width);
  const defs = definitionLevels(scratch.levelEncoder, levels, rows, nulls);
  const body = new Uint8Array(defs.length + 1 + values.length);
  body.set(defs, 0);
  body[defs.length] = state.width;
  body.set(values, defs.length + 1);
  // Everything that reads the shared scratch happens before the first await.
  let min = -1;
  let max = -1;
  let distinct = 0;
  for (let r = 0; r < state.byRank.length; r++) {
    if (seen[state.byRank[r]!] === 0) continue;
    distinct++;
    if (min < 0) min = state.byRank[r]!;
    max = state.byRank[r]!;
  }
  const stats = statistics(nulls, distinct, min < 0 ? undefined : state.labelBytes[min], max < 0 ? undefined : state.labelBytes[max]);
  const dataPage = page(scratch.zstd, DATA_PAGE, body, [5, struct([[1, i32(rows)], [2, i32(RLE_DICTIONARY)], [3, i32(RLE)], [4, i32(RLE)]])]);
  const dictionaryPage = page(scratch.zstd, DICTIONARY_PAGE, state.dictionary, [7, struct([[1, i32(state.labelBytes.length)], [2, i32(PLAIN)]])], await state.dictionaryPage);
  return { pages: [await dictionaryPage, await dataPage], stats };
}

/** "0000" … "9999" as ASCII, 4 bytes per number: a nine-digit id is written as 1 + 4 + 4 digits. */
const FOUR_DIGITS = (() => {
  const t = new Uint8Array(40_000);
  for (let n = 0; n < 10_000; n++) for (let k = 0; k < 4; k++) t[n * 4 + k] = 48 + (Math.floor(n / 10 ** (3 - k)) % 10);
  return t;
})();

/** Writes a one-letter-prefixed nine-digit id ("P000000123", x < 10⁹) at `at`; returns the position after it. */
function putNineDigits(out: Uint8Array, at: number, prefix: number, x: number): number {
  const mid = Math.floor(x / 10_000) % 10_000;
  const low = x % 10_000;
  const T = FOUR_DIGITS;
  out[at] = prefix;
  out[at + 1] = 48 + Math.floor(x / 100_000_000);
  const a = mid * 4;
  const b = low * 4;
  out[at + 2] = T[a]!;
  out[at + 3] = T[a + 1]!;
  out[at + 4] = T[a + 2]!;
  out[at + 5] = T[a + 3]!;
  out[at + 6] = T[b]!;
  out[at + 7] = T[b + 1]!;
  out[at + 8] = T[b + 2]!;
  out[at + 9] = T[b + 3]!;
  return at + 10;
}

/** An id column's chunk: plain strings ("P000000123"), NULL where the row number is negative. */
async function idChunk(column: CsvIdColumn, ids: Float64Array, rows: number, scratch: Scratch): Promise<{ pages: Page[]; stats: ThriftValue }> {
  const prefix = utf8.encode(column.prefix);
  const widest = 4 + prefix.length + Math.max(column.digits, 16);
  let nulls = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < rows; i++) {
    const id = ids[i]!;
    const isNull = id < 0 ? 1 : 0;
    scratch.levels[i] = 1 - isNull;
    nulls += isNull;
    if (id >= 0 && id < min) min = id;
    if (id > max) max = id;
  }
  const defs = definitionLevels(scratch.levelEncoder, scratch.levels, rows, nulls);
  // The page is written in place: definition levels, then each id as a 4-byte length and its text.
  const body = new Uint8Array(defs.length + rows * widest);
  body.set(defs, 0);
  const view = new DataView(body.buffer);
  const digits = new Uint8Array(16);
  const fast = prefix.length === 1 && column.digits === 9 && max < 1e9;
  let at = defs.length;
  for (let i = 0; i < rows; i++) {
    const id = ids[i]!;
    if (id < 0) continue;
    const end = fast ? putNineDigits(body, at + 4, prefix[0]!, id) : putPaddedId(body, at + 4, prefix, id, column.digits, digits);
    view.setUint32(at, end - at - 4, true);
    at = end;
  }
  const text = (id: number) => {
    const out = new Uint8Array(widest);
    return out.subarray(0, putPaddedId(out, 0, prefix, id, column.digits, digits));
  };
  // Ids of one width compare as their numbers; min/max of mixed widths would not, so they are left out.
  const exact = min <= max && text(min).length === text(max).length;
  const stats = statistics(nulls, undefined, exact ? text(min) : undefined, exact ? text(max) : undefined);
  return { pages: [await page(scratch.zstd, DATA_PAGE, body.subarray(0, at), [5, struct([[1, i32(rows)], [2, i32(PLAIN)], [3, i32(RLE)], [4, i32(RLE)]])])], stats };
}


/** A row group's column buffers, in column order: codes (Uint16Array) or id row numbers (Float64Array). */
export type GroupBuffers = (Uint16Array | Float64Array)[];

export type Chunk = { pages: Page[]; stats: ThriftValue };

export const groupBuffers = (columns: readonly ParquetColumn[], groupRows: number): GroupBuffers =>
  columns.map((c) => (c.kind === 'coded' ? new Uint16Array(groupRows) : new Float64Array(groupRows)));

/**
 * Encodes a file's row groups one after another. `encode` reads the buffers before it resolves
 * (they may be filled again then) and hands back the chunks to come, compressed in order.
 */
export interface RowGroupEncoder {
  encode(buffers: GroupBuffers, rows: number): Promise<{ readonly next: GroupBuffers; readonly chunks: Promise<Chunk[]> }>;
  close(): void;
}

/**
 * The encoder on the calling thread. `between` runs after every few columns: on the event loop,
 * a turn for other work (a row group's encoding is tens of ms).
 */
export function encoderHere(columns: readonly ParquetColumn[], groupRows: number, between?: () => Promise<void>): RowGroupEncoder {
  const zstd = new FrameCompressor();
  const states = columns.map((c) => (c.kind === 'coded' ? codedState(c, zstd) : undefined));
  const scratch: Scratch = {
    levels: new Uint16Array(groupRows),
    dense: new Uint16Array(groupRows),
    seen: new Uint8Array(1 << 16),
    levelEncoder: new HybridEncoder(1 << 12),
    valueEncoder: new HybridEncoder(groupRows * 2),
    zstd,
  };
  return {
    async encode(buffers, rows) {
      const encoded: Promise<Chunk>[] = [];
      for (const [k, c] of columns.entries()) {
        encoded.push(c.kind === 'coded' ? codedChunk(states[k]!, buffers[k] as Uint16Array, rows, scratch) : idChunk(c, buffers[k] as Float64Array, rows, scratch));
        if (between !== undefined && k % COLUMNS_PER_TURN === COLUMNS_PER_TURN - 1) await between();
      }
      const chunks = Promise.all(encoded);
      // Awaited by the writer; until then a failure must not go unhandled.
      chunks.catch(() => undefined);
      return { next: buffers, chunks };
    },
    close: () => zstd.close(),
  };
}

const COLUMNS_PER_TURN = 6;
