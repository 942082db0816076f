import { randomBytes } from 'node:crypto';
import { chmod, copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { LinkSecret } from '../../core/links.ts';
import { isCompressible, STORED_CODINGS, type ContentCoding, type FileStore } from '../../ports/file-store.ts';
import { ENCODE_BEFORE_PUT_BYTES, encodedKey, encodeFile, EncodingJobs } from './encodings.ts';
import { assertRange, assertSafeKey } from './file-keys.ts';
import { serviceLink } from './service-links.ts';

/**
 * Result files in the local data directory (the embedded default): <dir>/files/<key>. Download
 * links point at the service itself, `${baseUrl}/downloads/<token>/<fileName>`, with a token from
 * core/links.ts; the HTTP download route verifies it (verifyLink) and streams read(key).
 * A csv or JSON file's compressed representations lie beside it: <key>.zst and <key>.gz.
 */
export interface LocalFileStoreOptions {
  /** The data directory; files live under <dir>/files. */
  readonly dir: string;
  /** Public base URL of the service, without a trailing slash. */
  readonly baseUrl: string;
  readonly secret: LinkSecret;
}

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

/** What encodeFile and put's cross-filesystem copy name their temporary files: `<name>.partial-<12 hex>`. */
const PARTIAL = /\.partial-[0-9a-f]{12}$/;

/** Files under `dir` (recursively) named as partial copies and last written before `olderThan`, removed; returns how many. */
async function removePartialsBefore(dir: string, olderThan: Date): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch (e) {
    if (isMissing(e)) return 0;
    throw e;
  }
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !PARTIAL.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    // A copy still being written is touched every few milliseconds; one idle this long lost its writer.
    const info = await stat(path).catch(() => undefined);
    if (info === undefined || info.mtimeMs >= olderThan.getTime()) continue;
    await rm(path, { force: true });
    removed++;
  }
  return removed;
}

export function createLocalFileStore(options: LocalFileStoreOptions): FileStore {
  const root = join(options.dir, 'files');
  const pathOf = (key: string, coding?: ContentCoding) => {
    assertSafeKey(key);
    return join(root, coding === undefined ? key : encodedKey(key, coding));
  };
  const jobs = new EncodingJobs();
  const removeEncoded = (key: string) => Promise.all(STORED_CODINGS.map((c) => rm(pathOf(key, c), { force: true })));
  // A process killed while copying or compressing leaves `<key>….partial-<random>` beside the file:
  // removing the file's key removes those too, or they would outlive the refunded query they belong to.
  const removePartials = async (key: string) => {
    const target = pathOf(key);
    const prefix = `${basename(target)}.`;
    let names: string[];
    try {
      names = await readdir(dirname(target));
    } catch (e) {
      if (isMissing(e)) return;
      throw e;
    }
    await Promise.all(names.filter((n) => n.startsWith(prefix) && PARTIAL.test(n)).map((n) => rm(join(dirname(target), n), { force: true })));
  };

  return {
    async put(key, localPath, contentType) {
      const target = pathOf(key);
      // A replaced file's representations go first: they never stand for other bytes.
      await jobs.settled(key);
      await removeEncoded(key);
      // Result files hold a client's data: readable by the service's user only.
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      await chmod(dirname(target), 0o700);
      await chmod(localPath, 0o600);
      try {
        // Same filesystem: one atomic rename, and readers see the old file or the whole new one.
        await rename(localPath, target);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
        // Across filesystems: copy beside the target, then rename into place (still atomic for readers).
        const partial = `${target}.partial-${randomBytes(6).toString('hex')}`;
        try {
          await copyFile(localPath, partial);
          await chmod(partial, 0o600);
          await rename(partial, target);
        } finally {
          await rm(partial, { force: true });
        }
        await rm(localPath, { force: true });
      }
      if (!isCompressible(contentType)) return;
      const size = (await stat(target)).size;
      const job = jobs.start(key, () => Promise.allSettled(STORED_CODINGS.map((c) => encodeFile(target, pathOf(key, c), c))));
      if (size <= ENCODE_BEFORE_PUT_BYTES) await job;
    },

    downloadUrl: async (key, fileName, expiresAt) => serviceLink(options, key, fileName, expiresAt),

    async size(key, coding) {
      try {
        const info = await stat(pathOf(key, coding));
        return info.isFile() ? info.size : undefined;
      } catch (e) {
        if (isMissing(e)) return undefined;
        throw e;
      }
    },

    async read(key, range, coding): Promise<Readable | undefined> {
      assertRange(range);
      try {
        // Opening first turns a missing file into undefined instead of a stream that errors later.
        const handle = await open(pathOf(key, coding), 'r');
        // 1 MiB reads instead of the default 64 KiB: a result file runs to hundreds of MB, and each
        // chunk is a thread-pool round trip and a socket write on the event loop.
        return handle.createReadStream({ highWaterMark: 1 << 20, ...(range === undefined ? {} : { start: range.start, end: range.end }) });
      } catch (e) {
        if (isMissing(e)) return undefined;
        throw e;
      }
    },

    settled: (key) => jobs.settled(key),

    async delete(key) {
      const path = pathOf(key);
      // A job still compressing would put its representation back after the delete.
      await jobs.settled(key);
      await Promise.all([rm(path, { force: true }), removeEncoded(key), removePartials(key)]);
    },

    // A kill during the background compression of a kept file leaves its partial copy until the
    // file expires (days): the start-up and the periodic sweep remove it (src/app/maintenance.ts).
    removeStalePartials: (olderThan) => removePartialsBefore(root, olderThan),
  };
}
