import type { CreditSummary } from '../ports/account-store.ts';

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

  constructor(
    private readonly ttlMs = 2000,
    private readonly maxEntries = 10_000,
  ) {}

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

  set(accountId: string, summary: CreditSummary, nowMs: number): void {
    this.#entries.delete(accountId);
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(accountId, { summary, atMs: nowMs });
  }

  forget(accountId: string): void {
    this.#entries.delete(accountId);
  }
}
