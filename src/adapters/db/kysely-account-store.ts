import { sql } from 'kysely';
import type { AccountStore } from '../../ports/account-store.ts';
import { createKyselyCredentialStore } from './kysely-credential-store.ts';
import type { StoreDriver } from './kysely-driver.ts';
import { createKyselyLedger } from './kysely-ledger.ts';
import { createKyselyPaymentLedger } from './kysely-payment-ledger.ts';
import { createKyselyQueryLog } from './kysely-query-log.ts';
import { applyMigrations } from './migrations.ts';

export { hashIdempotencyKey, IDEMPOTENCY_TTL_MS, type StoreDriver } from './kysely-driver.ts';

/**
 * The AccountStore of one database, shared by the SQLite and PostgreSQL adapters: the three
 * aggregates' adapters (credentials, ledger, query log) over one driver, plus the schema's life.
 */
export function createKyselyAccountStore(driver: StoreDriver): AccountStore {
  return {
    ...createKyselyCredentialStore(driver),
    ...createKyselyLedger(driver),
    ...createKyselyQueryLog(driver),
    payments: createKyselyPaymentLedger(driver),

    async migrate() {
      await driver.migrate(async (trx) => {
        await applyMigrations(trx, new Date());
      });
    },

    close: () => driver.close(),

    async healthy() {
      try {
        await sql`select 1`.execute(driver.db);
        return true;
      } catch {
        return false;
      }
    },
  };
}
