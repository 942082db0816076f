/**
 * A streaming csv writer for sampled records (RFC 4180, as DuckDB's COPY writes it: comma,
 * double quotes around fields that hold a comma, a quote or a line break, quotes doubled, NULL
 * as an empty field, "\n" line ends). Category labels repeat, so each label is encoded once,
 * with its separator and quoting, and a cell costs a few byte copies: no strings are built per
 * row. Ids are written digit by digit. Output goes through two 1 MiB buffers in turn, one file
 * write in flight while the other fills.
 */
import { csvField as rfc4180Field } from '../../core/csv.ts';
import { writeNewFile } from './file-output.ts';
import { putPaddedId } from './ascii.ts';
import { NULL_CODE } from './coded.ts';
import { withTurns } from './event-loop-turn.ts';

/** An id column: a prefix letter and the row number zero-padded to `digits` (a negative row is NULL). */
export interface CsvIdColumn {
  readonly kind: 'id';
  readonly name: string;
  readonly prefix: string;
  readonly digits: number;
}

/** A column of labels, arriving as indices into `labels`. */
export interface CsvCodedColumn {
  readonly kind: 'coded';
  readonly name: string;
  readonly labels: readonly string[];
}

export type CsvColumn = CsvIdColumn | CsvCodedColumn;

/** A batch of rows, column-major, one array per column in file order: ids as row numbers (−1 = NULL), coded columns as label indices (NULL_CODE = NULL). */
export interface CsvBatch {
  readonly rowCount: number;
  readonly columns: readonly ArrayLike<number>[];
}

export interface CsvOptions {
  readonly destPath: string;
  readonly columns: readonly CsvColumn[];
  readonly batches: Iterable<CsvBatch>;
}

const COMMA = 44;
const NEWLINE = 10;
const BUFFER = 1 << 20;

/** A field as DuckDB's csv writer quotes it: RFC 4180 (core/csv.ts), and an empty text (a geography column's, where an area has none) as "", unlike NULL. */
export const csvField = (value: string): string => (value === '' ? '""' : rfc4180Field(value));

/** Writes the file; resolves with the number of data rows once it is complete on disk (removes it on failure). */
export async function writeCsv(opts: CsvOptions): Promise<number> {
  return writeNewFile(opts.destPath, (write) => writeRows(opts, write));
}

/**
 * Every coded column's pre-encoded pieces in one table: a cell is its column's slot for the value,
 * at `pieceAt` with `pieceLength` bytes; `wide` when every 64-bit word of the table copies as a float64.
 */
function labelTable(columns: CsvOptions['columns']) {
  const width = columns.length;
  // Each coded cell is one pre-encoded piece: its separator (none for a first column) and its quoted label.
  // NULL_CODE (an empty cell) is the separator alone, in columns with fewer labels than that
  // (variables; a geography column may have more, and no NULLs).
  const pieces = columns.map((c, k) => {
    if (c.kind !== 'coded') return [];
    const out = c.labels.map((l) => new Uint8Array(Buffer.from(`${k === 0 ? '' : ','}${csvField(l)}`, 'utf8')));
    if (c.labels.length <= NULL_CODE) out[NULL_CODE] = new Uint8Array(Buffer.from(k === 0 ? '' : ',', 'utf8'));
    return out;
  });
  // Every piece in one table, each starting at a multiple of 8 bytes and padded to one: a cell is
  // copied a 64-bit word at a time, as a float64 (the padding lands past the cell and is written
  // over by the next, or lies past the end of what is written). Byte by byte, the copy was most of
  // the csv path's time, 32 bits at a time still a third of it (docs/performance.md, "National
  // scale"). A float64 copy keeps every bit only if the word is not a NaN (NaNs may be
  // canonicalised); a word of text is one only with a byte 0x7F or 0xFF, which labels lack, but
  // a table holding one is copied 32 bits at a time instead.
  const slotBase = new Int32Array(width);
  const slotCount = Int32Array.from(pieces, (list) => list.length);
  let slots = 0;
  for (let k = 0; k < width; k++) {
    slotBase[k] = slots;
    slots += slotCount[k]!;
  }
  const pieceAt = new Int32Array(slots);
  const pieceLength = new Int32Array(slots);
  let tableBytes = 0;
  pieces.forEach((list, k) => {
    for (let j = 0; j < list.length; j++) {
      pieceAt[slotBase[k]! + j] = tableBytes;
      pieceLength[slotBase[k]! + j] = list[j]?.length ?? 0;
      tableBytes += (((list[j]?.length ?? 0) + 7) >> 3) << 3;
    }
  });
  const table = new Uint8Array(tableBytes + 16);
  pieces.forEach((list, k) => list.forEach((piece, j) => table.set(piece, pieceAt[slotBase[k]! + j]!)));
  const tableView = new DataView(table.buffer);
  const wide = Array.from({ length: table.length >> 3 }, (_, w) => tableView.getFloat64(w << 3, true)).every((word) => !Number.isNaN(word));
  return { pieces, slotBase, slotCount, pieceAt, pieceLength, tableView, wide };
}

async function writeRows(opts: CsvOptions, write: (bytes: Buffer) => Promise<void>): Promise<number> {
  const columns = opts.columns;
  const width = columns.length;
  const { pieces, slotBase, slotCount, pieceAt, pieceLength, tableView, wide } = labelTable(columns);
  const isId = Uint8Array.from(columns, (c) => (c.kind === 'id' ? 1 : 0));
  const prefixes = columns.map((c) => new Uint8Array(Buffer.from(c.kind === 'id' ? c.prefix : '', 'utf8')));
  const padTo = Int32Array.from(columns, (c) => (c.kind === 'id' ? c.digits : 0));
  const widest = columns.reduce((sum, c, k) => sum + (c.kind === 'coded' ? Math.max(1, ...c.labels.map((_, j) => pieces[k]![j]!.length)) : 1 + prefixes[k]!.length + Math.max(c.digits, 16)), 1);
  const size = Math.max(BUFFER, 2 * widest);
  const digits = new Uint8Array(16);
  let pending: Promise<void> = Promise.resolve();
  // Two buffers in turn: one being written while the other fills. A fresh buffer per flush cost
  // ~7% of a 1 M-row export in garbage collection (docs/performance.md, "National scale").
  const buffers = [Buffer.allocUnsafe(size + 16), Buffer.allocUnsafe(size + 16)];
  const views = buffers.map((buffer) => new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength));
  let turn = 0;
  let out = buffers[0]!;
  let view = views[0]!;
  // Local variables only in the loop below (no closure writes them): V8 keeps them in registers.
  let pos = Buffer.from(`${columns.map((c) => csvField(c.name)).join(',')}\n`, 'utf8').copy(out, 0);
  let count = 0;
  // A batch's cells in row order, before any is written: where each coded cell's piece lies in the
  // table and its length (nothing for an id cell). Looked up column by column, so the row loop
  // below reads two arrays in order instead of each column's array, table index and bounds.
  let cellAt = new Int32Array(0);
  let cellLength = new Int32Array(0);
  for await (const batch of withTurns(opts.batches)) {
    const values = batch.columns;
    const rowCount = batch.rowCount;
    if (cellAt.length < rowCount * width) {
      cellAt = new Int32Array(rowCount * width);
      cellLength = new Int32Array(rowCount * width);
    }
    for (let k = 0; k < width; k++) {
      const column = values[k]!;
      if (isId[k] === 1) continue;
      const base = slotBase[k]!;
      const labels = slotCount[k]!;
      for (let i = 0, c = k; i < rowCount; i++, c += width) {
        const value = column[i]!;
        if (!(value < labels)) throw new Error(`csv: value ${value} has no label in column ${columns[k]!.name}`);
        cellAt[c] = pieceAt[base + value]!;
        cellLength[c] = pieceLength[base + value]!;
      }
    }
    for (let i = 0, c = 0; i < rowCount; i++) {
      if (pos + widest > size) {
        const full = out.subarray(0, pos);
        // The other buffer's write is complete before it is refilled.
        await pending;
        pending = write(full);
        turn ^= 1;
        out = buffers[turn]!;
        view = views[turn]!;
        pos = 0;
      }
      for (let k = 0; k < width; k++, c++) {
        const at = cellAt[c]!;
        if (isId[k] === 0) {
          const n = cellLength[c]!;
          if (wide) {
            // Two words whatever the length (most labels fit): no loop, so no mispredicted exit, for a short cell.
            view.setFloat64(pos, tableView.getFloat64(at, true), true);
            view.setFloat64(pos + 8, tableView.getFloat64(at + 8, true), true);
            for (let b = 16; b < n; b += 8) view.setFloat64(pos + b, tableView.getFloat64(at + b, true), true);
          } else for (let b = 0; b < n; b += 4) view.setUint32(pos + b, tableView.getUint32(at + b, true), true);
          pos += n;
          continue;
        }
        // An id is read from its own column: row numbers may pass 2³¹.
        const value = values[k]![i]!;
        if (k > 0) out[pos++] = COMMA;
        if (value >= 0) pos = putPaddedId(out, pos, prefixes[k]!, value, padTo[k]!, digits);
      }
      out[pos++] = NEWLINE;
    }
    count += batch.rowCount;
  }
  if (pos > 0) {
    await pending;
    pending = write(out.subarray(0, pos));
  }
  await pending;
  return count;
}
