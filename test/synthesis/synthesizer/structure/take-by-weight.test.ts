import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRng, weightedKey, type Rng } from '../../../../src/synthesis/synthesizer/rng.ts';
import { takeByWeight } from '../../../../src/synthesis/synthesizer/structure/persons.ts';

/** The textbook form: sort every index by key (largest first, ties to the earlier), take the first `count`. */
function takeBySorting(pool: number[], count: number, weight: (v: number) => number, rng: Rng): number[] {
  if (count <= 0) return [];
  if (count >= pool.length) return pool.splice(0, pool.length);
  const keys = pool.map((v) => (weight(v) > 0 ? weightedKey(rng, weight(v)) : -Infinity));
  const order = Array.from(pool.keys()).sort((x, y) => keys[y]! - keys[x]! || x - y);
  const take = new Set(order.slice(0, count));
  const out = pool.filter((_, i) => take.has(i));
  pool.splice(0, pool.length, ...pool.filter((_, i) => !take.has(i)));
  return out;
}

describe('takeByWeight', () => {
  it('takes the values the full sort by key takes, and leaves the rest in order (property)', () => {
    // Ages 0–40 with weights that are zero for some (ties at −∞ then go to the earlier values).
    const weights = fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0.01, max: 5, noNaN: true })), { minLength: 41, maxLength: 41 });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 300 }), fc.integer({ min: -1, max: 320 }), weights, fc.integer(), (values, count, w, seed) => {
        const weight = (v: number) => w[v]!;
        const pool = [...values];
        const reference = [...values];
        expect(takeByWeight(pool, count, weight, createRng(seed))).toEqual(takeBySorting(reference, count, weight, createRng(seed)));
        expect(pool).toEqual(reference);
      }),
      { numRuns: 400 },
    );
  });
});
