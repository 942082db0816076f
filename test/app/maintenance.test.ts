import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectFailedFiles, holdInstanceLease, PARTIAL_IDLE_MS, PENDING_TIMEOUT_MS, recoverPendingQueries, removeOrphanTemps, startSweeper } from '../../src/app/maintenance.ts';
import { executeQuery } from '../../src/app/execute.ts';
import { newId } from '../../src/core/keys.ts';
import { startTestServer, type TestServer } from '../http/harness.ts';

let s: TestServer;
const log = { info: () => undefined, error: () => undefined };

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s.close());

const pendingQuery = async (accountId: string, instanceId?: string) => {
  const queryId = newId('qry');
  const charged = await s.store.charge({
    accountId,
    queryId,
    credits: 2,
    now: s.clock.now(),
    query: { executedAt: s.clock.now(), datasetType: 'persons', geographySelections: ['Burnley'], nObservations: 10, metadata: { output_format: 'csv' }, fileKey: null, downloadExpires: new Date(s.clock.ms + 7 * 86_400_000) },
    ...(instanceId !== undefined ? { instanceId } : {}),
  });
  expect(charged.ok).toBe(true);
  return queryId;
};

describe('crash recovery', () => {
  it('runs on the sweeper timer too, so a query left by an instance that never restarts is refunded', async () => {
    const { accountId } = await s.account({ grant: 10 });
    await pendingQuery(accountId);
    s.clock.advance(PENDING_TIMEOUT_MS + 1000);
    expect(await s.store.ledgerBalance(accountId)).toBe(15 - 2);
    const stop = startSweeper(s.deps, log, 60_000);
    await stop(); // waits for the first run, which starts at once
    expect(await s.store.ledgerBalance(accountId)).toBe(15);
    expect((await s.store.credits(accountId, s.clock.now())).creditsRemaining).toBe(15);
  });

  it('refunds queries left pending longer than the timeout, and only those', async () => {
    const { accountId } = await s.account({ grant: 10 });
    const pending = () => pendingQuery(accountId);
    await pending(); // "crashed" long ago
    s.clock.advance(PENDING_TIMEOUT_MS + 1000);
    await pending(); // still running somewhere
    expect((await s.store.credits(accountId, s.clock.now())).creditsRemaining).toBe(15 - 4);
    expect(await recoverPendingQueries(s.deps, log)).toBe(1);
    expect((await s.store.credits(accountId, s.clock.now())).creditsRemaining).toBe(15 - 2);
    expect(await recoverPendingQueries(s.deps, log)).toBe(0);
    expect(await s.store.ledgerBalance(accountId)).toBe(13);
  });

  it('an instance holding its lease refunds, within a renewal, the executes of an instance whose lease lapsed, and gives its lease up when stopped', async () => {
    const { accountId } = await s.account({ grant: 10 });
    const [dead, alive, me] = [newId('ins'), newId('ins'), newId('ins')];
    const leaseMs = 1000;
    for (const id of [dead, alive]) await s.store.renewInstanceLease({ instanceId: id, until: new Date(s.clock.ms + leaseMs), now: s.clock.now() });
    const ofDead = await pendingQuery(accountId, dead);
    const ofAlive = await pendingQuery(accountId, alive);
    const release = await holdInstanceLease(s.deps, log, me, leaseMs);
    expect(await s.store.liveInstances(s.clock.now())).toEqual(expect.arrayContaining([dead, alive, me]));
    // Time passes: only `alive` renews; `dead` has stopped.
    s.clock.advance(2 * leaseMs);
    await s.store.renewInstanceLease({ instanceId: alive, until: new Date(s.clock.ms + leaseMs), now: s.clock.now() });
    await new Promise((resolve) => setTimeout(resolve, leaseMs / 4 + 300)); // one renewal tick of `me`
    expect((await s.store.getQuery(accountId, ofDead))?.status).toBe('failed');
    expect((await s.store.getQuery(accountId, ofAlive))?.status).toBe('pending');
    expect(await s.store.ledgerBalance(accountId)).toBe(15 - 2);
    await release();
    expect(await s.store.liveInstances(s.clock.now())).not.toContain(me);
    await s.store.refundQuery(ofAlive, s.clock.now(), 'test clean-up');
  });
});

describe('orphaned temp files', () => {
  it('are removed at start-up, except the directories of instances whose lease is live', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spq-tmp-'));
    try {
      await mkdir(join(dir, 'ins_live'));
      await writeFile(join(dir, 'ins_live', 'qry_a.csv'), 'running');
      await mkdir(join(dir, 'ins_dead'));
      await writeFile(join(dir, 'ins_dead', 'qry_b.parquet'), 'partial');
      await writeFile(join(dir, 'qry_c.parquet'), 'partial, from before instance directories');
      expect(await removeOrphanTemps(dir, new Set(['ins_live']))).toBe(2);
      expect(await readdir(dir)).toEqual(['ins_live']);
      expect(await removeOrphanTemps(dir)).toBe(1);
      expect(await readdir(dir)).toEqual([]);
      expect(await removeOrphanTemps(join(dir, 'missing'))).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('partial copies in the file store', () => {
  it('a sweeper run removes those a kill left idle past PARTIAL_IDLE_MS, and not one still being written', async () => {
    const files = join(s.dataDir, 'files');
    await mkdir(files, { recursive: true });
    const idleSince = new Date(s.clock.ms - PARTIAL_IDLE_MS - 60_000);
    await writeFile(join(files, 'qry_crashed.csv.zst.partial-0a1b2c3d4e5f'), 'half a frame');
    await utimes(join(files, 'qry_crashed.csv.zst.partial-0a1b2c3d4e5f'), idleSince, idleSince);
    const writing = new Date(s.clock.ms - 1000);
    await writeFile(join(files, 'qry_running.csv.gz.partial-0a1b2c3d4e5f'), 'being written');
    await utimes(join(files, 'qry_running.csv.gz.partial-0a1b2c3d4e5f'), writing, writing);
    await startSweeper(s.deps, log, 60_000)(); // stopping waits for the first run, which starts at once
    const left = (await readdir(files)).filter((n) => n.includes('.partial-'));
    expect(left).toEqual(['qry_running.csv.gz.partial-0a1b2c3d4e5f']);
    await rm(join(files, left[0]!));
  });
});

describe('an instance that stalled past its lease', () => {
  it('finds its execute refunded by another instance: 503 (retry), no file handed out, nothing charged, and the key runs afresh', async () => {
    const { accountId } = await s.account({ grant: 10 });
    const before = (await s.store.credits(accountId, s.clock.now())).creditsRemaining;
    const filesBefore = (await s.listFiles()).sort();
    // Another instance's recovery refunds the query between the export and the completion.
    const accounts = {
      ...s.store,
      completeQuery: async (queryId: string, fileKey: string) => {
        await s.store.refundQuery(queryId, s.clock.now(), 'interrupted: refunded by crash recovery');
        return s.store.completeQuery(queryId, fileKey);
      },
    };
    const query = { geography_level: 'suburb', geography_selections: ['Burnley'], dataset_type: 'persons', n_observations: 10, output_format: 'csv' } as const;
    const stalled = await executeQuery({ ...s.deps, accounts, instanceId: newId('ins') }, log, { accountId, query, idempotencyKey: 'stalled-1', requestId: 'req_test' });
    expect(stalled.ok).toBe(false);
    if (stalled.ok) return;
    expect(stalled.error.code).toBe('service_unavailable');
    expect(stalled.error.detail).toMatch(/Idempotency-Key runs it afresh/);
    expect((await s.store.credits(accountId, s.clock.now())).creditsRemaining).toBe(before);
    expect((await s.listFiles()).sort()).toEqual(filesBefore);
    const retried = await executeQuery(s.deps, log, { accountId, query, idempotencyKey: 'stalled-1', requestId: 'req_test2' });
    expect(retried.ok).toBe(true);
    expect((await s.store.credits(accountId, s.clock.now())).creditsRemaining).toBe(before - 1);
    expect(await s.store.ledgerBalance(accountId)).toBe(before - 1);
  });
});

describe('files of refunded queries', () => {
  it('are deleted once the query has settled, and the query marked, so no stored file lacks a completed query', async () => {
    const { accountId } = await s.account({ grant: 10 });
    const queryId = await pendingQuery(accountId);
    await s.store.refundQuery(queryId, s.clock.now(), 'interrupted: refunded by crash recovery');
    // An upload that landed after the refund (a stalled instance that then died).
    const dir = await mkdtemp(join(tmpdir(), 'spq-late-'));
    await writeFile(join(dir, 'late.csv'), 'a,b\n1,2\n');
    await s.deps.files.put(`${queryId}.csv`, join(dir, 'late.csv'), 'text/csv');
    await rm(dir, { recursive: true, force: true });
    expect(await s.listFiles()).toContain(`${queryId}.csv`);
    expect(await collectFailedFiles(s.deps, log, 60_000)).toBe(0); // not settled yet
    s.clock.advance(61_000);
    expect(await collectFailedFiles(s.deps, log, 60_000)).toBeGreaterThanOrEqual(1);
    expect(await s.listFiles()).not.toContain(`${queryId}.csv`);
    expect((await s.store.failedQueriesWithFiles(s.clock.now(), 1000)).map((q) => q.queryId)).not.toContain(queryId);
  });
});

