import { addressSubject } from '../../../core/address-subject.ts';
import { Type } from '@sinclair/typebox';
import { downloadPolicy, rateLimitedError } from '../../../app/rate-limits.ts';
import { entityTag, ifRangeHolds, openDownload, parseRange, readDownload, storedRepresentation, type DownloadFile } from '../../../app/download.ts';
import { DICTIONARY_BESIDE_FORMATS, listed, mediaTypeOf, OUTPUT_FORMATS, SERVED_FILES } from '../../../core/formats.ts';
import { appError } from '../../../core/errors.ts';
import { ErrorBody, RateLimitedBody } from '../../../wire/common.ts';
import { isCompressible, type ContentCoding } from '../../../ports/file-store.ts';
import { acceptedCodings } from '../../content-coding.ts';
import { sendError } from '../../errors.ts';
import type { Api, AppDeps, ReplyOf, RequestOf } from '../../types.ts';

/** Every media type a link serves (each result format, the companion files, the household zip), without parameters. */
export const served = Object.fromEntries(
  SERVED_FILES.map((file) => [mediaTypeOf(file.contentType), { schema: { type: 'string', format: 'binary' } }]),
) as Record<string, { schema: { type: 'string'; format: 'binary' } }>;

/** The kinds of file the store also holds compressed, as a reader lists them ("csv or json"). */
const compressedKinds = listed([...new Set(SERVED_FILES.filter((file) => file.compressible).map((file) => file.extension))]);

export const schema = {
  security: [],
  summary: 'Download a result file (signed link)',
  description:
    `The download_url of an execution. Needs no API key and does not count against the key’s rate limit (a per-address limit applies). Supports HEAD and single byte ranges (206, 416); every response has Content-Length. With files in S3 (scale-out) the link is checked here and answered with 307 to a short-lived presigned URL of the bucket, which sends the same. A whole ${compressedKinds} file is sent compressed (Content-Encoding zstd or gzip, compressed once when the file was written, Content-Length the compressed size) when Accept-Encoding allows it; byte ranges are of the file itself and are never compressed.`,
  tags: ['downloads'],
  params: Type.Object({
    token: Type.String({ maxLength: 2000, description: 'The signed token of download_url (or dictionary_url): it names the file and when the link expires' }),
    fileName: Type.String({ maxLength: 200, description: 'The file name of the link (what a browser saves it as)' }),
  }),
  headers: Type.Object({
    range: Type.Optional(Type.String({ description: 'bytes=start-end' })),
    'if-range': Type.Optional(Type.String({ description: 'The ETag of the part already downloaded: the range is sent only if the file is still that one, else the whole file (200)' })),
    'accept-encoding': Type.Optional(Type.String({ description: `zstd or gzip: a whole ${compressedKinds} file is sent compressed` })),
  }),
  response: {
    200: {
      description: `The file: ${listed([...OUTPUT_FORMATS])}; a zip for a household sample; JSON for a ${listed(DICTIONARY_BESIDE_FORMATS)}'s dictionary`,
      content: served,
    },
    206: { description: 'The requested byte range of the file', content: served },
    307: {
      description:
        'Scale-out (files in S3): the same answer from the bucket. Location is a presigned URL of a few minutes for this method, of the compressed copy Accept-Encoding allows or of the file itself (send Range along); follow it with the same headers',
      type: 'null',
    },
    403: { ...ErrorBody, description: 'The link was altered' },
    410: { ...ErrorBody, description: 'The link has expired; run the query again' },
    416: { description: 'The range lies outside the file; Content-Range gives its size', type: 'null' },
    429: RateLimitedBody,
  },
} as const;

/** Content-Disposition with an ASCII name and its RFC 5987 form (our names are ASCII anyway). */
const disposition = (name: string): string => `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`;

export const handler = (deps: AppDeps) => async (request: RequestOf<typeof schema>, reply: ReplyOf<typeof schema>) => {
  const limited = await deps.limiter.hit(`download:${addressSubject(request.clientAddress)}`, downloadPolicy(deps.config.rateLimits), deps.clock.now().getTime());
  if (!limited.allowed) return sendError(reply, rateLimitedError(limited, 'Too many downloads from this address'));

  const opened = await openDownload(deps, request.params.token, request.params.fileName);
  if (!opened.ok) return sendError(reply, opened.error);
  const file = opened.value;
  const etag = entityTag(file.key, file.size);
  const range = ifRangeHolds(request.headers['if-range'], etag) ? parseRange(request.headers.range, file.size) : ({ kind: 'whole' } as const);
  reply
    .header('content-type', file.contentType)
    .header('content-disposition', disposition(file.fileName))
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff');
  if (range.kind === 'unsatisfiable') {
    // RFC 9110 §15.5.17: no body needed; Content-Range tells the client the size.
    reply.removeHeader('content-type');
    reply.header('content-range', `bytes */${file.size}`);
    return reply.code(416 as 200).send();
  }
  const [status, start, end] = range.kind === 'partial' ? [206, range.range.start, range.range.end] : [200, 0, file.size - 1];
  // A range is of the file's own bytes (what a resumed download has written so far): never compressed.
  const encoded =
    status === 200 && file.size > 0 && isCompressible(file.contentType)
      ? await storedRepresentation(deps, file.key, (offered) => acceptedCodings(request.headers['accept-encoding'], offered))
      : undefined;
  if (isCompressible(file.contentType)) reply.header('vary', 'accept-encoding');
  if (deps.files.directUrl !== undefined) return redirectToStore(deps, reply, file, request.method === 'HEAD' ? 'HEAD' : 'GET', encoded?.coding);
  if (encoded !== undefined) reply.header('content-encoding', encoded.coding);
  reply.header('etag', encoded === undefined ? etag : entityTag(file.key, file.size, encoded.coding));
  reply.header('content-length', String(encoded?.size ?? Math.max(0, end - start + 1)));
  if (status === 206) reply.header('content-range', `bytes ${start}-${end}/${file.size}`);
  if (request.method === 'HEAD') return reply.code(status as 200).send();
  if (file.size === 0) return reply.code(200).send('');
  const stream = await readDownload(deps, file.key, status === 206 ? { start, end } : undefined, encoded?.coding);
  if (stream === undefined) return sendError(reply, appError('gone', 'The file of this link no longer exists. Run the query again for a new file.'));
  return reply.code(status as 200).send(stream);
};

/** How long a redirect's presigned URL lives: the client follows it at once (a resumed download comes back here for another). */
const REDIRECT_SECONDS = 300;

/**
 * A store that hands its bytes out itself (S3): 307 to a short-lived URL of the chosen
 * representation for this method, which answers with its own Content-Length (and Content-Range
 * for the Range header the client sends along), so the bytes never pass through an instance.
 */
async function redirectToStore(deps: AppDeps, reply: ReplyOf<typeof schema>, file: DownloadFile, method: 'GET' | 'HEAD', coding: ContentCoding | undefined) {
  const expiresAt = new Date(Math.min(file.expiresAt.getTime(), deps.clock.now().getTime() + REDIRECT_SECONDS * 1000));
  const location = await deps.files.directUrl!(file.key, file.fileName, expiresAt, { method, ...(coding === undefined ? {} : { coding }) });
  reply.removeHeader('content-type');
  reply.removeHeader('accept-ranges');
  return reply.code(307 as 200).header('location', location).send();
}

export function registerDownload(app: Api, deps: AppDeps): void {
  // One handler, two operations (an operationId names one method).
  app.route({ method: 'GET', url: '/downloads/:token/:fileName', schema: { ...schema, operationId: 'downloadFile' }, exposeHeadRoute: false, handler: handler(deps) });
  app.route({ method: 'HEAD', url: '/downloads/:token/:fileName', schema: { ...schema, operationId: 'headDownloadFile' }, handler: handler(deps) });
}
