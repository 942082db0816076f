import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/core/keys.ts';
import { createPostgresAccountStore } from '../../../src/adapters/db/postgres.ts';
import { StoreUnavailableError } from '../../../src/ports/account-store.ts';
import { freePort } from '../../support/free-port.ts';
import { accountStoreContract } from '../account-store.contract.ts';

const SERVER = 'postgres://postgres@127.0.0.1:5432';
const created: string[] = [];

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${SERVER}/postgres` });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  await admin(async (client) => {
    for (const name of created) await client.query(`drop database if exists ${name} with (force)`);
  });
});

accountStoreContract('PostgreSQL', {
  async newDatabase() {
    const name = `spq_test_${randomBytes(6).toString('hex')}`;
    await admin((client) => client.query(`create database ${name}`));
    created.push(name);
    return () => createPostgresAccountStore({ url: `${SERVER}/${name}`, maxConnections: 8 });
  },
  async storedIdempotencyKeys() {
    const keys: string[] = [];
    for (const name of created) {
      const client = new pg.Client({ connectionString: `${SERVER}/${name}` });
      await client.connect();
      try {
        const exists = await client.query(`select to_regclass('idempotency_keys') as t`);
        if (exists.rows[0]?.t) keys.push(...(await client.query<{ idempotency_key: string }>('select idempotency_key from idempotency_keys')).rows.map((r) => r.idempotency_key));
      } finally {
        await client.end();
      }
    }
    return keys;
  },
});

describe('PostgreSQL under connection failures', () => {
  it('a server out of reach or a statement cut off by statement_timeout is StoreUnavailableError (the API answers 503), other errors pass through', async () => {
    const unreachable = createPostgresAccountStore({ url: `postgres://postgres@127.0.0.1:${await freePort()}/none`, maxAttempts: 1 });
    try {
      await expect(unreachable.getAccount('acc_00000000000000000000')).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await unreachable.close();
    }
    const name = `spq_test_${randomBytes(6).toString('hex')}`;
    await admin((client) => client.query(`create database ${name}`));
    created.push(name);
    // Migrated by a store with the default timeout: the schema's DDL may take longer than 50 ms on a busy machine.
    const migrator = createPostgresAccountStore({ url: `${SERVER}/${name}` });
    try {
      await migrator.migrate();
    } finally {
      await migrator.close();
    }
    const slow = createPostgresAccountStore({ url: `${SERVER}/${name}`, statementTimeoutMs: 50, maxAttempts: 1 });
    try {
      const now = new Date('2026-11-25T03:00:00Z');
      // A second connection holds the balance row, so the charge's FOR UPDATE waits past the timeout.
      const account = await slow.createAccount({ email: 'slow@example.org', now });
      const holder = new pg.Client({ connectionString: `${SERVER}/${name}` });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select * from balances where account_id = $1 for update', [account.accountId]);
        await expect(slow.grantCredits({ accountId: account.accountId, credits: 5, now })).rejects.toBeInstanceOf(StoreUnavailableError);
        await holder.query('rollback');
      } finally {
        await holder.end();
      }
      // A refused write (not an outage) is not dressed up as one.
      await expect(slow.createAccount({ email: 'slow@example.org', now })).rejects.not.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await slow.close();
    }
  });

  it('charges survive killed connections: retried, never charged twice, ledger consistent', async () => {
    const name = `spq_test_${randomBytes(6).toString('hex')}`;
    await admin((client) => client.query(`create database ${name}`));
    created.push(name);
    const store = createPostgresAccountStore({ url: `${SERVER}/${name}`, maxConnections: 6, maxAttempts: 6 });
    try {
      await store.migrate();
      const now = new Date('2026-11-25T03:00:00Z');
      const account = await store.createAccount({ email: 'faults@example.org', now });
      await store.grantCredits({ accountId: account.accountId, credits: 1000, now });

      const killer = new pg.Client({ connectionString: `${SERVER}/postgres` });
      await killer.connect();
      let killing = true;
      let kills = 0;
      const killLoop = (async () => {
        // A few rounds of terminating every connection of the database while the charges run.
        for (let round = 0; round < 4 && killing; round++) {
          await new Promise((resolve) => setTimeout(resolve, 60));
          const r = await killer.query('select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = $1', [name]);
          kills += Number(r.rows[0].n);
        }
      })();
      const requests = Array.from({ length: 120 }, () => ({
        accountId: account.accountId,
        queryId: newId('qry'),
        credits: 1,
        now,
        query: { executedAt: now, datasetType: 'persons' as const, geographySelections: ['Australia'], nObservations: 1, metadata: {}, fileKey: null, downloadExpires: now },
      }));
      const results = await Promise.allSettled(requests.map((r) => store.charge(r)));
      killing = false;
      await killLoop;
      await killer.end();

      expect(kills).toBeGreaterThan(0);
      if (process.env.SPQ_TEST_VERBOSE) console.log({ kills, succeeded: results.filter((r) => r.status === "fulfilled" && r.value.ok).length, failed: results.filter((r) => r.status === "rejected").length, reason: results.find((r) => r.status === "rejected") });
      const succeeded = results.filter((r) => r.status === 'fulfilled' && r.value.ok).length;
      // Lost connections are retried (the query id makes it safe), so every charge gets through.
      expect(succeeded).toBe(requests.length);
      // Every query id was charged at most once; the rows that exist are exactly the credits used.
      let rows = 0;
      for (const r of requests) if (await store.getQuery(account.accountId, r.queryId)) rows++;
      expect(rows).toBeGreaterThanOrEqual(succeeded);
      const summary = await store.credits(account.accountId, now);
      expect(summary.creditsUsed).toBe(rows);
      expect(summary.creditsRemaining).toBe(1005 - rows);
      expect(await store.ledgerBalance(account.accountId)).toBe(summary.creditsRemaining);
    } finally {
      await store.close();
    }
  });
});
