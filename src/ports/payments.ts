import type { PaidCheckout, SoldBundle } from '../core/ledger/payments.ts';
import type { Result } from '../core/result.ts';

/**
 * A payment provider event, read from a verified webhook and reduced to what the payment ledger
 * applies. Every kind names the payment (Stripe: the PaymentIntent) it concerns, so events about
 * one payment meet whatever order they come in.
 */
export type PaymentEvent =
  | {
      readonly kind: 'checkout_completed';
      readonly eventId: string;
      readonly type: string;
      readonly paymentId: string;
      /** The account the checkout was started for (client_reference_id); null when it names none. */
      readonly accountId: string | null;
      readonly checkout: PaidCheckout;
      readonly receiptUrl: string | null;
      readonly checkoutId: string;
    }
  /** A refund: amountRefunded is the payment's total refunded so far (Stripe's amount_refunded). */
  | { readonly kind: 'refund'; readonly eventId: string; readonly type: string; readonly paymentId: string; readonly amountRefunded: number }
  | { readonly kind: 'dispute_closed'; readonly eventId: string; readonly type: string; readonly paymentId: string; readonly lost: boolean }
  /** Signed and well-formed, but not one the service acts on (an unknown type, an unpaid checkout): recorded and ignored. */
  | { readonly kind: 'other'; readonly eventId: string; readonly type: string; readonly reason: string };

export interface CheckoutRequest {
  readonly accountId: string;
  readonly email: string;
  readonly bundle: SoldBundle & { readonly name: string };
  /** Where the provider sends the holder back after paying, and after giving up. */
  readonly successUrl: string;
  readonly cancelUrl: string;
}

/**
 * Taking payment for bundles: a checkout page at the provider, and the provider's signed word of
 * what happened after (webhooks). Two adapters: Stripe (Checkout Sessions, webhook signatures
 * checked by the official library) and none (the operator grants bundles with `spq admin`).
 * Contract: test/adapters/payments/payments.test.ts.
 */
export interface PaymentProvider {
  readonly name: 'stripe' | 'none';
  /** The provider's checkout page for one bundle, or why it cannot be opened (said to the holder). */
  startCheckout(request: CheckoutRequest): Promise<Result<{ readonly url: string; readonly checkoutId: string }, string>>;
  /** A webhook's event, verified against its signature header; an error (forged, stale, unsigned, unreadable) changes nothing. */
  readEvent(rawBody: Buffer, signature: string | undefined): Promise<Result<PaymentEvent, string>>;
}
