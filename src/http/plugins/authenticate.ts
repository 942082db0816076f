import type { FastifyReply, FastifyRequest } from 'fastify';
import { accountRateKey, authenticate, failedAuthPolicy, keyPolicies, KeyUseRecorder, rateLimitedError } from '../../app/auth.ts';
import type { KeyCache } from '../../app/key-cache.ts';
import type { SummaryCache } from '../../app/summary-cache.ts';
import type { RateDecision, WindowPolicy } from '../../ports/rate-limiter.ts';
import { appError } from '../../core/errors.ts';
import { sendError } from '../errors.ts';
import { keyInRequestError, rawBodyCarriesKey } from './key-guard.ts';
import type { AppDeps } from '../types.ts';

/** Unauthenticated bodies up to this size are scanned (not parsed) for a key that was sent in them. */
const UNAUTHENTICATED_SCAN_BYTES = 64 * 1024;

/** IETF RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers): every window that applies to the key. */
export const policyHeader = (policies: readonly WindowPolicy[]): string =>
  policies.map((p) => `"${p.name}";q=${p.limit};w=${p.windowSeconds}`).join(', ');

/** IETF RateLimit: the window closest to refusing, its remaining quota and seconds until it frees up. */
export const rateLimitHeader = (d: RateDecision): string => `"${d.policy.name}";r=${Math.max(0, d.remaining)};t=${Math.max(0, d.resetSeconds)}`;

/** The body size a request declares, or undefined when it declares none (chunked or bodyless). */
function declaredBodyBytes(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  if (header === undefined) return undefined;
  const bytes = Number(header);
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : undefined;
}

/**
 * The one gate of every authenticated route, run on request (before the body is read):
 * a body declared larger than the route's limit is refused; the key is checked (invalid keys get
 * 401 and are not counted against any key, but failed attempts are limited per client address,
 * and a small body that carries a key gets docs/spec/decisions.md's 400); then the request is counted in
 * both windows of the key and the RateLimit headers are set on whatever follows. So a request
 * without a valid key costs no JSON parsing, and a flood of them is throttled first.
 */
export function authenticationHook(deps: AppDeps, summaries: SummaryCache, keys: KeyCache, log: { warn(fields: object, message: string): void }) {
  const keyUse = new KeyUseRecorder(deps.accounts, (error) => log.warn({ err: error }, 'could not note an API key\'s last use'));
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const limit = request.routeOptions.bodyLimit ?? 0;
    const declared = declaredBodyBytes(request);
    if (declared !== undefined && declared > limit) {
      reply.header('connection', 'close');
      return sendError(reply, appError('bad_request', `The request body is larger than this route's limit of ${limit.toLocaleString('en-AU')} bytes.`));
    }
    const principal = await authenticate(deps, request.headers.authorization, summaries, keys);
    const nowMs = deps.clock.now().getTime();
    if (!principal.ok) {
      const failures = await deps.limiter.hit(`auth-fail:${request.clientAddress}`, failedAuthPolicy(deps.config.rateLimits), nowMs);
      if (!failures.allowed) {
        reply.header('connection', 'close');
        return sendError(reply, rateLimitedError(failures, 'Too many requests with a missing or invalid API key from this address'));
      }
      if (await rawBodyCarriesKey(request.raw, Math.min(limit, UNAUTHENTICATED_SCAN_BYTES))) return sendError(reply, keyInRequestError());
      if (declared !== 0 && declared !== undefined) reply.header('connection', 'close');
      return sendError(reply, principal.error);
    }
    const policies = keyPolicies(deps.config.rateLimits, principal.value.tier, principal.value.keyId);
    const decision = await deps.limiter.hit(accountRateKey(principal.value.accountId), policies, nowMs);
    reply.header('ratelimit-policy', policyHeader(policies));
    reply.header('ratelimit', rateLimitHeader(decision));
    if (!decision.allowed) {
      return sendError(reply, rateLimitedError(decision, decision.policy.subKey === undefined ? 'Rate limit of this account (all its keys together) exceeded' : 'Rate limit of this API key exceeded'));
    }
    request.principal = principal.value;
    keyUse.record(principal.value.keyId, new Date(nowMs));
    return undefined;
  };
}

/** The caller of an authenticated route (the hook guarantees it; its absence is a bug). */
export function principalOf(request: FastifyRequest) {
  if (request.principal === null) throw new Error('route is not behind the authentication hook');
  return request.principal;
}
