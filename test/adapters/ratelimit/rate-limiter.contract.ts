import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { RateDecision, RateLimiter, WindowPolicy } from '../../../src/ports/rate-limiter.ts';

/**
 * The behaviour every RateLimiter must show (memory and Redis run this same suite).
 * Time is driven by the tests through nowMs; T0 sits on a 60-second boundary so that a fixed-window
 * limiter would reset at the edges these tests probe.
 */
export interface RateLimiterHarness {
  /** A fresh limiter whose state no other test sees. */
  make(): Promise<RateLimiter>;
  /** Two limiters sharing one state (two Redis connections; the same object for memory). */
  makePair(): Promise<readonly [RateLimiter, RateLimiter]>;
}

const T0 = 1_700_000_040_000;
const sec = (s: number) => T0 + Math.round(s * 1000);
const policy = (name: string, limit: number, windowSeconds: number): WindowPolicy => ({ name, limit, windowSeconds });

export function rateLimiterContract(name: string, harness: RateLimiterHarness): void {
  describe(`RateLimiter contract: ${name}`, () => {
    const opened: RateLimiter[] = [];
    const make = async () => {
      const limiter = await harness.make();
      opened.push(limiter);
      return limiter;
    };
    afterAll(async () => {
      for (const limiter of new Set(opened)) await limiter.close();
    });
    const key = () => `key-${randomUUID()}`;

    it('allows exactly limit requests in a window, counting remaining down to 0', async () => {
      const limiter = await make();
      const k = key();
      const perMinute = [policy('minute', 5, 60)];
      const remaining: number[] = [];
      for (let i = 0; i < 5; i++) {
        const d = await limiter.hit(k, perMinute, sec(i));
        expect(d.allowed).toBe(true);
        remaining.push(d.remaining);
      }
      expect(remaining).toEqual([4, 3, 2, 1, 0]);
      const refused = await limiter.hit(k, perMinute, sec(5));
      expect(refused).toEqual({ allowed: false, policy: perMinute[0], remaining: 0, resetSeconds: 55 });
    });

    it('hitNow, where a limiter has it, counts and decides as hit does, in the same logs', async () => {
      const limiter = await make();
      if (limiter.hitNow === undefined) return; // a limiter that counts elsewhere answers only through hit
      const k = key();
      const p = [policy('minute', 3, 60), { ...policy('key-minute', 2, 60), subKey: 'key:a' }];
      expect(limiter.hitNow(k, p, sec(0))).toEqual(await limiter.hit(`${k}-twin`, p, sec(0)));
      expect((await limiter.hit(k, p, sec(1))).allowed).toBe(true);
      const refused = limiter.hitNow(k, p, sec(2));
      expect(refused).toEqual({ allowed: false, policy: p[1], remaining: 0, resetSeconds: 58 });
      expect((await limiter.hit(k, p, sec(2))).allowed).toBe(false);
    });

    it('slides: requests late in one minute still count early in the next, and leave exactly one window later', async () => {
      const limiter = await make();
      const k = key();
      const p = [policy('minute', 3, 60)];
      for (const s of [50, 55, 59.5]) expect((await limiter.hit(k, p, sec(s))).allowed).toBe(true);
      // A fixed window would have reset at 60 s.
      const early = await limiter.hit(k, p, sec(60.5));
      expect(early.allowed).toBe(false);
      expect(early.resetSeconds).toBe(50); // 50 s + 60 s − 60.5 s = 49.5 → 50
      // One millisecond before the first request leaves: still refused, and Retry-After never says 0.
      const justBefore = await limiter.hit(k, p, sec(110) - 1);
      expect(justBefore).toMatchObject({ allowed: false, resetSeconds: 1 });
      // At exactly 50 s + 60 s the first request has left the window.
      expect((await limiter.hit(k, p, sec(110))).allowed).toBe(true);
      expect((await limiter.hit(k, p, sec(110.5))).allowed).toBe(false);
    });

    it('enforces two windows at once and names the one that refuses (60/min and 10/hour)', async () => {
      const limiter = await make();
      const k = key();
      const minute = policy('minute', 60, 60);
      const hour = policy('hour', 10, 3600);
      for (let i = 0; i < 10; i++) {
        const d = await limiter.hit(k, [minute, hour], sec(i));
        expect(d).toMatchObject({ allowed: true, policy: hour, remaining: 9 - i });
      }
      const refused = await limiter.hit(k, [minute, hour], sec(10));
      expect(refused).toEqual({ allowed: false, policy: hour, remaining: 0, resetSeconds: 3590 });
      // Minutes later the minute window is empty, but the hour still refuses.
      expect((await limiter.hit(k, [minute, hour], sec(600))).policy).toEqual(hour);
      expect((await limiter.hit(k, [minute, hour], sec(3600))).allowed).toBe(true);

      // The shorter window refuses first when its limit is the tighter one.
      const k2 = key();
      const tightMinute = policy('minute', 3, 60);
      const looseHour = policy('hour', 5, 3600);
      for (const s of [0, 1, 2]) expect((await limiter.hit(k2, [tightMinute, looseHour], sec(s))).allowed).toBe(true);
      expect(await limiter.hit(k2, [tightMinute, looseHour], sec(3))).toEqual({ allowed: false, policy: tightMinute, remaining: 0, resetSeconds: 57 });
      for (const s of [60, 61]) expect((await limiter.hit(k2, [tightMinute, looseHour], sec(s))).allowed).toBe(true);
      expect(await limiter.hit(k2, [tightMinute, looseHour], sec(62))).toEqual({ allowed: false, policy: looseHour, remaining: 0, resetSeconds: 3538 });
    });

    it('Retry-After is exact: refused one second before it, allowed at it', async () => {
      const limiter = await make();
      const k = key();
      const p = [policy('w', 2, 30)];
      await limiter.hit(k, p, sec(0.25));
      await limiter.hit(k, p, sec(7.75));
      const refused = await limiter.hit(k, p, sec(12.5));
      expect(refused.resetSeconds).toBe(18); // 0.25 + 30 − 12.5 = 17.75 → 18
      expect((await limiter.hit(k, p, sec(12.5 + 17))).allowed).toBe(false);
      expect((await limiter.hit(k, p, sec(12.5 + 18))).allowed).toBe(true);
    });

    it('does not count refused requests', async () => {
      const limiter = await make();
      const k = key();
      const p = [policy('w', 2, 10)];
      await limiter.hit(k, p, sec(0));
      await limiter.hit(k, p, sec(1));
      for (let i = 0; i < 50; i++) expect((await limiter.hit(k, p, sec(2 + i * 0.15))).allowed).toBe(false);
      // Had the refusals counted, the window would still be full here.
      expect((await limiter.hit(k, p, sec(10))).allowed).toBe(true);
      expect((await limiter.hit(k, p, sec(10.5))).allowed).toBe(false);
      expect((await limiter.hit(k, p, sec(11))).allowed).toBe(true);
    });

    it('sub-keys: an account window holds across all its keys, each key window on its own, and a refusal counts in none', async () => {
      const limiter = await make();
      const account = key();
      const accountMinute = policy('account-minute', 5, 60);
      const keyMinute = (id: string): WindowPolicy => ({ ...policy('minute', 3, 60), subKey: `key:${id}` });
      const hit = (id: string, s: number) => limiter.hit(account, [accountMinute, keyMinute(id)], sec(s));
      // Key a: three allowed, then its own window refuses (the account still has room).
      for (const s of [0, 1, 2]) expect((await hit('a', s)).allowed).toBe(true);
      expect(await hit('a', 3)).toEqual({ allowed: false, policy: keyMinute('a'), remaining: 0, resetSeconds: 57 });
      // Key b has a window of its own, but the account's allows two more in all, not three.
      expect((await hit('b', 4)).allowed).toBe(true);
      expect(await hit('b', 5)).toMatchObject({ allowed: true, policy: accountMinute, remaining: 0 });
      expect(await hit('b', 6)).toEqual({ allowed: false, policy: accountMinute, remaining: 0, resetSeconds: 54 });
      // A new key (c) adds nothing: more keys never mean more requests.
      expect((await hit('c', 7)).allowed).toBe(false);
      // The refusals counted nowhere: when a's first request leaves, exactly one more is allowed.
      expect((await hit('c', 60)).allowed).toBe(true);
      expect((await hit('c', 60.5)).allowed).toBe(false);
      // A sub-key's log is its own: the same sub-key under another account starts empty.
      expect((await limiter.hit(key(), [accountMinute, keyMinute('a')], sec(61))).remaining).toBe(2);
    });

    it('keeps keys independent', async () => {
      const limiter = await make();
      const [a, b] = [key(), key()];
      const p = [policy('w', 1, 60)];
      expect((await limiter.hit(a, p, sec(0))).allowed).toBe(true);
      expect((await limiter.hit(a, p, sec(1))).allowed).toBe(false);
      expect((await limiter.hit(b, p, sec(1))).allowed).toBe(true);
    });

    it('counts many parallel requests from two clients exactly', async () => {
      const [one, two] = await harness.makePair();
      opened.push(one, two);
      const k = key();
      const p = [policy('minute', 60, 60), policy('hour', 37, 3600)];
      const decisions = await Promise.all(
        Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? one : two).hit(k, p, sec(1 + (i % 7) * 0.001))),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(37);
      // Each admitted request saw a different count: remaining values 36 … 0, each once.
      const remaining = decisions.filter((d) => d.allowed).map((d) => d.remaining).sort((x, y) => x - y);
      expect(remaining).toEqual(Array.from({ length: 37 }, (_, i) => i));
      expect((await two.hit(k, p, sec(2))).allowed).toBe(false);
    });

    it('agrees with a naive reference model on any hit schedule', async () => {
      const limiter = await make();
      const policies = fc
        .array(fc.record({ limit: fc.integer({ min: 1, max: 4 }), windowSeconds: fc.integer({ min: 1, max: 5 }) }), { minLength: 1, maxLength: 3 })
        .map((ps) => ps.map((p, i) => policy(`p${i}`, p.limit, p.windowSeconds)));
      // Gaps in quarter seconds land often exactly on window edges; free gaps cover the rest.
      const gap = fc.oneof(fc.integer({ min: 0, max: 8 }).map((q) => q * 250), fc.integer({ min: 0, max: 1800 }));
      const gaps = fc.array(gap, { minLength: 1, maxLength: 30 });
      await fc.assert(
        fc.asyncProperty(policies, gaps, async (ps, steps) => {
          const k = key();
          const model = new ReferenceModel();
          let now = T0;
          for (const gap of steps) {
            now += gap;
            const expected = model.hit(ps, now);
            const actual = await limiter.hit(k, ps, now);
            expect(actual.allowed).toBe(expected.allowed);
            expect(actual.remaining).toBe(expected.remaining);
            if (!actual.allowed) expect(actual.resetSeconds).toBe(expected.resetSeconds);
          }
        }),
        { numRuns: 80 },
      );
    });
  });
}

/** Brute force: every counted timestamp in one list, windows recounted from scratch each time. */
export class ReferenceModel {
  private readonly counted: number[] = [];

  private countAt(p: WindowPolicy, at: number): number {
    return this.counted.filter((t) => t > at - p.windowSeconds * 1000).length;
  }

  hit(ps: readonly WindowPolicy[], now: number): Pick<RateDecision, 'allowed' | 'remaining' | 'resetSeconds'> {
    const full = ps.filter((p) => this.countAt(p, now) >= p.limit);
    if (full.length > 0) {
      // Smallest whole number of seconds after which every full window has room again.
      let wait = 1;
      while (full.some((p) => this.countAt(p, now + wait * 1000) >= p.limit)) wait++;
      return { allowed: false, remaining: 0, resetSeconds: wait };
    }
    this.counted.push(now);
    return { allowed: true, remaining: Math.min(...ps.map((p) => p.limit - this.countAt(p, now))), resetSeconds: -1 };
  }
}
