import { RESET_TIME_ZONE } from '../core/ledger/weekly-reset.ts';
import type { CreditSummary } from '../ports/account-store.ts';
import type { CreditsResult } from '../wire/account.ts';
import type { UseCaseDeps } from './deps.ts';
import { isoInZone } from './format.ts';

/** GET /account/credits, as the published schema defines it (src/wire: one wire model). */
export type CreditsOutcome = CreditsResult;

export async function accountCredits(deps: Pick<UseCaseDeps, 'accounts' | 'clock'>, accountId: string): Promise<CreditsOutcome> {
  return creditsView(await deps.accounts.credits(accountId, deps.clock.now()));
}

/** The contract's field names for a balance already read (authentication reads it for the tier). */
export function creditsView(c: CreditSummary): CreditsOutcome {
  return {
    credits_remaining: c.creditsRemaining,
    tier: c.tier,
    credits_purchased: c.creditsPurchased,
    credits_used: c.creditsUsed,
    free_credits_remaining: c.freeCreditsRemaining,
    free_credits_reset: c.freeCreditsReset === null ? null : isoInZone(c.freeCreditsReset, RESET_TIME_ZONE), // the reset's own zone, so it reads as Monday 00:00
  };
}
