import type { CredentialStore } from './credential-store.ts';
import type { Ledger } from './ledger.ts';
import type { PaymentLedger } from './payment-ledger.ts';
import type { QueryLog } from './query-log.ts';

export type { Account, ApiKeyRecord } from './credential-store.ts';
export type { Bundle, ChargeFailure, ChargeRequest, CreditSummary, LedgerEntry, Tier } from './ledger.ts';
export type { Page, QueryRecord, QueryUsage } from './query-log.ts';

/** The database's own life: schema, health, close. */
export interface StoreLifecycle {
  migrate(): Promise<void>;
  close(): Promise<void>;
  healthy(): Promise<boolean>;
}

/**
 * What one database holds, by aggregate: accounts and credentials (CredentialStore), the credit
 * ledger (Ledger) and the query log (QueryLog), each a port with its own contract suite, opened
 * together because they share the database and, where a use case needs it, a transaction
 * (account creation opens a balance; a charge writes the pending query). One implementation per
 * database (SQLite, PostgreSQL) and an in-memory fake, all passing the three suites.
 */
export interface AccountStore extends StoreLifecycle, CredentialStore, Ledger, QueryLog {
  /** Payment events applied to the ledger (the databases' adapters; the in-memory fake has none, so it cannot sell bundles). */
  readonly payments?: PaymentLedger;
}

/**
 * The store could not be reached or answered too late (connection lost, pool exhausted, statement
 * timeout). Adapters throw it instead of their driver's error so that callers can answer "retry
 * shortly" (503) rather than a bare 500; what was committed is still decided by the ledger rules.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}
