/**
 * Dealing labels without replacement within strata: the step that makes an attribute's
 * cross-table with its stratifying variables exact by construction. Each stratum holds a deck
 * of cards (cell c repeated counts[c] times); its units are put in order (random, or by a
 * score so that attributes can be linked to one another) and take the cards in turn.
 *
 * Pure and allocation-light: typed arrays in, typed arrays out, no per-unit objects.
 */

import type { Rng } from '../rng.ts';

export interface DealInput {
  /** Stratum of each unit, or -1 for a unit outside every stratum (it gets no card). */
  readonly stratumOf: Int32Array;
  readonly strata: number;
  readonly cells: number;
  /**
   * Integer card counts, flat [stratum × cells + cell]. Each stratum's counts must sum to the
   * number of units in it (use integerise first); dealStrata checks this.
   */
  readonly counts: Int32Array;
  /**
   * Optional ranking: units of a stratum are dealt in ascending order of score, and cards in
   * the order of `cellRank` (ascending), so that a high score meets a high-ranked cell.
   * Units with equal score are in random order.
   */
  readonly score?: Float64Array;
  /**
   * Rank of each cell for scored dealing, flat like counts; NaN = unranked (such cards go to
   * random units).
   */
  readonly cellRank?: Float64Array;
}

/** Units grouped by stratum: units[start[s] .. start[s+1]) are stratum s, in unit order. */
export interface StratumIndex {
  readonly start: Int32Array;
  readonly units: Int32Array;
}

export function indexStrata(stratumOf: Int32Array, strata: number): StratumIndex {
  const start = new Int32Array(strata + 1);
  for (let i = 0; i < stratumOf.length; i++) {
    const s = stratumOf[i]!;
    if (s >= 0) start[s + 1]!++;
  }
  for (let s = 0; s < strata; s++) start[s + 1]! += start[s]!;
  const fill = start.slice(0, strata);
  const units = new Int32Array(start[strata]!);
  for (let i = 0; i < stratumOf.length; i++) {
    const s = stratumOf[i]!;
    if (s >= 0) units[fill[s]!++] = i;
  }
  return { start, units };
}

/**
 * Deal the cards: returns the cell of every unit (-1 outside every stratum). Throws when a
 * stratum's counts do not sum to its size, because that is a bug upstream, not bad data.
 */
export function dealStrata(input: DealInput, rng: Rng): Int32Array {
  const { stratumOf, strata, cells, counts, score, cellRank } = input;
  const { start, units } = indexStrata(stratumOf, strata);
  const cellOf = new Int32Array(stratumOf.length).fill(-1);
  for (let s = 0; s < strata; s++) {
    const from = start[s]!;
    const to = start[s + 1]!;
    let total = 0;
    for (let c = 0; c < cells; c++) total += counts[s * cells + c]!;
    if (total !== to - from) {
      throw new RangeError(`stratum ${s}: ${total} cards for ${to - from} units`);
    }
    if (to === from) continue;
    const free = units.subarray(from, to);
    const stratumCounts = counts.subarray(s * cells, (s + 1) * cells);
    rng.shuffle(free);
    if (score && cellRank) {
      const order = cellOrder(cellRank.subarray(s * cells, (s + 1) * cells));
      dealRanked(free, stratumCounts, score, order, cellOf);
    } else {
      let u = 0;
      for (let c = 0; c < cells; c++) {
        const n = stratumCounts[c]!;
        for (let k = 0; k < n; k++) cellOf[free[u++]!] = c;
      }
    }
  }
  return cellOf;
}

/** Ranked cells ascending; unranked (NaN) cells listed separately at the end, marked by -1 - c. */
function cellOrder(cellRank: Float64Array): Int32Array {
  const ranked: number[] = [];
  const unranked: number[] = [];
  for (let c = 0; c < cellRank.length; c++) (Number.isNaN(cellRank[c]!) ? unranked : ranked).push(c);
  ranked.sort((a, b) => cellRank[a]! - cellRank[b]! || a - b);
  return Int32Array.from([...ranked, ...unranked.map((c) => -1 - c)]);
}

/**
 * Unranked cards (e.g. "Not stated") go to units drawn at random first; the rest of the
 * units, sorted by score (ties stay shuffled: the sort is stable), take ranked cards from the
 * lowest rank up.
 */
function dealRanked(
  units: Int32Array,
  counts: Int32Array,
  score: Float64Array,
  order: Int32Array,
  cellOf: Int32Array,
): void {
  // units is already shuffled, so its first k units are a uniform random subset.
  let u = 0;
  for (let i = 0; i < order.length; i++) {
    const o = order[i]!;
    if (o >= 0) continue;
    const c = -1 - o;
    for (let k = 0; k < counts[c]!; k++) cellOf[units[u++]!] = c;
  }
  const rest = Array.from(units.subarray(u));
  rest.sort((a, b) => score[a]! - score[b]!);
  let r = 0;
  for (let i = 0; i < order.length; i++) {
    const c = order[i]!;
    if (c < 0) continue;
    for (let k = 0; k < counts[c]!; k++) cellOf[rest[r++]!] = c;
  }
}
