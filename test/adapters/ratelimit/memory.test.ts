import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../../src/adapters/ratelimit/memory.ts';
import { ReferenceModel, rateLimiterContract } from './rate-limiter.contract.ts';

rateLimiterContract('memory', {
  make: async () => createMemoryRateLimiter(),
  makePair: async () => {
    const limiter = createMemoryRateLimiter();
    return [limiter, limiter] as const;
  },
});

describe('memory rate limiter', () => {
  it('forgets keys whose requests have all left their window (bounded memory)', async () => {
    const limiter = createMemoryRateLimiter({ sweepEvery: 100 });
    const p = [{ name: 'w', limit: 5, windowSeconds: 10 }];
    for (let i = 0; i < 99; i++) await limiter.hit(`idle-${i}`, p, 1_000);
    expect(limiter.size()).toBe(99);
    // The 100th hit, 10 s later, sweeps: only its own key is left.
    await limiter.hit('active', p, 11_000);
    expect(limiter.size()).toBe(1);
    await limiter.close();
  });

  it('holds at most limit timestamps per key however often it is hit', async () => {
    const limiter = createMemoryRateLimiter();
    const p = [{ name: 'w', limit: 3, windowSeconds: 60 }];
    let allowed = 0;
    for (let i = 0; i < 10_000; i++) if ((await limiter.hit('k', p, 1_000 + i)).allowed) allowed++;
    expect(allowed).toBe(3);
    expect(limiter.size()).toBe(1);
  });

  it('agrees with the reference model on long schedules under large limits (logs outgrow and compact)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ limit: fc.integer({ min: 60, max: 400 }), windowSeconds: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 2 }),
        fc.array(fc.integer({ min: 0, max: 25 }), { minLength: 500, maxLength: 1500 }),
        async (windows, gaps) => {
          const limiter = createMemoryRateLimiter();
          const ps = windows.map((w, i) => ({ name: `w${i}`, ...w }));
          const model = new ReferenceModel();
          let now = 1_000_000;
          for (const gap of gaps) {
            now += gap;
            const expected = model.hit(ps, now);
            const actual = await limiter.hit('k', ps, now);
            expect(actual.allowed).toBe(expected.allowed);
            expect(actual.remaining).toBe(expected.remaining);
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('rejects a policy list it cannot enforce', async () => {
    const limiter = createMemoryRateLimiter();
    await expect(limiter.hit('k', [], 0)).rejects.toThrow(/at least one/);
    await expect(limiter.hit('k', [{ name: 'w', limit: 0, windowSeconds: 1 }], 0)).rejects.toThrow(/limit/);
  });
});
