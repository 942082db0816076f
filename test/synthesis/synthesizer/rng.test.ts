import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/synthesis/synthesizer/rng.ts';

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
