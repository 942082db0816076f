import type { CreditSummary } from '../ports/account-store.ts';

/** What one account's entry can take at most: its id, a summary of numbers, dates and a tier name, the entry and the Map's slot. */
export const SUMMARY_ENTRY_BYTES = 512;

/**
 * A very short-lived per-process memory of each account's balance and tier, read on every
 * authenticated request only to choose the hourly rate window and to word the preview's
 * balance warning. Anything that moves money (execute, GET /account/credits) reads the store
 * itself, and an execute through this process forgets the account at once; elsewhere a tier or
 * balance change shows within ttlMs. (Keys are held by KeyCache, which bounds how long a revoked
 * key can still be served.)
 */
export class SummaryCache {
  readonly #entries = new Map<string, { readonly summary: CreditSummary; readonly atMs: number }>();
  readonly #maxEntries: number;

  /** maxBytes: 4 MiB by default, SUMMARY_ENTRY_BYTES an account at most. */
  constructor(
    private readonly ttlMs = 2000,
    maxBytes = 4 * 1024 * 1024,
  ) {
    this.#maxEntries = Math.max(1, Math.floor(maxBytes / SUMMARY_ENTRY_BYTES));
  }

  get(accountId: string, nowMs: number): CreditSummary | undefined {
    const entry = this.#entries.get(accountId);
    if (entry === undefined) return undefined;
    // The clock may move backwards in tests; treat that as stale too.
    if (nowMs - entry.atMs >= this.ttlMs || nowMs < entry.atMs) {
      this.#entries.delete(accountId);
      return undefined;
    }
    return entry.summary;
  }

  /** Entries are in the order they were set: the expired ones go first, then the oldest while full. */
  set(accountId: string, summary: CreditSummary, nowMs: number): void {
    this.#entries.delete(accountId);
    for (const [id, held] of this.#entries) {
      if (nowMs - held.atMs < this.ttlMs && nowMs >= held.atMs && this.#entries.size < this.#maxEntries) break;
      this.#entries.delete(id);
    }
    this.#entries.set(accountId, { summary, atMs: nowMs });
  }

  get size(): number {
    return this.#entries.size;
  }

  forget(accountId: string): void {
    this.#entries.delete(accountId);
  }
}
