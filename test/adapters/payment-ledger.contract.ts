/**
 * The PaymentLedger contract: webhook events applied to the credit ledger exactly once. A
 * completed checkout grants its bundle with the payment's id; refunds and a lost dispute take the
 * unspent credits back (never below zero, the rest recorded as shortfall); bad checkouts (unknown
 * account or bundle, another currency, a changed price) are recorded with the reason and change
 * nothing; duplicates, any order, and two store instances at once end in the same books. A
 * fast-check property replays 1,000 duplicated and reordered deliveries over two instances.
 * Run on SQLite and PostgreSQL by test/adapters/db/payment-ledger.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SoldBundle } from '../../src/core/ledger/payments.ts';
import type { AccountStore } from '../../src/ports/account-store.ts';
import type { PaymentLedger } from '../../src/ports/payment-ledger.ts';
import type { PaymentEvent } from '../../src/ports/payments.ts';
import { at, chargeRequest, NOW, suiteDatabase, type StoreHarness } from './store-contract-support.ts';

export const CATALOGUE: readonly SoldBundle[] = [
  { id: 'starter', credits: 100, days: 30, price: 2500, currency: 'aud' },
  { id: 'research', credits: 500, days: 90, price: 10000, currency: 'aud' },
];

let serial = 0;
const nextId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++serial).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

export function checkoutEvent(accountId: string | null, paymentId: string, extra: { bundle?: string; paid?: number; currency?: string; quoted?: number; quotedCurrency?: string } = {}): PaymentEvent {
  const bundle = CATALOGUE.find((b) => b.id === (extra.bundle ?? 'starter'));
  return {
    kind: 'checkout_completed',
    eventId: nextId('evt'),
    type: 'checkout.session.completed',
    paymentId,
    accountId,
    checkout: {
      bundleId: extra.bundle ?? 'starter',
      quotedPrice: extra.quoted ?? bundle?.price ?? 1,
      quotedCurrency: extra.quotedCurrency ?? 'aud',
      amountPaid: extra.paid ?? bundle?.price ?? 1,
      currency: extra.currency ?? 'aud',
    },
    receiptUrl: `https://pay.stripe.com/receipts/${paymentId}`,
    checkoutId: nextId('cs_test'),
  };
}
export const refundEvent = (paymentId: string, amountRefunded: number): PaymentEvent => ({ kind: 'refund', eventId: nextId('evt'), type: 'charge.refunded', paymentId, amountRefunded });
export const disputeEvent = (paymentId: string, lost: boolean): PaymentEvent => ({ kind: 'dispute_closed', eventId: nextId('evt'), type: 'charge.dispute.closed', paymentId, lost });

/** Records and applies, as the webhook does. */
async function deliver(payments: PaymentLedger, event: PaymentEvent, now = NOW) {
  await payments.recordEvent(event, now);
  return payments.applyEvent(event.eventId, CATALOGUE, now);
}

const paymentsOf = (store: AccountStore): PaymentLedger => {
  if (!store.payments) throw new Error('this store has no payment ledger');
  return store.payments;
};

export function paymentLedgerContract(name: string, harness: StoreHarness): void {
  describe(`PaymentLedger contract: ${name}`, () => {
    const db = suiteDatabase(harness);
    const { store, newAccount, expectConsistent } = db;
    const payments = () => paymentsOf(store);

    it('a completed checkout grants its bundle once, however often it is delivered, with the payment id in the ledger', async () => {
      const { accountId } = await newAccount();
      const event = checkoutEvent(accountId, nextId('pi'));
      expect(await deliver(payments(), event)).toBe('applied');
      expect(await deliver(payments(), event, at(1000))).toBe('applied');
      expect(await payments().recordEvent(event, at(2000))).toBe('applied');
      const summary = await expectConsistent(accountId);
      expect(summary).toMatchObject({ tier: 'paid', creditsRemaining: 105, creditsPurchased: 100 });
      const ledger = await store.ledger({ accountId, page: 1, perPage: 10 });
      expect(ledger.items.filter((e) => e.kind === 'bundle_purchase')).toHaveLength(1);
      expect(ledger.items[0]!.note).toContain(event.kind === 'checkout_completed' ? event.paymentId : '');
      const [purchase] = await payments().purchases(accountId);
      expect(purchase).toMatchObject({ credits: 100, days: 30, amount: 2500, currency: 'aud', bundleId: 'starter', creditsReversed: 0, shortfall: 0 });
      expect(purchase!.receiptUrl).toMatch(/^https:\/\/pay\.stripe\.com\/receipts\//);
      expect((await store.bundles(accountId))).toHaveLength(1);
    });

    it('refuses, with the reason recorded, an unknown account, an unknown bundle, another currency, a changed price or another amount: no credit moves', async () => {
      const { accountId } = await newAccount();
      const cases: [PaymentEvent, string][] = [
        [checkoutEvent('acc_doesnotexist000000000', nextId('pi')), 'unknown_account'],
        [checkoutEvent(null, nextId('pi')), 'unknown_account'],
        [checkoutEvent(accountId, nextId('pi'), { bundle: 'gold' }), 'unknown_bundle'],
        [checkoutEvent(accountId, nextId('pi'), { currency: 'usd' }), 'currency_mismatch'],
        [checkoutEvent(accountId, nextId('pi'), { quoted: 2000, paid: 2000 }), 'price_changed'],
        [checkoutEvent(accountId, nextId('pi'), { paid: 100 }), 'amount_mismatch'],
      ];
      for (const [event, reason] of cases) {
        expect(await deliver(payments(), event), reason).toBe('refused');
        const recorded = (await payments().events('refused')).find((e) => e.eventId === event.eventId);
        expect(recorded?.reason, reason).toMatch(new RegExp(`^${reason}: `));
      }
      expect(await expectConsistent(accountId)).toMatchObject({ tier: 'free', creditsRemaining: 5, creditsPurchased: 0 });
      expect(await store.bundles(accountId)).toEqual([]);
    });

    it('a refund after part of the bundle was spent takes back the unspent credits only and records the shortfall; the paid tier ends', async () => {
      const { accountId } = await newAccount();
      const paymentId = nextId('pi');
      await deliver(payments(), checkoutEvent(accountId, paymentId));
      // 5 free credits go first, then 65 of the bundle's 100.
      expect((await store.charge(chargeRequest(accountId, 70, at(1000)))).ok).toBe(true);
      expect(await deliver(payments(), refundEvent(paymentId, 2500), at(2000))).toBe('applied');
      const summary = await expectConsistent(accountId, at(3000));
      expect(summary).toMatchObject({ creditsRemaining: 0, tier: 'free' });
      const [purchase] = await payments().purchases(accountId);
      expect(purchase).toMatchObject({ creditsReversed: 35, shortfall: 65, amountRefunded: 2500 });
    });

    it('partial refunds take back their share; a later event of the same total takes nothing more; a lost dispute takes the rest; a won one nothing', async () => {
      const { accountId } = await newAccount();
      const paymentId = nextId('pi');
      await deliver(payments(), checkoutEvent(accountId, paymentId));
      await deliver(payments(), refundEvent(paymentId, 1000), at(1));
      expect((await expectConsistent(accountId)).creditsRemaining).toBe(65);
      await deliver(payments(), refundEvent(paymentId, 500), at(2)); // an older, smaller total arriving late
      expect((await expectConsistent(accountId)).creditsRemaining).toBe(65);
      expect(await deliver(payments(), disputeEvent(paymentId, false), at(3))).toBe('ignored');
      expect((await expectConsistent(accountId)).creditsRemaining).toBe(65);
      await deliver(payments(), disputeEvent(paymentId, true), at(4));
      expect((await expectConsistent(accountId)).creditsRemaining).toBe(5);
    });

    it('a refund that arrives before its checkout is settled when the checkout arrives', async () => {
      const { accountId } = await newAccount();
      const paymentId = nextId('pi');
      expect(await deliver(payments(), refundEvent(paymentId, 2500))).toBe('applied');
      expect((await expectConsistent(accountId)).creditsRemaining).toBe(5);
      await deliver(payments(), checkoutEvent(accountId, paymentId), at(1));
      expect(await expectConsistent(accountId)).toMatchObject({ creditsRemaining: 5, tier: 'free' });
    });

    it('an unknown event type is recorded and ignored', async () => {
      const event: PaymentEvent = { kind: 'other', eventId: nextId('evt'), type: 'customer.created', reason: 'event type customer.created is not one spq acts on' };
      expect(await deliver(payments(), event)).toBe('ignored');
      expect((await payments().events('ignored')).some((e) => e.eventId === event.eventId)).toBe(true);
    });

    it('an event recorded but not applied (a crash between the two) is listed, and applied once', async () => {
      const { accountId } = await newAccount();
      const event = checkoutEvent(accountId, nextId('pi'));
      expect(await payments().recordEvent(event, NOW)).toBe('received');
      expect((await payments().unappliedEvents()).map((e) => e.eventId)).toContain(event.eventId);
      const another = paymentsOf(db.another());
      await Promise.all([payments().applyEvent(event.eventId, CATALOGUE, NOW), another.applyEvent(event.eventId, CATALOGUE, NOW)]);
      expect((await payments().unappliedEvents()).map((e) => e.eventId)).not.toContain(event.eventId);
      expect((await expectConsistent(accountId)).creditsRemaining).toBe(105);
    });

    it('property: 1,000 duplicated and reordered deliveries over two instances grant each bundle once and lose none', async () => {
      const other = paymentsOf(db.another());
      const accounts = await Promise.all(Array.from({ length: 4 }, () => newAccount()));
      const plan = fc.array(
        fc.record({
          account: fc.integer({ min: 0, max: accounts.length - 1 }),
          bundle: fc.constantFrom('starter', 'research'),
          refunds: fc.array(fc.integer({ min: 1, max: 100 }), { maxLength: 2 }),
          dispute: fc.constantFrom('none', 'won', 'lost'),
        }),
        { minLength: 40, maxLength: 60 },
      );
      await fc.assert(
        fc.asyncProperty(plan, fc.integer(), async (payments_, seed) => {
          const before = await Promise.all(accounts.map((a) => store.credits(a.accountId, NOW)));
          const events: PaymentEvent[] = [];
          const expected = new Map<string, number>();
          for (const p of payments_) {
            const accountId = accounts[p.account]!.accountId;
            const paymentId = nextId('pi');
            const bundle = CATALOGUE.find((b) => b.id === p.bundle)!;
            events.push(checkoutEvent(accountId, paymentId, { bundle: p.bundle }));
            const refunded = p.refunds.map((percent) => Math.floor((bundle.price * percent) / 100));
            refunded.forEach((amount) => events.push(refundEvent(paymentId, amount)));
            if (p.dispute !== 'none') events.push(disputeEvent(paymentId, p.dispute === 'lost'));
            const most = Math.max(0, ...refunded);
            const kept = p.dispute === 'lost' || most >= bundle.price ? 0 : bundle.credits - Math.floor((bundle.credits * most) / bundle.price);
            expected.set(accountId, (expected.get(accountId) ?? 0) + kept);
          }
          // 1,000 deliveries: every event at least once, the rest duplicates, all shuffled.
          let state = seed >>> 0;
          const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
          const deliveries = [...events];
          while (deliveries.length < 1000) deliveries.push(events[Math.floor(random() * events.length)]!);
          for (let i = deliveries.length - 1; i > 0; i--) {
            const j = Math.floor(random() * (i + 1));
            [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
          }
          // Two instances take turns from one queue, each with a few deliveries in flight.
          let next = 0;
          const worker = async (ledger: PaymentLedger) => {
            while (next < deliveries.length) await deliver(ledger, deliveries[next++]!);
          };
          await Promise.all([worker(payments()), worker(payments()), worker(other), worker(other)]);
          for (const [i, account] of accounts.entries()) {
            const summary = await expectConsistent(account.accountId);
            expect(summary.creditsRemaining - before[i]!.creditsRemaining).toBe(expected.get(account.accountId) ?? 0);
          }
          const granted = await payments().purchases();
          for (const event of events) {
            if (event.kind !== 'checkout_completed') continue;
            expect(granted.filter((p) => p.paymentId === event.paymentId && p.grantedAt !== null)).toHaveLength(1);
          }
          expect(await payments().unappliedEvents()).toEqual([]);
        }),
        { numRuns: 2 },
      );
    }, 120_000);
  });
}
