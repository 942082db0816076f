/**
 * The compressed representations a store keeps beside a text file: written once, when the file
 * is stored, so a download sends stored bytes with their length (docs/performance.md,
 * "Downloads"). csv compresses 10–17× (category labels repeat). The levels are those of the
 * best size within a few seconds for the largest file (785 MB of csv → 45 MB with zstd): the
 * work is done once per file, off the request, on libuv's thread pool.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip, createZstdCompress, type Gzip, type ZstdCompress } from 'node:zlib';
import type { ContentCoding } from '../../ports/file-store.ts';

/** Files up to this size are compressed before put resolves; larger ones in the background (a 785 MB csv takes seconds). */
export const ENCODE_BEFORE_PUT_BYTES = 16 * 1024 * 1024;

/** The key (or file name) of a representation: the file's own with the coding's usual extension. */
export const encodedKey = (key: string, coding: ContentCoding): string => `${key}.${coding === 'zstd' ? 'zst' : 'gz'}`;

export const ZSTD_LEVEL = 3;
export const GZIP_LEVEL = 6;

export function encoder(coding: ContentCoding): ZstdCompress | Gzip {
  return coding === 'zstd'
    ? createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: ZSTD_LEVEL }, chunkSize: 1 << 16 })
    : createGzip({ level: GZIP_LEVEL, chunkSize: 1 << 16 });
}

/**
 * Compresses `source` into `dest`, written under a temporary name and renamed into place, so a
 * reader sees no representation or a whole one; resolves with its size.
 */
export async function encodeFile(source: string, dest: string, coding: ContentCoding): Promise<number> {
  const partial = `${dest}.partial-${randomBytes(6).toString('hex')}`;
  try {
    await pipeline(createReadStream(source, { highWaterMark: 1 << 20 }), encoder(coding), createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, dest);
    return (await stat(dest)).size;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * Jobs writing representations, by key: a store waits for a key's job before deleting it (else
 * the job could put a representation back after the delete), and a download may wait for it.
 */
export class EncodingJobs {
  readonly #jobs = new Map<string, Promise<void>>();

  /** Runs `job` for key (a failure leaves that representation out: the file is served without it). */
  start(key: string, job: () => Promise<unknown>): Promise<void> {
    const previous = this.#jobs.get(key) ?? Promise.resolve();
    const run: Promise<void> = previous
      .then(job)
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        if (this.#jobs.get(key) === run) this.#jobs.delete(key);
      });
    this.#jobs.set(key, run);
    return run;
  }

  settled(key: string): Promise<void> {
    return this.#jobs.get(key) ?? Promise.resolve();
  }
}
