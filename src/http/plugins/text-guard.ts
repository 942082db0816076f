import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * C0 controls but tab, line feed and carriage return; DEL; C1 controls. PostgreSQL refuses NUL in
 * text outright, and none of the others belongs in an email, a name, a place or a search term.
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/**
 * Characters that change how the text around them is shown without being seen: bidirectional
 * overrides, embeddings and isolates (U+202E makes "txt.exe" read "exe.txt"), the line and
 * paragraph separators, and U+FFFD, which stands where bytes that are not UTF-8 were decoded.
 */
const INVISIBLE = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029\uFFFD]/;
/** Either kind, every occurrence: what printableHeader removes. */
const UNPRINTABLE = new RegExp(`${CONTROL.source}|${INVISIBLE.source}`, 'g');

/** The first field (as a path: geography_selections[0]) whose text holds a control character, and that character. */
export function controlCharacterField(value: unknown, path = '', depth = 0): { readonly field: string; readonly character: string } | undefined {
  if (typeof value === 'string') {
    const found = CONTROL.exec(value) ?? INVISIBLE.exec(value);
    return found ? { field: path, character: `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` } : undefined;
  }
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  for (const [name, inner] of Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${name}]` : path === '' ? name : `${path}.${name}`;
    const found = controlCharacterField(name, at, depth + 1) ?? controlCharacterField(inner, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * preHandler, after schema validation (so a value a schema refuses keeps its 400): text in the
 * query string or the body that holds a control character is a 422 (validation_error) before any
 * handler or store sees it. The API answers it in the contract's shape, the account area as a page.
 */
export function refuseControlCharacters(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const found = controlCharacterField(request.query) ?? controlCharacterField(request.body);
  if (found === undefined) return done();
  const detail =
    found.character === 'U+FFFD'
      ? `"${found.field}" holds bytes that are not UTF-8 (or U+FFFD, which stands for them). Send the text encoded as UTF-8.`
      : `"${found.field}" holds a control character (${found.character}), which no text here may hold. Remove it (pasting from another program can bring one in) and send again.`;
  done(Object.assign(new Error(detail), { statusCode: 422 }));
}

/**
 * A header kept for showing later (a session's User-Agent on the account page): control and
 * invisible characters removed, as a browser never sends them and a forged header must not
 * bring them onto a page or into the database.
 */
export function printableHeader(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const cleaned = value.replace(UNPRINTABLE, '').trim();
  return cleaned === '' ? undefined : cleaned;
}
