/**
 * The CredentialStore contract, run over SQLite, PostgreSQL and the in-memory fake
 * (test/adapters/db/credentials.test.ts). Accounts come from the AccountStore of the same database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/keys.ts';
import type { AccountStore } from '../../src/ports/account-store.ts';
import type { CredentialStore } from '../../src/ports/credential-store.ts';

export interface CredentialHarness {
  /** A fresh database: its account store (migrated) and its credential store; close() ends both. */
  open(): Promise<{ accounts: AccountStore; credentials: CredentialStore; close(): Promise<void> }>;
}

const NOW = new Date('2026-11-25T03:00:00Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);
const HOUR = 3_600_000;

export function credentialStoreContract(name: string, harness: CredentialHarness): void {
  describe(`CredentialStore contract: ${name}`, () => {
    let accounts: AccountStore;
    let store: CredentialStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ accounts, credentials: store, close } = await harness.open());
    });
    afterAll(async () => close());
    const newAccount = async () => (await accounts.createAccount({ email: `${newId('acc').toLowerCase()}@example.org`, now: NOW })).accountId;

    it('a holder has no settings until a link is redeemed or a time zone chosen', async () => {
      const accountId = await newAccount();
      expect(await store.holder(accountId)).toBeUndefined();
      await store.setTimeZone({ accountId, timeZone: 'Australia/Perth', now: NOW });
      expect(await store.holder(accountId)).toEqual({ passwordHash: null, timeZone: 'Australia/Perth' });
    });

    it('a one-time link works once, before it expires; redeeming sets the password, keeps the time zone, and ends every session and other link', async () => {
      const accountId = await newAccount();
      await store.setTimeZone({ accountId, timeZone: 'Australia/Darwin', now: NOW });
      await store.addOneTimeLink({ tokenHash: 'h-invite', accountId, purpose: 'invitation', now: NOW, expiresAt: at(HOUR) });
      await store.addOneTimeLink({ tokenHash: 'h-reset', accountId, purpose: 'reset', now: NOW, expiresAt: at(HOUR) });
      await store.createSession({ sessionId: newId('ses'), tokenHash: 's-before', accountId, now: NOW, expiresAt: at(12 * HOUR) });
      expect(await store.oneTimeLinkAccount('h-invite', at(1000))).toBe(accountId);
      expect(await store.oneTimeLinkAccount('h-invite', at(HOUR))).toBeUndefined(); // expired
      expect(await store.oneTimeLinkAccount('h-unknown', at(1000))).toBeUndefined();

      expect(await store.redeemOneTimeLink({ tokenHash: 'h-invite', passwordHash: 'scrypt$one', now: at(2000) })).toBe(accountId);
      expect(await store.holder(accountId)).toEqual({ passwordHash: 'scrypt$one', timeZone: 'Australia/Darwin' });
      expect(await store.redeemOneTimeLink({ tokenHash: 'h-invite', passwordHash: 'scrypt$two', now: at(3000) })).toBeUndefined();
      expect(await store.redeemOneTimeLink({ tokenHash: 'h-reset', passwordHash: 'scrypt$two', now: at(3000) })).toBeUndefined();
      expect(await store.findSession('s-before', at(3000), HOUR)).toBeUndefined();
      expect((await store.holder(accountId))?.passwordHash).toBe('scrypt$one');
    });

    it('an expired link cannot be redeemed; concurrent redemptions of one link: exactly one wins', async () => {
      const accountId = await newAccount();
      await store.addOneTimeLink({ tokenHash: 'h-old', accountId, purpose: 'reset', now: NOW, expiresAt: at(HOUR) });
      expect(await store.redeemOneTimeLink({ tokenHash: 'h-old', passwordHash: 'x', now: at(HOUR) })).toBeUndefined();
      await store.addOneTimeLink({ tokenHash: 'h-race', accountId, purpose: 'reset', now: NOW, expiresAt: at(HOUR) });
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => store.redeemOneTimeLink({ tokenHash: 'h-race', passwordHash: `p${i}`, now: at(1000) })));
      expect(results.filter((r) => r === accountId)).toHaveLength(1);
      expect(results.filter((r) => r === undefined)).toHaveLength(7);
    });

    it('sessions: found while live, idle or expired or revoked ones are not; revoking all is per account', async () => {
      const accountId = await newAccount();
      const other = await newAccount();
      const a = newId('ses');
      await store.createSession({ sessionId: a, tokenHash: 's-a', accountId, now: NOW, expiresAt: at(12 * HOUR) });
      await store.createSession({ sessionId: newId('ses'), tokenHash: 's-b', accountId, now: NOW, expiresAt: at(12 * HOUR) });
      await store.createSession({ sessionId: newId('ses'), tokenHash: 's-other', accountId: other, now: NOW, expiresAt: at(12 * HOUR) });
      await expect(store.createSession({ sessionId: newId('ses'), tokenHash: 's-a', accountId, now: NOW, expiresAt: at(HOUR) })).rejects.toThrow();

      expect(await store.findSession('s-a', at(1000), 2 * HOUR)).toMatchObject({ sessionId: a, accountId, createdAt: NOW, expiresAt: at(12 * HOUR), lastSeenAt: NOW });
      expect(await store.findSession('s-a', at(2 * HOUR), 2 * HOUR)).toBeUndefined(); // idle
      await store.touchSession(a, at(HOUR));
      expect(await store.findSession('s-a', at(2 * HOUR), 2 * HOUR)).toMatchObject({ lastSeenAt: at(HOUR) });
      expect(await store.findSession('s-a', at(12 * HOUR), 100 * HOUR)).toBeUndefined(); // expired

      await store.revokeSession(a, at(2000));
      expect(await store.findSession('s-a', at(3000), HOUR)).toBeUndefined();
      expect(await store.revokeSessions(accountId, at(3000))).toBe(1);
      expect(await store.findSession('s-b', at(4000), HOUR)).toBeUndefined();
      expect(await store.findSession('s-other', at(4000), HOUR)).toMatchObject({ accountId: other });
    });
  });
}
