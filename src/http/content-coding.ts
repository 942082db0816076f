/**
 * Content-Encoding negotiated from Accept-Encoding (RFC 9110 §12.5.3), for the downloads (which
 * send a representation the file store compressed once, when the file was stored: zstd when the
 * client accepts it, else gzip, else the file itself) and the /docs page.
 */

/** Accept-Encoding's weights by coding name (lower case; x-gzip counts as gzip), "*" included. */
function weights(acceptEncoding: string): Map<string, number> {
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    const name = token?.trim() === 'x-gzip' ? 'gzip' : token?.trim();
    if (!name) continue;
    const weight = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p)).find((m) => m !== null);
    q.set(name, Math.max(q.get(name) ?? 0, weight ? Number(weight[1]) : 1));
  }
  return q;
}

/**
 * Every coding Accept-Encoding accepts among `offered`, the client's most wanted first (its
 * q-values; the server's order, `offered`'s, among equals): named with q > 0, or covered by "*".
 * A coding the client weighs below "identity", where it names it, is left out.
 */
export const acceptedCodings = <C extends string>(acceptEncoding: string | undefined, offered: readonly C[]): C[] => {
  if (acceptEncoding === undefined) return [];
  const q = weights(acceptEncoding);
  const weightOf = (coding: string): number => q.get(coding) ?? q.get('*') ?? 0;
  // Only a client that weighs "identity" itself ranks the file itself against the codings.
  const identity = q.get('identity') ?? 0;
  return offered
    .map((coding, order) => ({ coding, order, weight: weightOf(coding) }))
    .filter((c) => c.weight > 0 && c.weight >= identity)
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .map((c) => c.coding);
};

/** The coding a whole response is sent in: the first acceptedCodings gives; undefined for identity. */
export const preferredCoding = <C extends string>(acceptEncoding: string | undefined, offered: readonly C[]): C | undefined => acceptedCodings(acceptEncoding, offered)[0];
