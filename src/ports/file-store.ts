import type { Readable } from 'node:stream';

/** Where result files live: the local data directory (embedded default) or an S3-compatible bucket. */
export interface FileStore {
  /** Moves/uploads a finished local file into the store under key; the local file may be removed. */
  put(key: string, localPath: string, contentType: string): Promise<void>;
  /** URL the client downloads from, valid until expiresAt; carries no API key. */
  downloadUrl(key: string, fileName: string, expiresAt: Date): Promise<string>;
  /** Byte size, or undefined when the file is gone. */
  size(key: string): Promise<number | undefined>;
  /** Streams bytes [start, end] inclusive (the whole file without a range); local store only serves downloads itself. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable | undefined>;
  delete(key: string): Promise<void>;
}
