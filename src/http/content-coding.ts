/**
 * Content-Encoding of a whole csv or JSON download, negotiated from Accept-Encoding (RFC 9110
 * §12.5.3): zstd when the client accepts it, else gzip, else none. csv compresses ~10× (category
 * labels repeat), so a link sends a tenth of the bytes; parquet, xlsx and zip files are
 * compressed already and go as they are. Compression streams through zlib on libuv's thread
 * pool, off the event loop. Levels: the fastest that keep most of the gain (docs/performance.md,
 * "Downloads"): a link must not become slower than the network it saves.
 */
import { pipeline, type Readable } from 'node:stream';
import { constants, createGzip, createZstdCompress } from 'node:zlib';

export type ContentCoding = 'zstd' | 'gzip';

/** Media types (without parameters) worth compressing in transit. */
const COMPRESSIBLE = new Set(['text/csv', 'application/json']);

export const isCompressible = (contentType: string): boolean => COMPRESSIBLE.has(contentType.split(';')[0]!.trim().toLowerCase());

/**
 * The first of `offered` (in the server's order of preference) that Accept-Encoding accepts:
 * named with q > 0, or covered by "*" (x-gzip counts as gzip); undefined for identity.
 */
export function preferredCoding<C extends string>(acceptEncoding: string | undefined, offered: readonly C[]): C | undefined {
  if (acceptEncoding === undefined) return undefined;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    const weight = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find((m) => m !== null);
    q.set(token.trim(), weight ? Number(weight[1]) : 1);
  }
  const named = (coding: string): boolean => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  const accepted = (coding: string): boolean => named(coding) || (coding === 'gzip' && named('x-gzip'));
  return offered.find(accepted);
}

/** The coding of a download, or undefined for identity: the client's zstd or gzip, zstd first. */
export const negotiateCoding = (acceptEncoding: string | undefined): ContentCoding | undefined => preferredCoding(acceptEncoding, ['zstd', 'gzip'] as const);

const ZSTD_LEVEL = 3;
const GZIP_LEVEL = 4;

/** The source, compressed; a failure of either side destroys both (the response then ends early, as a failed download). */
export function compressed(source: Readable, coding: ContentCoding): Readable {
  const encoder =
    coding === 'zstd'
      ? createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: ZSTD_LEVEL }, chunkSize: 1 << 16 })
      : createGzip({ level: GZIP_LEVEL, chunkSize: 1 << 16 });
  return pipeline(source, encoder, () => undefined);
}
