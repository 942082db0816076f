import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeStoreLocation, openAccountStore, storeLocation } from '../../../src/adapters/db/open-store.ts';
import { isConnectionFailure, isTransientConflict } from '../../../src/adapters/db/pg-errors.ts';
import { loadServerSecret } from '../../../src/adapters/db/server-secret.ts';
import { ConfigError, loadConfig } from '../../../src/config.ts';

const dir = mkdtempSync(join(tmpdir(), 'spq-open-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('which store a config opens', () => {
  it('SQLite in the data dir by default, PostgreSQL for a postgres:// DATABASE_URL', () => {
    expect(storeLocation(loadConfig({ SPQ_DATA_DIR: dir }))).toEqual({ kind: 'sqlite', file: join(dir, 'spq.sqlite') });
    const pg = storeLocation(loadConfig({ SPQ_DATA_DIR: dir, DATABASE_URL: 'postgresql://u:secret@db.internal:5433/spq' }));
    expect(pg.kind).toBe('postgres');
    expect(describeStoreLocation(pg)).toBe('PostgreSQL db.internal:5433/spq');
    expect(describeStoreLocation(pg)).not.toContain('secret');
    expect(() => storeLocation(loadConfig({ DATABASE_URL: 'mysql://x/y' }))).toThrow(ConfigError);
  });

  it('openAccountStore migrates the SQLite file, and again is a no-op', async () => {
    const config = loadConfig({ SPQ_DATA_DIR: join(dir, 'data') });
    for (let i = 0; i < 2; i++) {
      const store = await openAccountStore(config);
      expect(await store.healthy()).toBe(true);
      expect(await store.listAccounts()).toEqual([]);
      await store.close();
    }
  });

  it('openAccountStore opens PostgreSQL from DATABASE_URL', async () => {
    const store = await openAccountStore(loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres' }), { migrate: false });
    expect(await store.healthy()).toBe(true);
    await store.close();
  });
});

describe('the server secret', () => {
  it('comes from config when set', () => {
    const fromEnv = 'from-env-0123456789abcdef-0123456789';
    expect(loadServerSecret(loadConfig({ SPQ_DATA_DIR: dir, SPQ_SERVER_SECRET: fromEnv }))).toBe(fromEnv);
    // A short secret is refused with what to do.
    expect(() => loadServerSecret(loadConfig({ SPQ_DATA_DIR: dir, SPQ_SERVER_SECRET: 'x' }))).toThrow(/at least 32 bytes \(e\.g\. openssl rand -hex 32\); it has 1/);
  });

  it('is otherwise generated once, kept with mode 0600, and the same for every caller', () => {
    const config = loadConfig({ SPQ_DATA_DIR: join(dir, 'secret') });
    const first = loadServerSecret(config);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(Array.from({ length: 5 }, () => loadServerSecret(config))).toEqual(Array(5).fill(first));
    const file = join(dir, 'secret', 'server-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
  });
});

describe('PostgreSQL retry classification', () => {
  it('retries conflicts always, lost connections only for idempotent work', () => {
    expect(isTransientConflict({ code: '40001' })).toBe(true);
    expect(isTransientConflict({ code: '40P01' })).toBe(true);
    expect(isTransientConflict({ code: '23505' })).toBe(false);
    expect(isConnectionFailure({ code: 'ECONNRESET' })).toBe(true);
    expect(isConnectionFailure({ code: '57P01' })).toBe(true);
    expect(isConnectionFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionFailure({ code: '23505' })).toBe(false);
    expect(isConnectionFailure(new Error('syntax error'))).toBe(false);
  });
});
