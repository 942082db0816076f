import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dealStrata, indexStrata } from '../../../../src/synthesis/synthesizer/attributes/deal.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';

/** Counts of dealt cells per stratum, flat like the input counts. */
function dealtCounts(stratumOf: Int32Array, cellOf: Int32Array, strata: number, cells: number): Int32Array {
  const out = new Int32Array(strata * cells);
  for (let i = 0; i < stratumOf.length; i++) if (stratumOf[i]! >= 0) out[stratumOf[i]! * cells + cellOf[i]!]!++;
  return out;
}

describe('dealStrata', () => {
  it('deals a toy deck exactly and leaves units outside every stratum alone', () => {
    const stratumOf = Int32Array.from([0, 0, 0, 1, 1, -1, 0]);
    const counts = Int32Array.from([2, 1, 1, 0, 1, 1]); // stratum 0: 2×c0, 1×c1, 1×c2; stratum 1: c1, c2
    const cellOf = dealStrata({ stratumOf, strata: 2, cells: 3, counts }, createRng(1));
    expect(cellOf[5]).toBe(-1);
    expect(Array.from(dealtCounts(stratumOf, cellOf, 2, 3))).toEqual(Array.from(counts));
  });

  it('refuses counts that do not add up to the stratum size', () => {
    expect(() => dealStrata({ stratumOf: Int32Array.from([0, 0]), strata: 1, cells: 2, counts: Int32Array.from([1, 2]) }, createRng(1))).toThrow(
      /3 cards for 2 units/,
    );
  });

  it('property: for random strata and decks, the dealt margins equal the decks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1, max: 4 }), { minLength: 0, maxLength: 200 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer(),
        fc.boolean(),
        (strataList, cells, seed, ranked) => {
          const strata = 5;
          const stratumOf = Int32Array.from(strataList);
          const rng = createRng(seed);
          const counts = new Int32Array(strata * cells);
          const sizes = new Int32Array(strata);
          for (const s of strataList) if (s >= 0) sizes[s]!++;
          for (let s = 0; s < strata; s++) for (let k = 0; k < sizes[s]!; k++) counts[s * cells + rng.int(cells)]!++;
          const score = ranked ? Float64Array.from(strataList, () => rng.next()) : undefined;
          const cellRank = ranked ? Float64Array.from({ length: strata * cells }, (_, i) => (i % cells === 0 ? Number.NaN : i % cells)) : undefined;
          const cellOf = dealStrata({ stratumOf, strata, cells, counts, score, cellRank }, rng);
          expect(Array.from(dealtCounts(stratumOf, cellOf, strata, cells))).toEqual(Array.from(counts));
        },
      ),
    );
  });

  it('ranked dealing gives higher-ranked cells to higher scores', () => {
    const n = 100;
    const stratumOf = new Int32Array(n);
    const score = Float64Array.from({ length: n }, (_, i) => i);
    const counts = Int32Array.from([50, 50]);
    const cellOf = dealStrata({ stratumOf, strata: 1, cells: 2, counts, score, cellRank: Float64Array.from([2, 1]) }, createRng(3));
    for (let i = 0; i < n; i++) expect(cellOf[i]).toBe(i < 50 ? 1 : 0);
  });

  it('indexStrata groups units by stratum in unit order', () => {
    const { start, units } = indexStrata(Int32Array.from([1, 0, -1, 1]), 2);
    expect(Array.from(start)).toEqual([0, 1, 3]);
    expect(Array.from(units)).toEqual([1, 0, 3]);
  });
});
