import type { SoldBundle } from '../core/ledger/payments.ts';
import type { PaymentEvent } from './payments.ts';

/** received: recorded, not yet applied (a crash between the two is finished at start-up); the others are final. */
export type PaymentEventStatus = 'received' | 'applied' | 'refused' | 'ignored';

export interface RecordedPaymentEvent {
  readonly eventId: string;
  readonly type: string;
  readonly status: PaymentEventStatus;
  /** Why it was refused or ignored; null when applied. */
  readonly reason: string | null;
  readonly paymentId: string | null;
  readonly receivedAt: Date;
  readonly event: PaymentEvent;
}

/** A payment as the ledger knows it: the bundle it bought and what refunds and disputes took back. */
export interface Purchase {
  readonly paymentId: string;
  readonly accountId: string | null;
  readonly bundleId: string | null;
  readonly credits: number;
  readonly days: number;
  /** In the currency's smallest unit. */
  readonly amount: number;
  readonly currency: string | null;
  readonly receiptUrl: string | null;
  /** The provider's checkout it came from (Stripe: the Checkout Session). */
  readonly checkoutId: string | null;
  /** When the bundle was granted; null while no completed checkout was applied (refused, or a refund came first). */
  readonly grantedAt: Date | null;
  readonly amountRefunded: number;
  readonly disputeLost: boolean;
  /** Credits taken back by refunds and a lost dispute. */
  readonly creditsReversed: number;
  /** Credits a refund or dispute should have taken back but that were already spent. */
  readonly shortfall: number;
  readonly createdAt: Date;
}

/**
 * Payment events applied to the credit ledger exactly once: each event id is recorded once
 * (however often it is delivered, on whichever instance), then applied in one transaction with
 * the grant or the take-back it causes, locked per payment so that events about one payment apply
 * one after the other whatever their order. Refunds and disputes are cumulative, so any order of
 * events ends in the same balance.
 * Contract: test/adapters/payment-ledger.contract.ts (SQLite and PostgreSQL).
 */
export interface PaymentLedger {
  /** Records the event unless its id is known; returns its status (received when new or not yet applied). */
  recordEvent(event: PaymentEvent, now: Date): Promise<PaymentEventStatus>;
  /** Applies a received event once (a no-op for one already applied, refused or ignored); returns its final status. */
  applyEvent(eventId: string, catalogue: readonly SoldBundle[], now: Date): Promise<PaymentEventStatus>;
  /** Events recorded but not applied (a process died between the two), oldest first. */
  unappliedEvents(): Promise<readonly RecordedPaymentEvent[]>;
  /** Purchases, newest first: one account's, or every account's (the operator's list). */
  purchases(accountId?: string): Promise<readonly Purchase[]>;
  /** Recorded events, newest first, optionally of one status (the operator's list of refused ones). */
  events(status?: PaymentEventStatus): Promise<readonly RecordedPaymentEvent[]>;
}
