/**
 * Faults of the scale-out stack under load, on a real `spq serve` process: Redis killed and
 * brought back mid-run, PostgreSQL restarted mid-run. Both servers are the test's own (its own
 * redis-server child, its own initdb cluster), so stopping them disturbs no other test file.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresAccountStore } from '../../src/adapters/db/postgres.ts';
import { createS3Client } from '../../src/adapters/filestore/s3.ts';
import { createAccountWithKey } from '../../src/app/accounts.ts';
import type { AccountStore } from '../../src/ports/account-store.ts';
import { systemClock } from '../../src/ports/clock.ts';
import { buildFixtureRelease } from '../adapters/pools/fixture.ts';
import { s3EnvOf, startS3Server, type TestS3Server } from '../support/s3-server.ts';
import { childEnv, freePort, OwnPostgres, OwnRedis, pgQuery, sleep, startSpq, waitFor, type SpqProcess } from './stack.ts';

const PREFIX = `spq-test-faults-${randomBytes(5).toString('hex')}:`;
const SECRET = `faults-secret-${randomBytes(12).toString('hex')}`;
const FREE_PER_HOUR = 10;

let dir: string;
let redis: OwnRedis;
let postgres: OwnPostgres;
let s3: TestS3Server;
let spq: SpqProcess;
let store: AccountStore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spq-faults-'));
  redis = new OwnRedis(await freePort());
  const [releaseDir, cluster, server] = await Promise.all([
    buildFixtureRelease(join(dir, 'pools')),
    OwnPostgres.create(),
    startS3Server({ bucket: 'spq-faults' }),
    redis.start(),
  ]);
  postgres = cluster;
  s3 = server;
  spq = await startSpq(
    childEnv({
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      SPQ_REDIS_PREFIX: PREFIX,
      ...s3EnvOf(s3),
      SPQ_SERVER_SECRET: SECRET,
      SPQ_POOL_DIR: releaseDir,
      SPQ_DATA_DIR: join(dir, 'data'),
      SPQ_SMALL_SUBURB_THRESHOLD: '100',
      SPQ_RATE_PER_MINUTE: '100000',
      SPQ_RATE_PAID_PER_HOUR: '100000',
      SPQ_RATE_FREE_PER_HOUR: String(FREE_PER_HOUR),
      SPQ_RATE_FAILED_AUTH_PER_MINUTE: '100000',
    }),
    await freePort(),
  );
  store = createPostgresAccountStore({ url: postgres.url, maxConnections: 2 });
}, 180_000);

afterAll(async () => {
  await spq?.stop();
  await store?.close();
  await s3?.stop();
  await redis?.stop();
  await postgres?.destroy();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

async function newKey(email: string, bundle?: { credits: number; days: number }) {
  const created = await createAccountWithKey({ store, serverSecret: SECRET, clock: systemClock }, { email, ...(bundle ? { tier: 'paid' as const, bundle } : {}) });
  if (!created.ok) throw new Error(created.error.detail);
  return { accountId: created.value.account.accountId, keyId: created.value.key.keyId, key: created.value.apiKey };
}

interface Outcome {
  readonly started: number;
  readonly ended: number;
  readonly status: number;
  readonly requestId: string | null;
  readonly body: Record<string, unknown> | undefined;
  /** Set when no HTTP answer came (connection refused, reset, or the client's timeout). */
  readonly failure?: string;
}

/** `workers` loops sending one request after another until stop() is called. */
function load(workers: number, send: () => Promise<Response>) {
  const outcomes: Outcome[] = [];
  let running = true;
  const loop = async () => {
    while (running) {
      const started = Date.now();
      try {
        const res = await send();
        const text = await res.text();
        let body: Record<string, unknown> | undefined;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          body = undefined;
        }
        outcomes.push({ started, ended: Date.now(), status: res.status, requestId: res.headers.get('x-request-id'), body });
        // A client backs off after a server error rather than spinning.
        if (res.status >= 500) await sleep(100);
      } catch (error) {
        outcomes.push({ started, ended: Date.now(), status: 0, requestId: null, body: undefined, failure: String(error) });
        await sleep(50);
      }
    }
  };
  const running$ = Array.from({ length: workers }, loop);
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(running$);
    },
  };
}

const previewBody = { geography_level: 'suburb', geography_selections: ['Fitzroy'], dataset_type: 'persons', n_observations: 100 };
const executeBody = { geography_level: 'suburb', geography_selections: ['Burnley'], dataset_type: 'persons', n_observations: 20, output_format: 'csv' };

describe('faults under load', () => {
  it('Redis killed mid-run: no 5xx, per-instance limits, /readyz and the logs say so; Redis back on the same port: shared again by itself', async () => {
    const { key, accountId } = await newKey('redis-fault@example.org', { credits: 100, days: 30 });
    const ready = await spq.call('/readyz');
    expect(ready.status).toBe(200);
    expect((await ready.json()).checks.rate_limiter).toBe(true);
    const windowSet = `${PREFIX}{account:${accountId}}:60`; // the account's window: all its keys count there
    const inspect = async () => {
      const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      try {
        await client.connect();
        return await client.zcard(windowSet);
      } finally {
        client.disconnect();
      }
    };

    const run = load(3, () => spq.call('/query/preview', { key, body: previewBody, timeoutMs: 15_000 }));
    await waitFor('previews while Redis is up', 20_000, async () => (run.outcomes.length >= 10 ? true : undefined));
    expect(await inspect()).toBeGreaterThanOrEqual(10); // counted in Redis, not in the process

    const killedAt = Date.now();
    await redis.stop();
    await waitFor('previews while Redis is down', 20_000, async () => (run.outcomes.filter((o) => o.started > killedAt).length >= 10 ? true : undefined));
    const degraded = await spq.call('/readyz');
    expect(degraded.status).toBe(503);
    expect(await degraded.json()).toMatchObject({ status: 'not_ready', checks: { rate_limiter: false, database: true, pool_release: true } });
    expect(spq.lines.some((l) => l.includes('Redis unreachable'))).toBe(true);

    // Still limited, per instance: a free key gets its hourly 10, then 429, never a 5xx.
    const free = await newKey('redis-fault-free@example.org');
    const statuses: number[] = [];
    for (let i = 0; i <= FREE_PER_HOUR; i++) statuses.push((await spq.call('/account/credits', { key: free.key })).status);
    expect(statuses).toEqual([...Array<number>(FREE_PER_HOUR).fill(200), 429]);

    const restartedAt = Date.now();
    await redis.start();
    await waitFor('/readyz after Redis returned', 20_000, async () => ((await spq.call('/readyz')).status === 200 ? true : undefined), 200);
    const recoveredAt = Date.now();
    await waitFor('previews after Redis returned', 20_000, async () => (run.outcomes.filter((o) => o.started > recoveredAt).length >= 10 ? true : undefined));
    await run.stop();

    // The new Redis started empty: what it holds now was counted after it came back.
    expect(await inspect()).toBeGreaterThan(0);
    expect(spq.lines.some((l) => l.includes('Redis reachable again'))).toBe(true);
    const during = run.outcomes.filter((o) => o.started > killedAt && o.ended < restartedAt);
    expect(during.length).toBeGreaterThanOrEqual(10);
    const notOk = run.outcomes.filter((o) => o.status !== 200);
    expect(notOk).toEqual([]);
    expect(spq.exitCode()).toBeNull();
  }, 90_000);

  it('PostgreSQL restarted mid-run (down for 2 s): each execute succeeds with a file or fails cleanly, nothing is charged without a file, and it recovers by itself', async () => {
    const { accountId, key } = await newKey('pg-fault@example.org', { credits: 1000, days: 30 });
    const initial = (await (await spq.call('/account/credits', { key })).json()).credits_remaining as number;
    const postmasterStarted = async () => (await pgQuery<{ started: Date }>(postgres.url, 'select pg_postmaster_start_time() as started'))[0]!.started;
    const postmasterBefore = await postmasterStarted();

    const run = load(4, () => spq.call('/query/execute', { key, body: executeBody, timeoutMs: 60_000 }));
    await waitFor('executes before the restart', 30_000, async () => (run.outcomes.filter((o) => o.status === 200).length >= 5 ? true : undefined));
    const restartStarted = Date.now();
    await postgres.restart('fast', 2000);
    const restartEnded = Date.now();
    await waitFor('executes after the restart', 40_000, async () =>
      run.outcomes.filter((o) => o.started > restartEnded && o.status === 200).length >= 6 ? true : undefined,
    );
    await run.stop();
    expect((await postmasterStarted()).getTime()).toBeGreaterThan(postmasterBefore.getTime());

    const outcomes = run.outcomes;
    // Every request got an HTTP answer: no hang, no reset connection, and the process is alive.
    expect(outcomes.filter((o) => o.failure !== undefined)).toEqual([]);
    expect(spq.exitCode()).toBeNull();
    // The restart hit requests in flight, or the run would prove nothing.
    expect(outcomes.filter((o) => o.started < restartEnded && o.ended > restartStarted).length).toBeGreaterThan(0);
    const succeeded = outcomes.filter((o) => o.status === 200);
    const failed = outcomes.filter((o) => o.status !== 200);
    for (const o of failed) {
      // Clean failures only: a 5xx JSON error carrying the request id.
      expect(o.status).toBeGreaterThanOrEqual(500);
      expect(o.requestId).toMatch(/.+/);
      expect(o.body).toMatchObject({ error: expect.stringMatching(/^(internal_error|service_unavailable)$/), detail: expect.any(String) });
      if (o.status === 500) expect(o.body?.request_id).toBe(o.requestId);
    }
    // Recovered by itself: the last requests all succeeded, and /readyz says ready.
    const afterRestart = outcomes.filter((o) => o.started > restartEnded + 2000);
    expect(afterRestart.every((o) => o.status === 200)).toBe(true);
    expect((await spq.call('/readyz')).status).toBe(200);

    // Every success has its file, downloadable.
    for (const o of succeeded) {
      const file = await fetch(String(o.body?.download_url));
      expect(file.status).toBe(200);
      expect((await file.text()).trim().split('\n')).toHaveLength(21);
    }

    // No account charged without a file: once any refund still owed is made, the charges left
    // are exactly the successful executes.
    const successIds = new Set(succeeded.map((o) => String(o.body?.query_id)));
    await waitFor('no query left pending', 30_000, async () => {
      const rows = await pgQuery<{ pending: number }>(postgres.url, `select count(*)::int as pending from queries where account_id = $1 and status = 'pending'`, [accountId]);
      return rows[0]!.pending === 0 ? true : undefined;
    }, 250);
    const queries = await pgQuery<{ query_id: string; status: string; file_key: string | null }>(postgres.url, 'select query_id, status, file_key from queries where account_id = $1', [accountId]);
    expect(new Set(queries.filter((q) => q.status === 'completed').map((q) => q.query_id))).toEqual(successIds);
    const ledger = await pgQuery<{ kind: string; query_id: string | null; credits: number }>(
      postgres.url,
      `select kind, query_id, (free_credits + purchased_credits)::int as credits from ledger_entries where account_id = $1 and kind in ('charge', 'refund')`,
      [accountId],
    );
    const net = new Map<string, number>();
    for (const e of ledger) net.set(e.query_id!, (net.get(e.query_id!) ?? 0) + e.credits);
    for (const [queryId, credits] of net) expect({ queryId, credits }).toEqual({ queryId, credits: successIds.has(queryId) ? -1 : 0 });
    expect([...successIds].every((id) => net.get(id) === -1)).toBe(true);
    const refunds = ledger.filter((e) => e.kind === 'refund').length;
    expect(refunds).toBe(queries.filter((q) => q.status === 'failed').length);
    const credits = await (await spq.call('/account/credits', { key })).json();
    expect(credits.credits_remaining).toBe(initial - successIds.size);
    expect(await store.ledgerBalance(accountId)).toBe(credits.credits_remaining);
    // The bucket holds a file for every success and none for a refunded query.
    const client = createS3Client(s3.config);
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket }));
    client.destroy();
    expect(listed.IsTruncated).toBe(false);
    const stored = (listed.Contents ?? []).map((o) => o.Key!).filter((k) => k.endsWith('.csv'));
    expect(new Set(stored)).toEqual(new Set([...successIds].map((id) => `${id}.csv`)));
    if (process.env.SPQ_TEST_VERBOSE) {
      const byStatus: Record<string, number> = {};
      for (const o of outcomes) byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
      console.log({ requests: outcomes.length, byStatus, refunds, downMs: restartEnded - restartStarted });
    }
  }, 120_000);
});
