import { appError, type AppError } from '../core/errors.ts';
import { generateApiKey, hashApiKey, isId, KEY_PREFIXES, last4, newId, type KeyKind } from '../core/keys.ts';
import { err, ok, type Result } from '../core/result.ts';
import type { Account, AccountStore, ApiKeyRecord, CreditSummary, Tier } from '../ports/account-store.ts';
import type { Clock } from '../ports/clock.ts';
import type { KeyRevocations } from '../ports/key-revocations.ts';

/**
 * The operator's use cases: accounts, keys, grants and bundles (used by `spq admin …` and by
 * `spq serve` for the demo account). Input is validated here, so every failure a caller can
 * cause comes back as an AppError (bad_request or not_found) and nothing is changed.
 */
export interface AccountAdminDeps {
  readonly store: AccountStore;
  /** Keys the stored hashes (see adapters/db/server-secret.ts). */
  readonly serverSecret: string;
  readonly clock: Clock;
  /** Told of each revocation, so that instances holding the key in memory drop it at once. */
  readonly keyRevocations?: KeyRevocations;
}

/** What `--tier paid` gives a new account when no bundle size is named. */
export const DEFAULT_PAID_BUNDLE = { credits: 100, days: 30 } as const;
/** Upper bounds that keep every balance far inside a 32-bit integer column. */
export const MAX_CREDITS_PER_OPERATION = 100_000_000;
export const MAX_BUNDLE_DAYS = 3660;

export interface NewKey {
  /** The full key: shown once, never stored. */
  readonly apiKey: string;
  readonly key: ApiKeyRecord;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normaliseEmail(email: string): Result<string, AppError> {
  const normal = email.trim().toLowerCase();
  if (!EMAIL.test(normal) || normal.length > 254) return err(appError('bad_request', `"${email}" is not an email address`));
  return ok(normal);
}

function wholeNumber(value: number, what: string, min: number, max: number): Result<number, AppError> {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    return err(appError('bad_request', `${what} must be a whole number from ${min} to ${max}, got ${value}`));
  }
  return ok(value);
}

async function existingAccount(store: AccountStore, accountId: string): Promise<Result<Account, AppError>> {
  if (!isId('acc', accountId)) return err(appError('bad_request', `"${accountId}" is not an account id (acc_ followed by 20 letters and digits)`));
  const account = await store.getAccount(accountId);
  return account ? ok(account) : err(appError('not_found', `no account ${accountId}`));
}

/** Generates a key, stores its keyed hash, and returns it once (undefined: the account already holds maxActive keys). */
export async function issueKey(deps: AccountAdminDeps, accountId: string, kind: KeyKind, name?: string): Promise<NewKey>;
export async function issueKey(deps: AccountAdminDeps, accountId: string, kind: KeyKind, name: string, maxActive: number): Promise<NewKey | undefined>;
export async function issueKey(deps: AccountAdminDeps, accountId: string, kind: KeyKind, name?: string, maxActive?: number): Promise<NewKey | undefined> {
  const apiKey = generateApiKey(kind);
  const input = {
    ...(name !== undefined ? { name } : {}),
    accountId,
    keyId: newId('key'),
    keyHash: hashApiKey(apiKey, deps.serverSecret),
    prefix: KEY_PREFIXES[kind],
    last4: last4(apiKey),
    now: deps.clock.now(),
  };
  const key = maxActive === undefined ? await deps.store.addKey(input) : await deps.store.addKeyWithin({ ...input, maxActive });
  return key && { apiKey, key };
}

export async function createAccountWithKey(
  deps: AccountAdminDeps,
  input: { readonly email: string; readonly tier?: Tier; readonly bundle?: { readonly credits: number; readonly days: number } },
): Promise<Result<{ readonly account: Account } & NewKey, AppError>> {
  const email = normaliseEmail(input.email);
  if (!email.ok) return email;
  if (input.bundle && input.tier !== 'paid') return err(appError('bad_request', 'a bundle size only applies with tier paid'));
  const bundle = input.tier === 'paid' ? (input.bundle ?? DEFAULT_PAID_BUNDLE) : undefined;
  if (bundle) {
    const checks = [
      wholeNumber(bundle.credits, 'bundle credits', 0, MAX_CREDITS_PER_OPERATION),
      wholeNumber(bundle.days, 'bundle days', 1, MAX_BUNDLE_DAYS),
    ];
    for (const check of checks) if (!check.ok) return check;
  }
  // Emails are unique: checked here for a clear message (the database's unique index backs it up).
  const taken = (await deps.store.listAccounts()).some((a) => a.email === email.value);
  if (taken) return err(appError('bad_request', `an account with email ${email.value} already exists`));

  const account = await deps.store.createAccount({ email: email.value, now: deps.clock.now() });
  if (bundle) await deps.store.addBundle({ accountId: account.accountId, credits: bundle.credits, days: bundle.days, now: deps.clock.now() });
  const key = await issueKey(deps, account.accountId, 'live');
  return ok({ account, ...key });
}

export async function createKey(deps: AccountAdminDeps, input: { readonly accountId: string; readonly kind?: KeyKind }): Promise<Result<NewKey, AppError>> {
  const account = await existingAccount(deps.store, input.accountId);
  if (!account.ok) return account;
  return ok(await issueKey(deps, input.accountId, input.kind ?? 'live'));
}

export async function listKeys(deps: AccountAdminDeps, accountId: string): Promise<Result<readonly ApiKeyRecord[], AppError>> {
  const account = await existingAccount(deps.store, accountId);
  if (!account.ok) return account;
  return ok(await deps.store.listKeys(accountId));
}

export async function revokeKey(deps: AccountAdminDeps, keyId: string): Promise<Result<void, AppError>> {
  if (!isId('key', keyId)) return err(appError('bad_request', `"${keyId}" is not a key id (key_ followed by 20 letters and digits)`));
  const revoked = await deps.store.revokeKey(keyId, deps.clock.now());
  if (revoked) await deps.keyRevocations?.announce(keyId);
  return revoked ? ok(undefined) : err(appError('not_found', `no active key ${keyId} (unknown, or already revoked)`));
}

export async function grantCredits(
  deps: AccountAdminDeps,
  input: { readonly accountId: string; readonly credits: number; readonly note?: string },
): Promise<Result<CreditSummary, AppError>> {
  const credits = wholeNumber(input.credits, 'credits', 1, MAX_CREDITS_PER_OPERATION);
  if (!credits.ok) return credits;
  const account = await existingAccount(deps.store, input.accountId);
  if (!account.ok) return account;
  const now = deps.clock.now();
  await deps.store.grantCredits({ accountId: input.accountId, credits: credits.value, now, ...(input.note ? { note: input.note } : {}) });
  return ok(await deps.store.credits(input.accountId, now));
}

export async function addBundle(
  deps: AccountAdminDeps,
  input: { readonly accountId: string; readonly credits: number; readonly days: number },
): Promise<Result<CreditSummary, AppError>> {
  const credits = wholeNumber(input.credits, 'credits', 0, MAX_CREDITS_PER_OPERATION);
  if (!credits.ok) return credits;
  const days = wholeNumber(input.days, 'days', 1, MAX_BUNDLE_DAYS);
  if (!days.ok) return days;
  const account = await existingAccount(deps.store, input.accountId);
  if (!account.ok) return account;
  const now = deps.clock.now();
  await deps.store.addBundle({ accountId: input.accountId, credits: credits.value, days: days.value, now });
  return ok(await deps.store.credits(input.accountId, now));
}
