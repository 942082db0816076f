import { sql, type Kysely } from 'kysely';

/**
 * The one migration set, run unchanged on SQLite and PostgreSQL (only portable column types:
 * text, integer, bigint). Each dialect runs `applyMigrations` inside one transaction that holds
 * its migration lock (SQLite: BEGIN IMMEDIATE; PostgreSQL: an advisory transaction lock), so two
 * processes starting together apply each migration exactly once. Append new migrations; never
 * edit an applied one.
 */
export interface Migration {
  readonly name: string;
  // Migrations are written against an untyped Kysely: the schema they create is the typed one.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  up(db: Kysely<any>): Promise<void>;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    name: '0001_accounts_keys_ledger_queries',
    async up(db) {
      await db.schema
        .createTable('accounts')
        .addColumn('account_id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('key_id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('last4', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

      await db.schema
        .createTable('balances')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.account_id'))
        .addColumn('free_remaining', 'integer', (c) => c.notNull().check(sql`free_remaining >= 0`))
        .addColumn('purchased_remaining', 'integer', (c) => c.notNull().check(sql`purchased_remaining >= 0`))
        .addColumn('free_period_start', 'bigint', (c) => c.notNull())
        .addColumn('credits_purchased', 'integer', (c) => c.notNull())
        .addColumn('credits_used', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('ledger_entries')
        .addColumn('entry_id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
        .addColumn('kind', 'text', (c) =>
          c.notNull().check(sql`kind in ('grant', 'bundle_purchase', 'free_allowance', 'charge', 'refund')`),
        )
        .addColumn('free_credits', 'integer', (c) => c.notNull())
        .addColumn('purchased_credits', 'integer', (c) => c.notNull())
        .addColumn('query_id', 'text')
        .addColumn('note', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ledger_entries_account').on('ledger_entries').columns(['account_id', 'created_at']).execute();
      // A query is charged at most once and refunded at most once (NULL query ids are distinct).
      await db.schema.createIndex('ledger_entries_query_kind').on('ledger_entries').columns(['query_id', 'kind']).unique().execute();

      await db.schema
        .createTable('bundles')
        .addColumn('bundle_id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
        .addColumn('credits', 'integer', (c) => c.notNull())
        .addColumn('starts_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bundles_account').on('bundles').columns(['account_id', 'expires_at']).execute();

      await db.schema
        .createTable('queries')
        .addColumn('query_id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'completed', 'failed')`))
        .addColumn('executed_at', 'bigint', (c) => c.notNull())
        .addColumn('dataset_type', 'text', (c) => c.notNull())
        .addColumn('geography_selections', 'text', (c) => c.notNull())
        .addColumn('n_observations', 'integer', (c) => c.notNull())
        .addColumn('credit_cost', 'integer', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('file_key', 'text')
        .addColumn('download_expires', 'bigint', (c) => c.notNull())
        .addColumn('file_deleted_at', 'bigint')
        .addColumn('failure_reason', 'text')
        .execute();
      await db.schema.createIndex('queries_history').on('queries').columns(['account_id', 'status', 'executed_at']).execute();
      await db.schema.createIndex('queries_pending').on('queries').columns(['status', 'executed_at']).execute();
      await db.schema.createIndex('queries_expiry').on('queries').columns(['status', 'download_expires']).execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('query_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'idempotency_key'])
        .execute();
    },
  },
  {
    name: '0002_instance_leases',
    async up(db) {
      await db.schema.alterTable('queries').addColumn('instance_id', 'text').execute();
      await db.schema
        .createTable('instance_leases')
        .addColumn('instance_id', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('renewed_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  {
    name: '0003_account_area_sign_in',
    async up(db) {
      await db.schema.alterTable('api_keys').addColumn('name', 'text').execute();
      await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
      await db.schema
        .createTable('web_credentials')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.account_id'))
        .addColumn('password_hash', 'text')
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('web_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
        .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('invitation', 'reset')`))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createTable('web_sessions')
        .addColumn('session_id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('web_sessions_account').on('web_sessions').column('account_id').execute();
    },
  },
  {
    // The key that ran a query, so the account area can show usage per key (null: the account
    // area's own builder, or a query from before this migration).
    name: '0004_queries_key_id',
    async up(db) {
      await db.schema.alterTable('queries').addColumn('key_id', 'text').execute();
    },
  },
  {
    // The account area lists a holder's signed-in browsers by their User-Agent.
    name: '0005_web_sessions_user_agent',
    async up(db) {
      await db.schema.alterTable('web_sessions').addColumn('user_agent', 'text').execute();
    },
  },
  {
    // Bundles sold through a payment provider (issue 41): each webhook event once (its id the key),
    // and each payment once (its id the key, the row every event about it locks).
    name: '0006_payments',
    async up(db) {
      await db.schema
        .createTable('payments')
        .addColumn('payment_id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text')
        .addColumn('catalogue_bundle', 'text')
        .addColumn('credits', 'integer', (c) => c.notNull())
        .addColumn('days', 'integer', (c) => c.notNull())
        .addColumn('amount_paid', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text')
        .addColumn('receipt_url', 'text')
        .addColumn('checkout_id', 'text')
        .addColumn('bundle_id', 'text')
        .addColumn('granted_at', 'bigint')
        .addColumn('amount_refunded', 'integer', (c) => c.notNull())
        .addColumn('dispute_lost', 'integer', (c) => c.notNull())
        .addColumn('credits_reversed', 'integer', (c) => c.notNull())
        .addColumn('shortfall', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payments_account').on('payments').columns(['account_id', 'created_at']).execute();
      await db.schema
        .createTable('payment_events')
        .addColumn('event_id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('payment_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('received', 'applied', 'refused', 'ignored')`))
        .addColumn('reason', 'text')
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addColumn('applied_at', 'bigint')
        .execute();
      await db.schema.createIndex('payment_events_status').on('payment_events').columns(['status', 'received_at']).execute();
    },
  },
];

/** Applies the pending migrations on `trx`, which must be a transaction holding the migration lock. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function applyMigrations(trx: Kysely<any>, now: Date): Promise<readonly string[]> {
  await trx.schema
    .createTable('spq_migrations')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('applied_at', 'bigint', (c) => c.notNull())
    .execute();
  const rows = (await trx.selectFrom('spq_migrations').select('name').execute()) as { name: string }[];
  const applied = new Set(rows.map((r) => r.name));
  const done: string[] = [];
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.name)) continue;
    await migration.up(trx);
    await trx.insertInto('spq_migrations').values({ name: migration.name, applied_at: now.getTime() }).execute();
    done.push(migration.name);
  }
  return done;
}
