/**
 * A real listening spq server for black-box HTTP tests: the fixture pool release in a temporary
 * data directory, the adapters of the stack under test (SPQ_TEST_STACK, see stack.ts: SQLite,
 * memory limiter and local files by default; PostgreSQL, Redis and S3 for scaleout), a clock the
 * test moves and the log lines captured.
 */
import { createThreadHasher } from '../../src/adapters/password/hasher-thread.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { openImplicates } from '../../src/adapters/pools/implicates.ts';
import { openPoolRelease } from '../../src/adapters/pools/release.ts';
import { cryptoRandomness } from '../../src/adapters/randomness/crypto.ts';
import { localScratch } from '../../src/adapters/scratch/local.ts';
import { Drain } from '../../src/app/drain.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Mailer } from '../../src/ports/mailer.ts';
import type { PaymentProvider } from '../../src/ports/payments.ts';
import { generateApiKey, hashApiKey, last4, newId, type KeyKind } from '../../src/core/keys.ts';
import { buildApp, type AppDeps } from '../../src/http/app.ts';
import type { AccountStore } from '../../src/ports/account-store.ts';
import type { PoolRelease } from '../../src/ports/pool-release.ts';
import { buildFixtureRelease, type FixtureSuburb } from '../adapters/pools/fixture.ts';
import { openStack, STACK, type Stack } from './stack.ts';
import { freePort } from '../support/free-port.ts';
import { callApi } from '../support/call-api.ts';

export { STACK, type Stack } from './stack.ts';

export const SECRET = 'http-test-server-secret-0123456789';

export class TestClock {
  constructor(public ms: number) {}
  now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestServer {
  /** Which adapters serve the ports (SPQ_TEST_STACK). */
  readonly stack: Stack;
  readonly baseUrl: string;
  readonly app: FastifyInstance;
  readonly deps: AppDeps;
  readonly store: AccountStore;
  readonly pools: PoolRelease;
  readonly clock: TestClock;
  readonly dataDir: string;
  readonly logs: string[];
  /** Keys of the files the file store holds (the data dir's files/, or the test's S3 bucket). */
  listFiles(): Promise<string[]>;
  /** A new account with one live key (free tier, 5 weekly credits) plus `grant` purchased credits. */
  account(options?: { grant?: number; bundle?: { credits: number; days: number }; kind?: KeyKind }): Promise<{ accountId: string; key: string; keyId: string }>;
  addKey(accountId: string, kind?: KeyKind): Promise<{ key: string; keyId: string }>;
  /** fetch against the server with the key as bearer token. */
  call(path: string, init?: { method?: string; key?: string | undefined; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
}


/** A wall-clock-near Monday 10:00 Sydney time (2026-11-23 = Monday, UTC+11), so weekly resets are predictable. */
export const MONDAY_MORNING_SYDNEY = Date.parse('2026-11-22T23:00:00Z');

export async function startTestServer(
  options: {
    rateLimits?: Partial<Config['rateLimits']>;
    config?: Partial<Config>;
    startMs?: number;
    /** Implicates the fixture release holds (default 1). */
    implicates?: number;
    /** The fixture release's areas (default FIXTURE_SUBURBS). */
    areas?: readonly FixtureSuburb[];
    /** Serve this release directory (e.g. the demo's, test/support/demo-release.ts) instead of the fixture. */
    releaseDir?: string;
    /** Sends the account area's reset links (e.g. SMTP to a test server); none by default. */
    mailer?: Mailer;
    /** Sells bundles (e.g. the Stripe adapter pointed at a stand-in); none by default. */
    payments?: PaymentProvider;
  } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'spq-http-'));
  const releaseDir = options.releaseDir ?? await buildFixtureRelease(join(dataDir, 'pools'), { implicates: options.implicates ?? 1, ...(options.areas ? { areas: options.areas } : {}) });
  const pools = await openPoolRelease(releaseDir, { threads: 1 });
  const implicates = openImplicates(releaseDir, pools, { threads: 1 });
  const base = loadConfig({ SPQ_DATA_DIR: dataDir, SPQ_LOG_LEVEL: 'info' });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config: Config = {
    ...base,
    port,
    publicBaseUrl: baseUrl,
    smallSuburbThreshold: 100,
    ...options.config,
    rateLimits: { ...base.rateLimits, perMinute: 1000, freePerHour: 1000, paidPerHour: 1000, failedAuthPerMinute: 1000, downloadsPerMinute: 1000, ...options.rateLimits },
  };
  const clock = new TestClock(options.startMs ?? MONDAY_MORNING_SYDNEY);
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter((l) => l.length > 0));
      done();
    },
  });
  const ports = await openStack(STACK, { dataDir, baseUrl, secret: SECRET, now: () => clock.ms, log: (line) => logs.push(line) });
  const store = ports.accounts;
  const deps: AppDeps = {
    config,
    accounts: store,
    limiter: ports.limiter,
    keyRevocations: ports.keyRevocations,
    files: ports.files,
    pools,
    implicates,
    clock,
    serverSecret: SECRET,
    randomness: cryptoRandomness,
    scratch: localScratch(join(dataDir, 'tmp', 'shared')),
    logger: { level: 'info', stream },
    drain: new Drain(),
    ...(options.mailer ? { mailer: options.mailer } : {}),
    passwords: createThreadHasher(),
    ...(options.payments ? { payments: options.payments } : {}),
  };
  const app = buildApp(deps);
  app.addHook('onClose', async () => deps.passwords.close());
  await app.listen({ port, host: '127.0.0.1' });

  const addKey = async (accountId: string, kind: KeyKind = 'live') => {
    const key = generateApiKey(kind);
    const keyId = newId('key');
    await store.addKey({ accountId, keyId, keyHash: hashApiKey(key, SECRET), prefix: key.slice(0, 9), last4: last4(key), now: clock.now() });
    return { key, keyId };
  };

  return {
    stack: STACK,
    baseUrl,
    app,
    deps,
    store,
    pools,
    clock,
    dataDir,
    logs,
    listFiles: () => ports.listFiles(),
    addKey,
    async account(opts = {}) {
      const account = await store.createAccount({ email: `${newId('acc')}@example.org`, now: clock.now() });
      if (opts.grant) await store.grantCredits({ accountId: account.accountId, credits: opts.grant, now: clock.now() });
      if (opts.bundle) await store.addBundle({ accountId: account.accountId, ...opts.bundle, now: clock.now() });
      const { key, keyId } = await addKey(account.accountId, opts.kind);
      return { accountId: account.accountId, key, keyId };
    },
    call: (path, init) => callApi(baseUrl, path, init),
    async close() {
      await app.close();
      await implicates.close();
      await pools.close();
      await ports.close();
      await options.mailer?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A query body with defaults a test overrides. */
export const query = (overrides: Record<string, unknown> = {}) => ({
  geography_level: 'suburb',
  geography_selections: ['Richmond (VIC)'],
  dataset_type: 'persons',
  n_observations: 100,
  ...overrides,
});

/**
 * A test file's server and one funded account, started before its tests and closed after them:
 * `const ctx = serverWithAccount(50)`, then `ctx.s` and `ctx.key` inside the tests.
 */
export function serverWithAccount(grant: number): { readonly s: TestServer; readonly key: string } {
  let server: TestServer | undefined;
  let key = '';
  beforeAll(async () => {
    server = await startTestServer();
    key = (await server.account({ grant })).key;
  });
  afterAll(async () => server?.close());
  return {
    get s() {
      if (!server) throw new Error('the test server is not started yet (use it inside a test)');
      return server;
    },
    get key() {
      return key;
    },
  };
}
