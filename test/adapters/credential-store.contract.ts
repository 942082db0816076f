/**
 * The CredentialStore contract (accounts, API keys, the account area's holder settings, one-time
 * links, sessions): every implementation runs it, SQLite, PostgreSQL and the in-memory fake, through
 * account-store.contract.ts (test/adapters/db/*.test.ts), each on a database of its own.
 */
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, last4, newId } from '../../src/core/keys.ts';
import { nextFreeReset } from '../../src/core/ledger/weekly-reset.ts';
import type { Account } from '../../src/ports/account-store.ts';
import type { CredentialStore } from '../../src/ports/credential-store.ts';
import { at, HOUR, NOW, SECRET, suiteDatabase, uniqueEmail, type StoreHarness } from './store-contract-support.ts';

export function credentialStoreContract(name: string, harness: StoreHarness): void {
  describe(`CredentialStore contract (accounts, keys, sign-in): ${name}`, () => {
    const { store, newAccount, expectConsistent } = suiteDatabase(harness);
    describe('accounts', () => {
      it('are created, fetched and listed', async () => {
        const email = uniqueEmail();
        const account = await store.createAccount({ email, now: NOW });
        expect(account.accountId).toMatch(/^acc_[0-9A-Za-z]{20}$/);
        expect(await store.getAccount(account.accountId)).toEqual({ accountId: account.accountId, email, createdAt: NOW });
        expect(await store.getAccount(newId('acc'))).toBeUndefined();
        expect((await store.listAccounts()).map((a) => a.accountId)).toContain(account.accountId);
      });

      it('refuse a second account with the same email', async () => {
        const email = uniqueEmail();
        await store.createAccount({ email, now: NOW });
        await expect(store.createAccount({ email, now: NOW })).rejects.toThrow();
      });

      it('start free, with the week’s 5 credits and the next Monday reset', async () => {
        const account = await newAccount();
        const summary = await expectConsistent(account.accountId);
        expect(summary).toEqual({
          tier: 'free',
          creditsRemaining: 5,
          creditsPurchased: 0,
          creditsUsed: 0,
          freeCreditsRemaining: 5,
          freeCreditsReset: nextFreeReset(NOW),
        });
        expect(summary.freeCreditsReset?.toISOString()).toBe('2026-11-29T13:00:00.000Z');
      });
    });

    describe('API keys', () => {
      it('are stored by hash, found by hash, listed, and revoked once', async () => {
        const account = await newAccount();
        const key1 = generateApiKey('live');
        const key2 = generateApiKey('live');
        const rec1 = await store.addKey({ accountId: account.accountId, keyId: newId('key'), keyHash: hashApiKey(key1, SECRET), prefix: 'spq_live_', last4: last4(key1), now: NOW });
        const rec2 = await store.addKey({ accountId: account.accountId, keyId: newId('key'), keyHash: hashApiKey(key2, SECRET), prefix: 'spq_live_', last4: last4(key2), now: at(1000) });
        expect(rec1).toMatchObject({ accountId: account.accountId, prefix: 'spq_live_', last4: last4(key1), revokedAt: null, createdAt: NOW });

        expect(await store.findKeyByHash(hashApiKey(key1, SECRET))).toEqual(rec1);
        expect(await store.findKeyByHash(hashApiKey(key1, 'another-secret'))).toBeUndefined();
        expect(await store.listKeys(account.accountId)).toEqual([rec1, rec2]);

        // Rotation: both work until the old one is revoked; revocation is visible on the next look-up.
        expect(await store.revokeKey(rec1.keyId, at(2000))).toBe(true);
        expect(await store.revokeKey(rec1.keyId, at(3000))).toBe(false);
        expect(await store.revokeKey(newId('key'), at(3000))).toBe(false);
        expect((await store.findKeyByHash(hashApiKey(key1, SECRET)))?.revokedAt).toEqual(at(2000));
        expect((await store.findKeyByHash(hashApiKey(key2, SECRET)))?.revokedAt).toBeNull();
        expect((await store.listKeys(account.accountId)).map((k) => k.revokedAt)).toEqual([at(2000), null]);
      });

      it('carry the holder’s name; their last use is written at most once a minute', async () => {
        const account = await newAccount();
        const key = generateApiKey('live');
        const rec = await store.addKey({ accountId: account.accountId, keyId: newId('key'), keyHash: hashApiKey(key, SECRET), prefix: 'spq_live_', last4: last4(key), now: NOW, name: 'laptop' });
        expect(rec).toMatchObject({ name: 'laptop', lastUsedAt: null });
        await store.recordKeyUse(rec.keyId, at(1000));
        await store.recordKeyUse(rec.keyId, at(30_000)); // within the minute: not written
        expect((await store.listKeys(account.accountId))[0]).toMatchObject({ name: 'laptop', lastUsedAt: at(1000) });
        await store.recordKeyUse(rec.keyId, at(61_000));
        expect((await store.findKeyByHash(hashApiKey(key, SECRET)))?.lastUsedAt).toEqual(at(61_000));
        await store.recordKeyUse(newId('key'), at(61_000)); // an unknown key: nothing happens
      });

      it('never share a hash', async () => {
        const account = await newAccount();
        const keyHash = hashApiKey(generateApiKey('test'), SECRET);
        await store.addKey({ accountId: account.accountId, keyId: newId('key'), keyHash, prefix: 'spq_test_', last4: 'abcd', now: NOW });
        await expect(store.addKey({ accountId: account.accountId, keyId: newId('key'), keyHash, prefix: 'spq_test_', last4: 'abcd', now: NOW })).rejects.toThrow();
      });
    });

    describe('the account area', () => {
      it('finds an account by its email, and only that one', async () => {
        const account = await newAccount();
        expect(await store.findAccountByEmail(account.email)).toEqual(account);
        expect(await store.findAccountByEmail(`nobody-${account.email}`)).toBeUndefined();
      });

    });

    describe('sign-in records', () => {
      signInContractCases(() => store, newAccount);

      it('addKeyWithin: at most maxActive unrevoked keys, however many requests race; a revoked key frees its place', async () => {
        const account = await newAccount();
        const add = (i: number, maxActive = 3) =>
          store.addKeyWithin({ accountId: account.accountId, keyId: newId('key'), keyHash: hashApiKey(`spq_live_race_${account.accountId}_${i}_${Math.random()}`, SECRET), prefix: 'spq_live_', last4: 'abcd', now: at(i), maxActive });
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => add(i)));
        expect(results.filter((r) => r !== undefined)).toHaveLength(3);
        expect(await store.listKeys(account.accountId)).toHaveLength(3);
        expect(await add(20)).toBeUndefined();
        await store.revokeKey(results.find((r) => r !== undefined)!.keyId, at(30));
        expect(await add(40)).toMatchObject({ accountId: account.accountId, revokedAt: null });
        expect(await add(50)).toBeUndefined();
      });
    });
  });
}

function signInContractCases(storeOf: () => CredentialStore, createAccount: () => Promise<Account>): void {
  const newAccount = async () => (await createAccount()).accountId;
  it('a holder has no settings until a link is redeemed or a time zone chosen', async () => {
    const accountId = await newAccount();
    expect(await storeOf().holder(accountId)).toBeUndefined();
    await storeOf().setTimeZone({ accountId, timeZone: 'Australia/Perth', now: NOW });
    expect(await storeOf().holder(accountId)).toEqual({ passwordHash: null, timeZone: 'Australia/Perth' });
  });

  it('a one-time link works once, before it expires; redeeming sets the password, keeps the time zone, and ends every session and other link', async () => {
    const accountId = await newAccount();
    await storeOf().setTimeZone({ accountId, timeZone: 'Australia/Darwin', now: NOW });
    await storeOf().addOneTimeLink({ tokenHash: 'h-invite', accountId, purpose: 'invitation', now: NOW, expiresAt: at(HOUR) });
    await storeOf().addOneTimeLink({ tokenHash: 'h-reset', accountId, purpose: 'reset', now: NOW, expiresAt: at(HOUR) });
    await storeOf().createSession({ sessionId: newId('ses'), tokenHash: 's-before', accountId, now: NOW, expiresAt: at(12 * HOUR) });
    expect(await storeOf().oneTimeLinkAccount('h-invite', at(1000))).toBe(accountId);
    expect(await storeOf().oneTimeLinkAccount('h-invite', at(HOUR))).toBeUndefined(); // expired
    expect(await storeOf().oneTimeLinkAccount('h-unknown', at(1000))).toBeUndefined();

    expect(await storeOf().redeemOneTimeLink({ tokenHash: 'h-invite', passwordHash: 'scrypt$one', now: at(2000) })).toBe(accountId);
    expect(await storeOf().holder(accountId)).toEqual({ passwordHash: 'scrypt$one', timeZone: 'Australia/Darwin' });
    expect(await storeOf().redeemOneTimeLink({ tokenHash: 'h-invite', passwordHash: 'scrypt$two', now: at(3000) })).toBeUndefined();
    expect(await storeOf().redeemOneTimeLink({ tokenHash: 'h-reset', passwordHash: 'scrypt$two', now: at(3000) })).toBeUndefined();
    expect(await storeOf().findSession('s-before', at(3000), HOUR)).toBeUndefined();
    expect((await storeOf().holder(accountId))?.passwordHash).toBe('scrypt$one');
  });

  it('an expired link cannot be redeemed; concurrent redemptions of one link: exactly one wins', async () => {
    const accountId = await newAccount();
    await storeOf().addOneTimeLink({ tokenHash: 'h-old', accountId, purpose: 'reset', now: NOW, expiresAt: at(HOUR) });
    expect(await storeOf().redeemOneTimeLink({ tokenHash: 'h-old', passwordHash: 'x', now: at(HOUR) })).toBeUndefined();
    await storeOf().addOneTimeLink({ tokenHash: 'h-race', accountId, purpose: 'reset', now: NOW, expiresAt: at(HOUR) });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => storeOf().redeemOneTimeLink({ tokenHash: 'h-race', passwordHash: `p${i}`, now: at(1000) })));
    expect(results.filter((r) => r === accountId)).toHaveLength(1);
    expect(results.filter((r) => r === undefined)).toHaveLength(7);
  });

  it('sessions: found while live, idle or expired or revoked ones are not; revoking all is per account', async () => {
    const accountId = await newAccount();
    const other = await newAccount();
    const a = newId('ses');
    await storeOf().createSession({ sessionId: a, tokenHash: 's-a', accountId, now: NOW, expiresAt: at(12 * HOUR) });
    await storeOf().createSession({ sessionId: newId('ses'), tokenHash: 's-b', accountId, now: NOW, expiresAt: at(12 * HOUR) });
    await storeOf().createSession({ sessionId: newId('ses'), tokenHash: 's-other', accountId: other, now: NOW, expiresAt: at(12 * HOUR) });
    await expect(storeOf().createSession({ sessionId: newId('ses'), tokenHash: 's-a', accountId, now: NOW, expiresAt: at(HOUR) })).rejects.toThrow();

    expect(await storeOf().findSession('s-a', at(1000), 2 * HOUR)).toMatchObject({ sessionId: a, accountId, createdAt: NOW, expiresAt: at(12 * HOUR), lastSeenAt: NOW });
    expect(await storeOf().findSession('s-a', at(2 * HOUR), 2 * HOUR)).toBeUndefined(); // idle
    await storeOf().touchSession(a, at(HOUR));
    expect(await storeOf().findSession('s-a', at(2 * HOUR), 2 * HOUR)).toMatchObject({ lastSeenAt: at(HOUR) });
    expect(await storeOf().findSession('s-a', at(12 * HOUR), 100 * HOUR)).toBeUndefined(); // expired

    await storeOf().revokeSession(a, at(2000));
    expect(await storeOf().findSession('s-a', at(3000), HOUR)).toBeUndefined();
    expect(await storeOf().revokeSessions(accountId, at(3000))).toBe(1);
    expect(await storeOf().findSession('s-b', at(4000), HOUR)).toBeUndefined();
    expect(await storeOf().findSession('s-other', at(4000), HOUR)).toMatchObject({ accountId: other });
  });

  it('sessions keep the browser\'s User-Agent (cut to 200 characters) and are listed per account, live ones only, newest first', async () => {
    const accountId = await newAccount();
    const [old, recent, idle] = [newId('ses'), newId('ses'), newId('ses')];
    await storeOf().createSession({ sessionId: old, tokenHash: `l-${old}`, accountId, now: NOW, expiresAt: at(12 * HOUR), userAgent: 'Firefox/140' });
    await storeOf().createSession({ sessionId: recent, tokenHash: `l-${recent}`, accountId, now: at(1000), expiresAt: at(12 * HOUR), userAgent: 'x'.repeat(300) });
    await storeOf().createSession({ sessionId: idle, tokenHash: `l-${idle}`, accountId, now: at(-3 * HOUR), expiresAt: at(12 * HOUR) });
    await storeOf().createSession({ sessionId: newId('ses'), tokenHash: `l-other-${old}`, accountId: await newAccount(), now: NOW, expiresAt: at(12 * HOUR) });
    const listed = await storeOf().listSessions(accountId, at(2000), 2 * HOUR);
    expect(listed.map((x) => x.sessionId)).toEqual([recent, old]);
    expect(listed[0]!.userAgent).toBe('x'.repeat(200));
    expect(listed[1]).toEqual({ sessionId: old, accountId, createdAt: NOW, expiresAt: at(12 * HOUR), lastSeenAt: NOW, userAgent: 'Firefox/140' });
    expect((await storeOf().findSession(`l-${idle}`, at(2000), 4 * HOUR))?.userAgent).toBeNull();
    await storeOf().revokeSession(recent, at(3000));
    expect((await storeOf().listSessions(accountId, at(4000), 2 * HOUR)).map((x) => x.sessionId)).toEqual([old]);
  });

  it('a password change sets the hash, keeps the time zone and the session that made it, ends every other session and unused link', async () => {
    const accountId = await newAccount();
    await storeOf().setTimeZone({ accountId, timeZone: 'Australia/Hobart', now: NOW });
    const [mine, other] = [newId('ses'), newId('ses')];
    await storeOf().createSession({ sessionId: mine, tokenHash: `c-${mine}`, accountId, now: NOW, expiresAt: at(12 * HOUR) });
    await storeOf().createSession({ sessionId: other, tokenHash: `c-${other}`, accountId, now: NOW, expiresAt: at(12 * HOUR) });
    await storeOf().addOneTimeLink({ tokenHash: `c-link-${mine}`, accountId, purpose: 'reset', now: NOW, expiresAt: at(HOUR) });
    await storeOf().changePassword({ accountId, passwordHash: 'scrypt$new', keepSessionId: mine, now: at(1000) });
    expect(await storeOf().holder(accountId)).toEqual({ passwordHash: 'scrypt$new', timeZone: 'Australia/Hobart' });
    expect((await storeOf().listSessions(accountId, at(2000), HOUR)).map((x) => x.sessionId)).toEqual([mine]);
    expect(await storeOf().oneTimeLinkAccount(`c-link-${mine}`, at(2000))).toBeUndefined();
  });
}
