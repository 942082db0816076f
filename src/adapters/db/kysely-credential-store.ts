import type { Kysely, Selectable } from 'kysely';
import { newId } from '../../core/keys.ts';
import { DEFAULT_TIME_ZONE, USER_AGENT_MAX, type ApiKeyRecord, type CredentialStore, type WebSession } from '../../ports/credential-store.ts';
import { toDate, toDateOrNull, type StoreDriver } from './kysely-driver.ts';
import { openBalance } from './kysely-ledger.ts';
import type { ApiKeysTable, Database, WebSessionsTable } from './schema.ts';

function toSession(row: Selectable<WebSessionsTable>): WebSession {
  return {
    sessionId: row.session_id,
    accountId: row.account_id,
    createdAt: toDate(row.created_at),
    expiresAt: toDate(row.expires_at),
    lastSeenAt: toDate(row.last_seen_at),
    userAgent: row.user_agent,
  };
}

function toKeyRecord(row: Omit<Selectable<ApiKeysTable>, 'key_hash'>): ApiKeyRecord {
  return {
    keyId: row.key_id,
    accountId: row.account_id,
    prefix: row.prefix,
    last4: row.last4,
    createdAt: toDate(row.created_at),
    revokedAt: toDateOrNull(row.revoked_at),
    name: row.name,
    lastUsedAt: toDateOrNull(row.last_used_at),
  };
}

/** A key's last use is shown to the minute, so it is written at most once a minute. */
const KEY_USE_RESOLUTION_MS = 60_000;

/** Sessions still valid at `now`: not ended, not expired, used within the idle limit. */
function liveSessions(db: Kysely<Database>, now: Date, idleMs: number) {
  const ms = now.getTime();
  return db.selectFrom('web_sessions').selectAll().where('revoked_at', 'is', null).where('expires_at', '>', ms).where('last_seen_at', '>', ms - idleMs);
}


/** The CredentialStore over Kysely: accounts, API keys, and the account area's passwords, one-time links and sessions. */
export function createKyselyCredentialStore(driver: StoreDriver): CredentialStore {
  const { db } = driver;
  return {
    async createAccount({ email, now }) {
      const accountId = newId('acc');
      await driver.write(
        async (trx) => {
          await trx.insertInto('accounts').values({ account_id: accountId, email, created_at: now.getTime() }).execute();
          // A new account is free: its balance and first week's allowance open with it (the ledger's rows, same transaction).
          await openBalance(trx, accountId, now);
        },
        { retrySafe: false },
      );
      return { accountId, email, createdAt: now };
    },

    async getAccount(accountId) {
      const row = await db.selectFrom('accounts').selectAll().where('account_id', '=', accountId).executeTakeFirst();
      return row && { accountId: row.account_id, email: row.email, createdAt: toDate(row.created_at) };
    },

    async listAccounts() {
      const rows = await db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('account_id').execute();
      return rows.map((row) => ({ accountId: row.account_id, email: row.email, createdAt: toDate(row.created_at) }));
    },

    async addKey({ accountId, keyId, keyHash, prefix, last4, now, name }) {
      await driver.write(
        (trx) =>
          trx
            .insertInto('api_keys')
            .values({ key_id: keyId, account_id: accountId, key_hash: keyHash, prefix, last4, created_at: now.getTime(), revoked_at: null, name: name ?? null, last_used_at: null })
            .execute(),
        { retrySafe: false },
      );
      return { keyId, accountId, prefix, last4, createdAt: now, revokedAt: null, name: name ?? null, lastUsedAt: null };
    },

    async addKeyWithin({ accountId, keyId, keyHash, prefix, last4, now, name, maxActive }) {
      return driver.write(
        async (trx) => {
          // The account row is the lock (SQLite's write lock already serialises writers).
          const account = trx.selectFrom('accounts').select('account_id').where('account_id', '=', accountId);
          await (driver.rowLocks ? account.forUpdate() : account).executeTakeFirst();
          const { active } = await trx
            .selectFrom('api_keys')
            .select((eb) => eb.fn.countAll<number | string>().as('active'))
            .where('account_id', '=', accountId)
            .where('revoked_at', 'is', null)
            .executeTakeFirstOrThrow();
          if (Number(active) >= maxActive) return undefined;
          await trx
            .insertInto('api_keys')
            .values({ key_id: keyId, account_id: accountId, key_hash: keyHash, prefix, last4, created_at: now.getTime(), revoked_at: null, name: name ?? null, last_used_at: null })
            .execute();
          return { keyId, accountId, prefix, last4, createdAt: now, revokedAt: null, name: name ?? null, lastUsedAt: null };
        },
        { retrySafe: false },
      );
    },

    async findKeyByHash(keyHash) {
      const row = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
      return row && toKeyRecord(row);
    },

    async listKeys(accountId) {
      const rows = await db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('key_id').execute();
      return rows.map(toKeyRecord);
    },

    async revokeKey(keyId, now) {
      const result = await driver.write(
        (trx) =>
          trx.updateTable('api_keys').set({ revoked_at: now.getTime() }).where('key_id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst(),
        { retrySafe: true },
      );
      return Number(result.numUpdatedRows) > 0;
    },

    async recordKeyUse(keyId, now) {
      const ms = now.getTime();
      await driver.write(
        (trx) =>
          trx
            .updateTable('api_keys')
            .set({ last_used_at: ms })
            .where('key_id', '=', keyId)
            .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', ms - KEY_USE_RESOLUTION_MS)]))
            .execute(),
        { retrySafe: true },
      );
    },

    async findAccountByEmail(email) {
      const row = await db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
      return row && { accountId: row.account_id, email: row.email, createdAt: toDate(row.created_at) };
    },


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

    async changePassword({ accountId, passwordHash, keepSessionId, now }) {
      const ms = now.getTime();
      await driver.write(
        async (trx) => {
          await trx
            .insertInto('web_credentials')
            .values({ account_id: accountId, password_hash: passwordHash, time_zone: DEFAULT_TIME_ZONE, updated_at: ms })
            .onConflict((oc) => oc.column('account_id').doUpdateSet({ password_hash: passwordHash, updated_at: ms }))
            .execute();
          await trx.updateTable('web_sessions').set({ revoked_at: ms }).where('account_id', '=', accountId).where('session_id', '!=', keepSessionId).where('revoked_at', 'is', null).execute();
          await trx.updateTable('web_tokens').set({ used_at: ms }).where('account_id', '=', accountId).where('used_at', 'is', null).execute();
        },
        { retrySafe: true },
      );
    },

    async createSession({ sessionId, tokenHash, accountId, now, expiresAt, userAgent }) {
      await driver.write(
        (trx) =>
          trx
            .insertInto('web_sessions')
            .values({
              session_id: sessionId,
              token_hash: tokenHash,
              account_id: accountId,
              created_at: now.getTime(),
              expires_at: expiresAt.getTime(),
              last_seen_at: now.getTime(),
              revoked_at: null,
              user_agent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
            })
            .execute(),
        { retrySafe: false },
      );
    },

    async listSessions(accountId, now, idleMs) {
      const rows = await liveSessions(db, now, idleMs)
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('session_id')
        .execute();
      return rows.map(toSession);
    },

    async findSession(tokenHash, now, idleMs) {
      const row = await liveSessions(db, now, idleMs).where('token_hash', '=', tokenHash).executeTakeFirst();
      return row && toSession(row);
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
