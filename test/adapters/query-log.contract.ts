/**
 * The QueryLog contract (history, usage, crash recovery and file expiry, instance leases): every
 * implementation runs it, SQLite and PostgreSQL over real connections and the in-memory fake,
 * through account-store.contract.ts (test/adapters/db/*.test.ts), on a database of its own.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/core/keys.ts';
import { at, chargeRequest, DAY, HOUR, NOW, suiteDatabase, type StoreHarness } from './store-contract-support.ts';

export function queryLogContract(name: string, harness: StoreHarness): void {
  describe(`QueryLog contract: ${name}`, () => {
    const { store, newAccount, expectConsistent } = suiteDatabase(harness);
    describe('history', () => {
      it('pages completed queries newest first, filters by dataset type, and stays per account', async () => {
        const account = await newAccount();
        await store.grantCredits({ accountId: account.accountId, credits: 1000, now: NOW });
        const ids: string[] = [];
        for (let i = 0; i < 25; i++) {
          const request = chargeRequest(account.accountId, 1, at(i * 1000), {}, i % 3 === 0 ? 'dwellings' : 'persons');
          await store.charge(request);
          await store.completeQuery(request.queryId, `files/${i}.csv`);
          ids.push(request.queryId);
        }
        // A pending and a failed query are not part of the history.
        await store.charge(chargeRequest(account.accountId, 1, at(100_000)));
        const failed = chargeRequest(account.accountId, 1, at(100_001));
        await store.charge(failed);
        await store.refundQuery(failed.queryId, at(100_002), 'x');

        const newestFirst = [...ids].reverse();
        const page1 = await store.history({ accountId: account.accountId, page: 1, perPage: 10 });
        expect(page1.total).toBe(25);
        expect(page1.items.map((q) => q.queryId)).toEqual(newestFirst.slice(0, 10));
        const page3 = await store.history({ accountId: account.accountId, page: 3, perPage: 10 });
        expect(page3.items.map((q) => q.queryId)).toEqual(newestFirst.slice(20));
        const past = await store.history({ accountId: account.accountId, page: 4, perPage: 10 });
        expect(past).toEqual({ items: [], total: 25 });

        const dwellings = await store.history({ accountId: account.accountId, page: 1, perPage: 100, datasetType: 'dwellings' });
        expect(dwellings.total).toBe(9);
        expect(dwellings.items.every((q) => q.datasetType === 'dwellings')).toBe(true);
        expect(dwellings.items.map((q) => q.queryId)).toEqual(newestFirst.filter((_, i) => (24 - i) % 3 === 0));

        const stranger = await newAccount();
        expect(await store.history({ accountId: stranger.accountId, page: 1, perPage: 10 })).toEqual({ items: [], total: 0 });
        expect(await store.getQuery(stranger.accountId, ids[0]!)).toBeUndefined();
        expect((await store.getQuery(account.accountId, ids[0]!))?.fileKey).toBe('files/0.csv');
        await expectConsistent(account.accountId, at(200_000));
      });
    });

    describe('usage', () => {
      it('lists completed queries since a moment, newest first, with the key that ran each (null for none) and whether it was test data', async () => {
        const account = await newAccount();
        await store.grantCredits({ accountId: account.accountId, credits: 100, now: NOW });
        const run = async (offset: number, keyId: string | null, complete = true, metadata?: Record<string, unknown>) => {
          const request = chargeRequest(account.accountId, 1, at(offset));
          await store.charge({ ...request, query: { ...request.query, keyId, ...(metadata ? { metadata } : {}) } });
          if (complete) await store.completeQuery(request.queryId, `files/${request.queryId}.csv`);
          return request.queryId;
        };
        const before = await run(-3 * DAY, 'key_old');
        const a = await run(-DAY, 'key_aaaaaaaaaaaaaaaaaaaa');
        const b = await run(-HOUR, null, true, { test_data: true, seed: '1' });
        await run(-HOUR + 1, 'key_pending', false);
        const since = await store.usageSince({ accountId: account.accountId, since: at(-2 * DAY), limit: 10 });
        // chargeRequest asks for credits × 500 records in two places.
        expect(since).toEqual([
          { queryId: b, executedAt: at(-HOUR), keyId: null, nObservations: 500, places: 2, creditCost: 1, testData: true },
          { queryId: a, executedAt: at(-DAY), keyId: 'key_aaaaaaaaaaaaaaaaaaaa', nObservations: 500, places: 2, creditCost: 1, testData: false },
        ]);
        expect((await store.usageSince({ accountId: account.accountId, since: at(-2 * DAY), limit: 1 })).map((q) => q.queryId)).toEqual([b]);
        expect((await store.getQuery(account.accountId, before))?.keyId).toBe('key_old');
        const stranger = await newAccount();
        expect(await store.usageSince({ accountId: stranger.accountId, since: at(-10 * DAY), limit: 10 })).toEqual([]);
      });
    });

    describe('crash recovery and file expiry', () => {
      it('lists pending queries older than a moment, and expired files until they are marked deleted', async () => {
        const account = await newAccount();
        const old = chargeRequest(account.accountId, 1, at(-2 * HOUR));
        const recent = chargeRequest(account.accountId, 1, NOW);
        await store.charge(old);
        await store.charge(recent);
        const pending = (await store.pendingQueriesBefore(at(-HOUR))).map((q) => q.queryId);
        expect(pending).toContain(old.queryId);
        expect(pending).not.toContain(recent.queryId);

        await store.completeQuery(old.queryId, 'files/old.parquet');
        const expiresAt = old.query.downloadExpires;
        expect((await store.expiredFiles(expiresAt, 1000)).map((q) => q.queryId)).not.toContain(old.queryId);
        const afterExpiry = new Date(expiresAt.getTime() + 1);
        expect((await store.expiredFiles(afterExpiry, 1000)).map((q) => q.queryId)).toContain(old.queryId);
        await store.markFileDeleted(old.queryId, afterExpiry);
        await store.markFileDeleted(old.queryId, at(30 * DAY)); // the first deletion time stays
        expect((await store.expiredFiles(afterExpiry, 1000)).map((q) => q.queryId)).not.toContain(old.queryId);
        expect((await store.getQuery(account.accountId, old.queryId))?.fileDeletedAt).toEqual(afterExpiry);
      });

      it('instance leases: the pending queries of an instance whose lease lapsed or is gone, and only those', async () => {
        const account = await newAccount();
        await store.grantCredits({ accountId: account.accountId, credits: 10, now: NOW });
        const [alive, dying, released] = [newId('ins'), newId('ins'), newId('ins')];
        await store.renewInstanceLease({ instanceId: alive, until: at(15_000), now: NOW });
        await store.renewInstanceLease({ instanceId: dying, until: at(15_000), now: NOW });
        await store.renewInstanceLease({ instanceId: released, until: at(15_000), now: NOW });
        const ofAlive = chargeRequest(account.accountId, 1, NOW, { instanceId: alive });
        const ofDying = chargeRequest(account.accountId, 1, NOW, { instanceId: dying });
        const ofReleased = chargeRequest(account.accountId, 1, NOW, { instanceId: released });
        const completed = chargeRequest(account.accountId, 1, NOW, { instanceId: dying });
        const legacy = chargeRequest(account.accountId, 1, NOW);
        for (const r of [ofAlive, ofDying, ofReleased, completed, legacy]) expect((await store.charge(r)).ok).toBe(true);
        expect(await store.completeQuery(completed.queryId, 'files/done.csv')).toBe(true);
        // Retried completion of the same file is still a success.
        expect(await store.completeQuery(completed.queryId, 'files/done.csv')).toBe(true);
        const lapsed = async (now: Date) => (await store.pendingQueriesOfLapsedInstances(now)).map((q) => q.queryId).filter((id) => [ofAlive, ofDying, ofReleased, completed, legacy].some((r) => r.queryId === id)).sort();

        expect(await lapsed(at(10_000))).toEqual([]);
        await store.releaseInstanceLease(released);
        expect(await lapsed(at(10_000))).toEqual([ofReleased.queryId]);
        // Only the live instance renews; 20 s later the other lease has lapsed.
        await store.renewInstanceLease({ instanceId: alive, until: at(35_000), now: at(20_000) });
        expect(await lapsed(at(20_000))).toEqual([ofDying.queryId, ofReleased.queryId].sort());
        // Recovery refunds only what is still pending: a query completed meanwhile keeps its charge and file.
        await store.refundQuery(completed.queryId, at(20_000), 'interrupted', { onlyIfPending: true });
        expect(await store.getQuery(account.accountId, completed.queryId)).toMatchObject({ status: 'completed', fileKey: 'files/done.csv' });
        // Once refunded they are no longer pending, so recovery never refunds twice.
        await store.refundQuery(ofDying.queryId, at(20_000), 'interrupted', { onlyIfPending: true });
        await store.refundQuery(ofReleased.queryId, at(20_000), 'interrupted', { onlyIfPending: true });
        await store.refundQuery(ofReleased.queryId, at(20_000), 'interrupted', { onlyIfPending: true });
        expect(await store.completeQuery(ofDying.queryId, 'files/too-late.csv')).toBe(false);
        expect(await lapsed(at(20_000))).toEqual([]);
        expect(await lapsed(at(40_000))).toEqual([ofAlive.queryId]);
        // Refunded queries are listed until their files are marked deleted; completed ones never.
        const mine = new Set([ofDying.queryId, ofReleased.queryId, completed.queryId, ofAlive.queryId]);
        const failedWithFiles = async () => (await store.failedQueriesWithFiles(at(1000), 10_000)).map((q) => q.queryId).filter((id) => mine.has(id)).sort();
        expect(await failedWithFiles()).toEqual([ofDying.queryId, ofReleased.queryId].sort());
        expect((await store.failedQueriesWithFiles(at(-1000), 10_000)).map((q) => q.queryId)).not.toContain(ofDying.queryId);
        await store.markFileDeleted(ofDying.queryId, at(21_000));
        expect(await failedWithFiles()).toEqual([ofReleased.queryId]);
        expect((await expectConsistent(account.accountId)).creditsRemaining).toBe(15 - 3);
      });
    });
  });
}
