/**
 * Issue 14, item 3: every branch of executeQuery, with the ports it calls faked in memory — the
 * account store, file store, scratch space, randomness and clock fakes pass the same contract
 * suites as the real adapters (test/adapters). The pool release's look-ups and sampling are the
 * real reader's over the fixture release, opened once before the tests; its export is replaced by
 * one that "writes" into the memory scratch space, so no test here touches a database, a file
 * or the network.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPoolRelease } from '../../src/adapters/pools/release.ts';
import { createMemoryRateLimiter } from '../../src/adapters/ratelimit/memory.ts';
import { seededRandomness } from '../../src/adapters/randomness/seeded.ts';
import { executeQuery } from '../../src/app/execute.ts';
import { dictionaryFileKey, householdFileKey, resultFileKey } from '../../src/app/format.ts';
import type { UseCaseDeps } from '../../src/app/deps.ts';
import { loadConfig } from '../../src/config.ts';
import { StoreUnavailableError, type AccountStore } from '../../src/ports/account-store.ts';
import type { ExportBundleRequest, ExportRequest, PoolRelease } from '../../src/ports/pool-release.ts';
import { buildFixtureRelease } from '../adapters/pools/fixture.ts';
import { memoryAccountStore } from '../fakes/account-store.ts';
import { memoryFileStore } from '../fakes/file-store.ts';
import { memoryScratch } from '../fakes/scratch.ts';
import { TestClock } from '../http/harness.ts';

let dir: string;
let release: PoolRelease;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spq-execute-unit-'));
  release = await openPoolRelease(await buildFixtureRelease(join(dir, 'pools')), { threads: 1 });
});
afterAll(async () => {
  await release?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const QUERY = { geography_level: 'suburb', geography_selections: ['Burnley'], dataset_type: 'persons', n_observations: 20, output_format: 'csv' } as const;

interface World {
  deps: UseCaseDeps;
  accounts: AccountStore;
  files: ReturnType<typeof memoryFileStore>;
  written: Map<string, Buffer>;
  exports: ExportRequest[];
  bundles: ExportBundleRequest[];
  logs: string[];
  accountId: string;
  /** Replace to make the export fail, or to act while it runs. */
  onExport: (request: ExportRequest) => Promise<void>;
}

let w: World;
const log = { info: (_f: Record<string, unknown>, m: string) => w.logs.push(m), error: (_f: Record<string, unknown>, m: string) => w.logs.push(m) };
const run = (query: Record<string, unknown> = QUERY, extra: { idempotencyKey?: string; sandbox?: boolean } = {}) =>
  executeQuery(w.deps, log, { accountId: w.accountId, query: query as never, requestId: 'req_unit', ...extra });
const balance = async () => (await w.accounts.credits(w.accountId, w.deps.clock.now())).creditsRemaining;

beforeEach(async () => {
  const written = new Map<string, Buffer>();
  const accounts = memoryAccountStore();
  const clock = new TestClock(Date.parse('2026-11-25T03:00:00Z'));
  const files = memoryFileStore({
    baseUrl: 'http://spq.test',
    secret: 'unit-secret',
    take: async (path) => {
      const bytes = written.get(path);
      if (bytes === undefined) throw new Error(`no scratch file ${path}`);
      written.delete(path);
      return bytes;
    },
  });
  const bundles: ExportBundleRequest[] = [];
  const world: Omit<World, 'deps' | 'accountId'> = { accounts, files, written, exports: [], bundles, logs: [], onExport: async () => undefined };
  const pools: PoolRelease = {
    ...release,
    async export(request) {
      world.exports.push(request);
      await w.onExport(request);
      const rows = request.parts.reduce((n, p) => n + p.rows.length, 0);
      written.set(request.destPath, Buffer.from(`${rows} rows of ${request.dataset}`));
      if (request.format !== 'csv') return { rows, bytes: 10 };
      written.set(`${request.destPath}.dictionary.json`, Buffer.from('{}'));
      return { rows, bytes: 10, dictionaryPath: `${request.destPath}.dictionary.json` };
    },
    async exportBundle(request) {
      bundles.push(request);
      const rows = request.files.reduce((n, f) => n + f.parts.reduce((m, p) => m + p.rows.length, 0), 0);
      written.set(request.destPath, Buffer.from(`zip of ${request.files.map((f) => f.name).join(', ')}`));
      return { rows, bytes: 10 };
    },
  };
  const account = await accounts.createAccount({ email: 'unit@example.org', now: clock.now() });
  await accounts.grantCredits({ accountId: account.accountId, credits: 10, now: clock.now() });
  w = {
    ...world,
    accountId: account.accountId,
    deps: {
      config: { ...loadConfig({ SPQ_DATA_DIR: '/nonexistent' }), smallSuburbThreshold: 100 },
      accounts,
      limiter: createMemoryRateLimiter(),
      files,
      pools,
      clock,
      serverSecret: 'unit-secret',
      randomness: seededRandomness(1),
      scratch: memoryScratch(),
    },
  };
});

describe('executeQuery, branch by branch', () => {
  it('success: charges once, stores the file and (csv) its dictionary, and links both; the query id is the injected one', async () => {
    const expectedId = seededRandomness(1).id('qry');
    const result = await run();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({ query_id: expectedId, status: 'completed', credit_cost: 1, credits_remaining: 14 });
    expect(result.value.download_url).toMatch(/^http:\/\/spq\.test\/downloads\//);
    expect(result.value.dictionary_url).toMatch(/^http:\/\/spq\.test\/downloads\//);
    expect(w.files.keys()).toEqual([dictionaryFileKey(expectedId), resultFileKey(expectedId, 'csv')].sort());
    expect(w.written.size).toBe(0);
    expect(await w.accounts.ledgerBalance(w.accountId)).toBe(14);
    expect((await w.accounts.getQuery(w.accountId, expectedId))?.status).toBe('completed');
  });

  it('parquet: no dictionary file (it is inside the file)', async () => {
    const result = await run({ ...QUERY, output_format: 'parquet' });
    expect(result.ok && result.value.dictionary_url).toBeFalsy();
    expect(w.files.keys()).toHaveLength(1);
  });

  it('household: one zip of the dwellings drawn with all their families and persons', async () => {
    const result = await run({ ...QUERY, dataset_type: 'dwellings', n_observations: 5, linked_records: 'household' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(w.files.keys()).toEqual([householdFileKey(result.value.query_id)]);
    expect(result.value.dictionary_url).toBeUndefined();
    const [bundle] = w.bundles;
    expect(bundle!.files.map((f) => f.dataset)).toEqual(['dwellings', 'families', 'persons']);
    expect(bundle!.files[0]!.parts[0]!.rows).toHaveLength(5);
    expect(bundle!.files[2]!.parts[0]!.rows.length).toBeGreaterThanOrEqual(5);
  });

  it('overlapping selections: a record is drawn once in the file (postcodes 3065 and 3068 both hold Fitzroy)', async () => {
    const result = await run({ ...QUERY, geography_level: 'postcode', geography_selections: ['3065', '3068'], n_observations: 40 });
    expect(result.ok).toBe(true);
    const parts = w.exports[0]!.parts;
    expect(parts.map((p) => p.rows.length)).toEqual([40, 40]);
    const rows = parts.flatMap((p) => [...p.rows]);
    expect(new Set(rows).size).toBe(80);
  });

  it('an invalid query is refused before anything is charged', async () => {
    const result = await run({ ...QUERY, geography_selections: ['Nowhere Special'] });
    expect(!result.ok && result.error.code).toBe('validation_error');
    expect(await balance()).toBe(15);
    expect(w.exports).toHaveLength(0);
  });

  it('too few credits: 402 with what is available, nothing exported', async () => {
    // Spend all but nothing: 15 credits on one earlier query.
    const now = w.deps.clock.now();
    const spent = await w.accounts.charge({
      accountId: w.accountId,
      queryId: w.deps.randomness.id('qry'),
      credits: 15,
      now,
      query: { executedAt: now, datasetType: 'persons', geographySelections: ['Burnley'], nObservations: 7500, metadata: {}, fileKey: null, downloadExpires: now },
    });
    expect(spent.ok).toBe(true);
    const result = await run();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: 'insufficient_credits', extra: { credits_remaining: 0 } });
    expect(w.exports).toHaveLength(0);
  });

  it('sandbox: charges nothing, and refuses more than its cap', async () => {
    const ok = await run(QUERY, { sandbox: true });
    expect(ok.ok && ok.value.credit_cost).toBe(0);
    expect(await balance()).toBe(15);
    const over = await run({ ...QUERY, n_observations: 101 }, { sandbox: true });
    expect(!over.ok && over.error.code).toBe('validation_error');
  });

  it('Idempotency-Key: a replay returns the first result uncharged; another body is refused; a running first attempt is a conflict', async () => {
    const first = await run(QUERY, { idempotencyKey: 'k-1' });
    const again = await run(QUERY, { idempotencyKey: 'k-1' });
    expect(first.ok && again.ok && again.value.query_id === first.value.query_id).toBe(true);
    expect(await balance()).toBe(14);
    const other = await run({ ...QUERY, n_observations: 21 }, { idempotencyKey: 'k-1' });
    expect(!other.ok && other.error.code).toBe('validation_error');
    // While the first attempt of k-2 is still exporting, a second one is told to wait.
    let second: Awaited<ReturnType<typeof run>> | undefined;
    w.onExport = async () => {
      w.onExport = async () => undefined;
      second = await run(QUERY, { idempotencyKey: 'k-2' });
    };
    await run(QUERY, { idempotencyKey: 'k-2' });
    expect(second && !second.ok && second.error.code).toBe('conflict');
    expect(await balance()).toBe(13);
  });

  it('an export that fails is refunded: 500 with the request id, no file, the temp files gone', async () => {
    w.onExport = async () => {
      throw new Error('disk full');
    };
    const result = await run();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('internal_error');
    expect(result.error.detail).toMatch(/nothing was charged.*req_unit/);
    expect(await balance()).toBe(15);
    expect(await w.accounts.ledgerBalance(w.accountId)).toBe(15);
    expect(w.files.keys()).toEqual([]);
    expect(w.logs).toContain('execute failed after the charge; refunding');
  });

  it('a store that fails is refunded the same way', async () => {
    w.deps = { ...w.deps, files: { ...w.files, put: async () => Promise.reject(new Error('bucket gone')) } };
    const result = await run();
    expect(!result.ok && result.error.code).toBe('internal_error');
    expect(await balance()).toBe(15);
  });

  it('a query refunded by crash recovery while it ran (a stalled instance) is 503, and its file is not handed out', async () => {
    w.onExport = async (request) => {
      const pending = await w.accounts.pendingQueriesBefore(new Date(w.deps.clock.now().getTime() + 1));
      for (const q of pending) await w.accounts.refundQuery(q.queryId, w.deps.clock.now(), 'interrupted', { onlyIfPending: true });
      expect(request.destPath).toMatch(/^\/scratch\//);
    };
    const result = await run();
    expect(!result.ok && result.error.code).toBe('service_unavailable');
    expect(await balance()).toBe(15);
    expect(w.files.keys()).toEqual([]);
  });

  it('a stalled instance whose query recovery refunded, and whose scratch file it cleared, is 503 too, not 500', async () => {
    w.onExport = async () => {
      const pending = await w.accounts.pendingQueriesBefore(new Date(w.deps.clock.now().getTime() + 1));
      for (const q of pending) await w.accounts.refundQuery(q.queryId, w.deps.clock.now(), 'interrupted', { onlyIfPending: true });
      throw Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' });
    };
    const result = await run();
    expect(!result.ok && result.error.code).toBe('service_unavailable');
    expect(!result.ok && result.error.detail).toMatch(/nothing was charged/);
    expect(await balance()).toBe(15);
    expect(w.files.keys()).toEqual([]);
  });

  it('a database out of reach while completing is 503 (retryable), refunded, and its file not handed out', async () => {
    const accounts = w.accounts;
    w.deps = {
      ...w.deps,
      accounts: { ...accounts, completeQuery: async () => Promise.reject(new StoreUnavailableError('the database is out of reach: timeout exceeded when trying to connect')) },
    };
    const result = await run();
    expect(!result.ok && result.error.code).toBe('service_unavailable');
    expect(!result.ok && result.error.detail).toMatch(/out of reach .* nothing was charged/);
    expect(await balance()).toBe(15);
    expect(w.files.keys()).toEqual([]);
  });

  it('when the ledger cannot refund, the 500 says so and the refund is retried in the background', async () => {
    let failures = 1;
    const accounts = w.accounts;
    w.deps = {
      ...w.deps,
      accounts: {
        ...accounts,
        refundQuery: async (...args: Parameters<AccountStore['refundQuery']>) => {
          if (failures-- > 0) throw new Error('connection lost');
          return accounts.refundQuery(...args);
        },
      },
    };
    w.onExport = async () => {
      throw new Error('disk full');
    };
    const result = await run();
    expect(!result.ok && result.error.detail).toMatch(/will be refunded automatically/);
    expect(await balance()).toBe(14);
    await new Promise((resolve) => setTimeout(resolve, 600)); // the first background retry comes after 250 ms
    expect(await balance()).toBe(15);
    expect(w.logs).toContain('refund made in the background');
  });

  it('when the charge itself fails, the error propagates and a refund is still attempted (the commit may have happened)', async () => {
    const accounts = w.accounts;
    let refunds = 0;
    w.deps = {
      ...w.deps,
      accounts: {
        ...accounts,
        charge: async () => Promise.reject(new Error('connection reset')),
        refundQuery: async (...args: Parameters<AccountStore['refundQuery']>) => {
          refunds++;
          return accounts.refundQuery(...args);
        },
      },
    };
    await expect(run()).rejects.toThrow('connection reset');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(refunds).toBeGreaterThanOrEqual(1);
    expect(await balance()).toBe(15);
  });
});
