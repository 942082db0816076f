import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createSqliteAccountStore } from '../../../src/adapters/db/sqlite.ts';
import { accountStoreContract } from '../account-store.contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'spq-sqlite-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

accountStoreContract('SQLite', {
  async newDatabase() {
    const file = join(dir, `db-${++n}`, 'spq.sqlite');
    return () => createSqliteAccountStore({ file });
  },
});
