import { readFile, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { constants, gzipSync, zstdCompressSync } from 'node:zlib';
import { GZIP_LEVEL, ZSTD_LEVEL } from '../../src/adapters/filestore/encodings.ts';
import { assertRange, assertSafeKey } from '../../src/adapters/filestore/file-keys.ts';
import type { LinkSecret } from '../../src/core/links.ts';
import { serviceLink } from '../../src/adapters/filestore/service-links.ts';
import { isCompressible, type ContentCoding, type FileStore } from '../../src/ports/file-store.ts';

export interface MemoryFileStoreOptions {
  readonly baseUrl: string;
  readonly secret: LinkSecret;
  /**
   * How put() takes a finished file from its path (and removes it): from the file system by
   * default; a unit test with memory scratch space passes its own, so nothing touches the disk.
   */
  readonly take?: (localPath: string) => Promise<Buffer>;
}

const takeFromDisk = async (path: string): Promise<Buffer> => {
  const bytes = await readFile(path);
  await rm(path, { force: true });
  return bytes;
};

/**
 * A FileStore in memory, for unit tests: the local store's keys, links (signed with
 * core/links.ts, served at `${baseUrl}/downloads/<token>/<fileName>`) and ranges, with the bytes
 * kept in a map. It passes the FileStore contract suite (test/adapters/filestore/memory.test.ts).
 */
export function memoryFileStore(options: MemoryFileStoreOptions): FileStore & { readonly keys: () => string[] } {
  const files = new Map<string, Buffer>();
  // A compressible file's representations, compressed at put as the real stores do.
  const encoded = new Map<string, Readonly<Record<ContentCoding, Buffer>>>();
  const bytesOf = (key: string, coding: ContentCoding | undefined) => (coding === undefined ? files.get(key) : encoded.get(key)?.[coding]);
  const take = options.take ?? takeFromDisk;
  return {
    keys: () => [...files.keys()].sort(),
    async put(key, localPath, contentType) {
      assertSafeKey(key);
      const bytes = await take(localPath);
      files.set(key, bytes);
      encoded.delete(key);
      if (isCompressible(contentType)) {
        encoded.set(key, {
          zstd: zstdCompressSync(bytes, { params: { [constants.ZSTD_c_compressionLevel]: ZSTD_LEVEL } }),
          gzip: gzipSync(bytes, { level: GZIP_LEVEL }),
        });
      }
    },
    downloadUrl: async (key, fileName, expiresAt) => serviceLink(options, key, fileName, expiresAt),
    async size(key, coding) {
      assertSafeKey(key);
      return bytesOf(key, coding)?.length;
    },
    async read(key, range, coding) {
      assertSafeKey(key);
      assertRange(range);
      const bytes = bytesOf(key, coding);
      if (bytes === undefined) return undefined;
      return Readable.from([range === undefined ? bytes : bytes.subarray(range.start, range.end + 1)]);
    },
    settled: async () => undefined,
    async delete(key) {
      assertSafeKey(key);
      files.delete(key);
      encoded.delete(key);
    },
  };
}
