/**
 * The adapters behind a test server, chosen by SPQ_TEST_STACK:
 *
 *   embedded (default)  SQLite in the data dir, rate limits in memory, files in the data dir
 *   scaleout            a fresh PostgreSQL database, Redis under a fresh key prefix, a fresh S3 bucket
 *
 * The black-box API suite runs once per stack with the same assertions (issue 4). Scale-out
 * uses PostgreSQL and Redis on this machine and the S3-compatible test server
 * (test/support/s3-server.ts): the one at SPQ_TEST_S3_ENDPOINT when set (.ci/run starts one),
 * else one started in this process per test server. Everything a test server creates is removed
 * when it closes, so test files can run in parallel against the same services.
 */
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Redis } from 'ioredis';
import { createPostgresAccountStore } from '../../src/adapters/db/postgres.ts';
import { createSqliteAccountStore } from '../../src/adapters/db/sqlite.ts';
import { createLocalFileStore } from '../../src/adapters/filestore/local.ts';
import { createS3Client, createS3FileStore } from '../../src/adapters/filestore/s3.ts';
import { createMemoryRateLimiter } from '../../src/adapters/ratelimit/memory.ts';
import { createRedisRateLimiter } from '../../src/adapters/ratelimit/redis.ts';
import { createRedisRevocations } from '../../src/adapters/revocations/redis.ts';
import { InProcessRevocations } from '../../src/app/revocations.ts';
import type { S3Config } from '../../src/config.ts';
import type { AccountStore } from '../../src/ports/account-store.ts';
import type { FileStore } from '../../src/ports/file-store.ts';
import type { KeyRevocations } from '../../src/ports/key-revocations.ts';
import type { RateLimiter } from '../../src/ports/rate-limiter.ts';
import { createDatabase } from '../support/postgres.ts';
import { S3_TEST_CREDENTIALS, startS3Server } from '../support/s3-server.ts';

export type Stack = 'embedded' | 'scaleout';


function stackOf(value: string | undefined): Stack {
  if (value === undefined || value === '' || value === 'embedded') return 'embedded';
  if (value === 'scaleout') return 'scaleout';
  throw new Error(`SPQ_TEST_STACK must be "embedded" or "scaleout", not "${value}"`);
}

/** The stack of this test run. */
export const STACK: Stack = stackOf(process.env.SPQ_TEST_STACK);

const REDIS_URL = 'redis://127.0.0.1:6379';

export interface StackPorts {
  readonly accounts: AccountStore;
  readonly limiter: RateLimiter;
  readonly files: FileStore;
  /** Word of revoked keys: this process (embedded) or a Redis channel under the test's prefix (scale-out). */
  readonly keyRevocations: KeyRevocations;
  /** Keys of the result and dictionary files the store holds now. */
  listFiles(): Promise<string[]>;
  /** Closes the adapters (the limiter too) and removes the database, keys and bucket made for them. */
  close(): Promise<void>;
}

export interface StackOptions {
  readonly dataDir: string;
  readonly baseUrl: string;
  readonly secret: string;
  /** The test's clock (ms): it signs presigned URLs, and the S3 server judges their expiry by it. */
  readonly now: () => number;
  readonly log: (line: string) => void;
}

export async function openStack(stack: Stack, options: StackOptions): Promise<StackPorts> {
  return stack === 'embedded' ? openEmbedded(options) : openScaleOut(options);
}

async function openEmbedded({ dataDir, baseUrl, secret }: StackOptions): Promise<StackPorts> {
  const accounts = createSqliteAccountStore({ file: join(dataDir, 'spq.sqlite') });
  await accounts.migrate();
  const limiter = createMemoryRateLimiter();
  const keyRevocations = new InProcessRevocations();
  return {
    accounts,
    limiter,
    keyRevocations,
    files: createLocalFileStore({ dir: dataDir, baseUrl, secret }),
    listFiles: () => readdir(join(dataDir, 'files')).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? [] : Promise.reject(e))),
    async close() {
      await accounts.close();
      await limiter.close();
      await keyRevocations.close();
    },
  };
}


async function openScaleOut(options: StackOptions): Promise<StackPorts> {
  const id = randomBytes(6).toString('hex');
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((e: unknown) => options.log(`cleanup failed: ${String(e)}`));
  };
  try {
    const database = await createDatabase('spq_t');
    cleanups.push(() => database.drop());
    const accounts = createPostgresAccountStore({ url: database.url, maxConnections: 10 });
    cleanups.push(() => accounts.close());
    await accounts.migrate();

    const keyPrefix = `spq:t:${id}:`;
    cleanups.push(() => deleteRedisKeys(keyPrefix));
    const limiter = createRedisRateLimiter({ url: REDIS_URL, keyPrefix, log: (e) => options.log(JSON.stringify({ limiter: e })) });
    cleanups.push(() => limiter.close());
    const keyRevocations = createRedisRevocations({ url: REDIS_URL, keyPrefix, log: (e) => options.log(JSON.stringify({ revocations: e })) });
    cleanups.push(() => keyRevocations.close());

    const bucket = await openBucket(`spq-t-${id}`, options.now, cleanups);
    // As `spq serve` composes it: links through the service, which redirects to the bucket.
    const files = createS3FileStore(bucket.config, { now: options.now, serviceLinks: { baseUrl: options.baseUrl, secret: options.secret } });
    cleanups.push(async () => files.destroy());
    return { accounts, limiter, keyRevocations, files, listFiles: bucket.list, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function deleteRedisKeys(prefix: string): Promise<void> {
  // The limiter's TTLs run on real time while the tests move a fake clock: delete its keys here.
  const redis = new Redis(REDIS_URL);
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await redis.del(...keys);
    }
  } finally {
    await redis.quit();
  }
}

/**
 * A bucket of this test server's own, on the S3 server at SPQ_TEST_S3_ENDPOINT or on one started
 * here. Either way presigned URLs are judged by the test's clock: in process through `now`; on
 * the shared server by registering a loopback clock URL for the bucket (the links are signed with
 * the test clock, which is days away from real time, so a real-time judge would refuse them).
 */
async function openBucket(name: string, now: () => number, cleanups: (() => Promise<unknown>)[]): Promise<{ config: S3Config; list: () => Promise<string[]> }> {
  const endpoint = process.env.SPQ_TEST_S3_ENDPOINT;
  let config: S3Config;
  if (endpoint === undefined || endpoint === '') {
    const server = await startS3Server({ bucket: name, now });
    cleanups.push(() => server.stop());
    config = server.config;
  } else {
    config = {
      endpoint,
      region: process.env.SPQ_TEST_S3_REGION ?? 'us-east-1',
      bucket: name,
      accessKeyId: process.env.SPQ_TEST_S3_ACCESS_KEY_ID ?? S3_TEST_CREDENTIALS.accessKeyId,
      secretAccessKey: process.env.SPQ_TEST_S3_SECRET_ACCESS_KEY ?? S3_TEST_CREDENTIALS.secretAccessKey,
      forcePathStyle: true,
    };
    const clock = await serveClock(now);
    cleanups.push(
      () =>
        new Promise((resolve) => {
          clock.server.closeAllConnections();
          clock.server.close(resolve);
        }),
    );
    const registered = await fetch(`${endpoint}/-/clock/${name}`, { method: 'PUT', body: clock.url });
    if (registered.status !== 204) {
      throw new Error(`${endpoint} did not take a test clock (${registered.status}): SPQ_TEST_S3_ENDPOINT must be the test S3 server of test/support/s3-server.ts (.ci/s3-server.sh)`);
    }
    cleanups.push(() => fetch(`${endpoint}/-/clock/${name}`, { method: 'DELETE' }));
  }
  const client = createS3Client(config);
  cleanups.push(async () => client.destroy());
  const list = async () => {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: name, ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.NextContinuationToken;
    } while (token !== undefined);
    return keys;
  };
  if (endpoint !== undefined && endpoint !== '') {
    await client.send(new CreateBucketCommand({ Bucket: name }));
    cleanups.push(async () => {
      for (const key of await list()) await client.send(new DeleteObjectCommand({ Bucket: name, Key: key }));
      await client.send(new DeleteBucketCommand({ Bucket: name }));
    });
  }
  return { config, list };
}

/** A loopback HTTP endpoint answering with the test clock's time in ms. */
async function serveClock(now: () => number): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(String(now())));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}
