import Stripe from 'stripe';
import type { StripeConfig } from '../../config.ts';
import { err, ok } from '../../core/result.ts';
import type { PaymentEvent, PaymentProvider } from '../../ports/payments.ts';

/** The metadata a checkout carries, so its completion says what was sold at what price. */
const META = { account: 'spq_account_id', bundle: 'spq_bundle_id', price: 'spq_price', currency: 'spq_currency' } as const;

const idOf = (value: string | { id: string } | null | undefined): string | null => (value === null || value === undefined ? null : typeof value === 'string' ? value : value.id);

/**
 * Payments through Stripe with its official library: a Checkout Session per bundle (the holder
 * pays on Stripe's page), and webhook events verified by the library's own signature check
 * (stripe.webhooks.constructEvent: the signing secret, and a timestamp within 5 minutes). The
 * events spq acts on: checkout.session.completed and checkout.session.async_payment_succeeded
 * (a paid bundle), charge.refunded (amount_refunded, cumulative) and charge.dispute.closed
 * (lost or won); each names its PaymentIntent, the payment's id in the ledger. SPQ_STRIPE_API_URL
 * (tests) points the library's host, port and protocol at a local stand-in.
 */
export function createStripePayments(config: StripeConfig): PaymentProvider {
  const api = config.apiUrl === undefined ? undefined : new URL(config.apiUrl);
  const stripe = new Stripe(config.secretKey, {
    telemetry: false,
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(api ? { host: api.hostname, port: api.port || (api.protocol === 'https:' ? 443 : 80), protocol: api.protocol === 'https:' ? 'https' : 'http' } : {}),
  });

  /** The receipt of a paid PaymentIntent (its latest charge's receipt_url); null when Stripe cannot say now (the grant does not wait for it). */
  async function receiptOf(paymentId: string): Promise<string | null> {
    try {
      const intent = await stripe.paymentIntents.retrieve(paymentId, { expand: ['latest_charge'] });
      const charge = intent.latest_charge;
      return typeof charge === 'object' && charge !== null ? (charge.receipt_url ?? null) : null;
    } catch {
      return null;
    }
  }

  async function checkoutEvent(event: Stripe.Event, session: Stripe.Checkout.Session): Promise<PaymentEvent> {
    const paymentId = idOf(session.payment_intent);
    if (session.payment_status !== 'paid' || paymentId === null) {
      return { kind: 'other', eventId: event.id, type: event.type, reason: `checkout ${session.id} is not paid (payment_status ${session.payment_status}); a later event grants it` };
    }
    const metadata = session.metadata ?? {};
    const quoted = metadata[META.price];
    return {
      kind: 'checkout_completed',
      eventId: event.id,
      type: event.type,
      paymentId,
      accountId: session.client_reference_id ?? metadata[META.account] ?? null,
      checkout: {
        bundleId: metadata[META.bundle] ?? null,
        quotedPrice: quoted !== undefined && /^\d+$/.test(quoted) ? Number(quoted) : null,
        quotedCurrency: metadata[META.currency] ?? null,
        amountPaid: session.amount_total ?? 0,
        currency: session.currency ?? '',
      },
      receiptUrl: await receiptOf(paymentId),
      checkoutId: session.id,
    };
  }

  async function toPaymentEvent(event: Stripe.Event): Promise<PaymentEvent> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        return checkoutEvent(event, event.data.object);
      case 'charge.refunded': {
        const charge = event.data.object;
        const paymentId = idOf(charge.payment_intent);
        if (paymentId === null) return { kind: 'other', eventId: event.id, type: event.type, reason: `charge ${charge.id} has no PaymentIntent: not a bundle's` };
        return { kind: 'refund', eventId: event.id, type: event.type, paymentId, amountRefunded: charge.amount_refunded };
      }
      case 'charge.dispute.closed': {
        const dispute = event.data.object;
        const paymentId = idOf(dispute.payment_intent);
        if (paymentId === null) return { kind: 'other', eventId: event.id, type: event.type, reason: `dispute ${dispute.id} has no PaymentIntent: not a bundle's` };
        return { kind: 'dispute_closed', eventId: event.id, type: event.type, paymentId, lost: dispute.status === 'lost' };
      }
      default:
        return { kind: 'other', eventId: event.id, type: event.type, reason: `event type ${event.type} is not one spq acts on` };
    }
  }

  return {
    name: 'stripe',

    async startCheckout({ accountId, email, bundle, successUrl, cancelUrl }) {
      const metadata = { [META.account]: accountId, [META.bundle]: bundle.id, [META.price]: String(bundle.price), [META.currency]: bundle.currency };
      try {
        const session = await stripe.checkout.sessions.create({
          mode: 'payment',
          client_reference_id: accountId,
          customer_email: email,
          line_items: [{ quantity: 1, price_data: { currency: bundle.currency, unit_amount: bundle.price, product_data: { name: `${bundle.name}: ${bundle.credits} credits, paid tier for ${bundle.days} days` } } }],
          metadata,
          payment_intent_data: { metadata },
          success_url: `${successUrl}?checkout={CHECKOUT_SESSION_ID}`,
          cancel_url: cancelUrl,
        });
        if (!session.url) return err('Stripe opened no checkout page. Try again in a minute.');
        return ok({ url: session.url, checkoutId: session.id });
      } catch (error) {
        return err(`Stripe could not open the checkout page (${error instanceof Error ? error.message : String(error)}). Nothing was charged; try again in a minute.`);
      }
    },

    async readEvent(rawBody, signature) {
      if (signature === undefined || signature === '') return err('The event carries no Stripe-Signature header: it was not sent by Stripe.');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret);
      } catch (error) {
        return err(`The event's signature does not verify (${error instanceof Error ? error.message : String(error)}): forged, altered, signed with another secret, or older than 5 minutes.`);
      }
      return ok(await toPaymentEvent(event));
    },
  };
}
