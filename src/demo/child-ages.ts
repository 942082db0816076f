import type { Rng } from '../synthesis/synthesizer/rng.ts';
import { AGES, MAX_AGE } from './real-tables.ts';

/**
 * How many children live with a parent, and how old they are: the eldest at home was born when
 * the parent was about 28 (ABS Births 2021: first-time mothers' median age 29.5; the younger
 * partner's age is passed here), never under 18 nor over 45; for parents past 45 about 34, as
 * the eldest have left and a younger one is the eldest at home; each next one two to four years
 * later; after the first child another follows with probability `stay` (fitted per state to
 * the real children, calibration.ts), after each further one SIBLING_DECAY times as often (few
 * families have four), all less the older the parent past 45 (grown children leave); at most
 * five. The same process draws the children
 * (drawChildAges) and gives their expected ages to the calibration (expectedChildAges), so
 * what is fitted is what is drawn.
 */
const GAP_MEAN = 28;
const GAP_MEAN_LATER = 34;
const GAP_SD = 5;
/** How far past 45 a parent is, 0 to 1 at 60: the eldest at home was born later, fewer stay. */
const later = (parentAge: number) => Math.min(1, Math.max(0, (parentAge - 45) / 15));
const gapMean = (parentAge: number) => GAP_MEAN + (GAP_MEAN_LATER - GAP_MEAN) * later(parentAge);
/** At 60 and over, the chance of another child at home is this fraction of the fitted one. */
const STAY_LATER = 0.4;
const stayAt = (parentAge: number, stay: number) => stay * (1 - (1 - STAY_LATER) * later(parentAge));
export const MIN_PARENT_GAP = 18;
const MAX_PARENT_GAP = 45;
const SPACINGS = [2, 3, 4] as const;
const MAX_CHILDREN = 5;
const SIBLING_DECAY = 0.45;

let gapCdfs: Float64Array[] | undefined;
/** Per parent age: the cumulative distribution of the gap over MIN_PARENT_GAP‥min(MAX_PARENT_GAP, age). */
function gapCdf(parentAge: number): Float64Array {
  gapCdfs ??= Array.from({ length: AGES }, (_, x) => {
    const top = Math.min(MAX_PARENT_GAP, x);
    if (top < MIN_PARENT_GAP) return new Float64Array(0);
    const w = Array.from({ length: top - MIN_PARENT_GAP + 1 }, (_, i) => Math.exp(-0.5 * ((MIN_PARENT_GAP + i - gapMean(x)) / GAP_SD) ** 2));
    const total = w.reduce((a, b) => a + b, 0);
    let cum = 0;
    return Float64Array.from(w, (x) => (cum += x / total));
  });
  return gapCdfs[parentAge]!;
}

/** Ages of the children living with a parent of `parentAge` (none under MIN_PARENT_GAP), eldest first. */
export function drawChildAges(rng: Rng, parentAge: number, stay: number): number[] {
  const cdf = gapCdf(Math.min(parentAge, MAX_AGE));
  if (cdf.length === 0) return [];
  const u = rng.next();
  let g = 0;
  while (g < cdf.length - 1 && cdf[g]! <= u) g++;
  const out: number[] = [];
  let another = stayAt(parentAge, stay);
  let age = parentAge - (MIN_PARENT_GAP + g);
  for (let k = 0; k < MAX_CHILDREN && age >= 0; k++) {
    out.push(age);
    if (rng.next() >= another) break;
    another *= SIBLING_DECAY;
    age -= SPACINGS[rng.int(SPACINGS.length)]!;
  }
  return out;
}

let byOrder: Float64Array[][] | undefined;
/** Per parent age, per birth order k = 0‥MAX_CHILDREN−1: the distribution of the k-th child's age (before anyone stops). */
function childAgeByOrder(parentAge: number): Float64Array[] {
  byOrder ??= Array.from({ length: AGES }, (_, x) => {
    const cdf = gapCdf(x);
    let dist = new Float64Array(AGES);
    for (let g = 0; g < cdf.length; g++) dist[x - (MIN_PARENT_GAP + g)] = cdf[g]! - (g > 0 ? cdf[g - 1]! : 0);
    const out = [dist];
    for (let k = 1; k < MAX_CHILDREN; k++) {
      const next = new Float64Array(AGES);
      for (let c = 0; c < AGES; c++) for (const s of SPACINGS) if (c - s >= 0) next[c - s]! += dist[c]! / SPACINGS.length;
      out.push((dist = next));
    }
    return out;
  });
  return byOrder[Math.min(parentAge, MAX_AGE)]!;
}

/** Expected number of children of each age 0‥MAX_AGE living with a parent of `parentAge`. */
export function expectedChildAges(parentAge: number, stay: number): Float64Array {
  const out = new Float64Array(AGES);
  let another = stayAt(parentAge, stay);
  let reach = 1;
  for (const dist of childAgeByOrder(parentAge)) {
    for (let c = 0; c < AGES; c++) out[c]! += reach * dist[c]!;
    reach *= another;
    another *= SIBLING_DECAY;
  }
  return out;
}
