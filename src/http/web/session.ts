import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfToken, csrfValid, sessionOf, type SignInDeps } from '../../app/web/sign-in.ts';
import type { WebSession } from '../../ports/credential-store.ts';
import type { Config } from '../../config.ts';

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends
 * it), Path=/account, and Secure with the __Host- prefix when the service is served over TLS
 * (SPQ_PUBLIC_BASE_URL https://…, e.g. behind a load balancer that terminates TLS).
 */
export function cookieName(secure: boolean): string {
  return secure ? '__Host-spq_session' : 'spq_session';
}

export const servedOverTls = (publicBaseUrl: string | undefined): boolean => publicBaseUrl?.startsWith('https://') ?? false;

/** The Strict-Transport-Security value of every answer when served over TLS (a year). */
export const HSTS_VALUE = 'max-age=31536000';

export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  // __Host- cookies must have Path=/; the plain one is scoped to the account area.
  return `${cookieName(secure)}=${token}; Path=${secure ? '/' : '/console'}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export const clearedSessionCookie = (secure: boolean): string => sessionCookie('', 0, secure);

/** The known-browser cookie's name (sign-in.ts, knownBrowserToken): kept across sign-outs, a year long. */
export const knownBrowserCookieName = (secure: boolean): string => (secure ? '__Host-spq_browser' : 'spq_browser');

export function knownBrowserCookie(token: string, secure: boolean): string {
  return `${knownBrowserCookieName(secure)}=${token}; Path=${secure ? '/' : '/console'}; Max-Age=${365 * 86_400}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

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

/**
 * The origins this service is reached at: SPQ_PUBLIC_BASE_URL's; without it, the listen address
 * (a loopback one under each of its names: the demo on 127.0.0.1 opened as localhost), and none
 * when it listens on every interface (0.0.0.0, ::), where only the setting can say. Never the
 * Host header: a page served under another name (DNS rebinding, a proxy passing Host on) would
 * send an Origin that matches its own Host.
 */
export function ownOrigins(config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>): ReadonlySet<string> {
  if (config.publicBaseUrl) return new Set([new URL(config.publicBaseUrl).origin]);
  const host = config.host.toLowerCase();
  if (['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) return new Set(['127.0.0.1', 'localhost', '[::1]'].map((name) => `http://${name}:${config.port}`));
  if (['0.0.0.0', '::', '[::]', ''].includes(host)) return new Set();
  return new Set([`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${config.port}`]);
}

/**
 * A state change is accepted only from this site's own pages: the Origin (or, failing that, the
 * Referer) must be ours when the browser sends one, and signed-in forms must carry the session's
 * CSRF token. SameSite=Strict already keeps the cookie off cross-site requests; this is the second lock.
 */
export function sameOrigin(request: FastifyRequest, config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>): boolean {
  const origin = request.headers.origin ?? (request.headers.referer ? safeOrigin(request.headers.referer) : undefined);
  return origin === undefined || ownOrigins(config).has(origin);
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

/**
 * How long an account-area page refusing with 429 (a guess past its limit above all: a sign-in, a
 * current password, a reset request; also the query builder's and the buy form's rate limits)
 * waits before its answer. A waiting answer costs a timer, not work: a flood of refused guesses
 * that each came back at once would keep the event loop busy answering them (16 lanes of refusals
 * doubled every execute's time), while one that waits a second sends a request a second per lane.
 */
export const GUESS_TARPIT_MS = 1000;

export const guessTarpit = (error: { readonly code: string }): Promise<void> =>
  error.code === 'rate_limited' ? new Promise((resolve) => setTimeout(resolve, GUESS_TARPIT_MS)) : Promise.resolve();
