import { publicBaseUrl, type CatalogueBundle } from '../config.ts';
import { appError, type AppError } from '../core/errors.ts';
import { err, ok, type Result } from '../core/result.ts';
import type { PaymentEventStatus, PaymentLedger, Purchase, RecordedPaymentEvent } from '../ports/payment-ledger.ts';
import type { BundlesResult } from '../wire/account.ts';
import type { OpsLog, UseCaseDeps } from './deps.ts';

/**
 * Selling bundles: the catalogue (GET /account/bundles and the "Buy credits" page), a checkout at
 * the payment provider, and its webhooks applied to the ledger exactly once (recorded by event
 * id, then applied in one transaction; an event recorded by a process that died before applying
 * it is applied at the next start-up).
 */
type PaymentDeps = Pick<UseCaseDeps, 'config' | 'accounts' | 'clock' | 'payments'>;

export const BUY_PATH = '/console/buy';

/** Whether holders can buy bundles themselves here: a provider is configured and the store keeps payments. */
export const selfServicePurchase = (deps: Pick<UseCaseDeps, 'accounts' | 'payments'>): boolean => deps.payments !== undefined && deps.payments.name !== 'none' && deps.accounts.payments !== undefined;

export function bundleOffers(deps: Pick<UseCaseDeps, 'config' | 'accounts' | 'payments'>): BundlesResult {
  return {
    bundles: deps.config.payments.bundles.map((b) => ({ bundle_id: b.id, name: b.name, credits: b.credits, paid_days: b.days, price: b.price, currency: b.currency, tax_note: b.taxNote })),
    purchase: selfServicePurchase(deps) ? 'checkout' : 'operator',
    buy_url: `${publicBaseUrl(deps.config)}${BUY_PATH}`,
  };
}

/** The provider's checkout page for one catalogue bundle, for the signed-in holder. */
export async function startBundleCheckout(deps: PaymentDeps, input: { readonly accountId: string; readonly bundleId: string }): Promise<Result<{ readonly url: string }, AppError>> {
  const bundle: CatalogueBundle | undefined = deps.config.payments.bundles.find((b) => b.id === input.bundleId);
  if (bundle === undefined) return err(appError('not_found', 'There is no such bundle (any more). Choose one from the list.'));
  if (deps.payments === undefined || !selfServicePurchase(deps)) {
    const contact = deps.config.payments.operatorContact;
    return err(appError('not_found', `Bundles are sold by the service's operator${contact ? ` (${contact})` : ''}: ask them to add one to your account.`));
  }
  const account = await deps.accounts.getAccount(input.accountId);
  if (account === null || account === undefined) return err(appError('not_found', 'This account no longer exists.'));
  const base = publicBaseUrl(deps.config);
  const started = await deps.payments.startCheckout({
    accountId: input.accountId,
    email: account.email,
    bundle,
    successUrl: `${base}${BUY_PATH}/success`,
    cancelUrl: `${base}${BUY_PATH}/cancel`,
  });
  return started.ok ? ok({ url: started.value.url }) : err(appError('service_unavailable', started.error));
}

const ledgerOf = (deps: Pick<UseCaseDeps, 'accounts'>): PaymentLedger | undefined => deps.accounts.payments;

/**
 * POST /webhooks/stripe: the event verified, recorded once by its id, and applied once. A bad
 * signature is 400 and records nothing; an event already applied (a redelivery) is answered 200
 * again, so the provider stops sending it.
 */
export async function receivePaymentWebhook(deps: PaymentDeps, log: OpsLog, rawBody: Buffer, signature: string | undefined): Promise<Result<{ readonly eventId: string; readonly status: PaymentEventStatus }, AppError>> {
  const payments = ledgerOf(deps);
  if (deps.payments === undefined || payments === undefined || !selfServicePurchase(deps)) return err(appError('not_found', 'Payments are off on this service: there is no webhook here.'));
  const read = await deps.payments.readEvent(rawBody, signature);
  if (!read.ok) {
    log.info({ outcome: 'refused' }, `payment webhook refused: ${read.error}`);
    return err(appError('bad_request', read.error));
  }
  const event = read.value;
  const recorded = await payments.recordEvent(event, deps.clock.now());
  if (recorded !== 'received') return ok({ eventId: event.eventId, status: recorded });
  if (deps.config.testPaymentApplyDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, deps.config.testPaymentApplyDelayMs));
  const status = await payments.applyEvent(event.eventId, deps.config.payments.bundles, deps.clock.now());
  // A refused checkout was paid and granted nothing: the operator must act (spq admin payments).
  if (status === 'refused') log.error({ event: event.eventId, type: event.type, status }, 'payment event refused: paid, nothing granted; see `spq admin payments`, then refund it in Stripe or grant the bundle by hand');
  else log.info({ event: event.eventId, type: event.type, status }, `payment event ${status}`);
  return ok({ eventId: event.eventId, status });
}

/** Start-up: events a process recorded and did not live to apply, applied now (once: applying is conditional on their status). */
export async function recoverPaymentEvents(deps: Pick<UseCaseDeps, 'config' | 'accounts' | 'clock'>, log: OpsLog): Promise<number> {
  const payments = ledgerOf(deps);
  if (payments === undefined) return 0;
  const pending = await payments.unappliedEvents();
  for (const event of pending) {
    const status = await payments.applyEvent(event.eventId, deps.config.payments.bundles, deps.clock.now());
    log.info({ event: event.eventId, type: event.type, status }, `payment event recorded before a restart, ${status} now`);
  }
  return pending.length;
}

export async function accountPurchases(deps: Pick<UseCaseDeps, 'accounts'>, accountId: string): Promise<readonly Purchase[]> {
  return (await ledgerOf(deps)?.purchases(accountId)) ?? [];
}

export interface PaymentReport {
  readonly purchases: readonly Purchase[];
  /** Events recorded and never applied, with why (unknown account or price, another currency, a changed price). */
  readonly refused: readonly RecordedPaymentEvent[];
}

/** `spq admin payments`: purchases (with refunds, disputes and shortfalls) and the refused events, newest first. */
export async function paymentReport(deps: { readonly store: Pick<UseCaseDeps['accounts'], 'payments'> }, filter: { readonly accountId?: string; readonly shortfallsOnly?: boolean } = {}): Promise<Result<PaymentReport, AppError>> {
  const payments = deps.store.payments;
  if (payments === undefined) return err(appError('not_found', 'This store keeps no payments.'));
  const purchases = (await payments.purchases(filter.accountId)).filter((p) => !filter.shortfallsOnly || p.shortfall > 0);
  const refused = (await payments.events('refused')).filter((e) => filter.accountId === undefined || (e.event.kind === 'checkout_completed' && e.event.accountId === filter.accountId));
  return ok({ purchases, refused });
}
