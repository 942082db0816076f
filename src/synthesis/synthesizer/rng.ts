import { xoroshiro128plus } from 'pure-rand';
import type { RandomGenerator } from 'pure-rand';

/**
 * A seeded random source for the synthesizer. One mutable generator (pure-rand's
 * xoroshiro128+, advanced in place) behind a small interface, so hot loops call plain
 * methods and never allocate. The same seed gives the same stream on every machine.
 */
export interface Rng {
  /** Uniform float in [0, 1) with 53 random bits. */
  next(): number;
  /** Uniform integer in [0, n) for 1 ≤ n ≤ 2^32 (rejection sampling: no modulo bias). */
  int(n: number): number;
  /** Shuffles the first `length` entries of `array` in place (Fisher–Yates) and returns it. */
  shuffle<T extends { length: number; [index: number]: number }>(array: T, length?: number): T;
  /** Index i with probability weights[i] / Σ weights; -1 when every weight is 0. */
  pick(weights: ArrayLike<number>): number;
  /** Standard normal draw (Box–Muller). */
  normal(): number;
  /** An independent stream for a named sub-task, derived from this generator's seed. */
  fork(stream: number): Rng;
}

/**
 * An Efraimidis–Spirakis key, log(u) / weight: taking items by descending key draws them without
 * replacement with probability proportional to their weights (weight > 0; one draw from `rng`).
 */
export const weightedKey = (rng: Rng, weight: number): number => Math.log(1 - rng.next()) / weight;

const TWO_POW_32 = 4294967296;
const TWO_POW_53 = 9007199254740992;

/** Folds any safe integer or bigint seed into 32 bits with a murmur-style finaliser. */
export function seedTo32(seed: number | bigint): number {
  let big = typeof seed === 'bigint' ? seed : BigInt(Math.trunc(seed));
  if (big < 0n) big = -big * 2n + 1n;
  let h = 0x9e3779b9;
  do {
    h = Math.imul(h ^ Number(big & 0xffffffffn), 0x85ebca6b);
    h ^= h >>> 13;
    big >>= 32n;
  } while (big > 0n);
  h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

class XoroshiroRng implements Rng {
  private readonly generator: RandomGenerator;

  constructor(private readonly seed32: number) {
    this.generator = xoroshiro128plus(seed32);
  }

  next(): number {
    const high = (this.generator.unsafeNext() >>> 5) * 67108864; // 27 bits shifted by 26
    const low = this.generator.unsafeNext() >>> 6; // 26 bits
    return (high + low) / TWO_POW_53;
  }

  int(n: number): number {
    if (!(n >= 1) || n > TWO_POW_32) throw new RangeError(`int(n) needs 1 ≤ n ≤ 2^32, got ${n}`);
    // Draws at or above the largest multiple of n up to 2^32 are rejected: those whose multiple
    // of n below them (draw − draw mod n) is past 2^32 − n (the same draws, without computing
    // 2^32 mod n on every call).
    for (;;) {
      const draw = this.generator.unsafeNext() >>> 0;
      const value = draw % n;
      if (draw - value <= TWO_POW_32 - n) return value;
    }
  }

  shuffle<T extends { length: number; [index: number]: number }>(array: T, length = array.length): T {
    for (let i = length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = array[i] as number;
      array[i] = array[j] as number;
      array[j] = tmp;
    }
    return array;
  }

  pick(weights: ArrayLike<number>): number {
    let total = 0;
    for (let i = 0; i < weights.length; i++) total += Math.max(0, weights[i] ?? 0);
    if (!(total > 0)) return -1;
    let target = this.next() * total;
    let last = -1;
    for (let i = 0; i < weights.length; i++) {
      const w = Math.max(0, weights[i] ?? 0);
      if (w <= 0) continue;
      last = i;
      target -= w;
      if (target < 0) return i;
    }
    return last; // rounding left a sliver: the last positive weight takes it
  }

  normal(): number {
    const u = 1 - this.next(); // (0, 1]: log is finite
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  fork(stream: number): Rng {
    return new XoroshiroRng(seedTo32(BigInt(this.seed32 >>> 0) * 0x100000000n + BigInt(stream >>> 0) + 1n));
  }
}

/** A generator seeded by `seed` (any integer or bigint; equal seeds give equal streams). */
export function createRng(seed: number | bigint): Rng {
  return new XoroshiroRng(seedTo32(seed));
}
