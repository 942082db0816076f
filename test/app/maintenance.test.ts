import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_TIMEOUT_MS, recoverPendingQueries, startSweeper } from '../../src/app/maintenance.ts';
import { newId } from '../../src/core/keys.ts';
import { startTestServer, type TestServer } from '../http/harness.ts';

let s: TestServer;
const log = { info: () => undefined, error: () => undefined };

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s.close());

describe('crash recovery', () => {
  const pendingQuery = async (accountId: string) => {
    const queryId = newId('qry');
    const charged = await s.store.charge({
      accountId,
      queryId,
      credits: 2,
      now: s.clock.now(),
      query: { executedAt: s.clock.now(), datasetType: 'persons', geographySelections: ['Burnley'], nObservations: 10, metadata: { output_format: 'csv' }, fileKey: null, downloadExpires: new Date(s.clock.ms + 7 * 86_400_000) },
    });
    expect(charged.ok).toBe(true);
    return queryId;
  };

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
});
