/**
 * Content-Encoding negotiated from Accept-Encoding (RFC 9110 §12.5.3), for the downloads (which
 * send a representation the file store compressed once, when the file was stored: zstd when the
 * client accepts it, else gzip, else the file itself) and the /docs page.
 */

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

/**
 * Every coding Accept-Encoding accepts among `offered`, in the server's order of preference:
 * a download sends the first of them whose representation the store holds.
 */
export const acceptedCodings = <C extends string>(acceptEncoding: string | undefined, offered: readonly C[]): C[] => {
  const first = preferredCoding(acceptEncoding, offered);
  return first === undefined ? [] : [first, ...acceptedCodings(acceptEncoding, offered.slice(offered.indexOf(first) + 1))];
};
