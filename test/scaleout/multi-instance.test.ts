/**
 * Two real `spq serve` processes on two ports sharing one PostgreSQL database, one Redis and one
 * S3 bucket, as behind a load balancer: clients must not be able to tell which one answered.
 * Accounts come from the admin CLI with the same environment, as an operator makes them.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client } from '../../src/adapters/filestore/s3.ts';
import { buildFixtureRelease } from '../adapters/pools/fixture.ts';
import { s3EnvOf, startS3Server, type TestS3Server } from '../support/s3-server.ts';
import { createDatabase } from '../support/postgres.ts';
import { childEnv, clearRedisPrefix, freePort, pgQuery, spqAdmin, startSpq, type SpqProcess } from './stack.ts';

const FREE_PER_HOUR = 10;
const FAILED_AUTH_PER_MINUTE = 12;
const PREFIX = `spq-test-multi-${randomBytes(5).toString('hex')}:`;

let dir: string;
let db: { url: string; drop(): Promise<void> };
let s3: TestS3Server;
let env: NodeJS.ProcessEnv;
let a: SpqProcess;
let b: SpqProcess;
/** 401s this file has caused from 127.0.0.1, for the shared failed-authentication limit. */
let failedAuths = 0;
type Created = { account_id: string; api_key: string };
/** Made with the admin CLI before the tests (in parallel: each CLI run costs seconds of start-up). */
let accounts: { limits: Created; burst: Created; rotate: Created; download: Created; rotateSecond: Created & { key_id: string } };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spq-multi-'));
  const [releaseDir, database, server] = await Promise.all([buildFixtureRelease(join(dir, 'pools')), createDatabase('spq_scaleout'), startS3Server({ bucket: 'spq-multi' })]);
  db = database;
  s3 = server;
  env = childEnv({
    DATABASE_URL: db.url,
    REDIS_URL: 'redis://127.0.0.1:6379',
    SPQ_REDIS_PREFIX: PREFIX,
    ...s3EnvOf(s3),
    SPQ_SERVER_SECRET: `multi-instance-secret-${randomBytes(12).toString('hex')}`,
    SPQ_POOL_DIR: releaseDir,
    SPQ_SMALL_SUBURB_THRESHOLD: '100',
    // Small free-tier hour so (a) reaches it; paid limits above the 300-request burst of (b).
    SPQ_RATE_PER_MINUTE: '1000',
    SPQ_RATE_FREE_PER_HOUR: String(FREE_PER_HOUR),
    SPQ_RATE_PAID_PER_HOUR: '1000',
    SPQ_RATE_FAILED_AUTH_PER_MINUTE: String(FAILED_AUTH_PER_MINUTE),
    SPQ_DATA_DIR: join(dir, 'admin'),
  });
  // Both start at the same moment on an empty database: migrations and the first-start demo
  // account must not race.
  const [portA, portB] = [await freePort(), await freePort()];
  [a, b] = await Promise.all([startSpq({ ...env, SPQ_DATA_DIR: join(dir, 'a') }, portA), startSpq({ ...env, SPQ_DATA_DIR: join(dir, 'b') }, portB)]);

  const [limits, burst, rotate, download] = await Promise.all([
    createAccount('limits@example.org'),
    // 45 bundle credits and this week's 5 free ones (the account is free when created): 50.
    createAccount('burst@example.org', { credits: 45, days: 30 }),
    createAccount('rotate@example.org', { credits: 100, days: 30 }),
    createAccount('download@example.org', { credits: 100, days: 30 }),
  ]);
  const rotateSecond = JSON.parse(await spqAdmin(env, ['key', 'create', '--account', rotate.account_id, '--json'])) as Created & { key_id: string };
  accounts = { limits, burst, rotate, download, rotateSecond };
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await s3?.stop();
  await db?.drop();
  await clearRedisPrefix(PREFIX);
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

async function createAccount(email: string, paid?: { credits: number; days: number }): Promise<Created> {
  const args = ['account', 'create', '--email', email, '--json'];
  if (paid) args.push('--tier', 'paid', '--credits', String(paid.credits), '--days', String(paid.days));
  return JSON.parse(await spqAdmin(env, args)) as Created;
}

const csvQuery = { geography_level: 'suburb', geography_selections: ['Burnley'], dataset_type: 'persons', n_observations: 20, output_format: 'csv' } as const;

describe('two spq serve processes sharing PostgreSQL, Redis and a bucket', () => {
  it('both started together on an empty database, are ready, and made one demo account between them', async () => {
    for (const instance of [a, b]) {
      const ready = await instance.call('/readyz');
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ checks: { database: true, rate_limiter: true, pool_release: true } });
    }
    const demo = await pgQuery<{ n: number }>(db.url, `select count(*)::int as n from accounts where email = 'demo@spq.local'`);
    expect(demo).toEqual([{ n: 1 }]);
  });

  it('(a) a key alternating between the instances meets its hourly limit exactly as on one instance', async () => {
    const key = accounts.limits.api_key;
    for (let i = 0; i < FREE_PER_HOUR; i++) {
      const res = await (i % 2 === 0 ? a : b).call('/account/credits', { key });
      expect(res.status).toBe(200);
      // The RateLimit header counts down across both instances: one shared window.
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"hour-free";r=${FREE_PER_HOUR - 1 - i};t=\\d+$`));
    }
    for (const instance of [a, b, a]) {
      const res = await instance.call('/account/credits', { key });
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      // The oldest of the 10 leaves the hour in about an hour (not the minute window's ≤ 60 s).
      expect(retryAfter).toBeGreaterThanOrEqual(3540);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(await res.json()).toEqual({ error: 'rate_limited', detail: expect.any(String), retry_after_seconds: retryAfter });
    }
  });

  it('(b) 300 concurrent executes over both instances on an account that can pay for 50: exactly 50 succeed and everything adds up', async () => {
    const { account_id: accountId, api_key: key } = accounts.burst;
    const before = await (await b.call('/account/credits', { key })).json();
    expect(before).toMatchObject({ tier: 'paid', credits_remaining: 50 });

    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? a : b).call('/query/execute', { key, body: csvQuery, timeoutMs: 170_000 })),
    );
    const statuses = responses.map((r) => r.status);
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as Record<string, unknown>[];
    const ok = bodies.filter((_, i) => statuses[i] === 200);
    expect({ ok: ok.length, refused: statuses.filter((s) => s === 402).length }).toEqual({ ok: 50, refused: 250 });
    for (const [i, body] of bodies.entries()) if (statuses[i] === 402) expect(body).toEqual({ detail: expect.any(String), credits_remaining: expect.any(Number) });
    const queryIds = new Set(ok.map((body) => body.query_id as string));
    expect(queryIds.size).toBe(50);

    for (const instance of [a, b]) {
      expect(await (await instance.call('/account/credits', { key })).json()).toMatchObject({ credits_remaining: 0, credits_used: 50 });
      const history = await (await instance.call('/query/history?per_page=100', { key })).json();
      expect(history.pagination.total_queries).toBe(50);
      expect(new Set(history.queries.map((q: { query_id: string }) => q.query_id))).toEqual(queryIds);
    }

    const ledger = await pgQuery<{ kind: string; entries: number; credits: number }>(
      db.url,
      `select kind, count(*)::int as entries, sum(free_credits + purchased_credits)::int as credits from ledger_entries where account_id = $1 group by kind order by kind`,
      [accountId],
    );
    expect(ledger).toEqual([
      { kind: 'bundle_purchase', entries: 1, credits: 45 },
      { kind: 'charge', entries: 50, credits: -50 },
      { kind: 'free_allowance', entries: 1, credits: 5 },
    ]);
    const [balance] = await pgQuery(db.url, 'select free_remaining, purchased_remaining, credits_used from balances where account_id = $1', [accountId]);
    expect(balance).toEqual({ free_remaining: 0, purchased_remaining: 0, credits_used: 50 });
    const queries = await pgQuery<{ query_id: string; status: string; file_key: string }>(db.url, 'select query_id, status, file_key from queries where account_id = $1', [accountId]);
    expect(new Set(queries.map((q) => q.query_id))).toEqual(queryIds);
    expect(queries.every((q) => q.status === 'completed' && q.file_key === `${q.query_id}.csv`)).toBe(true);

    // 50 result files (and their dictionaries) in the one bucket, whichever instance wrote them.
    const client = createS3Client(s3.config);
    const objects: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket, ContinuationToken: token }));
      objects.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.NextContinuationToken;
    } while (token !== undefined);
    client.destroy();
    expect(new Set(objects.filter((k) => k.endsWith('.csv')))).toEqual(new Set([...queryIds].map((id) => `${id}.csv`)));
    expect(objects.filter((k) => k.endsWith('.dictionary.json'))).toHaveLength(50);
  }, 180_000);

  it('(c) a key revoked with the admin CLI is refused by both instances on the next request; the other key works on', async () => {
    const first = accounts.rotate.api_key;
    const second = accounts.rotateSecond;
    for (const instance of [a, b]) for (const key of [first, second.api_key]) expect((await instance.call('/account/credits', { key })).status).toBe(200);

    await spqAdmin(env, ['key', 'revoke', '--key-id', second.key_id]);
    for (const instance of [b, a]) {
      const res = await instance.call('/account/credits', { key: second.api_key });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'unauthorized', message: expect.any(String) });
      failedAuths++;
      expect((await instance.call('/account/credits', { key: first })).status).toBe(200);
    }
  }, 60_000);

  it('(d) a file executed on one instance downloads through the link the other gives', async () => {
    const key = accounts.download.api_key;
    const body = { geography_level: 'suburb', geography_selections: ['Richmond (VIC)'], dataset_type: 'persons', n_observations: 30, output_format: 'parquet', include_geography: 'hierarchical' };
    const executed = await a.call('/query/execute', { key, body });
    expect(executed.status).toBe(200);
    const { query_id: queryId } = await executed.json();

    const item = await b.call(`/query/${queryId}`, { key });
    expect(item.status).toBe(200);
    const fromB = await item.json();
    expect(fromB).toMatchObject({ query_id: queryId, n_observations: 30, download_expired: false });
    const file = await fetch(fromB.download_url);
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(Number(file.headers.get('content-length'))).toBe(bytes.length);
    const path = join(dir, `${queryId}.parquet`);
    await writeFile(path, bytes);
    const duck = await DuckDBInstance.create(':memory:');
    const connection = await duck.connect();
    try {
      const rows = (await connection.runAndReadAll(`select count(*)::int as n, count(distinct person_id)::int as ids, min(suburb) as suburb from read_parquet('${path}')`)).getRowObjectsJS();
      expect(rows).toEqual([{ n: 30, ids: 30, suburb: 'Richmond (VIC)' }]);
    } finally {
      connection.closeSync();
      duck.closeSync();
    }
  }, 60_000);

  it('failed authentication from one address is limited across both instances', async () => {
    let refusedAt = -1;
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE + 2 && refusedAt < 0; i++) {
      const res = await (i % 2 === 0 ? a : b).call('/account/credits', { key: `spq_live_${'x'.repeat(36)}` });
      if (res.status === 429) refusedAt = i;
      else {
        expect(res.status).toBe(401);
        failedAuths++;
      }
    }
    expect(failedAuths).toBe(FAILED_AUTH_PER_MINUTE);
    expect(refusedAt).toBeGreaterThan(0);
  });
});
