/**
 * The composition root: which adapter serves each port for a given config. PostgreSQL when
 * DATABASE_URL is set (else SQLite in the data dir), Redis when REDIS_URL is set (else in
 * memory), S3 when S3 settings are set (else the local data dir). Only `spq serve`, tests and
 * benchmarks call this; everything else receives the ports.
 */
import { openAccountStore } from '../adapters/db/open-store.ts';
import { loadServerSecret } from '../adapters/db/server-secret.ts';
import { createLocalFileStore } from '../adapters/filestore/local.ts';
import { createS3FileStore } from '../adapters/filestore/s3.ts';
import { openPoolRelease } from '../adapters/pools/release.ts';
import { createMemoryRateLimiter } from '../adapters/ratelimit/memory.ts';
import { createRedisRateLimiter } from '../adapters/ratelimit/redis.ts';
import { ensureDemoRelease } from '../build/ensure-demo.ts';
import type { Config } from '../config.ts';
import { systemClock, type Clock } from '../ports/clock.ts';
import type { FileStore } from '../ports/file-store.ts';
import type { RateLimiter } from '../ports/rate-limiter.ts';
import type { UseCaseDeps } from './deps.ts';

export interface Services extends UseCaseDeps {
  /** One line per port naming its adapter, for the start-up banner. */
  readonly description: readonly string[];
  close(): Promise<void>;
}

/** Base URL of download links served by this process. */
export const publicBaseUrl = (config: Config): string => (config.publicBaseUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '');

function limiterFor(config: Config, log: (line: string) => void): RateLimiter {
  if (config.redisUrl === undefined) return createMemoryRateLimiter();
  return createRedisRateLimiter({ url: config.redisUrl, log: (e) => log(`${e.level}: ${e.msg}${e.err ? ` (${e.err})` : ''}`) });
}

function fileStoreFor(config: Config, secret: string): FileStore {
  if (config.s3 !== undefined) return createS3FileStore(config.s3);
  return createLocalFileStore({ dir: config.dataDir, baseUrl: publicBaseUrl(config), secret });
}

/** Opens every adapter the config names; on failure closes what it had opened. */
export async function composeServices(config: Config, log: (line: string) => void, clock: Clock = systemClock): Promise<Services> {
  const serverSecret = loadServerSecret(config);
  const poolDir = config.poolDir ?? (await ensureDemoRelease(config, log));
  const pools = await openPoolRelease(poolDir);
  const closers: (() => Promise<void>)[] = [() => pools.close()];
  try {
    const accounts = await openAccountStore(config);
    closers.push(() => accounts.close());
    const limiter = limiterFor(config, log);
    closers.push(() => limiter.close());
    const files = fileStoreFor(config, serverSecret);
    const description = [
      `pool release ${pools.version} (${poolDir})`,
      config.databaseUrl ? 'database: PostgreSQL (DATABASE_URL)' : `database: SQLite in ${config.dataDir}`,
      config.redisUrl ? 'rate limits: Redis (REDIS_URL)' : 'rate limits: in memory (this process)',
      config.s3 ? `files: S3 bucket ${config.s3.bucket}` : `files: ${config.dataDir}/files`,
    ];
    return {
      config,
      accounts,
      limiter,
      files,
      pools,
      clock,
      serverSecret,
      description,
      async close() {
        for (const close of closers.reverse()) await close().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    throw error;
  }
}
