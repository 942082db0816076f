/**
 * The Ledger contract (grants, bundles, tiers, charges, idempotency keys, refunds, the weekly reset;
 * a model-based sequence; concurrent charges, also across two store instances): every
 * implementation runs it, SQLite and PostgreSQL over real connections and the in-memory fake,
 * through account-store.contract.ts (test/adapters/db/*.test.ts), on a database of its own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashIdempotencyKey } from '../../src/adapters/db/kysely-account-store.ts';
import { newId } from '../../src/core/keys.ts';
import { currentFreePeriodStart, nextFreeReset } from '../../src/core/ledger/weekly-reset.ts';
import { at, chargeRequest, DAY, HOUR, NOW, suiteDatabase, type StoreHarness } from './store-contract-support.ts';

export function ledgerContract(name: string, harness: StoreHarness): void {
  describe(`Ledger contract: ${name}`, () => {
    const db = suiteDatabase(harness);
    const { store, newAccount, expectConsistent } = db;

    describe('the account area’s reads', () => {
      it('lists the ledger newest first, by page, per account; and the bundles newest first', async () => {
        const account = await newAccount();
        const other = await newAccount();
        await store.grantCredits({ accountId: account.accountId, credits: 7, now: at(1000), note: 'support' });
        await store.addBundle({ accountId: account.accountId, credits: 50, days: 30, now: at(2000) });
        await store.addBundle({ accountId: account.accountId, credits: 20, days: 10, now: at(3000) });
        const charged = await store.charge(chargeRequest(account.accountId, 3, at(4000)));
        expect(charged.ok).toBe(true);
        await store.grantCredits({ accountId: other.accountId, credits: 9, now: at(5000) });

        const first = await store.ledger({ accountId: account.accountId, page: 1, perPage: 3 });
        expect(first.total).toBe(5); // the week's allowance, a grant, two bundles, a charge
        expect(first.items.map((e) => [e.kind, e.freeCredits, e.purchasedCredits])).toEqual([
          ['charge', -3, 0],
          ['bundle_purchase', 0, 20],
          ['bundle_purchase', 0, 50],
        ]);
        expect(first.items[0]!.queryId).toMatch(/^qry_/);
        expect(first.items[0]!.createdAt).toEqual(at(4000));
        const second = await store.ledger({ accountId: account.accountId, page: 2, perPage: 3 });
        expect(second.items.map((e) => e.kind)).toEqual(['grant', 'free_allowance']);
        expect(second.items[0]).toMatchObject({ purchasedCredits: 7, note: 'support', queryId: null });
        expect((await store.ledger({ accountId: account.accountId, page: 3, perPage: 3 })).items).toEqual([]);
        expect(new Set(first.items.concat(second.items).map((e) => e.entryId)).size).toBe(5);

        const bundles = await store.bundles(account.accountId);
        expect(bundles.map((b) => [b.credits, b.startsAt, b.expiresAt])).toEqual([
          [20, at(3000), at(3000 + 10 * DAY)],
          [50, at(2000), at(2000 + 30 * DAY)],
        ]);
        expect(await store.bundles(other.accountId)).toEqual([]);
      });

      it('lists entries of one instant in the order they happened: a running balance down the list never dips below zero', async () => {
        const account = await newAccount(); // the opening allowance, at NOW
        await store.grantCredits({ accountId: account.accountId, credits: 2, now: NOW });
        await store.charge(chargeRequest(account.accountId, 7, NOW));
        // A charge in a new week applies the weekly reset in its own transaction, at its own instant.
        const nextWeek = new Date(currentFreePeriodStart(at(7 * DAY)).getTime() + HOUR);
        const late = chargeRequest(account.accountId, 4, nextWeek);
        await store.charge(late);
        await store.refundQuery(late.queryId, nextWeek, 'test');
        const entries = (await store.ledger({ accountId: account.accountId, page: 1, perPage: 10 })).items;
        expect(entries.map((e) => e.kind)).toEqual(['refund', 'charge', 'free_allowance', 'charge', 'grant', 'free_allowance']);
        let balance = await store.ledgerBalance(account.accountId);
        for (const e of entries) {
          expect(balance, e.kind).toBeGreaterThanOrEqual(0);
          balance -= e.freeCredits + e.purchasedCredits;
        }
        expect(balance).toBe(0);
      });
    });

    describe('grants, bundles and tiers', () => {
      it('a grant adds purchased credits and keeps the account free', async () => {
        const account = await newAccount();
        await store.grantCredits({ accountId: account.accountId, credits: 12, now: NOW, note: 'support' });
        const s = await expectConsistent(account.accountId);
        expect(s).toMatchObject({ tier: 'free', creditsRemaining: 17, creditsPurchased: 12, freeCreditsRemaining: 5 });
        await expect(store.grantCredits({ accountId: account.accountId, credits: 0, now: NOW })).rejects.toThrow(RangeError);
        await expect(store.grantCredits({ accountId: account.accountId, credits: 1.5, now: NOW })).rejects.toThrow(RangeError);
      });

      it('a bundle makes the account paid for its duration; its credits outlive it', async () => {
        const account = await newAccount();
        await store.addBundle({ accountId: account.accountId, credits: 100, days: 2, now: NOW });
        const during = await expectConsistent(account.accountId, at(DAY));
        expect(during).toMatchObject({ tier: 'paid', creditsRemaining: 105, creditsPurchased: 100, freeCreditsReset: null });
        const after = await expectConsistent(account.accountId, at(2 * DAY));
        expect(after).toMatchObject({ tier: 'free', creditsRemaining: 105, freeCreditsReset: nextFreeReset(at(2 * DAY)) });
      });

      it('no weekly allowance for a week that starts while paid; it returns the week after the bundle ends', async () => {
        const account = await newAccount();
        await store.addBundle({ accountId: account.accountId, credits: 10, days: 7, now: NOW }); // ends next Wednesday
        const nextWeek = at(6 * DAY); // Tuesday of next week: paid at its Monday
        const s1 = await expectConsistent(account.accountId, nextWeek);
        expect(s1).toMatchObject({ tier: 'paid', freeCreditsRemaining: 0, creditsRemaining: 10 });
        const afterEnd = at(8 * DAY); // Thursday: free again, but this week started paid
        expect(await expectConsistent(account.accountId, afterEnd)).toMatchObject({ tier: 'free', freeCreditsRemaining: 0 });
        const weekAfter = at(13 * DAY);
        expect(await expectConsistent(account.accountId, weekAfter)).toMatchObject({ tier: 'free', freeCreditsRemaining: 5, creditsRemaining: 15 });
      });
    });

    describe('charges', () => {
      it('spend free credits first, then purchased, and write the pending query in the same step', async () => {
        const account = await newAccount();
        await store.grantCredits({ accountId: account.accountId, credits: 10, now: NOW });
        const first = chargeRequest(account.accountId, 3, NOW);
        expect(await store.charge(first)).toEqual({ ok: true, value: { creditsRemaining: 12 } });
        expect(await expectConsistent(account.accountId)).toMatchObject({ freeCreditsRemaining: 2, creditsRemaining: 12, creditsUsed: 3, creditsPurchased: 10 });
        expect(await store.charge(chargeRequest(account.accountId, 4, NOW))).toEqual({ ok: true, value: { creditsRemaining: 8 } });
        expect(await expectConsistent(account.accountId)).toMatchObject({ freeCreditsRemaining: 0, creditsRemaining: 8, creditsUsed: 7 });

        const stored = await store.getQuery(account.accountId, first.queryId);
        expect(stored).toEqual({
          queryId: first.queryId,
          accountId: account.accountId,
          status: 'pending',
          creditCost: 3,
          fileDeletedAt: null,
          keyId: null, // no key named: the account area's builder
          ...first.query,
        });
      });

      it('insufficient credits report required and available and change nothing', async () => {
        const account = await newAccount();
        await store.grantCredits({ accountId: account.accountId, credits: 2, now: NOW });
        const before = await expectConsistent(account.accountId);
        const request = chargeRequest(account.accountId, 8, NOW, { idempotency: { key: 'idem-insufficient', requestHash: 'h1' } });
        expect(await store.charge(request)).toEqual({ ok: false, error: { kind: 'insufficient_credits', required: 8, available: 7 } });
        expect(await expectConsistent(account.accountId)).toEqual(before);
        expect(await store.getQuery(account.accountId, request.queryId)).toBeUndefined();
        // The key was not consumed: the same key can be used once the account can pay.
        await store.grantCredits({ accountId: account.accountId, credits: 1, now: NOW });
        expect((await store.charge({ ...request, queryId: newId('qry') })).ok).toBe(true);
      });

      it('a repeated charge of the same query id never charges twice', async () => {
        const account = await newAccount();
        const request = chargeRequest(account.accountId, 2, NOW);
        expect(await store.charge(request)).toEqual({ ok: true, value: { creditsRemaining: 3 } });
        expect(await store.charge(request)).toEqual({ ok: true, value: { creditsRemaining: 3 } });
        expect(await expectConsistent(account.accountId)).toMatchObject({ creditsRemaining: 3, creditsUsed: 2 });
      });

      it('a zero-credit charge (sandbox) records the query and spends nothing', async () => {
        const account = await newAccount();
        const request = chargeRequest(account.accountId, 0, NOW);
        expect(await store.charge(request)).toEqual({ ok: true, value: { creditsRemaining: 5 } });
        expect((await store.getQuery(account.accountId, request.queryId))?.status).toBe('pending');
        await expectConsistent(account.accountId);
      });
    });

    describe('idempotency keys', () => {
      it('replay, mismatch, in flight, expiry after 24 h, and a fresh run after a failure', async () => {
        const account = await newAccount();
        await store.grantCredits({ accountId: account.accountId, credits: 20, now: NOW });
        const idem = { key: 'k-1', requestHash: 'hash-a' };
        const first = chargeRequest(account.accountId, 2, NOW, { idempotency: idem });
        expect((await store.charge(first)).ok).toBe(true);
        // Stored hashed: the table never holds what the client sent.
        const stored = await harness.storedIdempotencyKeys();
        expect(stored).toContain(hashIdempotencyKey('k-1'));
        expect(stored).not.toContain('k-1');

        // Same key while the first is still pending: in flight, nothing charged.
        expect(await store.charge(chargeRequest(account.accountId, 2, at(1000), { idempotency: idem }))).toEqual({ ok: false, error: { kind: 'idempotency_in_flight' } });
        // Same key, other body: mismatch.
        expect(await store.charge(chargeRequest(account.accountId, 2, at(1000), { idempotency: { key: 'k-1', requestHash: 'hash-b' } }))).toEqual({
          ok: false,
          error: { kind: 'idempotency_mismatch' },
        });

        await store.completeQuery(first.queryId, 'files/first.parquet');
        const replay = await store.charge(chargeRequest(account.accountId, 2, at(HOUR), { idempotency: idem }));
        expect(replay.ok).toBe(false);
        if (!replay.ok && replay.error.kind === 'idempotency_replay') {
          expect(replay.error.query).toMatchObject({ queryId: first.queryId, status: 'completed', fileKey: 'files/first.parquet' });
        } else throw new Error(`expected a replay, got ${JSON.stringify(replay)}`);
        expect((await expectConsistent(account.accountId, at(HOUR))).creditsRemaining).toBe(23);

        // Keys are per account.
        const other = await newAccount();
        expect((await store.charge(chargeRequest(other.accountId, 1, NOW, { idempotency: idem }))).ok).toBe(true);

        // After 24 hours the key is forgotten.
        expect((await store.charge(chargeRequest(account.accountId, 2, at(24 * HOUR + 1), { idempotency: idem }))).ok).toBe(true);

        // A failed (refunded) first attempt lets the same key run again.
        const failing = chargeRequest(account.accountId, 3, NOW, { idempotency: { key: 'k-2', requestHash: 'h' } });
        expect((await store.charge(failing)).ok).toBe(true);
        await store.refundQuery(failing.queryId, NOW, 'writer crashed');
        expect((await store.charge(chargeRequest(account.accountId, 3, at(1), { idempotency: { key: 'k-2', requestHash: 'h' } }))).ok).toBe(true);
        await expectConsistent(account.accountId, at(24 * HOUR + 1));
      });
    });

    describe('refunds', () => {
      it('restore the charge exactly once, however often and however concurrently they are called', async () => {
        const account = await newAccount();
        await store.grantCredits({ accountId: account.accountId, credits: 10, now: NOW });
        const request = chargeRequest(account.accountId, 7, NOW);
        await store.charge(request);
        expect((await expectConsistent(account.accountId)).creditsRemaining).toBe(8);
        await Promise.all(Array.from({ length: 5 }, () => store.refundQuery(request.queryId, at(1000), 'file write failed')));
        await store.refundQuery(request.queryId, at(2000), 'again');
        expect(await expectConsistent(account.accountId)).toMatchObject({ creditsRemaining: 15, freeCreditsRemaining: 5, creditsUsed: 0 });
        expect((await store.getQuery(account.accountId, request.queryId))?.status).toBe('failed');
        // A refunded query cannot be completed afterwards (it would be a free file), and says so.
        expect(await store.completeQuery(request.queryId, 'files/late.csv')).toBe(false);
        expect(await store.getQuery(account.accountId, request.queryId)).toMatchObject({ status: 'failed', fileKey: null });
        await store.refundQuery(newId('qry'), NOW, 'unknown id is a no-op');
      });

      it('after a weekly reset give back the purchased part only', async () => {
        const account = await newAccount();
        await store.grantCredits({ accountId: account.accountId, credits: 10, now: NOW });
        const request = chargeRequest(account.accountId, 7, NOW); // 5 free + 2 purchased
        await store.charge(request);
        const nextWeek = at(7 * DAY);
        await store.refundQuery(request.queryId, nextWeek, 'found pending after restart');
        expect(await expectConsistent(account.accountId, nextWeek)).toMatchObject({ freeCreditsRemaining: 5, creditsRemaining: 15 });
      });
    });

    describe('the weekly reset', () => {
      it('restores 5 free credits each Monday without carrying any over', async () => {
        const account = await newAccount();
        await store.charge(chargeRequest(account.accountId, 3, NOW));
        expect((await expectConsistent(account.accountId)).freeCreditsRemaining).toBe(2);
        const sundayNight = new Date(nextFreeReset(NOW).getTime() - 1);
        expect((await expectConsistent(account.accountId, sundayNight)).freeCreditsRemaining).toBe(2);
        const monday = nextFreeReset(NOW);
        expect(await expectConsistent(account.accountId, monday)).toMatchObject({ freeCreditsRemaining: 5, creditsRemaining: 5, freeCreditsReset: nextFreeReset(monday) });
        // Unused credits do not accumulate over idle weeks.
        expect((await expectConsistent(account.accountId, at(30 * DAY))).freeCreditsRemaining).toBe(5);
      });

      it('is applied inside a charge too (a charge in a new week can use the new allowance)', async () => {
        const account = await newAccount();
        await store.charge(chargeRequest(account.accountId, 5, NOW));
        const nextWeek = new Date(currentFreePeriodStart(at(7 * DAY)).getTime() + HOUR);
        expect(await store.charge(chargeRequest(account.accountId, 4, nextWeek))).toEqual({ ok: true, value: { creditsRemaining: 1 } });
        await expectConsistent(account.accountId, nextWeek);
      });
    });

    describe('against a model', () => {
      type Op =
        | { readonly op: 'grant'; readonly n: number }
        | { readonly op: 'charge'; readonly n: number }
        | { readonly op: 'refund'; readonly pick: number }
        | { readonly op: 'advance'; readonly hours: number };
      const ops = fc.array(
        fc.oneof(
          fc.record({ op: fc.constant('grant' as const), n: fc.integer({ min: 1, max: 6 }) }),
          fc.record({ op: fc.constant('charge' as const), n: fc.integer({ min: 0, max: 8 }) }),
          fc.record({ op: fc.constant('refund' as const), pick: fc.nat() }),
          fc.record({ op: fc.constant('advance' as const), hours: fc.integer({ min: 0, max: 200 }) }),
        ),
        { maxLength: 14 },
      );

      it('any sequence of grants, charges, refunds and weeks keeps balances, model and ledger equal', async () => {
        await fc.assert(
          fc.asyncProperty(ops, async (sequence: Op[]) => {
            let now = NOW;
            const account = await newAccount(now);
            // The model: free bucket per week (no bundles here), purchased bucket, charges made.
            let free = 5;
            let purchased = 0;
            let week = currentFreePeriodStart(now).getTime();
            const charges: { queryId: string; fromFree: number; fromPurchased: number; week: number; refunded: boolean }[] = [];
            const roll = () => {
              const w = currentFreePeriodStart(now).getTime();
              if (w > week) (week = w), (free = 5);
            };
            for (const step of sequence) {
              if (step.op === 'advance') {
                now = new Date(now.getTime() + step.hours * HOUR);
                roll();
              } else if (step.op === 'grant') {
                await store.grantCredits({ accountId: account.accountId, credits: step.n, now });
                purchased += step.n;
              } else if (step.op === 'charge') {
                const request = chargeRequest(account.accountId, step.n, now);
                const result = await store.charge(request);
                roll();
                if (free + purchased >= step.n) {
                  const fromFree = Math.min(free, step.n);
                  free -= fromFree;
                  purchased -= step.n - fromFree;
                  charges.push({ queryId: request.queryId, fromFree, fromPurchased: step.n - fromFree, week, refunded: false });
                  expect(result).toEqual({ ok: true, value: { creditsRemaining: free + purchased } });
                } else {
                  expect(result).toEqual({ ok: false, error: { kind: 'insufficient_credits', required: step.n, available: free + purchased } });
                }
              } else if (charges.length > 0) {
                const target = charges[step.pick % charges.length]!;
                await store.refundQuery(target.queryId, now, 'model');
                roll();
                if (!target.refunded) {
                  target.refunded = true;
                  purchased += target.fromPurchased;
                  if (target.week === week) free += target.fromFree;
                }
              }
              const summary = await store.credits(account.accountId, now);
              roll();
              expect({ free: summary.freeCreditsRemaining, total: summary.creditsRemaining }).toEqual({ free, total: free + purchased });
              expect(await store.ledgerBalance(account.accountId)).toBe(free + purchased);
            }
          }),
          { numRuns: 25 },
        );
      });
    });

    describe('concurrency', () => {
      async function accountThatCanPay(credits: number) {
        const account = await newAccount();
        await store.grantCredits({ accountId: account.accountId, credits: credits - 5, now: NOW });
        expect((await store.credits(account.accountId, NOW)).creditsRemaining).toBe(credits);
        return account;
      }

      async function expectExactly37(accountId: string, results: { ok: boolean; error?: { kind: string } }[]) {
        expect(results.filter((r) => r.ok)).toHaveLength(37);
        expect(results.filter((r) => !r.ok).every((r) => r.error?.kind === 'insufficient_credits')).toBe(true);
        const s = await expectConsistent(accountId);
        expect(s).toMatchObject({ creditsRemaining: 0, freeCreditsRemaining: 0, creditsUsed: 37 });
        const rows = (await store.pendingQueriesBefore(at(DAY))).filter((q) => q.accountId === accountId);
        expect(rows).toHaveLength(37);
      }

      it('200 concurrent charges on an account that can pay for 37: exactly 37 succeed', async () => {
        const account = await accountThatCanPay(37);
        const results = await Promise.all(Array.from({ length: 200 }, () => store.charge(chargeRequest(account.accountId, 1, NOW))));
        await expectExactly37(account.accountId, results);
      });

      it('the same across two store instances on one database', async () => {
        const account = await accountThatCanPay(37);
        const other = db.another();
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? store : other).charge(chargeRequest(account.accountId, 1, NOW))),
        );
        await expectExactly37(account.accountId, results);
      });

      it('concurrent charges of different sizes never overdraw', async () => {
        const account = await accountThatCanPay(50);
        const sizes = Array.from({ length: 60 }, (_, i) => 1 + (i % 4));
        const results = await Promise.all(sizes.map((n) => store.charge(chargeRequest(account.accountId, n, NOW))));
        const spent = sizes.reduce((sum, n, i) => sum + (results[i]!.ok ? n : 0), 0);
        const s = await expectConsistent(account.accountId);
        expect(s.creditsRemaining).toBe(50 - spent);
        expect(s.creditsUsed).toBe(spent);
        // A charge was refused only when the balance could not pay it, and the balance only falls:
        // so what is left cannot pay for any refused charge either.
        for (let i = 0; i < sizes.length; i++) if (!results[i]!.ok) expect(sizes[i]!).toBeGreaterThan(s.creditsRemaining);
        expect(results.some((r) => !r.ok)).toBe(true);
      });
    });
  });
}
