import { addressSubject } from '../../core/address-subject.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, KeyUseRecorder, type Principal } from '../../app/auth.ts';
import { accountRateKey, failedAuthPolicy, keyPolicies, rateLimitedError } from '../../app/rate-limits.ts';
import type { KeyCache } from '../../app/key-cache.ts';
import type { SummaryCache } from '../../app/summary-cache.ts';
import type { RateDecision, WindowPolicy } from '../../ports/rate-limiter.ts';
import { appError, type AppError } from '../../core/errors.ts';
import type { Result } from '../../core/result.ts';
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
 * Callback style, and without a promise when the key, the balance and the limiter's count are
 * all in this process (the usual case): every await would cost each request a microtask turn.
 */
export function authenticationHook(deps: AppDeps, summaries: SummaryCache, keys: KeyCache, log: { warn(fields: object, message: string): void }) {
  const keyUse = new KeyUseRecorder(deps.accounts, (error) => log.warn({ err: error }, 'could not note an API key\'s last use'));
  const policiesOf = keyPolicyMemo(deps.config.rateLimits);

  /** A valid key's request, counted in its windows: let through, or refused with 429. */
  function admit(request: FastifyRequest, reply: FastifyReply, principal: Principal, nowMs: number, decision: RateDecision, done: (error?: Error) => void): void {
    const { header } = policiesOf(principal);
    reply.header('ratelimit-policy', header);
    reply.header('ratelimit', rateLimitHeader(decision));
    if (!decision.allowed) {
      sendError(reply, rateLimitedError(decision, decision.policy.subKey === undefined ? 'Rate limit of this account (all its keys together) exceeded' : 'Rate limit of this API key exceeded'));
      return;
    }
    request.principal = principal;
    keyUse.record(principal.keyId, new Date(nowMs));
    done();
  }

  /** A request with a valid key: counted at once by an in-process limiter, else after its round trip. */
  function count(request: FastifyRequest, reply: FastifyReply, principal: Principal, done: (error?: Error) => void): void {
    const nowMs = deps.clock.now().getTime();
    const { policies } = policiesOf(principal);
    const rateKey = accountRateKey(principal.accountId);
    if (deps.limiter.hitNow !== undefined) return admit(request, reply, principal, nowMs, deps.limiter.hitNow(rateKey, policies, nowMs), done);
    deps.limiter.hit(rateKey, policies, nowMs).then(afterWait(done, (decision) => admit(request, reply, principal, nowMs, decision, done)), done);
  }

  /** A missing or invalid key: limited per client address, then 400 (key in the body) or 401. */
  async function refuse(request: FastifyRequest, reply: FastifyReply, error: AppError, declared: number | undefined, limit: number): Promise<void> {
    const failures = await deps.limiter.hit(`auth-fail:${addressSubject(request.clientAddress)}`, failedAuthPolicy(deps.config.rateLimits), deps.clock.now().getTime());
    if (!failures.allowed) {
      reply.header('connection', 'close');
      sendError(reply, rateLimitedError(failures, 'Too many requests with a missing or invalid API key from this address'));
      return;
    }
    if (await rawBodyCarriesKey(request.raw, Math.min(limit, UNAUTHENTICATED_SCAN_BYTES))) {
      sendError(reply, keyInRequestError());
      return;
    }
    if (declared !== 0 && declared !== undefined) reply.header('connection', 'close');
    sendError(reply, error);
  }

  /** The key checked: a valid one is counted, an invalid one refused. */
  function decide(request: FastifyRequest, reply: FastifyReply, principal: Result<Principal, AppError>, declared: number | undefined, done: (error?: Error) => void): void {
    if (principal.ok) return count(request, reply, principal.value, done);
    refuse(request, reply, principal.error, declared, request.routeOptions.bodyLimit ?? 0).catch(done);
  }

  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    const limit = request.routeOptions.bodyLimit ?? 0;
    const declared = declaredBodyBytes(request);
    if (declared !== undefined && declared > limit) {
      reply.header('connection', 'close');
      sendError(reply, appError('bad_request', `The request body is larger than this route's limit of ${limit.toLocaleString('en-AU')} bytes.`));
      return;
    }
    const principal = authenticate(deps, request.headers.authorization, summaries, keys);
    if (!(principal instanceof Promise)) return decide(request, reply, principal, declared, done);
    principal.then(afterWait(done, (checked) => decide(request, reply, checked, declared, done)), done);
  };
}

/** A step after a wait (a store read, a limiter's round trip): a throw in it answers 500 through done, as an async hook's would. */
const afterWait =
  <T>(done: (error?: Error) => void, step: (value: T) => void) =>
  (value: T): void => {
    try {
      step(value);
    } catch (error) {
      done(error as Error);
    }
  };

/**
 * Each key's windows and their RateLimit-Policy header, made once per key and tier instead of on
 * every request (the limits are fixed for the process).
 */
function keyPolicyMemo(limits: AppDeps['config']['rateLimits']): (principal: Principal) => { readonly policies: WindowPolicy[]; readonly header: string } {
  const made = new Map<string, { readonly policies: WindowPolicy[]; readonly header: string }>();
  return (principal) => {
    const name = `${principal.tier}\u0000${principal.keyId}`;
    let entry = made.get(name);
    if (entry === undefined) {
      const policies = keyPolicies(limits, principal.tier, principal.keyId);
      entry = { policies, header: policyHeader(policies) };
      if (made.size >= 100_000) made.clear();
      made.set(name, entry);
    }
    return entry;
  };
}

/** The caller of an authenticated route (the hook guarantees it; its absence is a bug). */
export function principalOf(request: FastifyRequest) {
  if (request.principal === null) throw new Error('route is not behind the authentication hook');
  return request.principal;
}
