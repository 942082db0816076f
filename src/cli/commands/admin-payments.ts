import type { Command } from 'commander';
import type { amountWithCode } from '../../core/money.ts';
import type { PaymentReport } from '../../app/payments.ts';
import type { AppError } from '../../core/errors.ts';
import type { Result } from '../../core/result.ts';
import type { AccountStore } from '../../ports/account-store.ts';
import type { Purchase } from '../../ports/payment-ledger.ts';

/** What `spq admin` hands these commands: its store-opening runner and its output line. */
export interface AdminKit {
  run<T>(use: (deps: { readonly store: AccountStore }) => Promise<Result<T, AppError>>, show: (value: T) => void): Promise<void>;
  out(line: string): void;
}

/** An amount in words, as core/money.ts writes it (loaded with the command, as every command module loads its code). */
type Money = typeof amountWithCode;

function purchaseLine(p: Purchase, amountWithCode: Money): string {
  const amount = (value: number, currency: string | null) => (currency ? amountWithCode(value, currency) : String(value));
  const state =
    p.grantedAt === null
      ? 'not granted'
      : [
          `granted ${p.grantedAt.toISOString()}`,
          p.amountRefunded > 0 ? `refunded ${amount(p.amountRefunded, p.currency)}` : '',
          p.disputeLost ? 'dispute lost' : '',
          p.creditsReversed > 0 ? `${p.creditsReversed} credits taken back` : '',
          p.shortfall > 0 ? `SHORTFALL ${p.shortfall} credits (already spent)` : '',
        ]
          .filter((part) => part !== '')
          .join(', ');
  return `${p.paymentId}  ${p.accountId ?? '(no account)'}  ${p.bundleId ?? '?'}  ${p.credits} credits  ${amount(p.amount, p.currency)}  ${state}${p.receiptUrl ? `  ${p.receiptUrl}` : ''}`;
}

function show(out: AdminKit['out'], report: PaymentReport, json: boolean, money: Money): void {
  if (json) {
    out(JSON.stringify(report));
    return;
  }
  out(report.purchases.length === 0 ? 'no purchases' : `purchases (${report.purchases.length}), newest first:`);
  report.purchases.forEach((p) => out(`  ${purchaseLine(p, money)}`));
  const shortfall = report.purchases.reduce((sum, p) => sum + p.shortfall, 0);
  if (shortfall > 0) out(`shortfall in all: ${shortfall} credits were spent before their payment was refunded or lost in a dispute`);
  out(report.refused.length === 0 ? 'no refused events' : `refused events (${report.refused.length}): paid, never granted; refund them in Stripe or grant by hand:`);
  report.refused.forEach((e) => out(`  ${e.eventId}  ${e.type}  ${e.paymentId ?? ''}  ${e.receivedAt.toISOString()}  ${e.reason ?? ''}`));
}

/** `spq admin payments`: what holders bought through Stripe, what refunds and disputes took back, the shortfalls, and the events refused. */
export function registerPaymentCommands(admin: Command, kit: AdminKit): void {
  admin
    .command('payments')
    .description('purchases through Stripe: refunds, disputes, shortfalls and refused events')
    .option('--account <id>', 'only this account (acc_…)')
    .option('--shortfalls', 'only purchases with a shortfall (credits spent before a refund or lost dispute)')
    .option('--json', 'print {"purchases", "refused"} as JSON')
    .action(async (opts: { account?: string; shortfalls?: boolean; json?: boolean }) => {
      const [{ paymentReport }, { amountWithCode }] = await Promise.all([import('../../app/payments.ts'), import('../../core/money.ts')]);
      await kit.run(
        (deps) => paymentReport(deps, { ...(opts.account ? { accountId: opts.account } : {}), ...(opts.shortfalls ? { shortfallsOnly: true } : {}) }),
        (report) => show(kit.out, report, opts.json === true, amountWithCode),
      );
    });
}
