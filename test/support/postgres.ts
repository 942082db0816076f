import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The machine's PostgreSQL (trust auth, user postgres); `.ci/run` starts it when it is down. */
export const MACHINE_PG = 'postgres://postgres@127.0.0.1:5432';

/** One statement on its own connection, closed after. */
export async function pgQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A fresh database (named with `prefix` and random hex) on a PostgreSQL server, dropped by drop(). */
export async function createDatabase(prefix = 'spq_t', server = MACHINE_PG): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await pgQuery(`${server}/postgres`, `create database ${name}`);
  return {
    name,
    url: `${server}/${name}`,
    drop: async () => void (await pgQuery(`${server}/postgres`, `drop database if exists ${name} with (force)`)),
  };
}
