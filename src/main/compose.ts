/**
 * The composition root: which adapter serves each port for a given config. PostgreSQL when
 * DATABASE_URL is set (else SQLite in the data dir), Redis when REDIS_URL is set (else in
 * memory), S3 when S3 settings are set (else the local data dir). Only `spq serve`, tests and
 * benchmarks call this; everything else receives the ports. It lives outside src/app so that the
 * use cases never see an adapter, and it never imports the release builder: the demo-pool
 * builder is handed in (`spq serve` passes the release builder's), so serving loads no synthesis.
 */
import { createThreadHasher } from '../adapters/password/hasher-thread.ts';
import type { PasswordHasher } from '../ports/password-hasher.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openAccountStore } from '../adapters/db/open-store.ts';
import { loadServerSecret } from '../adapters/db/server-secret.ts';
import { createLocalFileStore } from '../adapters/filestore/local.ts';
import { createS3FileStore } from '../adapters/filestore/s3.ts';
import { openImplicates } from '../adapters/pools/implicates.ts';
import { openPoolRelease } from '../adapters/pools/release.ts';
import { switchableRelease, type BuildingStatus } from '../adapters/pools/switchable.ts';
import { createSmtpMailer } from '../adapters/mail/smtp.ts';
import { noPayments } from '../adapters/payments/none.ts';
import type { PaymentProvider } from '../ports/payments.ts';
import { createMemoryRateLimiter } from '../adapters/ratelimit/memory.ts';
import { createRedisRateLimiter } from '../adapters/ratelimit/redis.ts';
import { createRedisRevocations } from '../adapters/revocations/redis.ts';
import { InProcessRevocations } from '../app/revocations.ts';
import type { KeyRevocations } from '../ports/key-revocations.ts';
import { newestRelease, poolsRoot } from '../adapters/pools/release-dirs.ts';
import { cryptoRandomness } from '../adapters/randomness/crypto.ts';
import { localScratch } from '../adapters/scratch/local.ts';
import { publicBaseUrl, type Config } from '../config.ts';
import { systemClock, type Clock } from '../ports/clock.ts';
import type { FileStore } from '../ports/file-store.ts';
import type { Mailer } from '../ports/mailer.ts';
import type { PoolRelease, ServedNow } from '../ports/pool-release.ts';
import type { RateLimiter } from '../ports/rate-limiter.ts';
import type { UseCaseDeps } from '../app/deps.ts';

export interface Services extends UseCaseDeps {
  /** Password hashing on the service's own bounded threads (the account area's). */
  readonly passwords: PasswordHasher;
  readonly instanceId: string;
  /** The served release's directory (its extra implicates live under it). */
  readonly poolDir: string;
  /** One line per port naming its adapter, for the start-up banner. */
  readonly description: readonly string[];
  /**
   * Serves the release in `dir` (opened and checked first) to every request from now on; queries
   * under way finish on the one they started with, which stays open until close.
   */
  switchRelease(dir: string): Promise<void>;
  /** The levels being built in the background, for /readyz and a query at one of them (undefined: none). */
  setBuilding(status: BuildingStatus | undefined): void;
  close(): Promise<void>;
}

export { publicBaseUrl } from '../config.ts';

/**
 * Where the adapters report: start-up progress, and at run time events an operator must see
 * (Redis lost and back). `spq serve` sends them to stderr until it listens, then to its JSON log.
 */
export type ServiceLog = (line: string, level?: 'info' | 'warn') => void;

function limiterFor(config: Config, log: ServiceLog): RateLimiter {
  if (config.redisUrl === undefined) return createMemoryRateLimiter();
  return createRedisRateLimiter({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix, log: (e) => log(`${e.msg}${e.err ? ` (${e.err})` : ''}`, e.level) });
}

/** Revoked keys: a Redis channel when instances share a Redis, else this process's own word. */
function revocationsFor(config: Config, log: ServiceLog): KeyRevocations {
  if (config.redisUrl === undefined) return new InProcessRevocations();
  return createRedisRevocations({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix, log: (e) => log(`${e.msg}${e.err ? ` (${e.err})` : ''}`, e.level) });
}

/** SMTP when SPQ_SMTP_URL is set; else none, and the account area points holders to the operator for reset links. */
function mailerFor(config: Config): Mailer | undefined {
  if (config.mail.smtpUrl === undefined) return undefined;
  return createSmtpMailer({ url: config.mail.smtpUrl, from: config.mail.from ?? `spq <no-reply@${new URL(publicBaseUrl(config)).hostname}>` });
}

/** Stripe when SPQ_PAYMENTS=stripe; else none: the operator grants bundles and the account area says how to reach them. */
async function paymentsFor(config: Config): Promise<PaymentProvider> {
  const stripe = config.payments.stripe;
  if (config.payments.provider !== 'stripe' || stripe === undefined) return noPayments(config.payments.operatorContact);
  // Loaded only when configured: the Stripe library is large, and every start (a restart after a crash too) would pay for it.
  const { createStripePayments } = await import('../adapters/payments/stripe.ts');
  return createStripePayments(stripe);
}

function fileStoreFor(config: Config, secret: string): FileStore {
  // Either way download_url is the service's link: on S3 its route redirects to a presigned URL of
  // the representation the client accepts (compressed, with its length), so the bytes come from the bucket.
  if (config.s3 !== undefined) return createS3FileStore(config.s3, { serviceLinks: { baseUrl: publicBaseUrl(config), secret } });
  return createLocalFileStore({ dir: config.dataDir, baseUrl: publicBaseUrl(config), secret });
}

/**
 * The release directory: SPQ_POOL_DIR; else <dataDir>/pools/<SPQ_POOL_VERSION> when it holds a
 * release; else the newest release in the data dir (the demo pools, built on a fresh data dir).
 * Whichever it is, openPoolRelease then checks it against SPQ_POOL_VERSION and SPQ_POOL_CHECKSUM.
 */
async function poolDirFor(config: Config, log: ServiceLog, demoRelease: DemoReleaseBuilder | undefined): Promise<string> {
  if (config.poolDir !== undefined) return config.poolDir;
  if (config.poolVersion !== undefined) {
    const named = join(poolsRoot(config.dataDir), config.poolVersion);
    if (existsSync(join(named, 'manifest.json'))) return named;
  }
  const newest = await newestRelease(config.dataDir);
  if (newest !== undefined) return newest;
  if (demoRelease === undefined) throw new Error(`refusing to serve: no pool release in ${poolsRoot(config.dataDir)}; build one with \`spq build\` or set SPQ_POOL_DIR`);
  return demoRelease(config, log);
}

/** Builds the demo pools into the data directory and returns the release directory (the release builder's ensureDemoRelease). */
export type DemoReleaseBuilder = (config: Config, log: (line: string) => void) => Promise<string>;

export interface ComposeOptions {
  readonly clock?: Clock;
  /** Called when the data directory holds no release; without it, start-up refuses. */
  readonly demoRelease?: DemoReleaseBuilder;
}

/**
 * SPQ_TEST_EXPORT_DELAY_MS (tests only): each export waits first, so that a test can send a
 * signal while an execute is really in flight. The export itself is untouched.
 */
function withExportDelay(pools: PoolRelease, ms: number, log: ServiceLog): PoolRelease {
  if (ms <= 0) return pools;
  return {
    ...pools,
    async export(request) {
      log(`SPQ_TEST_EXPORT_DELAY_MS: export held for ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      return pools.export(request);
    },
  };
}

/**
 * A release and its implicates, opened to serve (checked against SPQ_POOL_VERSION and
 * SPQ_POOL_CHECKSUM where given). Implicates 2..M open on first use, each checked like the
 * release; the demo's appear while it is served.
 */
async function openServed(config: Config, dir: string, log: ServiceLog, expected: { readonly expectedVersion?: string | undefined; readonly expectedChecksum?: string | undefined }): Promise<ServedNow> {
  let opened: PoolRelease;
  try {
    opened = await openPoolRelease(dir, { ...expected, verify: config.poolVerify });
  } catch (error) {
    // One line that says what was expected, what was found and where (the adapter's message).
    throw new Error(`refusing to serve: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const pools = withExportDelay(opened, config.testExportDelayMs, log);
  return { pools, implicates: openImplicates(dir, pools, { verify: config.poolVerify }) };
}

/** Opens every adapter the config names; on failure closes what it had opened. */
export async function composeServices(config: Config, log: ServiceLog, options: ComposeOptions = {}): Promise<Services> {
  const clock = options.clock ?? systemClock;
  const serverSecret = loadServerSecret(config);
  const poolDir = await poolDirFor(config, log, options.demoRelease);
  const served = switchableRelease(await openServed(config, poolDir, log, { expectedVersion: config.poolVersion, expectedChecksum: config.poolChecksum }));
  const { pools, implicates } = served;
  const closers: (() => Promise<void>)[] = [() => served.close()];
  try {
    const accounts = await openAccountStore(config);
    closers.push(() => accounts.close());
    const limiter = limiterFor(config, log);
    closers.push(() => limiter.close());
    const keyRevocations = revocationsFor(config, log);
    closers.push(() => keyRevocations.close());
    const files = fileStoreFor(config, serverSecret);
    const mailer = mailerFor(config);
    const payments = await paymentsFor(config);
    if (mailer !== undefined) closers.push(() => mailer.close());
    const passwords = createThreadHasher({ threads: config.accountArea.passwordThreads, queue: config.accountArea.passwordQueue });
    closers.push(() => passwords.close());
    const description = [
      `pool release ${pools.version}, checksum ${pools.checksum} (${poolDir}), implicates ${implicates.available().join(', ')}`,
      config.databaseUrl ? 'database: PostgreSQL (DATABASE_URL)' : `database: SQLite in ${config.dataDir}`,
      config.redisUrl ? 'rate limits: Redis (REDIS_URL)' : 'rate limits: in memory (this process)',
      config.redisUrl
        ? `API keys: held in memory, revocations announced on Redis, rechecked every ${config.keyRecheckMs} ms`
        : `API keys: held in memory, rechecked every ${config.keyRecheckMs} ms (revocations by this process at once)`,
      config.s3 ? `files: S3 bucket ${config.s3.bucket}` : `files: ${config.dataDir}/files`,
      mailer?.description ?? 'mail: none (SPQ_SMTP_URL unset): holders ask the operator for reset links',
      payments.name === 'stripe'
        ? `payments: Stripe Checkout, ${config.payments.bundles.length} bundles, webhook at /webhooks/stripe`
        : 'payments: none (SPQ_PAYMENTS unset): the operator adds bundles with `spq admin bundle add`',
    ];
    // This process's id in the instance leases; its scratch directory carries it (maintenance.ts).
    const instanceId = cryptoRandomness.id('ins');
    return {
      config,
      accounts,
      limiter,
      keyRevocations,
      files,
      pools,
      implicates,
      clock,
      mailer,
      passwords,
      payments,
      serverSecret,
      randomness: cryptoRandomness,
      scratch: localScratch(join(config.dataDir, 'tmp', instanceId)),
      instanceId,
      poolDir,
      description,
      async switchRelease(dir) {
        served.switchTo(await openServed(config, dir, log, {}));
      },
      setBuilding: (status) => served.setBuilding(status),
      async close() {
        for (const close of closers.reverse()) await close().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    throw error;
  }
}
