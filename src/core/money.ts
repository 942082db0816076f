/**
 * Amounts as Stripe states them: integers in the currency's smallest unit (cents for AUD, yen for
 * JPY). Words for people are made here, so a page, the ledger and the CLI say the same.
 */

/** Digits after the decimal point of the currency (2 for AUD, 0 for JPY), as Intl knows it. */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en-AU', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** "25.00 AUD": the amount with its ISO code, for the ledger, csv notes and the operator. */
export function amountWithCode(amount: number, currency: string): string {
  return `${(amount / 10 ** minorDigits(currency)).toFixed(minorDigits(currency))} ${currency.toUpperCase()}`;
}

/** "$25.00": the amount as a holder in Australia reads a price. */
export function priceText(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-AU', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 10 ** minorDigits(currency));
}
