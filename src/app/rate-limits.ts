import { durationInWords } from '../core/duration.ts';
import { appError, type AppError } from '../core/errors.ts';
import type { Tier } from '../ports/account-store.ts';
import type { RateDecision, WindowPolicy } from '../ports/rate-limiter.ts';
import type { UseCaseDeps } from './deps.ts';

/**
 * The service's rate-limit policy (docs/spec/decisions.md, "Rate limits"): which windows count a request,
 * under which key, and the 429 a refusal becomes. The counting itself is the RateLimiter port's.
 */

type RateLimits = UseCaseDeps['config']['rateLimits'];

/**
 * Both statements of docs/spec/decisions.md, "Rate limits": a sliding minute and a sliding hour by tier,
 * counted per account (hit under accountRateKey), so that every key of an account, and its
 * account-area pages, share one allowance: more keys never mean more requests.
 */
export function accountPolicies(limits: RateLimits, tier: Tier): WindowPolicy[] {
  return [
    { name: 'minute', limit: limits.perMinute, windowSeconds: limits.minuteWindowSeconds },
    { name: tier === 'paid' ? 'hour-paid' : 'hour-free', limit: tier === 'paid' ? limits.paidPerHour : limits.freePerHour, windowSeconds: limits.hourWindowSeconds },
  ];
}

export const accountRateKey = (accountId: string): string => `account:${accountId}`;

/**
 * An API request's windows: the account's, and the same limits once more for the key alone (its
 * own logs under the account's, checked in the same atomic hit), so a key's count is its own too.
 */
export function keyPolicies(limits: RateLimits, tier: Tier, keyId: string): WindowPolicy[] {
  const account = accountPolicies(limits, tier);
  return [...account, ...account.map((p) => ({ ...p, name: `key-${p.name}`, subKey: `key:${keyId}` }))];
}

export const failedAuthPolicy = (limits: RateLimits): WindowPolicy[] => [
  { name: 'failed-auth', limit: limits.failedAuthPerMinute, windowSeconds: 60 },
];

export const downloadPolicy = (limits: RateLimits): WindowPolicy[] => [
  { name: 'downloads', limit: limits.downloadsPerMinute, windowSeconds: 60 },
];

export function rateLimitedError(decision: RateDecision, what: string): AppError {
  const seconds = Math.max(1, decision.resetSeconds);
  return appError(
    'rate_limited',
    `${what}: at most ${decision.policy.limit} requests per ${decision.policy.windowSeconds} seconds (${decision.policy.name}). Retry after ${durationInWords(seconds)}.`,
    { retry_after_seconds: seconds },
  );
}
