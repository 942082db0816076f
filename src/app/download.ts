import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { appError, type AppError } from '../core/errors.ts';
import { verifyLink } from '../core/links.ts';
import { err, ok, type Result } from '../core/result.ts';
import { STORED_CODINGS, type ContentCoding } from '../ports/file-store.ts';
import type { UseCaseDeps } from './deps.ts';
import { DATASET_TYPES } from '../core/dataset.ts';
import { COMPANION_FILES, formatOfExtension, HOUSEHOLD_FILE, OUTPUT_FORMAT_SPECS, OUTPUT_FORMATS } from '../core/formats.ts';
import { dictionaryFileKey, householdFileKey, resultFileKey } from './format.ts';

export type ByteRange = { readonly start: number; readonly end: number };

/** What a Range header asks of a file of `size` bytes: the whole file, one range, or nothing satisfiable. */
export type RangeRequest = { readonly kind: 'whole' } | { readonly kind: 'partial'; readonly range: ByteRange } | { readonly kind: 'unsatisfiable' };

/**
 * RFC 9110 §14: "bytes=a-b", "bytes=a-", "bytes=-n". Several ranges, a malformed header or an
 * invalid range ("bytes=5-2": last before first, §14.1.1) are answered with the whole file, which
 * the RFC allows; a valid range that starts past the end of the file is 416.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'whole' };
  if (m[1] !== '' && m[2] !== '' && Number(m[2]) < Number(m[1])) return { kind: 'whole' };
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end } };
}

/**
 * A strong validator of a stored file: a result file is written once under its key and never
 * changed (a query's file is its own), so its key and size name its bytes. A compressed
 * representation has its own (RFC 9110 §8.8.3: representations differ).
 */
export function entityTag(key: string, size: number, coding?: ContentCoding): string {
  const digest = createHash('sha256').update(key).digest('base64url').slice(0, 22);
  return `"${digest}-${size.toString(36)}${coding === undefined ? '' : `-${coding}`}"`;
}

/**
 * RFC 9110 §13.1.5: a Range is honoured only when If-Range (if sent) is the file's current strong
 * entity tag; a date, a weak tag or another tag means the client's partial copy may be of other
 * bytes, so it gets the whole file.
 */
export const ifRangeHolds = (ifRange: string | undefined, etag: string): boolean => ifRange === undefined || ifRange.trim() === etag;

export interface DownloadFile {
  readonly key: string;
  readonly size: number;
  readonly contentType: string;
  readonly fileName: string;
  readonly expiresAt: Date;
}

/**
 * The file name in the link is ours (spq-<query id>-<dataset>.<extension>, …-dictionary.json, or a
 * household sample's spq-<query id>-household.zip); anything else was edited.
 */
// A sandbox query's names carry "-TEST-DATA" before the extension (format.ts).
const FILE_NAME = new RegExp(
  `^spq-(qry_[0-9A-Za-z]+)-(?:(${DATASET_TYPES.join('|')})(?:(?:-TEST-DATA)?\\.(${OUTPUT_FORMATS.map((f) => OUTPUT_FORMAT_SPECS[f].extension).join('|')})|-(${COMPANION_FILES.dictionary.suffix})(?:-TEST-DATA)?\\.${COMPANION_FILES.dictionary.extension})|(household)(?:-TEST-DATA)?\\.${HOUSEHOLD_FILE.extension})$`,
);

/** The store key and content type a genuine file name stands for. */
function keyOfName(name: RegExpExecArray): { key: string; contentType: string } {
  const [, queryId, , extension, dictionary, household] = name;
  if (household !== undefined) return { key: householdFileKey(queryId!), contentType: HOUSEHOLD_FILE.contentType };
  if (dictionary !== undefined) return { key: dictionaryFileKey(queryId!), contentType: COMPANION_FILES.dictionary.contentType };
  const format = formatOfExtension(extension!)!;
  return { key: resultFileKey(queryId!, format), contentType: OUTPUT_FORMAT_SPECS[format].contentType };
}

const daysText = (days: number) => `${days} day${days === 1 ? '' : 's'}`;

/**
 * Checks a signed link: 403 when altered (token or file name), 410 when expired or its file
 * is gone. No API key is involved.
 */
export async function openDownload(
  deps: Pick<UseCaseDeps, 'files' | 'clock' | 'serverSecret' | 'config'>,
  token: string,
  fileName: string,
): Promise<Result<DownloadFile, AppError>> {
  const claims = verifyLink(deps.serverSecret, token, Math.floor(deps.clock.now().getTime() / 1000));
  if (!claims.ok) {
    return claims.error === 'expired'
      ? err(appError('gone', `This download link has expired (links are valid ${daysText(deps.config.downloadTtlDays)}). Run the query again with POST /query/execute for a new file; that draws a new sample and costs credits again.`))
      : err(appError('forbidden', 'This download link is not valid: it was altered or copied incompletely. Use the download_url exactly as the API returned it.'));
  }
  const key = claims.value.key;
  const name = FILE_NAME.exec(fileName);
  const expected = name ? keyOfName(name) : undefined;
  if (expected === undefined || expected.key !== key || (claims.value.fileName !== undefined && claims.value.fileName !== fileName)) {
    return err(appError('forbidden', 'This download link is not valid: its file name was altered. Use the download_url exactly as the API returned it.'));
  }
  const size = await deps.files.size(key);
  if (size === undefined) return err(appError('gone', 'The file of this link no longer exists. Run the query again with POST /query/execute for a new file.'));
  return ok({ key, size, contentType: expected.contentType, fileName, expiresAt: new Date(claims.value.expiresAt * 1000) });
}

/** How long a download waits for the representations this instance is still compressing before it sends the file itself. */
const ENCODING_WAIT_MS = 30_000;

/**
 * The representation a whole-file download sends: the first coding the client accepts (in the
 * server's order) that the store holds, with its size; undefined for the file itself. A file
 * stored a moment ago may still be compressing on this instance: the download waits for it
 * (a 785 MB csv takes seconds; sending it uncompressed takes longer on most networks).
 */
export async function storedRepresentation(
  deps: Pick<UseCaseDeps, 'files'>,
  key: string,
  accepted: (offered: readonly ContentCoding[]) => readonly ContentCoding[],
): Promise<{ readonly coding: ContentCoding; readonly size: number } | undefined> {
  const codings = accepted(STORED_CODINGS);
  if (codings.length === 0) return undefined;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([deps.files.settled(key), new Promise((resolve) => (timer = setTimeout(resolve, ENCODING_WAIT_MS)))]);
  clearTimeout(timer);
  for (const coding of codings) {
    const size = await deps.files.size(key, coding);
    if (size !== undefined) return { coding, size };
  }
  return undefined;
}

export async function readDownload(deps: Pick<UseCaseDeps, 'files'>, key: string, range?: ByteRange, coding?: ContentCoding): Promise<Readable | undefined> {
  return deps.files.read(key, range, coding);
}
