import { appError, type AppError } from '../../core/errors.ts';
import { isId } from '../../core/keys.ts';
import { err, ok, type Result } from '../../core/result.ts';
import type { ApiKeyRecord, Bundle, CreditSummary, LedgerEntry, Page } from '../../ports/account-store.ts';
import { DEFAULT_TIME_ZONE } from '../../ports/credential-store.ts';
import type { Config } from '../../config.ts';
import type { RateLimiter } from '../../ports/rate-limiter.ts';
import { issueKey, type AccountAdminDeps, type NewKey } from '../accounts.ts';

/**
 * What an account holder does to their own account from the account area: keys (named, shown
 * once, revoked), the balance with its bundles and ledger, and the time zone the pages use.
 * Every action is checked against the signed-in account: another holder's key is "not found".
 */
export type HolderDeps = AccountAdminDeps;

export const KEY_NAME_MAX = 60;

/**
 * A holder's new key, within the holder's limits: at most SPQ_MAX_KEYS_PER_ACCOUNT unrevoked keys
 * (checked in the store's transaction, so racing forms cannot pass it together) and at most
 * SPQ_KEY_CREATIONS_PER_HOUR created, so minting and revoking keys cannot churn either.
 */
export async function createOwnKey(
  deps: HolderDeps & { readonly limiter: RateLimiter; readonly limits: Config['holderLimits'] },
  input: { readonly accountId: string; readonly name: string; readonly sandbox: boolean },
): Promise<Result<NewKey, AppError>> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > KEY_NAME_MAX || /[\p{Cc}]/u.test(name)) {
    return err(appError('validation_error', `Name the key in 1 to ${KEY_NAME_MAX} characters (e.g. "laptop" or "analysis server"), so you can tell keys apart later.`));
  }
  const tooMany = appError('validation_error', `An account holds at most ${deps.limits.maxActiveKeys} active keys. Revoke one you no longer use, then create the new one.`);
  const active = (await deps.store.listKeys(input.accountId)).filter((k) => k.revokedAt === null).length;
  if (active >= deps.limits.maxActiveKeys) return err(tooMany);
  const rate = await deps.limiter.hit(`key-create:${input.accountId}`, [{ name: 'key-creations', limit: deps.limits.keyCreationsPerHour, windowSeconds: 3600 }], deps.clock.now().getTime());
  if (!rate.allowed) {
    const seconds = Math.max(1, rate.resetSeconds);
    return err(appError('rate_limited', `At most ${deps.limits.keyCreationsPerHour} keys can be created per hour. Try again in ${Math.ceil(seconds / 60)} minutes.`, { retry_after_seconds: seconds }));
  }
  const created = await issueKey(deps, input.accountId, input.sandbox ? 'test' : 'live', name, deps.limits.maxActiveKeys);
  return created === undefined ? err(tooMany) : ok(created);
}

export async function ownKey(deps: Pick<HolderDeps, 'store'>, accountId: string, keyId: string): Promise<Result<ApiKeyRecord, AppError>> {
  const notFound = appError('not_found', 'No such active key in your account. It may have been revoked already.');
  if (!isId('key', keyId)) return err(notFound);
  const key = (await deps.store.listKeys(accountId)).find((k) => k.keyId === keyId);
  return key === undefined || key.revokedAt !== null ? err(notFound) : ok(key);
}

export async function revokeOwnKey(deps: HolderDeps, input: { readonly accountId: string; readonly keyId: string }): Promise<Result<ApiKeyRecord, AppError>> {
  const key = await ownKey(deps, input.accountId, input.keyId);
  if (!key.ok) return key;
  await revokeAndAnnounce(deps, key.value.keyId);
  return key;
}

/** Revokes a key and, when this call revoked it, tells every instance (KeyRevocations); whether it did. */
async function revokeAndAnnounce(deps: HolderDeps, keyId: string): Promise<boolean> {
  if (!(await deps.store.revokeKey(keyId, deps.clock.now()))) return false;
  await deps.keyRevocations?.announce(keyId);
  return true;
}

/**
 * Every active key of the account revoked at once (the holder's choice when a password was reset
 * or every browser signed out: a key is made for a program, so neither revokes keys by itself;
 * docs/api.md, "Keys, passwords and sessions"). Returns how many were revoked.
 */
export async function revokeEveryKey(deps: HolderDeps, accountId: string): Promise<number> {
  let revoked = 0;
  for (const key of await deps.store.listKeys(accountId)) if (key.revokedAt === null && (await revokeAndAnnounce(deps, key.keyId))) revoked += 1;
  return revoked;
}

export interface CreditsOverview {
  readonly summary: CreditSummary;
  readonly bundles: readonly Bundle[];
  readonly ledger: Page<LedgerEntry>;
  /** The balance just after each entry of `ledger.items` (free and bought together), same order. */
  readonly balanceAfter: readonly number[];
}

const movement = (e: LedgerEntry): number => e.freeCredits + e.purchasedCredits;

export async function creditsOverview(deps: Pick<HolderDeps, 'store' | 'clock'>, accountId: string, page: number, perPage: number): Promise<CreditsOverview> {
  const [summary, bundles, ledger, total, newer] = await Promise.all([
    deps.store.credits(accountId, deps.clock.now()),
    deps.store.bundles(accountId),
    deps.store.ledger({ accountId, page, perPage }),
    deps.store.ledgerBalance(accountId),
    // The entries on the pages before this one: the balance after this page's newest entry is the
    // ledger's sum less theirs. Deep pages read more, but holders rarely go past the first few.
    page > 1 ? deps.store.ledger({ accountId, page: 1, perPage: (page - 1) * perPage }) : undefined,
  ]);
  let after = total - (newer?.items.reduce((sum, e) => sum + movement(e), 0) ?? 0);
  const balanceAfter = ledger.items.map((e) => {
    const balance = after;
    after -= movement(e);
    return balance;
  });
  return { summary, bundles, ledger, balanceAfter };
}

export async function timeZoneOf(deps: Pick<HolderDeps, 'store'>, accountId: string): Promise<string> {
  return (await deps.store.holder(accountId))?.timeZone ?? DEFAULT_TIME_ZONE;
}

export const TIME_ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');

export async function setTimeZone(deps: HolderDeps, input: { readonly accountId: string; readonly timeZone: string }): Promise<Result<string, AppError>> {
  if (!TIME_ZONES.includes(input.timeZone)) return err(appError('validation_error', `"${input.timeZone}" is not a time zone; choose one from the list (e.g. Australia/Melbourne).`));
  await deps.store.setTimeZone({ accountId: input.accountId, timeZone: input.timeZone, now: deps.clock.now() });
  return ok(input.timeZone);
}
