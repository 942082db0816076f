import { csvLine } from '../../core/csv.ts';
import type { LedgerEntry } from '../../ports/account-store.ts';
import type { Purchase } from '../../ports/payment-ledger.ts';
import type { UseCaseDeps } from '../deps.ts';
import { accountPurchases } from '../payments.ts';

/**
 * The holder's books for accounting, as csv: every ledger entry (oldest first, with the query it
 * charged or refunded and a running balance), and every purchase with its amount, currency,
 * receipt and what refunds took back. Times are UTC (ISO 8601), amounts in the currency's
 * smallest unit as Stripe states them.
 */
const PAGE = 1000;

async function allEntries(deps: Pick<UseCaseDeps, 'accounts'>, accountId: string): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  for (let page = 1; ; page++) {
    const got = await deps.accounts.ledger({ accountId, page, perPage: PAGE });
    entries.push(...got.items);
    if (got.items.length < PAGE) return entries.reverse();
  }
}

export async function ledgerCsv(deps: Pick<UseCaseDeps, 'accounts'>, accountId: string): Promise<string> {
  let balance = 0;
  const rows = (await allEntries(deps, accountId)).map((e) => {
    balance += e.freeCredits + e.purchasedCredits;
    return csvLine([e.createdAt.toISOString(), e.entryId, e.kind, e.freeCredits, e.purchasedCredits, balance, e.queryId ?? '', e.note ?? '']);
  });
  return csvLine(['created_at', 'entry_id', 'kind', 'free_credits', 'purchased_credits', 'balance_after', 'query_id', 'note']) + rows.join('');
}

export async function purchasesCsv(deps: Pick<UseCaseDeps, 'accounts'>, accountId: string): Promise<string> {
  const purchases: readonly Purchase[] = await accountPurchases(deps, accountId);
  const rows = [...purchases].reverse().map((p) =>
    csvLine([
      (p.grantedAt ?? p.createdAt).toISOString(),
      p.paymentId,
      p.bundleId ?? '',
      p.credits,
      p.days,
      p.amount,
      p.currency ?? '',
      p.amountRefunded,
      p.disputeLost ? 'lost' : '',
      p.creditsReversed,
      p.grantedAt === null ? 'not granted' : 'granted',
      p.receiptUrl ?? '',
    ]),
  );
  return csvLine(['paid_at', 'payment_id', 'bundle', 'credits', 'paid_days', 'amount', 'currency', 'amount_refunded', 'dispute', 'credits_taken_back', 'status', 'receipt_url']) + rows.join('');
}
