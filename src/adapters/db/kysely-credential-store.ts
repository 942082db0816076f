import { DEFAULT_TIME_ZONE, type CredentialStore } from '../../ports/credential-store.ts';
import type { StoreDriver } from './kysely-account-store.ts';

/** The CredentialStore over Kysely, on the AccountStore's database (same driver, same transactions). */
export function createKyselyCredentialStore(driver: StoreDriver): CredentialStore {
  const { db } = driver;
  return {
    async holder(accountId) {
      const row = await db.selectFrom('web_credentials').selectAll().where('account_id', '=', accountId).executeTakeFirst();
      return row && { passwordHash: row.password_hash, timeZone: row.time_zone };
    },

    async setTimeZone({ accountId, timeZone, now }) {
      await driver.write(
        (trx) =>
          trx
            .insertInto('web_credentials')
            .values({ account_id: accountId, password_hash: null, time_zone: timeZone, updated_at: now.getTime() })
            .onConflict((oc) => oc.column('account_id').doUpdateSet({ time_zone: timeZone, updated_at: now.getTime() }))
            .execute(),
        { retrySafe: true },
      );
    },

    async addOneTimeLink({ tokenHash, accountId, purpose, now, expiresAt }) {
      await driver.write(
        (trx) =>
          trx
            .insertInto('web_tokens')
            .values({ token_hash: tokenHash, account_id: accountId, purpose, created_at: now.getTime(), expires_at: expiresAt.getTime(), used_at: null })
            .execute(),
        { retrySafe: false },
      );
    },

    async oneTimeLinkAccount(tokenHash, now) {
      const row = await db
        .selectFrom('web_tokens')
        .select('account_id')
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now.getTime())
        .executeTakeFirst();
      return row?.account_id;
    },

    async redeemOneTimeLink({ tokenHash, passwordHash, now }) {
      const ms = now.getTime();
      return driver.write(async (trx) => {
        // The conditional update is the claim: of two concurrent redemptions, one updates the row.
        const claimed = await trx
          .updateTable('web_tokens')
          .set({ used_at: ms })
          .where('token_hash', '=', tokenHash)
          .where('used_at', 'is', null)
          .where('expires_at', '>', ms)
          .returning('account_id')
          .executeTakeFirst();
        if (claimed === undefined) return undefined;
        const accountId = claimed.account_id;
        await trx
          .insertInto('web_credentials')
          .values({ account_id: accountId, password_hash: passwordHash, time_zone: DEFAULT_TIME_ZONE, updated_at: ms })
          .onConflict((oc) => oc.column('account_id').doUpdateSet({ password_hash: passwordHash, updated_at: ms }))
          .execute();
        await trx.updateTable('web_sessions').set({ revoked_at: ms }).where('account_id', '=', accountId).where('revoked_at', 'is', null).execute();
        // Any other unused link of the account dies with it: a reset link outlives no password change.
        await trx.updateTable('web_tokens').set({ used_at: ms }).where('account_id', '=', accountId).where('used_at', 'is', null).execute();
        return accountId;
      }, { retrySafe: false });
    },

    async createSession({ sessionId, tokenHash, accountId, now, expiresAt }) {
      await driver.write(
        (trx) =>
          trx
            .insertInto('web_sessions')
            .values({ session_id: sessionId, token_hash: tokenHash, account_id: accountId, created_at: now.getTime(), expires_at: expiresAt.getTime(), last_seen_at: now.getTime(), revoked_at: null })
            .execute(),
        { retrySafe: false },
      );
    },

    async findSession(tokenHash, now, idleMs) {
      const ms = now.getTime();
      const row = await db
        .selectFrom('web_sessions')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', ms)
        .where('last_seen_at', '>', ms - idleMs)
        .executeTakeFirst();
      return (
        row && {
          sessionId: row.session_id,
          accountId: row.account_id,
          createdAt: new Date(row.created_at),
          expiresAt: new Date(row.expires_at),
          lastSeenAt: new Date(row.last_seen_at),
        }
      );
    },

    async touchSession(sessionId, now) {
      await driver.write((trx) => trx.updateTable('web_sessions').set({ last_seen_at: now.getTime() }).where('session_id', '=', sessionId).execute(), { retrySafe: true });
    },

    async revokeSession(sessionId, now) {
      await driver.write(
        (trx) => trx.updateTable('web_sessions').set({ revoked_at: now.getTime() }).where('session_id', '=', sessionId).where('revoked_at', 'is', null).execute(),
        { retrySafe: true },
      );
    },

    async revokeSessions(accountId, now) {
      const result = await driver.write(
        (trx) =>
          trx
            .updateTable('web_sessions')
            .set({ revoked_at: now.getTime() })
            .where('account_id', '=', accountId)
            .where('revoked_at', 'is', null)
            .where('expires_at', '>', now.getTime())
            .executeTakeFirst(),
        { retrySafe: true },
      );
      return Number(result.numUpdatedRows);
    },
  };
}
