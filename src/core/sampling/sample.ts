import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';

/** A contiguous run of global row indices: [offset, offset + size). */
export interface RowRange {
  readonly offset: number;
  readonly size: number;
}

const MASK64 = (1n << 64n) - 1n;

/** SplitMix64 step: spreads any 64-bit seed (even 0 or 1) over the whole generator state. */
const splitMix64 = (x: bigint): [bigint, bigint] => {
  const next = (x + 0x9e3779b97f4a7c15n) & MASK64;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return [next, z ^ (z >> 31n)];
};

/** A xoroshiro128+ generator whose 128-bit state is derived from a bigint seed (taken modulo 2^64). */
export function rngFromSeed(seed: bigint): RandomGenerator {
  let s = BigInt.asUintN(64, seed);
  const words: number[] = [];
  for (let i = 0; i < 2; i++) {
    const [next, z] = splitMix64(s);
    s = next;
    words.push(Number((z >> 32n) & 0xffffffffn) | 0, Number(z & 0xffffffffn) | 0);
  }
  return xoroshiro128plus.fromState(words);
}

/** Total number of rows in the ranges. */
export const poolSizeOf = (ranges: readonly RowRange[]): number => ranges.reduce((sum, r) => sum + r.size, 0);

// Up to this pool/n ratio a dense Fisher-Yates over the whole pool (O(4·n) memory) beats drawing
// with replacement (whose duplicates grow with n/pool); above it the sparse draw is faster
// (bench/sampling.ts: 1 M of 5 M dense 750 ms, 1 M of 26 M sparse 415 ms, on a loaded machine).
const DENSE_RATIO = 4;

/** Partial Fisher-Yates over the whole pool: n distinct positions in draw order. O(pool) ≤ O(4·n). */
function denseDraw(pool: number, n: number, rng: RandomGenerator): Uint32Array {
  const slots = new Uint32Array(pool);
  for (let i = 0; i < pool; i++) slots[i] = i;
  for (let i = 0; i < n; i++) {
    const j = unsafeUniformIntDistribution(i, pool - 1, rng);
    const picked = slots[j]!;
    slots[j] = slots[i]!;
    slots[i] = picked;
  }
  return slots.slice(0, n);
}

/**
 * Sparse pools (more than 4·n rows): draw a few more than n positions with replacement, sort,
 * drop repeats, then drop a uniformly chosen surplus. The process treats every position alike,
 * so given its size the distinct set is a uniform subset, and a uniform sub-subset of it is a
 * uniform n-subset. Duplicates are few here (about n²/(2·pool) ≤ n/8), so one round nearly always
 * suffices; the sort is needed for the result anyway, so this costs little beyond it — a Map of
 * displaced slots (sparse Fisher-Yates) was 2–4× slower at n = 1 M.
 */
function sparseDraw(pool: number, n: number, rng: RandomGenerator): Uint32Array {
  const margin = Math.ceil((n * n) / pool + 4 * Math.sqrt(n) + 16);
  for (;;) {
    const m = n + margin;
    const draws = new Uint32Array(m);
    for (let i = 0; i < m; i++) draws[i] = unsafeUniformIntDistribution(0, pool - 1, rng);
    draws.sort();
    let k = 0;
    for (let i = 0; i < m; i++) if (i === 0 || draws[i] !== draws[i - 1]) draws[k++] = draws[i]!;
    if (k < n) continue; // vanishingly rare: draw again
    if (k === n) return draws.slice(0, n);
    // Remove k − n of the k distinct positions, chosen uniformly (partial Fisher-Yates over indices).
    const surplus = k - n;
    const order = new Uint32Array(k);
    for (let i = 0; i < k; i++) order[i] = i;
    const drop = new Uint8Array(k);
    for (let i = 0; i < surplus; i++) {
      const j = unsafeUniformIntDistribution(i, k - 1, rng);
      const t = order[j]!;
      order[j] = order[i]!;
      order[i] = t;
      drop[t] = 1;
    }
    const out = new Uint32Array(n);
    let w = 0;
    for (let i = 0; i < k; i++) if (drop[i] === 0) out[w++] = draws[i]!;
    return out;
  }
}

/** n distinct positions in [0, pool), uniform without replacement; time and memory O(n) whatever the pool. */
function drawPositions(pool: number, n: number, rng: RandomGenerator): Uint32Array {
  return pool <= DENSE_RATIO * n ? denseDraw(pool, n, rng) : sparseDraw(pool, n, rng);
}

/**
 * n distinct global row indices drawn uniformly without replacement from the union of the
 * ranges, reproducible from the seed, sorted ascending (gathering sorted rows is ~4× faster).
 * Ranges must not overlap; their order does not matter. Throws on n outside [0, pool]: the
 * caller validates n against the pool first (a 422 for the client), so this is a bug guard.
 */
export function sampleRows(ranges: readonly RowRange[], n: number, seed: bigint): Uint32Array {
  const sorted = [...ranges].filter((r) => r.size > 0).sort((a, b) => a.offset - b.offset);
  for (let k = 1; k < sorted.length; k++) {
    const prev = sorted[k - 1]!;
    if (prev.offset + prev.size > sorted[k]!.offset) throw new Error('sampleRows: row ranges overlap');
  }
  const pool = poolSizeOf(sorted);
  if (!Number.isInteger(n) || n < 0 || n > pool) throw new Error(`sampleRows: n=${n} outside [0, ${pool}]`);
  if (pool > 0xffffffff) throw new Error('sampleRows: pool exceeds 2^32 rows');

  const positions = drawPositions(pool, n, rngFromSeed(seed)).sort();
  // Positions are sorted and ranges are sorted by offset, so one forward walk maps them all.
  let rangeIndex = 0;
  let rangeStart = 0; // position of the current range's first row
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i]!;
    while (p >= rangeStart + sorted[rangeIndex]!.size) {
      rangeStart += sorted[rangeIndex]!.size;
      rangeIndex++;
    }
    positions[i] = sorted[rangeIndex]!.offset + (p - rangeStart);
  }
  return positions;
}

/** Seed offset of the trim below: another stream than the draw's own. */
const TRIM_STREAM = 0x5851f42d4c957f2dn;

/**
 * Selections that overlap never give a record twice in one file: a later selection draws
 * `n + extra` rows (extra ≥ the rows earlier selections can have taken from its pool), drops those
 * already taken, and keeps n of the rest uniformly. By symmetry every n-subset of the pool
 * without the taken rows is equally likely, so the sample stays uniform, and O(n + extra).
 * Sorted ascending, like sampleRows. Throws when fewer than n remain: the caller sized `extra`.
 */
export function withoutTaken(candidates: Uint32Array, n: number, taken: ReadonlySet<number>, seed: bigint): Uint32Array {
  const kept = candidates.filter((row) => !taken.has(row));
  if (kept.length < n) throw new Error(`withoutTaken: ${kept.length} rows left for ${n}`);
  if (kept.length > n) {
    const rng = rngFromSeed(seed ^ TRIM_STREAM);
    for (let i = 0; i < n; i++) {
      const j = i + unsafeUniformIntDistribution(0, kept.length - 1 - i, rng);
      const t = kept[i]!;
      kept[i] = kept[j]!;
      kept[j] = t;
    }
  }
  return kept.subarray(0, n).sort();
}
