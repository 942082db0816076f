/** One sliding window: at most `limit` requests within any `windowSeconds`. */
export interface WindowPolicy {
  readonly name: string;
  readonly limit: number;
  readonly windowSeconds: number;
  /**
   * A window counted in a log of its own under the hit's key (policies with different subKeys
   * never share a log). One hit can so check an account's windows and one of its key's windows
   * together: counted in all or none.
   */
  readonly subKey?: string;
}

export interface RateDecision {
  readonly allowed: boolean;
  /** The window that decides: the refusing one, or the one with the fewest requests left. */
  readonly policy: WindowPolicy;
  readonly remaining: number;
  /** Whole seconds until the oldest counted request leaves the deciding window (≥ 1 when refused). */
  readonly resetSeconds: number;
}

/**
 * Sliding-window limiter over several windows at once: a request is counted in every window
 * only when all of them allow it (a refused request is not counted).
 */
export interface RateLimiter {
  hit(key: string, policies: readonly WindowPolicy[], nowMs: number): Promise<RateDecision>;
  /**
   * The same hit answered at once, by a limiter that counts in this process (no I/O to wait
   * for); absent where counting takes a round trip. An authenticated request then passes its
   * gate without waiting for a promise.
   */
  readonly hitNow?: (key: string, policies: readonly WindowPolicy[], nowMs: number) => RateDecision;
  /** Whether the limiter's backing store is reachable (for /readyz). */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}
