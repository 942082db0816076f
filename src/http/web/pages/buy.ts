import type { CatalogueBundle } from '../../../config.ts';
import { priceText } from '../../../core/money.ts';
import type { CreditSummary } from '../../../ports/account-store.ts';
import type { Purchase } from '../../../ports/payment-ledger.ts';
import { csrfField, html, notice, tableBox, when, type Html } from '../html.ts';

/** The "Buy credits" page, its success and cancel pages, and the purchases table of the credits page. */

/** An amount in the currency's smallest unit, as the holder reads it (e.g. "$25.00"). */
const money = (amount: number, currency: string | null): string => (currency === null || currency === '' ? String(amount) : priceText(amount, currency));

const balanceFigures = (s: CreditSummary): Html => html`<dl class="figures"><dt>Credits available</dt><dd><strong class="big">${s.creditsRemaining}</strong></dd><dt>Tier</dt><dd>${s.tier}</dd></dl>`;

function bundleCard(csrf: string, bundle: CatalogueBundle, canBuy: boolean): Html {
  const price = money(bundle.price, bundle.currency);
  return html`<li class="bundle"><h2 id="bundle-${bundle.id}">${bundle.name}</h2>
<p><strong>${bundle.credits} credits</strong> and the paid tier for ${bundle.days} days</p>
<p class="price">${price} <span class="hint">${bundle.currency.toUpperCase()}${bundle.taxNote ? `, ${bundle.taxNote}` : ''}</span></p>
${
  canBuy
    ? html`<form method="post" action="/console/buy">${csrfField(csrf)}<input type="hidden" name="bundle_id" value="${bundle.id}"><button type="submit" aria-describedby="bundle-${bundle.id}">Buy for ${price}</button></form>`
    : ''
}</li>`;
}

export function buyBody(csrf: string, summary: CreditSummary, bundles: readonly CatalogueBundle[], canBuy: boolean, operatorContact: string | undefined, message?: Html): Html {
  return html`${message ?? ''}${balanceFigures(summary)}
<p>A bundle adds its credits to your balance (bought credits never expire) and makes the account paid for its days: higher rate limits, no weekly free allowance while paid.${canBuy ? ' You pay on Stripe’s secure page and come straight back here.' : ''}</p>
${canBuy ? '' : notice('info', html`Bundles are sold by the service’s operator${operatorContact ? html`: ${operatorContact}` : ''}. Ask them to add one to this account; it shows here at once.`)}
${bundles.length === 0 ? html`<p>No bundles are on sale.</p>` : html`<ul class="bundles">${bundles.map((b) => bundleCard(csrf, b, canBuy))}</ul>`}
<p><a href="/console/credits#purchases">Your purchases and receipts</a></p>`;
}

export function paidBody(summary: CreditSummary, purchase: Purchase | undefined, paidUntil: Date | null, timeZone: string): Html {
  const done = purchase !== undefined && purchase.grantedAt !== null;
  return html`${
    done
      ? notice('ok', html`Payment received: ${purchase.credits} credits added${paidUntil ? html`, paid tier until ${when(paidUntil, timeZone)}` : ''}.`)
      : notice('info', 'Stripe has your payment; the bundle appears as soon as Stripe tells this service (usually within a minute). Reload this page to see it.')
  }${balanceFigures(summary)}
${done && purchase.receiptUrl ? html`<p><a href="${purchase.receiptUrl}">Your receipt</a> (${money(purchase.amount, purchase.currency)})</p>` : ''}
<p><a class="button" href="/console/query">New query</a> <a href="/console/credits#purchases">Purchases and ledger</a></p>`;
}

export const cancelledBody = (): Html => html`${notice('info', 'No payment was taken and nothing changed.')}<p><a href="/console/buy">Back to the bundles</a></p>`;

const purchaseState = (p: Purchase): string => {
  if (p.grantedAt === null) return 'not granted (the operator has been told)';
  if (p.disputeLost) return `dispute lost: ${p.creditsReversed} credits taken back`;
  if (p.amountRefunded > 0) return `refunded ${money(p.amountRefunded, p.currency)}: ${p.creditsReversed} credits taken back`;
  return 'paid';
};

/** The credits page's purchases: amount, currency and receipt, and what refunds took back; the csv downloads for accounting. */
export function purchasesSection(purchases: readonly Purchase[], timeZone: string): Html {
  const exports = html`<p>For your accounts: <a href="/console/export/ledger.csv" download>ledger (csv)</a> · <a href="/console/export/purchases.csv" download>purchases (csv)</a></p>`;
  if (purchases.length === 0) return html`<h2 id="purchases">Purchases</h2><p>No purchases yet. <a href="/console/buy">Buy credits</a></p>${exports}`;
  return html`<h2 id="purchases">Purchases</h2>${tableBox('Purchases', html`<table class="cards"><thead><tr><th scope="col">Paid</th><th scope="col">Bundle</th><th scope="col" class="num">Credits</th><th scope="col" class="num">Amount</th><th scope="col">State</th><th scope="col">Receipt</th></tr></thead><tbody>
${purchases.map((p) => html`<tr><td data-label="Paid">${when(p.grantedAt ?? p.createdAt, timeZone)}</td><td data-label="Bundle">${p.bundleId ?? '—'}</td><td class="num" data-label="Credits">${p.credits}</td><td class="num" data-label="Amount">${money(p.amount, p.currency)} ${(p.currency ?? '').toUpperCase()}</td><td data-label="State">${purchaseState(p)}</td><td data-label="Receipt">${p.receiptUrl ? html`<a href="${p.receiptUrl}">Receipt<span class="skip"> for ${p.paymentId}</span></a>` : '—'}</td></tr>`)}
</tbody></table>`)}${exports}`;
}
