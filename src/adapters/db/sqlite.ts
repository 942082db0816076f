import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import type { AccountStore } from '../../ports/account-store.ts';
import { createKyselyAccountStore, type StoreDriver } from './kysely-account-store.ts';
import { withProcessMutex } from './process-mutex.ts';
import type { Database } from './schema.ts';

/**
 * Kysely prepares every query afresh, and preparing costs several times more than running a
 * small indexed query. The store's SQL comes from a fixed set of builders, so prepared
 * statements are kept and reused (Kysely runs one statement at a time per connection, so a
 * statement is never in use twice). Bounded, in case callers build unusual SQL.
 */
function withStatementCache(sqlite: BetterSqlite3.Database, limit = 500): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
        cache.set(text, statement);
      }
      return statement;
    },
  };
}

export interface SqliteStoreOptions {
  /** The database file; its directory is created if missing. */
  readonly file: string;
  /** How long a writer waits for another process's write lock (the admin CLI while the server runs). */
  readonly busyTimeoutMs?: number;
}

/**
 * The embedded AccountStore: one SQLite file in WAL mode (readers never wait for the writer),
 * synchronous=NORMAL (durable across process crashes; a power cut may lose the last commits but
 * never corrupts), and every write transaction BEGIN IMMEDIATE so writers queue for the lock up
 * front instead of failing on a read-to-write upgrade.
 */
export function createSqliteAccountStore(options: SqliteStoreOptions): AccountStore {
  const file = resolve(options.file);
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });

  const immediate = <T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> =>
    withProcessMutex(file, () =>
      db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const result = await fn(conn);
          await sql`commit`.execute(conn);
          return result;
        } catch (error) {
          if (sqlite.inTransaction) await sql`rollback`.execute(conn);
          throw error;
        }
      }),
    );

  const driver: StoreDriver = {
    db,
    rowLocks: false,
    write: (fn) => immediate(fn),
    migrate: async (apply) => {
      await immediate(apply);
    },
    close: () => db.destroy(),
  };
  return createKyselyAccountStore(driver);
}
