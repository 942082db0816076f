/**
 * The in-memory AccountStore fake (test/fakes/account-store.ts) runs the same contract suite as
 * the SQLite and PostgreSQL stores, so unit tests that use it see what production would.
 */
import { memoryAccountStore, newMemoryDatabase, type MemoryDatabase } from '../../fakes/account-store.ts';
import { accountStoreContract } from '../account-store.contract.ts';

const databases: MemoryDatabase[] = [];
accountStoreContract('memory (fake)', {
  async newDatabase() {
    const db = newMemoryDatabase();
    databases.push(db);
    return () => memoryAccountStore(db);
  },
  async storedIdempotencyKeys() {
    return databases.flatMap((db) => [...db.idempotency.keys()].map((slot) => slot.slice(slot.indexOf(' ') + 1)));
  },
});
