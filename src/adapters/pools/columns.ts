/**
 * Raw column files of a release, `columns/<dataset>/<name>.bin`: one little-endian typed array
 * per column, row i at position i. Serving does not read them into its heap: each export reads
 * the rows it gathers with positioned reads (pread) through a window of its own (ColumnReader),
 * so the bytes live once, in the kernel's page cache, shared by every server process on the
 * host, and a server's private memory does not grow with the release (docs/performance.md,
 * "National scale"). Sampling needs only the catalog's offsets, never the columns.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { DatasetType } from '../../core/dataset.ts';

export type ColumnKind = 'u8' | 'u32' | 'i32';

/** Link columns per dataset (variables are u8 ENUM indices, one file per variable code). */
export const LINK_FILES: Readonly<Record<DatasetType, readonly { readonly name: string; readonly kind: ColumnKind }[]>> = {
  persons: [
    { name: 'suburb_ordinal', kind: 'u32' },
    { name: 'family_row', kind: 'i32' },
    { name: 'dwelling_row', kind: 'u32' },
  ],
  families: [
    { name: 'suburb_ordinal', kind: 'u32' },
    { name: 'dwelling_row', kind: 'u32' },
  ],
  dwellings: [{ name: 'suburb_ordinal', kind: 'u32' }],
};

export const columnFile = (dataset: DatasetType, name: string): string => `columns/${dataset}/${name}.bin`;

export type ColumnArray = Uint8Array | Uint32Array | Int32Array;

const WIDTH: Readonly<Record<ColumnKind, number>> = { u8: 1, u32: 4, i32: 4 };

/** A column as stored: its element kind, its row count, and readers over it. */
export interface ColumnFile {
  readonly kind: ColumnKind;
  readonly length: number;
  /** A reader with its own window (one per pass: an export's gather, a search). */
  reader(): ColumnReader;
  /** Rows start‥start+count of a u8 column in one read (an area's records are one run of rows: the quality pages). */
  bytes(start: number, count: number): Uint8Array;
}

/** Reads single rows of one column, buffering a window around the last row asked for. */
export interface ColumnReader {
  get(row: number): number;
  /** out[i] = the value at rows[i] for i < count: get() for a batch, without a call per row while the rows stay in the window. */
  gather(rows: Uint32Array, count: number, out: Int32Array | Uint32Array): void;
}

/**
 * A window's size. A reader asked for rows close after its window (the rows of an export are
 * ascending) reads the next DENSE bytes in one call: a dense sample touches every page anyway, so
 * fewer, larger reads are cheaper. A reader asked for a row far away (a sparse sample, a binary
 * search) reads one page: copying more would cost more than the extra read call it might save
 * (a read call costs about as much as copying ~16 KB from the page cache here).
 */
const DENSE = 256 * 1024;
const SPARSE = 4096;
const NEAR = 16 * 1024;

class WindowReader implements ColumnReader {
  private start = 0;
  private end = 0;
  private readonly bytes = new Uint8Array(DENSE);
  private readonly view: ColumnArray;
  private readonly width: number;

  constructor(
    private readonly file: { descriptor(): number },
    kind: ColumnKind,
    private readonly length: number,
  ) {
    this.width = WIDTH[kind];
    const buffer = this.bytes.buffer;
    this.view = kind === 'u8' ? this.bytes : kind === 'u32' ? new Uint32Array(buffer) : new Int32Array(buffer);
  }

  get(row: number): number {
    if (row >= this.start && row < this.end) return this.view[row - this.start]!;
    return this.fill(row);
  }

  gather(rows: Uint32Array, count: number, out: Int32Array | Uint32Array): void {
    for (let i = 0; i < count; ) {
      let row = rows[i]!;
      if (!(row >= this.start && row < this.end)) this.fill(row);
      const start = this.start;
      const end = this.end;
      const view = this.view;
      while (row >= start && row < end) {
        out[i] = view[row - start]!;
        if (++i === count) return;
        row = rows[i]!;
      }
    }
  }

  private fill(row: number): number {
    if (!(row >= 0 && row < this.length)) throw new RangeError(`row ${row} is outside the column (${this.length} rows)`);
    const width = this.width;
    const near = row >= this.end && (row - this.end) * width <= NEAR && this.end > 0;
    const rows = (near ? DENSE : SPARSE) / width;
    const start = near ? row : row - (row % rows);
    const count = Math.min(rows, this.length - start);
    const want = count * width;
    // Looked up at each read: a reader still running when its release closes fails, and never reads a reused descriptor.
    const fd = this.file.descriptor();
    for (let done = 0; done < want; ) {
      const got = readSync(fd, this.bytes, done, want - done, (start * width) + done);
      if (got === 0) throw new Error(`column file ends before row ${start + count}`);
      done += got;
    }
    this.start = start;
    this.end = start + count;
    return this.view[row - start]!;
  }
}

/** An open column file (closed with the release). Its length is checked against the catalog's row count. */
export class OpenColumnFile implements ColumnFile {
  readonly length: number;
  private fd: number | undefined;

  constructor(
    path: string,
    readonly kind: ColumnKind,
    rows: number,
  ) {
    const fd = openSync(path, 'r');
    const bytes = fstatSync(fd).size;
    if (bytes !== rows * WIDTH[kind]) {
      closeSync(fd);
      throw new Error(`${path} holds ${bytes / WIDTH[kind]} rows, the catalog ${rows}`);
    }
    this.fd = fd;
    this.length = rows;
  }

  reader(): ColumnReader {
    this.descriptor();
    return new WindowReader(this, this.kind, this.length);
  }

  bytes(start: number, count: number): Uint8Array {
    if (this.kind !== 'u8') throw new Error('bytes() reads u8 columns');
    if (!(start >= 0 && count >= 0 && start + count <= this.length)) throw new RangeError(`rows ${start}+${count} are outside the column (${this.length} rows)`);
    const out = new Uint8Array(count);
    const fd = this.descriptor();
    for (let done = 0; done < count; ) {
      const got = readSync(fd, out, done, count - done, start + done);
      if (got === 0) throw new Error(`column file ends before row ${start + count}`);
      done += got;
    }
    return out;
  }

  descriptor(): number {
    if (this.fd === undefined) throw new Error('pool release is closed');
    return this.fd;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
