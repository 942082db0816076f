/**
 * The contract suites of the database ports, by aggregate: the store's lifecycle here, then
 * CredentialStore (credential-store.contract.ts), Ledger (ledger.contract.ts) and QueryLog
 * (query-log.contract.ts), each on a database of its own: one suite per port that every
 * implementation runs (the pattern of Hono's router common.case tests).
 * test/adapters/db/sqlite.test.ts, postgres.test.ts and memory.test.ts call it with a harness that
 * opens stores on a fresh database of their kind.
 */
import { describe, expect, it } from 'vitest';
import { credentialStoreContract } from './credential-store.contract.ts';
import { ledgerContract } from './ledger.contract.ts';
import { queryLogContract } from './query-log.contract.ts';
import { NOW, suiteDatabase, uniqueEmail, type StoreHarness } from './store-contract-support.ts';

export function accountStoreContract(name: string, harness: StoreHarness): void {
  describe(`AccountStore: ${name}`, () => {
    describe('lifecycle', () => {
      const db = suiteDatabase(harness);
      it('migrates idempotently and reports healthy', async () => {
        await db.store.migrate();
        expect(await db.store.healthy()).toBe(true);
      });

      it('two instances migrating a fresh database at the same moment both succeed', async () => {
        const openFresh = await harness.newDatabase();
        const a = db.track(openFresh());
        const b = db.track(openFresh());
        await Promise.all([a.migrate(), b.migrate()]);
        const account = await b.createAccount({ email: uniqueEmail(), now: NOW });
        expect((await a.getAccount(account.accountId))?.email).toBe(account.email);
      });
    });

    credentialStoreContract(name, harness);
    ledgerContract(name, harness);
    queryLogContract(name, harness);
  });
}
