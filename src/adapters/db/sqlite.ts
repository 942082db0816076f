import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { Kysely, SqliteDialect, sql, type SqliteDatabase, type SqliteStatement } from 'kysely';
import type { AccountStore } from '../../ports/account-store.ts';
import { createKyselyAccountStore, type StoreDriver } from './kysely-account-store.ts';
import { withProcessMutex } from './process-mutex.ts';
import type { Database } from './schema.ts';

type SqliteValue = null | number | bigint | string | Uint8Array;

/** SQLite has no booleans; Kysely may bind them (and undefined for an absent optional value). */
const bindable = (parameters: ReadonlyArray<unknown>): SqliteValue[] =>
  parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p === undefined ? null : (p as SqliteValue)));

/** Node's built-in SQLite statement in the shape Kysely's SqliteDialect drives. */
function kyselyStatement(statement: StatementSync): SqliteStatement {
  return {
    // Statements that return rows (SELECT, and INSERT … RETURNING) have result columns.
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...bindable(parameters)),
    run: (parameters) => statement.run(...bindable(parameters)),
    iterate: (parameters) => statement.iterate(...bindable(parameters)) as IterableIterator<unknown>,
  };
}

/**
 * Kysely prepares every query afresh, and preparing costs several times more than running a
 * small indexed query. The store's SQL comes from a fixed set of builders, so prepared
 * statements are kept and reused (Kysely runs one statement at a time per connection, so a
 * statement is never in use twice). Bounded, in case callers build unusual SQL.
 */
function withStatementCache(sqlite: DatabaseSync, limit = 500): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (!statement) {
        statement = kyselyStatement(sqlite.prepare(text));
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
 * The database holds accounts, key hashes and the ledger: its directory is the owner's alone
 * (0700) and its files too (0600). The file is made before SQLite opens it because SQLite gives
 * its -wal and -shm files the database file's mode.
 */
function keepPrivate(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  chmodSync(dirname(file), 0o700);
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, 0o600);
}

/**
 * The embedded AccountStore: one SQLite file in WAL mode (readers never wait for the writer),
 * synchronous=NORMAL (durable across process crashes; a power cut may lose the last commits but
 * never corrupts), and every write transaction BEGIN IMMEDIATE so writers queue for the lock up
 * front instead of failing on a read-to-write upgrade.
 */
export function createSqliteAccountStore(options: SqliteStoreOptions): AccountStore {
  const file = resolve(options.file);
  keepPrivate(file);
  // Node's built-in SQLite (node:sqlite): no native addon to compile for each Node version.
  const sqlite = new DatabaseSync(file);
  sqlite.exec('PRAGMA journal_mode = WAL');
  sqlite.exec('PRAGMA synchronous = NORMAL');
  sqlite.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
  sqlite.exec('PRAGMA foreign_keys = ON');
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
          if (sqlite.isTransaction) await sql`rollback`.execute(conn);
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
