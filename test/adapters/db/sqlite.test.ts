import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll } from 'vitest';
import { createSqliteAccountStore } from '../../../src/adapters/db/sqlite.ts';
import { accountStoreContract } from '../account-store.contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'spq-sqlite-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files: string[] = [];
accountStoreContract('SQLite', {
  async newDatabase() {
    const file = join(dir, `db-${++n}`, 'spq.sqlite');
    files.push(file);
    return () => createSqliteAccountStore({ file });
  },
  async storedIdempotencyKeys() {
    return files.flatMap((file) => {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        return (db.prepare('select idempotency_key from idempotency_keys').all() as unknown as { idempotency_key: string }[]).map((r) => r.idempotency_key);
      } finally {
        db.close();
      }
    });
  },
});
