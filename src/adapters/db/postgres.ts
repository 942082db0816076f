import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { StoreUnavailableError, type AccountStore } from '../../ports/account-store.ts';
import { createKyselyAccountStore, type StoreDriver } from './kysely-account-store.ts';
import { isConnectionFailure, isTransientConflict, isUnavailable } from './pg-errors.ts';
import type { Database } from './schema.ts';

export interface PostgresStoreOptions {
  readonly url: string;
  /** Pool size per instance. */
  readonly maxConnections?: number;
  /** Server-side limit on any one statement. */
  readonly statementTimeoutMs?: number;
  /** Attempts for a transaction that hit a transient failure (first try included). */
  readonly maxAttempts?: number;
  /** Told about connection errors (e.g. the server restarted); the pool drops those connections. */
  readonly onPoolError?: (error: Error) => void;
}

/** Any 64-bit constant that names "spq migrations" among advisory locks. */
const MIGRATION_LOCK_ID = 0x5350_515f_6d67n; // "SPQ_mg"

// int8 (OID 20) arrives as a string by default; our int8 columns hold epoch milliseconds and sums
// of integer credits, all far below 2^53, so numbers are exact.
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The scale-out AccountStore: a pg pool under Kysely. Transactions run at READ COMMITTED; each
 * one that changes a balance first takes that balance row FOR UPDATE, so charges of one account
 * serialize across all instances while other accounts proceed in parallel.
 */
export function createPostgresAccountStore(options: PostgresStoreOptions): AccountStore {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    statement_timeout: options.statementTimeoutMs ?? 10_000,
    idle_in_transaction_session_timeout: 60_000,
    connectionTimeoutMillis: 10_000,
    types,
  });
  const report = (error: Error) => options.onPoolError?.(error);
  // Idle clients report errors through the pool; a checked-out client whose connection dies
  // (server restart, terminated backend) emits 'error' on itself, which would otherwise crash
  // the process. The query in flight fails on its own and the pool discards the client.
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);

  async function write<T>(fn: (trx: Kysely<Database>) => Promise<T>, retrySafe: boolean): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction().execute(fn);
      } catch (error) {
        // A conflict rolled the whole transaction back, so trying again is always safe; after a
        // lost connection the commit may or may not have happened, so only idempotent work retries.
        const retry = isTransientConflict(error) || (retrySafe && isConnectionFailure(error));
        if (!retry || attempt >= maxAttempts) throw error;
        await sleep(20 * 2 ** attempt + Math.random() * 20);
      }
    }
  }

  const driver: StoreDriver = {
    db,
    rowLocks: true,
    write: (fn, { retrySafe }) => write(fn, retrySafe),
    migrate: async (apply) => {
      await write(async (trx) => {
        // Held until commit: a second instance starting at the same moment waits, then finds nothing to do.
        await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK_ID.toString())}::bigint)`.execute(trx);
        await apply(trx);
      }, true);
    },
    close: () => db.destroy(),
  };
  return reportingUnavailable(createKyselyAccountStore(driver));
}

/** Every method of the store, with a driver error that means "out of reach for now" turned into StoreUnavailableError. */
function reportingUnavailable<Store extends object>(store: Store): Store {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(store) as [string, unknown][]) {
    // A port the store carries (its payment ledger) is wrapped the same way.
    if (typeof method === 'object' && method !== null) wrapped[name] = reportingUnavailable(method);
    if (typeof method !== 'function') continue;
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (method as (...a: unknown[]) => Promise<unknown>).apply(store, args);
      } catch (error) {
        if (isUnavailable(error)) throw new StoreUnavailableError(`the database is out of reach: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        throw error;
      }
    };
  }
  return wrapped as unknown as Store;
}
