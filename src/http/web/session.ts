import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfToken, csrfValid, sessionOf, type SignInDeps } from '../../app/web/sign-in.ts';
import type { WebSession } from '../../ports/credential-store.ts';

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends
 * it), Path=/account, and Secure with the __Host- prefix when the service is served over TLS
 * (SPQ_PUBLIC_BASE_URL https://…, e.g. behind a load balancer that terminates TLS).
 */
export function cookieName(secure: boolean): string {
  return secure ? '__Host-spq_session' : 'spq_session';
}

export const servedOverTls = (publicBaseUrl: string | undefined): boolean => publicBaseUrl?.startsWith('https://') ?? false;

export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  // __Host- cookies must have Path=/; the plain one is scoped to the account area.
  return `${cookieName(secure)}=${token}; Path=${secure ? '/' : '/console'}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export const clearedSessionCookie = (secure: boolean): string => sessionCookie('', 0, secure);

export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface WebContext {
  readonly session: WebSession;
  readonly csrf: string;
}

export async function currentSession(deps: Pick<SignInDeps, 'credentials' | 'clock' | 'config' | 'serverSecret'> & { readonly secure: boolean }, request: FastifyRequest): Promise<WebContext | undefined> {
  const session = await sessionOf(deps, cookieValue(request, cookieName(deps.secure)));
  return session && { session, csrf: csrfToken(deps.serverSecret, session) };
}

/** The origin this service is reached at: SPQ_PUBLIC_BASE_URL's, else the Host the browser used. */
function ownOrigin(request: FastifyRequest, publicBaseUrl: string | undefined): string {
  return publicBaseUrl ? new URL(publicBaseUrl).origin : `${request.protocol}://${request.headers.host ?? ''}`;
}

/**
 * A state change is accepted only from this site's own pages: the Origin (or, failing that, the
 * Referer) must be ours when the browser sends one, and signed-in forms must carry the session's
 * CSRF token. SameSite=Strict already keeps the cookie off cross-site requests; this is the second lock.
 */
export function sameOrigin(request: FastifyRequest, publicBaseUrl: string | undefined): boolean {
  const origin = request.headers.origin ?? (request.headers.referer ? safeOrigin(request.headers.referer) : undefined);
  return origin === undefined || origin === ownOrigin(request, publicBaseUrl);
}

const safeOrigin = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
};

export function csrfOk(serverSecret: string, context: WebContext, body: unknown): boolean {
  const sent = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)._csrf : undefined;
  return csrfValid(serverSecret, context.session, sent);
}

/** Headers of every account-area page: never cached, never framed, no referrer to other sites (one-time links carry tokens; same-origin keeps the Origin header our forms are checked by). */
export function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'")
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin');
}
