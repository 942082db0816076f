import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * C0 controls but tab, line feed and carriage return; DEL; C1 controls. PostgreSQL refuses NUL in
 * text outright, and none of the others belongs in an email, a name, a place or a search term.
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** The first field (as a path: geography_selections[0]) whose text holds a control character, and that character. */
export function controlCharacterField(value: unknown, path = '', depth = 0): { readonly field: string; readonly character: string } | undefined {
  if (typeof value === 'string') {
    const found = CONTROL.exec(value);
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
  const detail = `"${found.field}" holds a control character (${found.character}), which no text here may hold. Remove it (pasting from another program can bring one in) and send again.`;
  done(Object.assign(new Error(detail), { statusCode: 422 }));
}
