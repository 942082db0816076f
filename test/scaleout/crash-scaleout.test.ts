/**
 * The crash harness (crash-harness.ts) on the scale-out stack: two `spq serve` processes on
 * PostgreSQL, Redis and S3 with a 5-second instance lease, one killed at a time (sometimes both
 * down for a moment) SPQ_CRASH_KILLS times (50) under parallel load; the live one refunds a dead
 * one's executes when its lease lapses, so retried keys run afresh within seconds.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresAccountStore } from '../../src/adapters/db/postgres.ts';
import { createS3Client } from '../../src/adapters/filestore/s3.ts';
import { buildFixtureRelease } from '../adapters/pools/fixture.ts';
import { createDatabase } from '../support/postgres.ts';
import { s3EnvOf, startS3Server } from '../support/s3-server.ts';
import { generator, KILLS, LEASE_SECONDS, LIMITS, paidAccounts, runHarness, SEED, type StackUnderTest } from './crash-harness.ts';
import { childEnv, clearRedisPrefix, freePort, startSpq } from './stack.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean().catch(() => undefined);
});


describe('crash harness: kill -9 at random points of executes under parallel load', () => {
  it(`scale-out (two instances, PostgreSQL, Redis, S3, ${LEASE_SECONDS} s lease): ${KILLS} kills, then every key answered and the books balance`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spq-crash-scaleout-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const [releaseDir, db, s3] = await Promise.all([buildFixtureRelease(join(dir, 'pools')), createDatabase('spq_crash'), startS3Server({ bucket: 'spq-crash', directory: join(dir, 's3') })]);
    cleanups.push(() => db.drop());
    cleanups.push(() => s3.stop());
    const prefix = `spq-test-crash-${randomBytes(5).toString('hex')}:`;
    cleanups.push(() => clearRedisPrefix(prefix));
    const secret = `crash-harness-secret-${randomBytes(16).toString('hex')}`;
    const store = createPostgresAccountStore({ url: db.url });
    cleanups.push(() => store.close());
    const accounts = await paidAccounts(store, secret, 3);
    const base = childEnv({
      DATABASE_URL: db.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      SPQ_REDIS_PREFIX: prefix,
      ...s3EnvOf(s3),
      SPQ_SERVER_SECRET: secret,
      SPQ_POOL_DIR: releaseDir,
      SPQ_INSTANCE_LEASE_SECONDS: String(LEASE_SECONDS),
      ...LIMITS,
    });
    const envOf = (i: number) => ({ ...base, SPQ_DATA_DIR: join(dir, `instance-${i}`) });
    const ports = [await freePort(), await freePort()];
    const stack: StackUnderTest = {
      name: 'scaleout',
      instances: await Promise.all([0, 1].map((i) => startSpq(envOf(i), ports[i]!))),
      async restart(i) {
        this.instances[i] = await startSpq(envOf(i), ports[i]!);
      },
      store,
      accounts,
      async listStoredFiles() {
        const client = createS3Client(s3.config);
        const keys: string[] = [];
        // The test server fails to page (a truncated listing is an InternalError), so list by the
        // first character of the query id: well under 1,000 keys each. A prefix that still fills a
        // page fails the test rather than hiding keys.
        for (const c of '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz') {
          const page = await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket, Prefix: `qry_${c}` }));
          expect(page.IsTruncated).toBe(false);
          keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        }
        const others = await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket, MaxKeys: 1000, StartAfter: 'qry_zzzzzzzzzzzzzzzzzzzzz' }));
        keys.push(...(others.Contents ?? []).map((o) => o.Key!));
        client.destroy();
        return keys;
      },
      tmpDirs: [join(dir, 'instance-0', 'tmp'), join(dir, 'instance-1', 'tmp')],
      close: async () => undefined,
    };
    cleanups.push(async () => {
      for (const p of stack.instances) await p.stop();
    });
    const random = generator(SEED + 1);
    const figures = await runHarness(stack, random);
    process.stderr.write(`crash harness, scale-out: ${JSON.stringify(figures)} (seed ${SEED + 1})\n`);
    expect(figures.jobs).toBeGreaterThan(KILLS);
  }, 900_000);
});
