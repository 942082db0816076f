/**
 * The database as Kysely sees it: one schema for SQLite and PostgreSQL. Every instant is a
 * bigint of epoch milliseconds and every JSON value is text, so both databases hand back the
 * same JavaScript values (the PostgreSQL pool parses int8 as a number). Credits are integers.
 */
export interface AccountsTable {
  account_id: string;
  email: string;
  created_at: number;
}

export interface ApiKeysTable {
  key_id: string;
  account_id: string;
  /** HMAC-SHA256(key, server secret), hex. The key itself is never stored. */
  key_hash: string;
  prefix: string;
  last4: string;
  created_at: number;
  revoked_at: number | null;
  /** The holder's label for the key (migration 0003; null for keys made by the operator). */
  name: string | null;
  /** Last authenticated use, to the minute (migration 0003). */
  last_used_at: number | null;
}

export const LEDGER_KINDS = ['grant', 'bundle_purchase', 'free_allowance', 'charge', 'refund'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** Append-only. Each row moves credits in the free and/or the purchased bucket (signed). */
export interface LedgerEntriesTable {
  entry_id: string;
  account_id: string;
  kind: LedgerKind;
  free_credits: number;
  purchased_credits: number;
  /** Set for charge and refund; unique per (query_id, kind) so a query is charged and refunded at most once. */
  query_id: string | null;
  note: string | null;
  created_at: number;
}

/** One row per account, changed in the same transaction as each ledger row. */
export interface BalancesTable {
  account_id: string;
  free_remaining: number;
  purchased_remaining: number;
  /** Start (epoch ms) of the free-allowance week free_remaining belongs to. */
  free_period_start: number;
  /** Credits ever added to the purchased bucket (bundles and grants). */
  credits_purchased: number;
  /** Credits charged, less refunds. */
  credits_used: number;
  updated_at: number;
}

export interface BundlesTable {
  bundle_id: string;
  account_id: string;
  credits: number;
  starts_at: number;
  expires_at: number;
  created_at: number;
}

export type QueryStatus = 'pending' | 'completed' | 'failed';

export interface QueriesTable {
  query_id: string;
  account_id: string;
  status: QueryStatus;
  executed_at: number;
  dataset_type: string;
  /** JSON array of strings. */
  geography_selections: string;
  n_observations: number;
  credit_cost: number;
  /** JSON object. */
  metadata: string;
  file_key: string | null;
  download_expires: number;
  file_deleted_at: number | null;
  failure_reason: string | null;
  /** The instance that charged it and runs it (migration 0002; null on older rows). */
  instance_id: string | null;
  /** The API key that ran it (migration 0004); null for the account area's builder and older rows. */
  key_id: string | null;
}

/** One row per running instance: a dead one's lease lapses and its pending executes are refunded. */
export interface InstanceLeasesTable {
  instance_id: string;
  expires_at: number;
  renewed_at: number;
}

export interface IdempotencyKeysTable {
  account_id: string;
  idempotency_key: string;
  request_hash: string;
  query_id: string;
  created_at: number;
}

/** The account area's sign-in (migration 0003): one row per account holder who set a password. */
export interface WebCredentialsTable {
  account_id: string;
  /** scrypt$N$r$p$salt$hash (core/password.ts); null until the invitation is accepted. */
  password_hash: string | null;
  /** IANA time zone the pages show times in. */
  time_zone: string;
  updated_at: number;
}

/** One-time links (invitation, password reset): only their keyed hash is kept. */
export interface WebTokensTable {
  token_hash: string;
  account_id: string;
  purpose: 'invitation' | 'reset';
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Signed-in browsers: the cookie holds the token, the table its keyed hash. */
export interface WebSessionsTable {
  session_id: string;
  token_hash: string;
  account_id: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  revoked_at: number | null;
  user_agent: string | null;
}

/** One row per payment (Stripe: PaymentIntent), made by the first event about it (migration 0006). */
export interface PaymentsTable {
  payment_id: string;
  account_id: string | null;
  /** The catalogue bundle the checkout was for. */
  catalogue_bundle: string | null;
  credits: number;
  days: number;
  amount_paid: number;
  currency: string | null;
  receipt_url: string | null;
  checkout_id: string | null;
  /** The bundles row the grant made. */
  bundle_id: string | null;
  granted_at: number | null;
  /** The most any event reported refunded (cumulative). */
  amount_refunded: number;
  /** 1 once a dispute was lost. */
  dispute_lost: number;
  credits_reversed: number;
  shortfall: number;
  created_at: number;
  updated_at: number;
}

/** Every webhook event once, by its id (migration 0006). */
export interface PaymentEventsTable {
  event_id: string;
  type: string;
  payment_id: string | null;
  status: 'received' | 'applied' | 'refused' | 'ignored';
  reason: string | null;
  /** JSON: the event as the payment port read it. */
  event: string;
  received_at: number;
  applied_at: number | null;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  ledger_entries: LedgerEntriesTable;
  balances: BalancesTable;
  bundles: BundlesTable;
  queries: QueriesTable;
  idempotency_keys: IdempotencyKeysTable;
  instance_leases: InstanceLeasesTable;
  web_credentials: WebCredentialsTable;
  web_tokens: WebTokensTable;
  web_sessions: WebSessionsTable;
  payments: PaymentsTable;
  payment_events: PaymentEventsTable;
}
