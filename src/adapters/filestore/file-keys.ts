/**
 * File keys are relative, slash-separated names chosen by the service ("qry_….parquet"). Both
 * stores refuse anything that could step outside their directory or bucket prefix, so a bug
 * upstream cannot turn into reading or deleting an arbitrary file.
 */
export function assertSafeKey(key: string): void {
  const segments = key.split('/');
  const bad =
    key.length === 0 ||
    key.length > 512 ||
    key.startsWith('/') ||
    key.includes('\\') ||
    key.includes('\u0000') ||
    segments.some((s) => s === '' || s === '.' || s === '..');
  if (bad) throw new Error(`unsafe file key: ${JSON.stringify(key)}`);
}

export function assertRange(range: { start: number; end: number } | undefined): void {
  if (range === undefined) return;
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`invalid byte range ${start}-${end}`);
  }
}

/** Content-Disposition naming the file, with an ASCII fallback and the exact UTF-8 name (RFC 6266). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
