/**
 * The rules of selling bundles, free of storage and of Stripe: whether a completed checkout may
 * be granted, and how much of a bundle a refund or a lost dispute takes back. The payment ledger
 * applies them inside its transactions (adapters/db/kysely-payment-ledger.ts).
 */

/** A bundle as the catalogue sells it (the config's CatalogueBundle; declared here because core imports only core). */
export interface SoldBundle {
  readonly id: string;
  readonly credits: number;
  readonly days: number;
  readonly price: number;
  readonly currency: string;
}

/** What a completed checkout says was bought and paid. */
export interface PaidCheckout {
  /** The catalogue bundle the checkout was started for (its metadata). */
  readonly bundleId: string | null;
  /** The bundle's price and currency when the checkout was started (its metadata). */
  readonly quotedPrice: number | null;
  readonly quotedCurrency: string | null;
  /** What the holder paid. */
  readonly amountPaid: number;
  readonly currency: string;
}

/** Why a paid checkout is not granted: recorded with the event and shown to the operator, never applied. */
export type PurchaseRefusal = 'unknown_account' | 'unknown_bundle' | 'currency_mismatch' | 'price_changed' | 'amount_mismatch';

export const REFUSAL_WORDS: Readonly<Record<PurchaseRefusal, string>> = {
  unknown_account: 'the checkout names no account of this service (unknown or deleted)',
  unknown_bundle: 'the checkout names no bundle of the catalogue (unknown price)',
  currency_mismatch: "the payment's currency differs from the catalogue's",
  price_changed: "the bundle's price was changed after the checkout started",
  amount_mismatch: 'the amount paid differs from the bundle’s price',
};

/** The bundle to grant for a paid checkout, or why not. */
export function decidePurchase(checkout: PaidCheckout, catalogue: readonly SoldBundle[], accountExists: boolean): { readonly grant: SoldBundle } | { readonly refused: PurchaseRefusal } {
  if (!accountExists) return { refused: 'unknown_account' };
  const bundle = catalogue.find((b) => b.id === checkout.bundleId);
  if (bundle === undefined) return { refused: 'unknown_bundle' };
  if (checkout.currency.toLowerCase() !== bundle.currency) return { refused: 'currency_mismatch' };
  if (checkout.quotedPrice !== bundle.price || (checkout.quotedCurrency ?? '').toLowerCase() !== bundle.currency) return { refused: 'price_changed' };
  if (checkout.amountPaid !== bundle.price) return { refused: 'amount_mismatch' };
  return { grant: bundle };
}

/** What is known of a payment's reversal so far: cumulative, so events in any order give the same result. */
export interface ReversalState {
  readonly credits: number;
  readonly amountPaid: number;
  /** The largest amount refunded any event reported (Stripe's amount_refunded is cumulative). */
  readonly amountRefunded: number;
  readonly disputeLost: boolean;
}

/** Credits a payment's refunds and lost dispute take back in all: the refunded share of the bundle, all of it after a lost dispute or a full refund. */
export function reversalTarget(state: ReversalState): number {
  if (state.disputeLost || state.amountRefunded >= state.amountPaid) return state.credits;
  if (state.amountPaid <= 0 || state.amountRefunded <= 0) return 0;
  return Math.floor((state.credits * state.amountRefunded) / state.amountPaid);
}

/**
 * The next step of taking a bundle back: what is still owed (the target less what was taken or
 * written off before), taken from the purchased credits left; what they cannot cover was already
 * spent and becomes shortfall (the balance never goes below zero).
 */
export function clawback(target: number, settled: { readonly reversed: number; readonly shortfall: number }, purchasedRemaining: number): { readonly take: number; readonly shortfall: number } {
  const owed = Math.max(0, target - settled.reversed - settled.shortfall);
  const take = Math.min(owed, Math.max(0, purchasedRemaining));
  return { take, shortfall: owed - take };
}
