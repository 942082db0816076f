/**
 * The PaymentProvider port's adapters. Stripe (the official library, pointed at a local stand-in
 * for Stripe's API): a checkout is a Checkout Session carrying what was sold at what price; an
 * event is read only with a valid signature (events signed by the library's own test helper),
 * and each event type spq acts on is read into the port's shape, the others as "other".
 * None: no checkout, no event, and a holder is told to ask the operator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noPayments } from '../../../src/adapters/payments/none.ts';
import { createStripePayments } from '../../../src/adapters/payments/stripe.ts';
import type { PaymentProvider } from '../../../src/ports/payments.ts';
import { checkoutSessionObject, SECRET_KEY, startStripeStandIn, WEBHOOK_SECRET, type StripeStandIn } from '../../support/stripe-stand-in.ts';

const bundle = { id: 'starter', name: 'Starter', credits: 100, days: 30, price: 2500, currency: 'aud' };
const request = { accountId: 'acc_0123456789abcdefghij', email: 'holder@example.org', bundle, successUrl: 'https://spq.example.org/console/buy/success', cancelUrl: 'https://spq.example.org/console/buy/cancel' };

describe('PaymentProvider: Stripe (stand-in for its API)', () => {
  let standIn: StripeStandIn;
  let stripe: PaymentProvider;
  beforeAll(async () => {
    standIn = await startStripeStandIn(() => 'http://127.0.0.1:1/unused');
    stripe = createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: standIn.url });
  });
  afterAll(async () => standIn?.close());

  const read = (payload: string, signature: string | undefined = standIn.sign(payload)) => stripe.readEvent(Buffer.from(payload), signature);

  it('opens a Checkout Session for the bundle, with its price and metadata, and hands back its page', async () => {
    const started = await stripe.startCheckout(request);
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    const session = standIn.sessions.get(started.value.checkoutId)!;
    expect(started.value.url).toBe(`${standIn.url}/pay/${session.id}`);
    expect(session).toMatchObject({ accountId: request.accountId, amount: 2500, currency: 'aud', email: request.email, metadata: { spq_account_id: request.accountId, spq_bundle_id: 'starter', spq_price: '2500', spq_currency: 'aud' } });
  });

  it('says so, and charges nothing, when Stripe cannot be reached', async () => {
    const down = createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: 'http://127.0.0.1:1' });
    const started = await down.startCheckout(request);
    expect(started.ok).toBe(false);
    if (!started.ok) expect(started.error).toContain('Nothing was charged');
  }, 30_000);

  it('reads the event types spq acts on; any other is "other"', async () => {
    const session = { id: 'cs_test_1', paymentIntent: 'pi_1', accountId: request.accountId, amount: 2500, currency: 'aud', metadata: { spq_bundle_id: 'starter', spq_price: '2500', spq_currency: 'aud' }, successUrl: '', cancelUrl: '', email: '' };
    const completed = await read(standIn.completed(session));
    expect(completed.ok && completed.value).toMatchObject({ kind: 'checkout_completed', paymentId: 'pi_1', accountId: request.accountId, checkout: { bundleId: 'starter', quotedPrice: 2500, quotedCurrency: 'aud', amountPaid: 2500, currency: 'aud' }, receiptUrl: `${standIn.url}/receipts/pi_1`, checkoutId: 'cs_test_1' });
    const unpaid = await read(standIn.event('checkout.session.completed', checkoutSessionObject(session, { payment_status: 'unpaid' })));
    expect(unpaid.ok && unpaid.value.kind).toBe('other');
    const refund = await read(standIn.event('charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: 'pi_1', amount: 2500, amount_refunded: 1000 }));
    expect(refund.ok && refund.value).toMatchObject({ kind: 'refund', paymentId: 'pi_1', amountRefunded: 1000 });
    const dispute = await read(standIn.event('charge.dispute.closed', { id: 'dp_1', object: 'dispute', payment_intent: 'pi_1', status: 'won' }));
    expect(dispute.ok && dispute.value).toMatchObject({ kind: 'dispute_closed', paymentId: 'pi_1', lost: false });
    const other = await read(standIn.event('invoice.paid', { id: 'in_1', object: 'invoice' }));
    expect(other.ok && other.value).toMatchObject({ kind: 'other', type: 'invoice.paid' });
  });

  it('refuses a forged, altered, stale or unsigned event', async () => {
    const payload = standIn.event('charge.refunded', { id: 'ch_2', object: 'charge', payment_intent: 'pi_2', amount: 2500, amount_refunded: 2500 });
    expect((await read(payload, standIn.sign(payload, { secret: 'whsec_someone_else' }))).ok).toBe(false);
    expect((await read(payload.replace('"amount_refunded": 2500', '"amount_refunded": 1'), standIn.sign(payload))).ok).toBe(false);
    expect((await read(payload, standIn.sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 }))).ok).toBe(false);
    expect((await stripe.readEvent(Buffer.from(payload), undefined)).ok).toBe(false);
    expect((await read(payload)).ok).toBe(true);
  });
});

describe('PaymentProvider: none', () => {
  it('opens no checkout (the holder is told whom to ask) and reads no event', async () => {
    const none = noPayments('sales@example.org');
    const started = await none.startCheckout(request);
    expect(started.ok || started.error).toContain('sales@example.org');
    expect((await none.readEvent(Buffer.from('{}'), 't=1,v1=0')).ok).toBe(false);
  });
});
