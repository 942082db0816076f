import { describe, expect, it } from 'vitest';
import { implicateSeed, suburbSeed } from '../../../src/synthesis/pipeline/seeds.ts';

describe('seeds', () => {
  it("gives implicate 1 the build seed (a one-implicate release is what it was) and each other implicate one of its own", () => {
    expect(implicateSeed(11, 1)).toBe(11);
    const seeds = [1, 2, 3, 4].map((k) => implicateSeed(11, k));
    expect(new Set(seeds).size).toBe(4);
    expect(implicateSeed(11, 2)).toBe(implicateSeed(11, 2));
    expect(implicateSeed(12, 2)).not.toBe(implicateSeed(11, 2));
  });

  it("gives each area a seed of its own from the build's, the same on every run", () => {
    const codes = ['SAL10001', 'SAL10002', 'POA7000', 'LGA10050'];
    expect(new Set(codes.map((c) => suburbSeed(5, c))).size).toBe(codes.length);
    expect(suburbSeed(5, 'SAL10001')).toBe(suburbSeed(5, 'SAL10001'));
    expect(suburbSeed(6, 'SAL10001')).not.toBe(suburbSeed(5, 'SAL10001'));
    for (const c of codes) expect(Number.isInteger(suburbSeed(5, c)) && suburbSeed(5, c) >= 0 && suburbSeed(5, c) < 2 ** 32).toBe(true);
  });
});
