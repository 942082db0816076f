/**
 * The sign-in part of the CredentialStore contract (holder settings, one-time links, sessions),
 * run inside the store's contract (account-store.contract.ts) over SQLite, PostgreSQL and the
 * in-memory fake.
 */
import { expect, it } from 'vitest';
import { newId } from '../../src/core/keys.ts';
import type { Account } from '../../src/ports/account-store.ts';
import type { CredentialStore } from '../../src/ports/credential-store.ts';

const NOW = new Date('2026-11-25T03:00:00Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);
const HOUR = 3_600_000;

export function signInContractCases(storeOf: () => CredentialStore, createAccount: () => Promise<Account>): void {
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
