/** The PaymentLedger contract (test/adapters/payment-ledger.contract.ts) on SQLite and on the machine's PostgreSQL. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createPostgresAccountStore } from '../../../src/adapters/db/postgres.ts';
import { createSqliteAccountStore } from '../../../src/adapters/db/sqlite.ts';
import { createDatabase } from '../../support/postgres.ts';
import { paymentLedgerContract } from '../payment-ledger.contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'spq-payments-'));
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const drop of drops) await drop();
});

let n = 0;
paymentLedgerContract('SQLite', {
  async newDatabase() {
    const file = join(dir, `db-${++n}`, 'spq.sqlite');
    return () => createSqliteAccountStore({ file });
  },
  storedIdempotencyKeys: async () => [],
});

paymentLedgerContract('PostgreSQL', {
  async newDatabase() {
    const database = await createDatabase('spq_pay');
    drops.push(database.drop);
    return () => createPostgresAccountStore({ url: database.url, maxConnections: 8 });
  },
  storedIdempotencyKeys: async () => [],
});
