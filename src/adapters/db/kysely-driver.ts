import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { DatasetType } from '../../core/dataset.ts';
import type { QueryRecord } from '../../ports/query-log.ts';
import type { Database, QueriesTable } from './schema.ts';

/** Idempotency keys are honoured for 24 hours (docs/spec/decisions.md, "Idempotency"). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
export const DAY_MS = 86_400_000;

/** What differs between SQLite and PostgreSQL; everything else is the shared code below. */
export interface StoreDriver {
  readonly db: Kysely<Database>;
  /**
   * Runs `fn` in a write transaction and commits when it returns. SQLite: BEGIN IMMEDIATE (one
   * writer at a time). PostgreSQL: retried on serialization failures and deadlocks, and on
   * connection failures only when `retrySafe` (the work is idempotent, so a commit whose
   * acknowledgement was lost cannot be applied twice).
   */
  write<T>(fn: (trx: Kysely<Database>) => Promise<T>, options: { readonly retrySafe: boolean }): Promise<T>;
  /** Whether SELECT … FOR UPDATE is needed to hold a row until commit (SQLite's write lock already does). */
  readonly rowLocks: boolean;
  /** Runs `apply` in one transaction that holds the migration lock. */
  migrate(apply: (trx: Kysely<Database>) => Promise<unknown>): Promise<void>;
  close(): Promise<void>;
}

export const toDate = (ms: number): Date => new Date(Number(ms));
export const toDateOrNull = (ms: number | null): Date | null => (ms === null ? null : toDate(ms));

export function toQueryRecord(row: Selectable<QueriesTable>): QueryRecord {
  return {
    queryId: row.query_id,
    accountId: row.account_id,
    status: row.status,
    executedAt: toDate(row.executed_at),
    datasetType: row.dataset_type as DatasetType,
    geographySelections: JSON.parse(row.geography_selections) as string[],
    nObservations: row.n_observations,
    creditCost: row.credit_cost,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    fileKey: row.file_key,
    downloadExpires: toDate(row.download_expires),
    fileDeletedAt: toDateOrNull(row.file_deleted_at),
    keyId: row.key_id,
  };
}

export function assertCredits(credits: number, min: number, what: string): void {
  if (!Number.isSafeInteger(credits) || credits < min) throw new RangeError(`${what} must be an integer ≥ ${min}, got ${credits}`);
}

/** The AccountStore over Kysely, shared by the SQLite and PostgreSQL adapters. */

/** How an Idempotency-Key is stored: its SHA-256, so the table never holds what a client sent. */
export const hashIdempotencyKey = (key: string): string => `sha256:${createHash('sha256').update(key, 'utf8').digest('hex')}`;
