import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, failedAuthPolicy, keyPolicies, rateLimitedError } from '../../app/auth.ts';
import type { SummaryCache } from '../../app/summary-cache.ts';
import type { RateDecision, WindowPolicy } from '../../ports/rate-limiter.ts';
import { sendError } from '../errors.ts';
import type { AppDeps } from '../types.ts';

/** IETF RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers): every window that applies to the key. */
export const policyHeader = (policies: readonly WindowPolicy[]): string =>
  policies.map((p) => `"${p.name}";q=${p.limit};w=${p.windowSeconds}`).join(', ');

/** IETF RateLimit: the window closest to refusing, its remaining quota and seconds until it frees up. */
export const rateLimitHeader = (d: RateDecision): string => `"${d.policy.name}";r=${Math.max(0, d.remaining)};t=${Math.max(0, d.resetSeconds)}`;

/**
 * preValidation hook of every authenticated route: authenticate (invalid keys get 401 and are
 * not counted against any key, but failed attempts are limited per client address), then count
 * the request in both windows of the key and set the RateLimit headers on whatever follows.
 */
export function authenticationHook(deps: AppDeps, summaries: SummaryCache) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const principal = await authenticate(deps, request.headers.authorization, summaries);
    const nowMs = deps.clock.now().getTime();
    if (!principal.ok) {
      const failures = await deps.limiter.hit(`auth-fail:${request.ip}`, failedAuthPolicy(deps.config.rateLimits), nowMs);
      if (!failures.allowed) {
        return sendError(reply, rateLimitedError(failures, 'Too many requests with a missing or invalid API key from this address'));
      }
      return sendError(reply, principal.error);
    }
    const policies = keyPolicies(deps.config.rateLimits, principal.value.tier);
    const decision = await deps.limiter.hit(`key:${principal.value.keyId}`, policies, nowMs);
    reply.header('ratelimit-policy', policyHeader(policies));
    reply.header('ratelimit', rateLimitHeader(decision));
    if (!decision.allowed) {
      return sendError(reply, rateLimitedError(decision, 'Rate limit of this API key exceeded'));
    }
    request.principal = principal.value;
    return undefined;
  };
}

/** The caller of an authenticated route (the hook guarantees it; its absence is a bug). */
export function principalOf(request: FastifyRequest) {
  if (request.principal === null) throw new Error('route is not behind the authentication hook');
  return request.principal;
}
