import type { Result } from '../core/result.ts';
import type { Page, QueryRecord } from './query-log.ts';

export type Tier = 'free' | 'paid';

/** One row of the append-only ledger, as the account area lists it. */
export interface LedgerEntry {
  readonly entryId: string;
  readonly kind: 'grant' | 'bundle_purchase' | 'free_allowance' | 'charge' | 'refund';
  /** Signed movements of the free and purchased buckets. */
  readonly freeCredits: number;
  readonly purchasedCredits: number;
  readonly queryId: string | null;
  readonly note: string | null;
  readonly createdAt: Date;
}

export interface Bundle {
  readonly bundleId: string;
  readonly credits: number;
  readonly startsAt: Date;
  readonly expiresAt: Date;
}

/** Balance and tier as GET /account/credits reports them, evaluated at `now`. */
export interface CreditSummary {
  readonly tier: Tier;
  /** free_credits_remaining + purchased credits remaining */
  readonly creditsRemaining: number;
  readonly creditsPurchased: number;
  readonly creditsUsed: number;
  readonly freeCreditsRemaining: number;
  /** Next weekly reset (Monday 00:00 Australia/Sydney), null when the account has no weekly allowance. */
  readonly freeCreditsReset: Date | null;
}

export interface ChargeRequest {
  readonly accountId: string;
  readonly queryId: string;
  readonly credits: number;
  readonly now: Date;
  /** The pending history row, written in the same transaction as the debit. */
  readonly query: Omit<QueryRecord, 'status' | 'fileDeletedAt' | 'accountId' | 'queryId' | 'creditCost'>;
  readonly idempotency?: { readonly key: string; readonly requestHash: string };
  /** The instance that runs the execute: if its lease lapses while the query is pending, another instance refunds it. */
  readonly instanceId?: string;
}

export type ChargeFailure =
  | { readonly kind: 'insufficient_credits'; readonly required: number; readonly available: number }
  | { readonly kind: 'idempotency_in_flight' }
  | { readonly kind: 'idempotency_mismatch' }
  /** Same key, same body, already completed: the stored query to return again (nothing charged). */
  | { readonly kind: 'idempotency_replay'; readonly query: QueryRecord };

/**
 * The credit ledger: append-only entries (grant, bundle_purchase, free_allowance, charge, refund)
 * in integer credits, the balances kept consistent with them in the same transaction, and the
 * bundles that make an account paid. Debits are conditional, so a balance never goes below zero
 * whatever the concurrency. A charge writes the query log's pending row in its own transaction,
 * and a refund marks it failed in its own: the query log and the ledger never disagree.
 * Contract: test/adapters/ledger.contract.ts (run on SQLite, PostgreSQL and the memory fake by test/adapters/db/*.test.ts).
 */
export interface Ledger {
  grantCredits(input: { accountId: string; credits: number; now: Date; note?: string }): Promise<void>;
  addBundle(input: { accountId: string; credits: number; days: number; now: Date }): Promise<void>;
  credits(accountId: string, now: Date): Promise<CreditSummary>;
  /** The account's ledger, newest first. */
  ledger(input: { accountId: string; page: number; perPage: number }): Promise<Page<LedgerEntry>>;
  /** The account's bundles, newest first. */
  bundles(accountId: string): Promise<readonly Bundle[]>;
  /** Debits free allowance first, then purchased credits, and writes the pending query row: one transaction. */
  charge(request: ChargeRequest): Promise<Result<{ readonly creditsRemaining: number }, ChargeFailure>>;
  /**
   * Reverses the query's charge in the ledger (once, however often called) and marks it failed.
   * onlyIfPending (crash recovery): does nothing to a query that completed meanwhile.
   */
  refundQuery(queryId: string, now: Date, reason: string, options?: { readonly onlyIfPending?: boolean }): Promise<void>;
  /** Sum of all ledger entries for the account, for consistency checks (must equal the stored balances). */
  ledgerBalance(accountId: string): Promise<number>;
}
