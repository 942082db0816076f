import type { RateDecision, WindowPolicy } from '../../ports/rate-limiter.ts';

/**
 * The decision rule both limiters share, so that memory and Redis cannot disagree.
 *
 * A request at time t counts in a window of W ms while t > now − W, and leaves it at t + W.
 * Each store reports, per window, how many counted requests are in it now and one "pivot"
 * timestamp (see WindowState); this module turns that into the decision.
 */
export interface WindowState {
  readonly policy: WindowPolicy;
  /** Counted requests inside the window at nowMs, before this request. */
  readonly count: number;
  /**
   * While count < limit: the oldest counted timestamp in the window (or nowMs when empty),
   * which is when the window starts to free up once this request is added.
   * While count ≥ limit: the timestamp at index count − limit of the window's sorted log, the
   * request whose departure brings the count back below the limit.
   */
  readonly pivotMs: number;
}

export const windowMs = (policy: WindowPolicy): number => policy.windowSeconds * 1000;

/** Index into a window's ascending log of the pivot described in WindowState. */
export const pivotIndex = (count: number, limit: number): number => (count >= limit ? count - limit : 0);

/** Whole seconds, at least 1, until the pivot request leaves the window. */
function secondsUntilLeaves(state: WindowState, nowMs: number): number {
  return Math.max(1, Math.ceil((state.pivotMs + windowMs(state.policy) - nowMs) / 1000));
}

/** Whether every window has room: only then is the request counted (in every window). */
export const allAllow = (states: readonly WindowState[]): boolean => states.every((s) => s.count < s.policy.limit);

export function decide(states: readonly WindowState[], nowMs: number): RateDecision {
  const first = states[0];
  if (first === undefined) throw new Error('a rate-limit check needs at least one window policy');
  if (!allAllow(states)) {
    // The client must wait for every refusing window, so the slowest one decides.
    let decision: RateDecision | undefined;
    for (const state of states) {
      if (state.count < state.policy.limit) continue;
      const resetSeconds = secondsUntilLeaves(state, nowMs);
      if (decision === undefined || resetSeconds > decision.resetSeconds) {
        decision = { allowed: false, policy: state.policy, remaining: 0, resetSeconds };
      }
    }
    return decision as RateDecision;
  }
  // Allowed: the window with the fewest requests left decides (ties: the one that frees up last).
  let decision: RateDecision | undefined;
  for (const state of states) {
    const remaining = state.policy.limit - state.count - 1;
    const resetSeconds = secondsUntilLeaves(state, nowMs);
    if (
      decision === undefined ||
      remaining < decision.remaining ||
      (remaining === decision.remaining && resetSeconds > decision.resetSeconds)
    ) {
      decision = { allowed: true, policy: state.policy, remaining, resetSeconds };
    }
  }
  return decision as RateDecision;
}

export function validatePolicies(policies: readonly WindowPolicy[]): void {
  if (policies.length === 0) throw new Error('a rate-limit check needs at least one window policy');
  for (const p of policies) {
    if (!Number.isSafeInteger(p.limit) || p.limit < 1) throw new Error(`policy ${p.name}: limit must be an integer ≥ 1`);
    if (!Number.isSafeInteger(p.windowSeconds) || p.windowSeconds < 1) throw new Error(`policy ${p.name}: windowSeconds must be an integer ≥ 1`);
  }
}
