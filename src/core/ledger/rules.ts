import { FREE_WEEKLY_CREDITS, currentFreePeriodStart, nextFreeReset } from './weekly-reset.ts';

/**
 * The credit rules, free of storage: tiers from bundles, the weekly allowance, spend order.
 * The adapters apply them inside their transactions.
 */

/** Same values as the AccountStore port's Tier; declared here because core imports only core. */
export type Tier = 'free' | 'paid';

export interface BundleWindow {
  readonly startsAt: Date;
  readonly expiresAt: Date;
}

/** Paid while a bundle is active at `at` (starts_at ≤ at < expires_at); otherwise free. */
export function tierAt(bundles: readonly BundleWindow[], at: Date): Tier {
  const t = at.getTime();
  return bundles.some((b) => b.startsAt.getTime() <= t && t < b.expiresAt.getTime()) ? 'paid' : 'free';
}

/**
 * The allowance a week brings: 5 credits to an account that is free at the week's start
 * (Monday 00:00 Sydney), none to a paid one. Judging the tier at the period start, not at the
 * moment the reset is applied lazily, makes the result independent of when the account is
 * next seen.
 */
export const weeklyAllowance = (tierAtPeriodStart: Tier): number => (tierAtPeriodStart === 'free' ? FREE_WEEKLY_CREDITS : 0);

export interface FreeState {
  readonly freeRemaining: number;
  readonly freePeriodStart: Date;
}

/**
 * The lazy weekly reset: undefined while `now` is still in the stored period; otherwise the new
 * state and the ledger delta (unused free credits do not carry over).
 */
/** True when `now` lies in a later free-allowance week than the stored one. */
export const freeResetDue = (storedPeriodStart: Date, now: Date): boolean =>
  currentFreePeriodStart(now).getTime() > storedPeriodStart.getTime();

export function freeReset(
  state: FreeState,
  now: Date,
  tierAtStartOf: (periodStart: Date) => Tier,
): { readonly freeRemaining: number; readonly freePeriodStart: Date; readonly delta: number } | undefined {
  if (!freeResetDue(state.freePeriodStart, now)) return undefined;
  const period = currentFreePeriodStart(now);
  const freeRemaining = weeklyAllowance(tierAtStartOf(period));
  return { freeRemaining, freePeriodStart: period, delta: freeRemaining - state.freeRemaining };
}

export interface ChargeSplit {
  readonly fromFree: number;
  readonly fromPurchased: number;
}

/** Free credits first, then purchased (docs/spec/decisions.md, "Billing"). May exceed `purchased`: the debit's guard refuses it then. */
export function splitCharge(cost: number, freeRemaining: number): ChargeSplit {
  const fromFree = Math.min(cost, Math.max(0, freeRemaining));
  return { fromFree, fromPurchased: cost - fromFree };
}

/**
 * What a refund gives back: the purchased part always; the free part only while the week it was
 * spent in is still running (after a reset the new week's allowance has replaced it).
 */
export function refundSplit(charged: ChargeSplit, chargedInPeriod: Date, currentPeriod: Date): ChargeSplit {
  const sameWeek = chargedInPeriod.getTime() === currentPeriod.getTime();
  return { fromFree: sameWeek ? charged.fromFree : 0, fromPurchased: charged.fromPurchased };
}

/** The balance as an account reads it: both buckets together, the tier at `now`, and the next weekly reset while free. */
export function creditSummary(balance: { readonly free: number; readonly purchased: number; readonly creditsPurchased: number; readonly creditsUsed: number }, tier: Tier, now: Date) {
  return {
    tier,
    creditsRemaining: balance.free + balance.purchased,
    creditsPurchased: balance.creditsPurchased,
    creditsUsed: balance.creditsUsed,
    freeCreditsRemaining: balance.free,
    freeCreditsReset: tier === 'free' ? nextFreeReset(now) : null,
  };
}
