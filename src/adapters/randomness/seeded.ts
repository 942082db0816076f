import { xoroshiro128plus, unsafeUniformIntDistribution } from 'pure-rand';
import { BASE62 } from '../../core/keys.ts';
import type { Randomness } from '../../ports/randomness.ts';

/**
 * Ids and seeds from a seeded generator: the same seed gives the same sequence, so a test knows
 * the query ids and draws it will see. Not for production (guessable).
 */
export function seededRandomness(seed: number): Randomness {
  const rng = xoroshiro128plus(seed);
  const next = (max: number) => unsafeUniformIntDistribution(0, max, rng);
  return {
    id: (prefix) => `${prefix}_${Array.from({ length: 20 }, () => BASE62[next(61)]).join('')}`,
    seed: () => (BigInt(next(0xffff_ffff)) << 32n) | BigInt(next(0xffff_ffff)),
  };
}
