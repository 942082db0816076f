import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUMMARY_ENTRY_BYTES, SummaryCache } from '../../src/app/summary-cache.ts';
import type { CreditSummary } from '../../src/ports/ledger.ts';

const summary = (credits: number): CreditSummary => ({ tier: 'paid', creditsRemaining: credits, creditsPurchased: credits, creditsUsed: 0, freeCreditsRemaining: 0, freeCreditsReset: null });

describe('SummaryCache (balances and tiers, per process, a few seconds)', () => {
  it('answers within its ttl only, and holds no more entries than its bytes allow nor any expired one once set() runs', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(50), fc.nat(3000)), { minLength: 1, maxLength: 200 }), (steps) => {
        const ttlMs = 2000;
        const cache = new SummaryCache(ttlMs, 10 * SUMMARY_ENTRY_BYTES);
        let now = 0;
        const setAt = new Map<string, number>();
        for (const [account, advance] of steps) {
          now += advance;
          const id = `acc_${account}`;
          const held = cache.get(id, now);
          if (held !== undefined) expect(now - setAt.get(id)!).toBeLessThan(ttlMs);
          cache.set(id, summary(account), now);
          setAt.set(id, now);
          expect(cache.size).toBeLessThanOrEqual(10);
          // Everything still held was set within the ttl (set() dropped the expired ones first).
          expect(cache.size).toBeLessThanOrEqual([...setAt.values()].filter((at) => now - at < ttlMs).length);
        }
      }),
    );
  });
});
