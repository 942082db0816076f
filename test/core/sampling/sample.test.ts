import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { poolSizeOf, sampleRows, withoutTaken, type RowRange } from '../../../src/core/sampling/sample.ts';

/** Disjoint ranges with gaps between them, in shuffled order. */
const rangesArb = fc
  .array(fc.record({ gap: fc.integer({ min: 0, max: 50 }), size: fc.integer({ min: 0, max: 300 }) }), { minLength: 1, maxLength: 6 })
  .chain((parts) => {
    let at = 0;
    const ranges: RowRange[] = parts.map(({ gap, size }) => {
      const r = { offset: at + gap, size };
      at += gap + size;
      return r;
    });
    return fc.shuffledSubarray(ranges, { minLength: ranges.length, maxLength: ranges.length });
  });

const inRanges = (ranges: readonly RowRange[], row: number): boolean => ranges.some((r) => row >= r.offset && row < r.offset + r.size);

describe('sampleRows', () => {
  it('returns n distinct sorted rows, each inside a range, reproducible from the seed', () => {
    fc.assert(
      fc.property(rangesArb, fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.double({ min: 0, max: 1, noNaN: true }), (ranges, seed, fraction) => {
        const pool = poolSizeOf(ranges);
        const n = Math.floor(fraction * pool);
        const rows = sampleRows(ranges, n, seed);
        expect(rows).toBeInstanceOf(Uint32Array);
        expect(rows.length).toBe(n);
        for (let i = 0; i < rows.length; i++) {
          expect(inRanges(ranges, rows[i]!)).toBe(true);
          if (i > 0) expect(rows[i]!).toBeGreaterThan(rows[i - 1]!);
        }
        expect(sampleRows(ranges, n, seed)).toEqual(rows);
      }),
    );
  });

  it('takes the whole pool when n equals it', () => {
    const ranges = [{ offset: 10, size: 3 }, { offset: 0, size: 2 }];
    expect([...sampleRows(ranges, 5, 7n)]).toEqual([0, 1, 10, 11, 12]);
  });

  it('gives different samples for different seeds', () => {
    const ranges = [{ offset: 0, size: 100_000 }];
    const a = sampleRows(ranges, 1000, 1n);
    const b = sampleRows(ranges, 1000, 2n);
    expect(a).not.toEqual(b);
    // Two independent samples of 1 % share about 10 rows; far more would mean correlated seeds.
    const inA = new Set(a);
    expect([...b].filter((x) => inA.has(x)).length).toBeLessThan(40);
  });

  it('refuses n above the pool and overlapping ranges', () => {
    expect(() => sampleRows([{ offset: 0, size: 3 }], 4, 1n)).toThrow();
    expect(() => sampleRows([{ offset: 0, size: 3 }, { offset: 2, size: 3 }], 1, 1n)).toThrow(/overlap/);
  });

  it('is O(n) in memory: 10 rows out of 4 billion is immediate', () => {
    const started = performance.now();
    const rows = sampleRows([{ offset: 0, size: 2_000_000_000 }, { offset: 2_000_000_000, size: 2_000_000_000 }], 10, 3n);
    expect(rows.length).toBe(10);
    expect(performance.now() - started).toBeLessThan(100);
  });

  // Chi-square over many draws: each row of a small pool must be picked n/pool of the time.
  // Critical value for 9 degrees of freedom at p = 0.001 is 27.88: a correct sampler fails
  // this about once in a thousand runs; the seeds are fixed, so the test is deterministic.
  const chiSquare = (ranges: readonly RowRange[], n: number, draws: number): number => {
    const counts = new Map<number, number>();
    for (let d = 0; d < draws; d++) for (const row of sampleRows(ranges, n, BigInt(d) * 7919n + 13n)) counts.set(row, (counts.get(row) ?? 0) + 1);
    const pool = poolSizeOf(ranges);
    const expected = (draws * n) / pool;
    expect(counts.size).toBe(pool);
    return [...counts.values()].reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
  };

  it('is uniform over the pool (dense path: n large relative to the pool)', () => {
    expect(chiSquare([{ offset: 50, size: 6 }, { offset: 0, size: 4 }], 3, 20_000)).toBeLessThan(27.88);
  });

  it('is uniform over the pool (sparse path: pool more than 4 × n)', () => {
    // 40 rows, n = 2: the Map-based path. 39 degrees of freedom, p = 0.001 critical value 72.05.
    expect(chiSquare([{ offset: 1000, size: 25 }, { offset: 7, size: 15 }], 2, 20_000)).toBeLessThan(72.05);
  });

  it('draws every pair equally often on the sparse path too', () => {
    // 40 rows, n = 2 (pool > 4·n): 780 pairs, 20,000 draws (≈ 26 per pair); df 779, p = 0.001 critical value ≈ 907.
    const pairs = new Map<string, number>();
    const draws = 20_000;
    for (let d = 0; d < draws; d++) {
      const [a, b] = sampleRows([{ offset: 0, size: 40 }], 2, BigInt(d) * 31n + 5n);
      pairs.set(`${a},${b}`, (pairs.get(`${a},${b}`) ?? 0) + 1);
    }
    const expected = draws / 780;
    let chi = 0;
    for (let a = 0; a < 40; a++) for (let b = a + 1; b < 40; b++) chi += ((pairs.get(`${a},${b}`) ?? 0) - expected) ** 2 / expected;
    expect(chi).toBeLessThan(907);
  });

  it('draws every pair equally often (joint uniformity, not just marginals)', () => {
    const pairs = new Map<string, number>();
    const draws = 30_000;
    for (let d = 0; d < draws; d++) {
      const [a, b] = sampleRows([{ offset: 0, size: 5 }], 2, BigInt(d) + 99n);
      const key = `${a},${b}`;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
    expect(pairs.size).toBe(10);
    const expected = draws / 10;
    const chi = [...pairs.values()].reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    expect(chi).toBeLessThan(27.88);
  });
});

describe('withoutTaken (overlapping selections)', () => {
  it('keeps n rows the earlier selections did not take, all among the candidates, sorted (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 200 }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (pool, t, seed) => {
        const taken = new Set(sampleRows([{ offset: 0, size: pool }], Math.min(t, pool), seed ^ 7n));
        const left = pool - taken.size;
        const n = Math.floor(left / 2);
        const candidates = sampleRows([{ offset: 0, size: pool }], Math.min(pool, n + taken.size), seed);
        const rows = withoutTaken(candidates, n, taken, seed);
        expect(rows).toHaveLength(n);
        expect(new Set(rows).size).toBe(n);
        for (const r of rows) {
          expect(taken.has(r)).toBe(false);
          expect(candidates.includes(r)).toBe(true);
        }
        for (let i = 1; i < rows.length; i++) expect(rows[i]! > rows[i - 1]!).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('stays uniform over the rows not taken', () => {
    // Pool of 20, rows 0-9 taken; draw 5 of the other 10 (from 15 candidates) 4,000 times.
    const taken = new Set(Array.from({ length: 10 }, (_, i) => i));
    const counts = new Array<number>(20).fill(0);
    for (let s = 0n; s < 4000n; s++) {
      for (const r of withoutTaken(sampleRows([{ offset: 0, size: 20 }], 15, s), 5, taken, s)) counts[r]!++;
    }
    expect(counts.slice(0, 10).every((c) => c === 0)).toBe(true);
    // Each of the 10 free rows: expected 2,000 (5 of 10 per draw); binomial sd ≈ 32.
    for (const c of counts.slice(10)) expect(Math.abs(c - 2000)).toBeLessThan(160);
  });

  it('refuses when fewer than n rows remain (the caller sizes the extra)', () => {
    expect(() => withoutTaken(Uint32Array.of(1, 2, 3), 3, new Set([2]), 1n)).toThrow(/2 rows left for 3/);
  });
});
