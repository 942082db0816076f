import { appError, type AppError } from '../../core/errors.ts';
import { isId } from '../../core/keys.ts';
import { err, ok, type Result } from '../../core/result.ts';
import type { ApiKeyRecord, Bundle, CreditSummary, LedgerEntry, Page } from '../../ports/account-store.ts';
import { DEFAULT_TIME_ZONE } from '../../ports/credential-store.ts';
import { issueKey, type AccountAdminDeps, type NewKey } from '../accounts.ts';

/**
 * What an account holder does to their own account from the account area: keys (named, shown
 * once, revoked), the balance with its bundles and ledger, and the time zone the pages use.
 * Every action is checked against the signed-in account: another holder's key is "not found".
 */
export type HolderDeps = AccountAdminDeps;

export const KEY_NAME_MAX = 60;

export async function createOwnKey(deps: HolderDeps, input: { readonly accountId: string; readonly name: string; readonly sandbox: boolean }): Promise<Result<NewKey, AppError>> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > KEY_NAME_MAX || /[\p{Cc}]/u.test(name)) {
    return err(appError('validation_error', `Name the key in 1 to ${KEY_NAME_MAX} characters (e.g. "laptop" or "analysis server"), so you can tell keys apart later.`));
  }
  return ok(await issueKey(deps, input.accountId, input.sandbox ? 'test' : 'live', name));
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
  await deps.store.revokeKey(key.value.keyId, deps.clock.now());
  return key;
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
