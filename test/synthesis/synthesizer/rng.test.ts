import { describe, expect, it } from 'vitest';
import { xoroshiro128plus } from 'pure-rand';
import { createRng, seedTo32 } from '../../../src/synthesis/synthesizer/rng.ts';

describe('createRng', () => {
  it('is deterministic per seed and differs between seeds', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43n);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(xs);
  });

  it('draws integers uniformly in range', () => {
    const rng = createRng(7);
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 60_000; i++) counts[rng.int(6)]!++;
    // Chi-square with 5 degrees of freedom: 20.5 is the 0.999 quantile.
    const chi = counts.reduce((a, c) => a + (c - 10_000) ** 2 / 10_000, 0);
    expect(chi).toBeLessThan(20.5);
  });

  it('draws the integers of rejection below the largest multiple of n up to 2^32 (the stream a release is built from)', () => {
    // The textbook form, on the same generator: every synthesis depends on this exact stream.
    const reference = xoroshiro128plus(seedTo32(99));
    const referenceInt = (n: number) => {
      const limit = 2 ** 32 - (2 ** 32 % n);
      for (;;) {
        const draw = reference.unsafeNext() >>> 0;
        if (draw < limit) return draw % n;
      }
    };
    const rng = createRng(99);
    // Powers of two, small n, and n near 2^32 and 2^31 where most draws are rejected.
    const sizes = [1, 2, 3, 6, 7, 1024, 1000003, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 3 * 2 ** 30 + 5, 2 ** 32 - 1, 2 ** 32];
    for (let i = 0; i < 20_000; i++) {
      const n = sizes[i % sizes.length]!;
      expect(rng.int(n)).toBe(referenceInt(n));
    }
  });

  it('shuffles into a permutation and picks by weight', () => {
    const rng = createRng(1);
    const arr = Int32Array.from({ length: 50 }, (_, i) => i);
    rng.shuffle(arr);
    expect(Array.from(arr).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(rng.pick([0, 0, 5])).toBe(2);
    expect(rng.pick([0, 0])).toBe(-1);
    const hits = [0, 0];
    for (let i = 0; i < 10_000; i++) hits[rng.pick([1, 3])]!++;
    expect(hits[1]! / 10_000).toBeGreaterThan(0.72);
    expect(hits[1]! / 10_000).toBeLessThan(0.78);
  });

  it('forks independent, reproducible streams', () => {
    const x = createRng(5).fork(1).next();
    expect(createRng(5).fork(1).next()).toBe(x);
    expect(createRng(5).fork(2).next()).not.toBe(x);
  });
});
