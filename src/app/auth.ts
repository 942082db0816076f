import { appError, type AppError } from '../core/errors.ts';
import { checkKeyFormat, hashApiKey } from '../core/keys.ts';
import { err, ok, type Result } from '../core/result.ts';
import type { CreditSummary, Tier } from '../ports/account-store.ts';
import type { ApiKeyRecord } from '../ports/credential-store.ts';
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
 * is announced), else in the store. When the key and the account's balance are both in memory
 * the answer comes at once, not as a promise (the hot path of every authenticated request);
 * either way `await` takes it.
 */
export function authenticate(
  deps: Pick<UseCaseDeps, 'accounts' | 'clock' | 'serverSecret'>,
  authorization: string | undefined,
  summaries?: SummaryCache,
  keys?: KeyCache,
): Result<Principal, AppError> | Promise<Result<Principal, AppError>> {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  if (!match) return err(appError('unauthorized', INVALID));
  const key = match[1]!;
  const format = checkKeyFormat(key);
  if (!format.ok) return err(appError('unauthorized', INVALID));
  const sandbox = format.value.kind === 'test';
  const keyHash = hashApiKey(key, deps.serverSecret);
  const record = keys?.remembered(keyHash);
  if (record !== undefined) {
    if (record.revokedAt !== null) return err(appError('unauthorized', INVALID));
    const nowMs = deps.clock.now().getTime();
    const credits = summaries?.get(record.accountId, nowMs);
    if (credits !== undefined) return ok(principalOf(record, credits, sandbox));
  }
  return authenticateFromStore(deps, keyHash, sandbox, summaries, keys);
}

/** authenticate() when the key or the balance has to be read (from the store, or a read under way). */
async function authenticateFromStore(
  deps: Pick<UseCaseDeps, 'accounts' | 'clock'>,
  keyHash: string,
  sandbox: boolean,
  summaries?: SummaryCache,
  keys?: KeyCache,
): Promise<Result<Principal, AppError>> {
  const record = await (keys ? keys.find(keyHash) : deps.accounts.findKeyByHash(keyHash));
  if (record === undefined || record.revokedAt !== null) return err(appError('unauthorized', INVALID));
  const now = deps.clock.now();
  let credits = summaries?.get(record.accountId, now.getTime());
  if (credits === undefined) {
    credits = await deps.accounts.credits(record.accountId, now);
    summaries?.set(record.accountId, credits, now.getTime());
  }
  return ok(principalOf(record, credits, sandbox));
}

const principalOf = (record: ApiKeyRecord, credits: CreditSummary, sandbox: boolean): Principal => ({ accountId: record.accountId, keyId: record.keyId, tier: credits.tier, sandbox, credits });

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
