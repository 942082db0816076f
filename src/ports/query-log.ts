import type { DatasetType } from '../core/dataset.ts';

export interface QueryRecord {
  readonly queryId: string; // "qry_…"
  readonly accountId: string;
  readonly status: 'pending' | 'completed' | 'failed';
  readonly executedAt: Date;
  readonly datasetType: DatasetType;
  readonly geographySelections: readonly string[];
  readonly nObservations: number;
  readonly creditCost: number;
  /** The request and its metadata echo (JSON-serialisable), as returned in the execution result. */
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly fileKey: string | null;
  readonly downloadExpires: Date;
  /** Set once the sweeper has deleted the file. */
  readonly fileDeletedAt: Date | null;
  /** The API key that ran it; null (or absent) when the account area's builder ran it. */
  readonly keyId?: string | null;
}

/** What a query counts for in usage figures: the few columns of its row they read. */
export interface QueryUsage {
  readonly queryId: string;
  readonly executedAt: Date;
  /** The API key that ran it; null when the account area's builder did. */
  readonly keyId: string | null;
  readonly nObservations: number;
  /** How many geography selections (places) it drew for. */
  readonly places: number;
  readonly creditCost: number;
  /** A sandbox query (its metadata's test_data). */
  readonly testData: boolean;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly total: number;
}

/**
 * The query log: every charged query (pending, completed with its file, or failed and refunded),
 * its file's life, and the instance leases that say whether a pending query still has a live
 * instance running it. Rows are written pending by Ledger.charge. Contract: test/adapters/query-log.contract.ts
 * (run on SQLite, PostgreSQL and the memory fake by test/adapters/db/*.test.ts).
 */
export interface QueryLog {
  /**
   * Marks a pending query completed with its file. false when it is no longer pending: crash
   * recovery refunded it (its instance's lease lapsed), so the caller must not hand out the file.
   */
  completeQuery(queryId: string, fileKey: string): Promise<boolean>;
  /** Pending queries older than `olderThan` (crash recovery refunds them). */
  pendingQueriesBefore(olderThan: Date): Promise<readonly QueryRecord[]>;
  /** Takes or extends an instance's lease until `until` (instances renew it every few seconds). */
  renewInstanceLease(input: { instanceId: string; until: Date; now: Date }): Promise<void>;
  /** Instances whose lease runs past `now`. */
  liveInstances(now: Date): Promise<readonly string[]>;
  /** Gives the lease up (a clean stop, after its executes drained). */
  releaseInstanceLease(instanceId: string): Promise<void>;
  /** Pending queries charged by an instance whose lease lapsed before `now` or is gone: nobody runs them any more. */
  pendingQueriesOfLapsedInstances(now: Date): Promise<readonly QueryRecord[]>;

  getQuery(accountId: string, queryId: string): Promise<QueryRecord | undefined>;
  history(input: { accountId: string; page: number; perPage: number; datasetType?: DatasetType }): Promise<Page<QueryRecord>>;
  /**
   * The account's completed queries executed at or after `since`, newest first, at most `limit`,
   * as the account area's usage figures need them (they add them up by day and by key).
   */
  usageSince(input: { accountId: string; since: Date; limit: number }): Promise<readonly QueryUsage[]>;
  /** Completed queries whose link expired before `before` and whose file is not yet deleted. */
  expiredFiles(before: Date, limit: number): Promise<readonly QueryRecord[]>;
  markFileDeleted(queryId: string, now: Date): Promise<void>;
  /**
   * Refunded (failed) queries executed before `before` whose files are not yet known to be gone:
   * an upload can land after its refund (an instance that stalled, then died), so they are deleted
   * once more and then marked deleted.
   */
  failedQueriesWithFiles(before: Date, limit: number): Promise<readonly QueryRecord[]>;
}
