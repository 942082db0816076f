import type { Rng } from '../synthesis/synthesizer/rng.ts';
import { cumulative } from './cdf.ts';
import { normalCdf, normalQuantile } from './normal.ts';
import { AGES } from './real-tables.ts';

/**
 * A couple's ages: the man's rank among men partners follows the woman's rank among women
 * partners through a Gaussian copula, so that partners are close in age (on average the man a
 * little older, as the real ages make him) and the men's ages are exactly the real men
 * partners' whatever the women's ages were. Same-sex couples are drawn alike.
 */
const RANK_CORRELATION = 0.96;
const NOISE = Math.sqrt(1 - RANK_CORRELATION ** 2);
/** Sub-intervals of a woman's rank interval integrated over in `menGiven`. */
const QUADRATURE = 8;

export interface PartnerAges {
  /** The man's age for a woman of `woman`. */
  draw(rng: Rng, woman: number): number;
  /** The distribution of the man's age given the woman's (over ages 0‥MAX_AGE). */
  menGiven(woman: number): Float64Array;
}

const clampRank = (u: number) => Math.min(1 - 1e-12, Math.max(1e-12, u));

/** From the real women and men partners by single year of age. */
export function createPartnerAges(women: ArrayLike<number>, men: ArrayLike<number>): PartnerAges {
  const fw = cumulative(women);
  const fm = cumulative(men);
  /** Men's cumulative ranks as normal scores (±∞ at the ends). */
  const menScore = Float64Array.from(fm, (f) => (f >= 1 ? Infinity : f <= 0 ? -Infinity : normalQuantile(f)));
  const below = (f: Float64Array, age: number) => (age > 0 ? f[age - 1]! : 0);
  const manAt = (rank: number) => {
    let lo = 0;
    let hi = AGES - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (fm[mid]! > rank) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const given = new Map<number, Float64Array>();
  return {
    draw(rng, woman) {
      const lo = below(fw, woman);
      const z = normalQuantile(clampRank(lo + (fw[woman]! - lo) * rng.next()));
      return manAt(normalCdf(RANK_CORRELATION * z + NOISE * rng.normal()));
    },
    menGiven(woman) {
      let out = given.get(woman);
      if (out) return out;
      out = new Float64Array(AGES);
      const lo = below(fw, woman);
      for (let q = 0; q < QUADRATURE; q++) {
        const z = normalQuantile(clampRank(lo + ((fw[woman]! - lo) * (q + 0.5)) / QUADRATURE));
        let prev = 0;
        for (let m = 0; m < AGES; m++) {
          const next = menScore[m] === Infinity ? 1 : menScore[m] === -Infinity ? 0 : normalCdf((menScore[m]! - RANK_CORRELATION * z) / NOISE);
          out[m]! += (next - prev) / QUADRATURE;
          prev = next;
        }
      }
      given.set(woman, out);
      return out;
    },
  };
}
