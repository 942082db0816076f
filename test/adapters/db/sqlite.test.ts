import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
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

describe('the SQLite files', () => {
  it('are the owner\'s alone: the directory 0700, the database and its -wal and -shm files 0600 (also when the directory was open before)', async () => {
    const data = join(dir, 'private');
    mkdirSync(data, { mode: 0o755 });
    const file = join(data, 'spq.sqlite');
    const store = createSqliteAccountStore({ file });
    try {
      await store.migrate();
      await store.createAccount({ email: 'private@example.org', now: new Date() });
      const mode = (path: string) => statSync(path).mode & 0o777;
      expect(mode(data)).toBe(0o700);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(mode(path), path).toBe(0o600);
    } finally {
      await store.close();
    }
  });
});
