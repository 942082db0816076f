import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { createPostgresAccountStore } from '../../../src/adapters/db/postgres.ts';
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
});
