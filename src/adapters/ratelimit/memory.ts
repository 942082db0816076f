import type { RateDecision, RateLimiter, WindowPolicy } from '../../ports/rate-limiter.ts';
import { allAllow, decide, pivotIndex, validatePolicies, windowMs, type WindowState } from './sliding-window.ts';

/**
 * Exact sliding-log limiter for one process (the embedded default, and the Redis limiter's
 * fallback). Each (key, window length) keeps an ascending array of counted timestamps, pruned
 * on every hit; refused requests are never stored, so a log holds at most `limit` entries.
 * Logs whose newest entry has left the window are swept every SWEEP_EVERY hits, so memory
 * follows the number of keys active within the longest window, not every key ever seen.
 */
export interface MemoryRateLimiterOptions {
  /** Hits between sweeps of idle logs. */
  readonly sweepEvery?: number;
}

interface Log {
  readonly windowMs: number;
  /** Ascending timestamps (ms) of counted requests; those before `start` have left the window. */
  times: number[];
  start: number;
}

const DEFAULT_SWEEP_EVERY = 1024;

/** First index from `from` whose timestamp is > bound (binary search over an ascending array). */
function firstAfter(times: readonly number[], bound: number, from = 0): number {
  let lo = from;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as number) > bound) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export interface MemoryRateLimiter extends RateLimiter {
  /** Number of (key, window) logs held: for tests of the idle sweep. */
  size(): number;
}

export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): MemoryRateLimiter {
  const sweepEvery = options.sweepEvery ?? DEFAULT_SWEEP_EVERY;
  const logs = new Map<string, Log>();
  let hitsSinceSweep = 0;

  const logKey = (key: string, policy: WindowPolicy) => `${key}\u0000${policy.subKey ?? ''}\u0000${policy.windowSeconds}`;

  /**
   * Moves the log's start past the timestamps that left the window. The array is compacted only
   * when most of it is dead: splicing on every hit moved the whole log each time, O(limit) per
   * request (with a limit of millions, ~100 µs of a preview).
   */
  function prune(log: Log, nowMs: number): void {
    log.start = firstAfter(log.times, nowMs - log.windowMs, log.start);
    if (log.start > 64 && log.start * 2 > log.times.length) {
      log.times = log.times.slice(log.start);
      log.start = 0;
    }
  }

  function sweep(nowMs: number): void {
    for (const [name, log] of logs) {
      const newest = log.times[log.times.length - 1];
      if (newest === undefined || newest <= nowMs - log.windowMs) logs.delete(name);
    }
  }

  function hitNow(key: string, policies: readonly WindowPolicy[], nowMs: number): RateDecision {
    validatePolicies(policies);
    if (++hitsSinceSweep >= sweepEvery) {
      hitsSinceSweep = 0;
      sweep(nowMs);
    }
    const touched = new Map<string, Log>();
    const states: WindowState[] = policies.map((policy) => {
      const name = logKey(key, policy);
      let log = touched.get(name) ?? logs.get(name);
      if (log === undefined) log = { windowMs: windowMs(policy), times: [], start: 0 };
      if (!touched.has(name)) prune(log, nowMs);
      touched.set(name, log);
      const count = log.times.length - log.start;
      const pivot = log.times[log.start + pivotIndex(count, policy.limit)];
      const pivotMs = pivot === undefined ? nowMs : count < policy.limit ? Math.min(pivot, nowMs) : pivot;
      return { policy, count, pivotMs };
    });
    const decision = decide(states, nowMs);
    if (allAllow(states)) {
      for (const [name, log] of touched) {
        const at = firstAfter(log.times, nowMs, log.start);
        if (at === log.times.length) log.times.push(nowMs);
        else log.times.splice(at, 0, nowMs);
        logs.set(name, log);
      }
    }
    return decision;
  }

  return {
    hit: async (key, policies, nowMs) => hitNow(key, policies, nowMs),
    hitNow,
    healthy: async () => true,
    close: async () => logs.clear(),
    size: () => logs.size,
  };
}
