import { durationInWords } from '../core/duration.ts';
import { appError, type AppError } from '../core/errors.ts';
import { checkKeyFormat, hashApiKey } from '../core/keys.ts';
import { err, ok, type Result } from '../core/result.ts';
import type { CreditSummary, Tier } from '../ports/account-store.ts';
import type { RateDecision, WindowPolicy } from '../ports/rate-limiter.ts';
import type { UseCaseDeps } from './deps.ts';
import type { KeyCache } from './key-cache.ts';
import type { SummaryCache } from './summary-cache.ts';

export interface Principal {
  readonly accountId: string;
  readonly keyId: string;
  readonly tier: Tier;
  /** "spq_test_" keys are sandbox keys (an extension). */
  readonly sandbox: boolean;
  /** Balance and tier when authenticated (from SummaryCache: up to its TTL old); only for the tier and advisory text. */
  readonly credits: CreditSummary;
}

/** The 401 body says what to do without saying which check failed (no oracle for guessed keys). */
const INVALID = 'Missing or invalid API key. Send it as "Authorization: Bearer <API_KEY>"; a revoked key no longer works.';

/**
 * Who is calling: the bearer key's shape and checksum are checked first (no database look-up
 * for a typo or a random string), then its keyed hash is looked up: in `keys` when given (held
 * in memory, a revoked key refused within its recheck interval and at once when the revocation
 * is announced), else in the store.
 */
export async function authenticate(
  deps: Pick<UseCaseDeps, 'accounts' | 'clock' | 'serverSecret'>,
  authorization: string | undefined,
  summaries?: SummaryCache,
  keys?: KeyCache,
): Promise<Result<Principal, AppError>> {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  if (!match) return err(appError('unauthorized', INVALID));
  const key = match[1]!;
  const format = checkKeyFormat(key);
  if (!format.ok) return err(appError('unauthorized', INVALID));
  const keyHash = hashApiKey(key, deps.serverSecret);
  const record = await (keys ? keys.find(keyHash) : deps.accounts.findKeyByHash(keyHash));
  if (record === undefined || record.revokedAt !== null) return err(appError('unauthorized', INVALID));
  const now = deps.clock.now();
  let credits = summaries?.get(record.accountId, now.getTime());
  if (credits === undefined) {
    credits = await deps.accounts.credits(record.accountId, now);
    summaries?.set(record.accountId, credits, now.getTime());
  }
  return ok({ accountId: record.accountId, keyId: record.keyId, tier: credits.tier, sandbox: format.value.kind === 'test', credits });
}

/**
 * Notes each key's last use for the account area ("last used"), writing at most once a minute per
 * key from this process and never holding up the request: the store call runs in the background.
 */
export class KeyUseRecorder {
  private readonly written = new Map<string, number>();
  constructor(private readonly store: Pick<UseCaseDeps['accounts'], 'recordKeyUse'>, private readonly onError: (error: unknown) => void) {}

  record(keyId: string, now: Date): void {
    const last = this.written.get(keyId);
    if (last !== undefined && now.getTime() - last < 60_000) return;
    this.written.set(keyId, now.getTime());
    if (this.written.size > 100_000) this.written.clear();
    this.store.recordKeyUse(keyId, now).catch(this.onError);
  }
}

/**
 * Both statements of decisions.md, "Rate limits": a sliding minute and a sliding hour by tier,
 * counted per account (hit under accountRateKey), so that every key of an account, and its
 * account-area pages, share one allowance: more keys never mean more requests.
 */
export function accountPolicies(limits: UseCaseDeps['config']['rateLimits'], tier: Tier): WindowPolicy[] {
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
export function keyPolicies(limits: UseCaseDeps['config']['rateLimits'], tier: Tier, keyId: string): WindowPolicy[] {
  const account = accountPolicies(limits, tier);
  return [...account, ...account.map((p) => ({ ...p, name: `key-${p.name}`, subKey: `key:${keyId}` }))];
}

export const failedAuthPolicy = (limits: UseCaseDeps['config']['rateLimits']): WindowPolicy[] => [
  { name: 'failed-auth', limit: limits.failedAuthPerMinute, windowSeconds: 60 },
];

export const downloadPolicy = (limits: UseCaseDeps['config']['rateLimits']): WindowPolicy[] => [
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
