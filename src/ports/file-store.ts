import type { Readable } from 'node:stream';
import { mediaTypeOf, SERVED_FILES } from '../core/formats.ts';

/** A compressed representation of a stored file (HTTP Content-Encoding). */
export type ContentCoding = 'zstd' | 'gzip';

/** The codings held for a compressible file, in the order a client accepting both is served. */
export const STORED_CODINGS: readonly ContentCoding[] = ['zstd', 'gzip'];

/** Media types (without parameters) held compressed too, as the format registry says: csv and JSON; parquet, xlsx and zip are compressed already. */
const COMPRESSIBLE = new Set(SERVED_FILES.filter((file) => file.compressible).map((file) => mediaTypeOf(file.contentType)));

export const isCompressible = (contentType: string): boolean => COMPRESSIBLE.has(mediaTypeOf(contentType));

/**
 * Where result files live: the local data directory (embedded default) or an S3-compatible bucket.
 * A text file (csv, JSON) is also held compressed, once per coding, beside the file itself: a
 * download then sends a stored representation with its own length instead of compressing on
 * the fly, so every response has Content-Length and a HEAD can say it.
 */
export interface FileStore {
  /**
   * Moves/uploads a finished local file into the store under key; the local file may be removed.
   * For a compressible content type it also writes the zstd and gzip representations: before it
   * resolves for a small file, in the background for a large one (`settled` waits for them).
   */
  put(key: string, localPath: string, contentType: string): Promise<void>;
  /** URL the client downloads from, valid until expiresAt; carries no API key. */
  downloadUrl(key: string, fileName: string, expiresAt: Date): Promise<string>;
  /**
   * Where the store hands its bytes out itself (S3: a presigned URL): a URL of the file, or of its
   * representation in `coding`, for one method, valid until expiresAt, named `fileName` when
   * saved. The download route redirects to it after choosing the representation, so the bytes
   * do not pass through the service. Absent where the service sends the bytes (read).
   */
  directUrl?(key: string, fileName: string, expiresAt: Date, options: { readonly coding?: ContentCoding; readonly method: 'GET' | 'HEAD' }): Promise<string>;
  /** Byte size of the file (or of its representation in `coding`), or undefined when that is not held. */
  size(key: string, coding?: ContentCoding): Promise<number | undefined>;
  /** Streams bytes [start, end] inclusive of the file (or of its representation in `coding`), the whole without a range. */
  read(key: string, range?: { start: number; end: number }, coding?: ContentCoding): Promise<Readable | undefined>;
  /** Resolves when the representations this instance is still writing for key are written (or failed); at once when there are none. */
  settled(key: string): Promise<void>;
  /** Removes the file and its representations. */
  delete(key: string): Promise<void>;
  /**
   * Removes the partial copies a killed process left in the store (a compression or copy cut off
   * before its rename), last written before `olderThan`; returns how many. A store that writes
   * its partial copies elsewhere (S3: in the instance's temp directory, swept with it) has none.
   */
  removeStalePartials?(olderThan: Date): Promise<number>;
}
