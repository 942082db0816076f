import type { Kysely, Selectable } from 'kysely';
import { newId } from '../../core/keys.ts';
import { amountWithCode } from '../../core/money.ts';
import { clawback, decidePurchase, REFUSAL_WORDS, reversalTarget, type SoldBundle } from '../../core/ledger/payments.ts';
import type { PaymentEventStatus, PaymentLedger, Purchase, RecordedPaymentEvent } from '../../ports/payment-ledger.ts';
import type { PaymentEvent } from '../../ports/payments.ts';
import { DAY_MS, toDate, toDateOrNull, type StoreDriver } from './kysely-driver.ts';
import { appendLedger, lockBalanceRow } from './kysely-ledger.ts';
import type { Database, PaymentEventsTable, PaymentsTable } from './schema.ts';

type Payment = Selectable<PaymentsTable>;
type Outcome = { readonly status: Exclude<PaymentEventStatus, 'received'>; readonly reason: string | null };

const APPLIED: Outcome = { status: 'applied', reason: null };

/**
 * The PaymentLedger over Kysely. Exactly once: an event's id is its primary key (recorded once
 * however often it arrives), and applying it is one transaction that first flips its status from
 * received (so a second attempt, here or on another instance, finds nothing to do) and then
 * grants or takes back credits. Every event about one payment locks that payment's row first, so
 * they apply one after the other; refunds and disputes are kept as cumulative facts (the largest
 * refunded amount seen, a lost dispute) and settled against what was already taken back, so any
 * order of events ends in the same balance. Lock order: event, payment, balance.
 */
export function createKyselyPaymentLedger(driver: StoreDriver): PaymentLedger {
  const { db, rowLocks } = driver;

  /** The payment's row, made by the first event about it and held until the transaction ends. */
  async function lockPayment(trx: Kysely<Database>, paymentId: string, now: Date): Promise<Payment> {
    await trx
      .insertInto('payments')
      .values({
        payment_id: paymentId,
        account_id: null,
        catalogue_bundle: null,
        credits: 0,
        days: 0,
        amount_paid: 0,
        currency: null,
        receipt_url: null,
        checkout_id: null,
        bundle_id: null,
        granted_at: null,
        amount_refunded: 0,
        dispute_lost: 0,
        credits_reversed: 0,
        shortfall: 0,
        created_at: now.getTime(),
        updated_at: now.getTime(),
      })
      .onConflict((oc) => oc.column('payment_id').doNothing())
      .execute();
    const query = trx.selectFrom('payments').selectAll().where('payment_id', '=', paymentId);
    return (rowLocks ? query.forUpdate() : query).executeTakeFirstOrThrow();
  }

  /**
   * Takes back what the payment's refunds and lost dispute still owe, from the purchased credits
   * left (never below zero: the rest is shortfall); a fully reversed bundle no longer makes the
   * account paid. Nothing until the bundle was granted.
   */
  async function settle(trx: Kysely<Database>, payment: Payment, now: Date): Promise<void> {
    if (payment.granted_at === null || payment.account_id === null) return;
    const target = reversalTarget({ credits: payment.credits, amountPaid: payment.amount_paid, amountRefunded: payment.amount_refunded, disputeLost: payment.dispute_lost === 1 });
    const balance = await lockBalanceRow(trx, payment.account_id, rowLocks);
    const step = clawback(target, { reversed: payment.credits_reversed, shortfall: payment.shortfall }, balance.purchased_remaining);
    if (step.take === 0 && step.shortfall === 0) return;
    if (step.take > 0) {
      await trx
        .updateTable('balances')
        .set((eb) => ({ purchased_remaining: eb('purchased_remaining', '-', step.take), credits_purchased: eb('credits_purchased', '-', step.take), updated_at: now.getTime() }))
        .where('account_id', '=', payment.account_id)
        .execute();
    }
    const why = payment.dispute_lost === 1 ? 'dispute lost' : 'refunded';
    await appendLedger(trx, {
      accountId: payment.account_id,
      kind: 'bundle_purchase',
      free: 0,
      purchased: -step.take,
      now,
      note: `${payment.payment_id}: ${why}, ${step.take} credits taken back${step.shortfall > 0 ? `, ${step.shortfall} already spent (shortfall)` : ''}`,
    });
    await trx
      .updateTable('payments')
      .set({ credits_reversed: payment.credits_reversed + step.take, shortfall: payment.shortfall + step.shortfall, updated_at: now.getTime() })
      .where('payment_id', '=', payment.payment_id)
      .execute();
    if (target >= payment.credits && payment.bundle_id !== null) {
      await trx.updateTable('bundles').set({ expires_at: now.getTime() }).where('bundle_id', '=', payment.bundle_id).where('expires_at', '>', now.getTime()).execute();
    }
  }

  /** A completed checkout: the bundle granted (ledger, balance, bundle window) with the payment's id, or refused with the reason. */
  async function applyCheckout(trx: Kysely<Database>, event: Extract<PaymentEvent, { kind: 'checkout_completed' }>, catalogue: readonly SoldBundle[], now: Date): Promise<Outcome> {
    const payment = await lockPayment(trx, event.paymentId, now);
    if (payment.granted_at !== null) return { status: 'ignored', reason: `payment ${event.paymentId} was granted already (another event of the same checkout)` };
    const account = event.accountId === null ? undefined : await trx.selectFrom('accounts').select('account_id').where('account_id', '=', event.accountId).executeTakeFirst();
    const decision = decidePurchase(event.checkout, catalogue, account !== undefined);
    const facts = {
      account_id: event.accountId,
      catalogue_bundle: event.checkout.bundleId,
      amount_paid: event.checkout.amountPaid,
      currency: event.checkout.currency.toLowerCase(),
      receipt_url: event.receiptUrl,
      checkout_id: event.checkoutId,
      updated_at: now.getTime(),
    };
    if ('refused' in decision) {
      await trx.updateTable('payments').set(facts).where('payment_id', '=', event.paymentId).execute();
      return { status: 'refused', reason: `${decision.refused}: ${REFUSAL_WORDS[decision.refused]}` };
    }
    const bundle = decision.grant;
    const accountId = event.accountId!;
    await lockBalanceRow(trx, accountId, rowLocks);
    const bundleId = newId('bnd');
    await trx.insertInto('bundles').values({ bundle_id: bundleId, account_id: accountId, credits: bundle.credits, starts_at: now.getTime(), expires_at: now.getTime() + bundle.days * DAY_MS, created_at: now.getTime() }).execute();
    await trx
      .updateTable('balances')
      .set((eb) => ({ purchased_remaining: eb('purchased_remaining', '+', bundle.credits), credits_purchased: eb('credits_purchased', '+', bundle.credits), updated_at: now.getTime() }))
      .where('account_id', '=', accountId)
      .execute();
    await appendLedger(trx, { accountId, kind: 'bundle_purchase', free: 0, purchased: bundle.credits, now, note: `${event.paymentId}: ${bundle.id}, ${bundle.credits} credits, ${bundle.days} days, paid ${amountWithCode(event.checkout.amountPaid, bundle.currency)}` });
    const granted = { ...payment, ...facts, credits: bundle.credits, days: bundle.days, bundle_id: bundleId, granted_at: now.getTime() };
    await trx.updateTable('payments').set({ ...facts, credits: bundle.credits, days: bundle.days, bundle_id: bundleId, granted_at: now.getTime() }).where('payment_id', '=', event.paymentId).execute();
    // A refund or a lost dispute that came before the checkout's own event is settled now.
    await settle(trx, granted, now);
    return APPLIED;
  }

  async function applyIn(trx: Kysely<Database>, eventId: string, catalogue: readonly SoldBundle[], now: Date): Promise<PaymentEventStatus> {
    const query = trx.selectFrom('payment_events').selectAll().where('event_id', '=', eventId);
    const row = await (rowLocks ? query.forUpdate() : query).executeTakeFirst();
    if (row === undefined) throw new Error(`payment event ${eventId} was never recorded`);
    if (row.status !== 'received') return row.status;
    const event = JSON.parse(row.event) as PaymentEvent;
    const outcome = await applyEvent(trx, event, catalogue, now);
    await trx.updateTable('payment_events').set({ status: outcome.status, reason: outcome.reason, applied_at: now.getTime() }).where('event_id', '=', eventId).execute();
    return outcome.status;
  }

  async function applyEvent(trx: Kysely<Database>, event: PaymentEvent, catalogue: readonly SoldBundle[], now: Date): Promise<Outcome> {
    switch (event.kind) {
      case 'other':
        return { status: 'ignored', reason: event.reason };
      case 'checkout_completed':
        return applyCheckout(trx, event, catalogue, now);
      case 'refund': {
        const payment = await lockPayment(trx, event.paymentId, now);
        const amountRefunded = Math.max(payment.amount_refunded, event.amountRefunded);
        await trx.updateTable('payments').set({ amount_refunded: amountRefunded, updated_at: now.getTime() }).where('payment_id', '=', event.paymentId).execute();
        await settle(trx, { ...payment, amount_refunded: amountRefunded }, now);
        return APPLIED;
      }
      case 'dispute_closed': {
        if (!event.lost) return { status: 'ignored', reason: 'dispute closed in the seller’s favour: nothing taken back' };
        const payment = await lockPayment(trx, event.paymentId, now);
        await trx.updateTable('payments').set({ dispute_lost: 1, updated_at: now.getTime() }).where('payment_id', '=', event.paymentId).execute();
        await settle(trx, { ...payment, dispute_lost: 1 }, now);
        return APPLIED;
      }
    }
  }

  return {
    recordEvent: (event, now) =>
      driver.write(
        async (trx) => {
          const paymentId = event.kind === 'other' ? null : event.paymentId;
          await trx
            .insertInto('payment_events')
            .values({ event_id: event.eventId, type: event.type, payment_id: paymentId, status: 'received', reason: null, event: JSON.stringify(event), received_at: now.getTime(), applied_at: null })
            .onConflict((oc) => oc.column('event_id').doNothing())
            .execute();
          const row = await trx.selectFrom('payment_events').select('status').where('event_id', '=', event.eventId).executeTakeFirstOrThrow();
          return row.status;
        },
        { retrySafe: true },
      ),

    applyEvent: (eventId, catalogue, now) => driver.write((trx) => applyIn(trx, eventId, catalogue, now), { retrySafe: true }),

    async unappliedEvents() {
      const rows = await db.selectFrom('payment_events').selectAll().where('status', '=', 'received').orderBy('received_at', 'asc').orderBy('event_id', 'asc').execute();
      return rows.map(toRecordedEvent);
    },

    async purchases(accountId) {
      let query = db.selectFrom('payments').selectAll();
      if (accountId !== undefined) query = query.where('account_id', '=', accountId);
      const rows = await query.orderBy('created_at', 'desc').orderBy('payment_id', 'desc').execute();
      return rows.map(toPurchase);
    },

    async events(status) {
      let query = db.selectFrom('payment_events').selectAll();
      if (status !== undefined) query = query.where('status', '=', status);
      const rows = await query.orderBy('received_at', 'desc').orderBy('event_id', 'desc').execute();
      return rows.map(toRecordedEvent);
    },
  };
}

function toRecordedEvent(row: Selectable<PaymentEventsTable>): RecordedPaymentEvent {
  return { eventId: row.event_id, type: row.type, status: row.status, reason: row.reason, paymentId: row.payment_id, receivedAt: toDate(row.received_at), event: JSON.parse(row.event) as PaymentEvent };
}

function toPurchase(row: Payment): Purchase {
  return {
    paymentId: row.payment_id,
    accountId: row.account_id,
    bundleId: row.catalogue_bundle,
    credits: row.credits,
    days: row.days,
    amount: row.amount_paid,
    currency: row.currency,
    receiptUrl: row.receipt_url,
    checkoutId: row.checkout_id,
    grantedAt: toDateOrNull(row.granted_at),
    amountRefunded: row.amount_refunded,
    disputeLost: row.dispute_lost === 1,
    creditsReversed: row.credits_reversed,
    shortfall: row.shortfall,
    createdAt: toDate(row.created_at),
  };
}
