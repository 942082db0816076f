/**
 * A minimal streaming zip writer (deflate, no zip64: entries < 4 GiB) for xlsx. Each entry's
 * data arrives in buffers; every buffer is deflated on libuv's thread pool as an independent
 * sync-flushed block run (the pigz technique), so compression of one buffer overlaps with
 * building the next, and CRC-32 is zlib's native one (yazl's JavaScript CRC-32 cost ~16 % of
 * the xlsx time).
 */
import type { WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const deflateRaw = promisify(zlib.deflateRaw);
const MAX_IN_FLIGHT = 3;

interface Entry {
  readonly name: Buffer;
  readonly offset: number;
  crc: number;
  compressed: number;
  size: number;
}

/** DOS date and time fields of a Date. */
function dosDateTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

export class ZipWriter {
  private readonly out: WriteStream;
  private readonly done: Promise<void>;
  private readonly entries: Entry[] = [];
  private offset = 0;
  private readonly stamp = dosDateTime(new Date());
  private current: Entry | undefined;
  private inFlight: Promise<Buffer>[] = [];

  private failure: Error | undefined;

  private constructor(out: WriteStream, private readonly level: number) {
    this.out = out;
    this.done = finished(out);
    // Kept as a value: write() reports it, so the promise must never be an unhandled rejection.
    this.done.catch((e: unknown) => {
      this.failure ??= e instanceof Error ? e : new Error(String(e));
    });
    out.on('error', (e) => {
      this.failure ??= e;
    });
  }

  /** Opens (creates or truncates) the file first, so a bad path fails here and not mid-stream. */
  static async create(path: string, level = 1): Promise<ZipWriter> {
    const handle = await open(path, 'w');
    return new ZipWriter(handle.createWriteStream(), level);
  }

  private async write(bytes: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    this.offset += bytes.length;
    if (this.out.write(bytes)) return;
    // Wait for room, or for the stream to fail (a full disk must not hang the export).
    await new Promise<void>((resolve, reject) => {
      const onDrain = (): void => {
        this.out.off('error', onError);
        resolve();
      };
      const onError = (e: Error): void => {
        this.out.off('drain', onDrain);
        reject(e);
      };
      this.out.once('drain', onDrain);
      this.out.once('error', onError);
    });
  }

  /** Starts an entry; then call data() any number of times and endEntry(). */
  async beginEntry(name: string): Promise<void> {
    if (this.current) throw new Error('zip: previous entry not ended');
    const entry: Entry = { name: Buffer.from(name, 'utf8'), offset: this.offset, crc: 0, compressed: 0, size: 0 };
    this.current = entry;
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(0x0808, 6); // sizes in a data descriptor; UTF-8 names
    h.writeUInt16LE(8, 8);
    h.writeUInt16LE(this.stamp.time, 10);
    h.writeUInt16LE(this.stamp.date, 12);
    h.writeUInt16LE(entry.name.length, 26);
    await this.write(Buffer.concat([h, entry.name]));
  }

  /** Queues one buffer of the current entry (the buffer must not be reused by the caller). */
  async data(bytes: Buffer): Promise<void> {
    const entry = this.current!;
    if (bytes.length === 0) return;
    entry.crc = zlib.crc32(bytes, entry.crc);
    entry.size += bytes.length;
    if (entry.size > 0xfffffffe) throw new Error('zip: entry larger than 4 GiB');
    // One output chunk for the whole buffer (the default of 16 KiB costs a callback and a copy per chunk on the event loop).
    this.inFlight.push(deflateRaw(bytes, { level: this.level, finishFlush: zlib.constants.Z_SYNC_FLUSH, chunkSize: Math.max(64 * 1024, bytes.length >> 1) }));
    if (this.inFlight.length >= MAX_IN_FLIGHT) await this.drainOne();
  }

  private async drainOne(): Promise<void> {
    const next = this.inFlight.shift();
    if (!next) return;
    const compressed = await next;
    this.current!.compressed += compressed.length;
    await this.write(compressed);
  }

  async endEntry(): Promise<void> {
    const entry = this.current!;
    while (this.inFlight.length > 0) await this.drainOne();
    // Final empty block ends the deflate stream.
    const last = zlib.deflateRawSync(Buffer.alloc(0), { level: this.level });
    entry.compressed += last.length;
    await this.write(last);
    const d = Buffer.alloc(16);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(entry.crc >>> 0, 4);
    d.writeUInt32LE(entry.compressed, 8);
    d.writeUInt32LE(entry.size, 12);
    await this.write(d);
    this.entries.push(entry);
    this.current = undefined;
  }

  async addEntry(name: string, content: string | Buffer): Promise<void> {
    await this.beginEntry(name);
    await this.data(typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    await this.endEntry();
  }

  /** Writes the central directory and closes the file. */
  async close(): Promise<void> {
    const start = this.offset;
    for (const e of this.entries) {
      const c = Buffer.alloc(46);
      c.writeUInt32LE(0x02014b50, 0);
      c.writeUInt16LE(20, 4);
      c.writeUInt16LE(20, 6);
      c.writeUInt16LE(0x0808, 8);
      c.writeUInt16LE(8, 10);
      c.writeUInt16LE(this.stamp.time, 12);
      c.writeUInt16LE(this.stamp.date, 14);
      c.writeUInt32LE(e.crc >>> 0, 16);
      c.writeUInt32LE(e.compressed, 20);
      c.writeUInt32LE(e.size, 24);
      c.writeUInt16LE(e.name.length, 28);
      c.writeUInt32LE(e.offset, 42);
      await this.write(Buffer.concat([c, e.name]));
    }
    if (this.offset > 0xfffffffe) throw new Error('zip: archive larger than 4 GiB');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
    this.out.end();
    await this.done;
    if (this.failure) throw this.failure;
  }

  /** Gives up: closes the file without finishing it (the caller deletes it). */
  destroy(): void {
    this.out.destroy();
  }
}
