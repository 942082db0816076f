/** Households by kind and size: G35's cells to the dwelling anchor, then their places reconciled with the persons who fill them. */
import { largestRemainder, nearestIntegers, sum } from '../../integerise.ts';
import type { Rng } from '../../rng.ts';
import { MAX_TAIL_SIZE, type StructureDiagnostics, type StructureTargets } from '../model.ts';
import type { ResidentSplit } from '../residents.ts';
import { countAt } from './plan.ts';

/** Splits the "6 or more" count over sizes 6‥MAX_TAIL_SIZE with a geometric tail of the given mean. */
export function spreadTail(count: number, mean: number): Int32Array {
  const m = Math.min(Math.max(mean, 6), 10);
  const q = (m - 6) / (m - 5);
  const weights = Array.from({ length: MAX_TAIL_SIZE - 5 }, (_, j) => (1 - q) * q ** j);
  return largestRemainder(weights, count);
}

/** Households by size: family (fam) and group (grp) histograms, lone persons, the largest size a histogram holds; `top` the largest in use. */
export interface HouseholdsBySize {
  readonly fam: Int32Array;
  readonly grp: Int32Array;
  lone: number;
  top: number;
  readonly maxSize: number;
}

/** Households by kind × size, integerised to the dwelling anchor. */
export function householdsBySize(t: StructureTargets, split: ResidentSplit): HouseholdsBySize {
  const households = split.households;
  const cells = [
    ...Array.from({ length: 6 }, (_, i) => countAt(t.familyHouseholdsBySize, i + 1)),
    ...Array.from({ length: 6 }, (_, i) => countAt(t.groupHouseholdsBySize, i + 1)),
    Math.max(0, t.loneHouseholds),
  ];
  const counts = sum(cells) > 0 ? nearestIntegers(cells, households) : largestRemainder([0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], households);
  // Histograms by size, up to the most persons a household could take (the tail's top, or all
  // persons in private dwellings in one household when the tables say so).
  const maxSize = Math.max(MAX_TAIL_SIZE, split.present + split.visitors) + 1;
  const fam = new Int32Array(maxSize + 1);
  const grp = new Int32Array(maxSize + 1);
  for (let s = 1; s <= 5; s++) {
    // A family or group of one usual resident (the others absent) is built as one of two.
    fam[Math.max(2, s)] = (fam[Math.max(2, s)] as number) + (counts[s - 1] as number);
    grp[Math.max(2, s)] = (grp[Math.max(2, s)] as number) + (counts[s + 5] as number);
  }
  let lone = counts[12] as number;
  const tailFamily = counts[5] as number;
  const tailGroup = counts[11] as number;
  let below6 = lone;
  for (let s = 2; s <= 5; s++) below6 += s * ((fam[s] as number) + (grp[s] as number));
  const tailTotal = tailFamily + tailGroup;
  if (tailTotal > 0) {
    const places = t.meanHouseholdSize && t.meanHouseholdSize > 0 ? t.meanHouseholdSize * households : split.present + split.visitors;
    const mean = (places - below6) / tailTotal;
    const f = spreadTail(tailFamily, mean);
    const g = spreadTail(tailGroup, mean);
    for (let j = 0; j < f.length; j++) {
      fam[6 + j] = (fam[6 + j] as number) + (f[j] as number);
      grp[6 + j] = (grp[6 + j] as number) + (g[j] as number);
    }
  }
  return { fam, grp, lone, top: 2, maxSize };
}

/**
 * Reconciles household places (usual residents, NPRD) with the persons who fill them: those
 * at home on Census night, and the absent residents NPRD also counts. G35's places are within
 * ±4% of G27's total (at home + visitors) in most real postal areas, so visitors take the
 * places beyond those at home first; places left after them are residents who spent the night
 * in a non-private dwelling (hospital, hotel: RLHP "Not applicable"). Visitors beyond the places
 * live in the area's non-private dwellings (students of a hall of residence away for the
 * night) when it has any; else the households grow to hold them. Moves households between sizes
 * (and kinds) in `bySize`.
 */
export function reconcilePlaces(split: ResidentSplit, bySize: HouseholdsBySize, rng: Rng, diag: StructureDiagnostics): { visitorsAtHome: number; awayAtHome: number } {
  const households = split.households;
  const { fam, grp, maxSize } = bySize;
  let { lone } = bySize;
  let places = lone;
  let top = 2;
  for (let s = 2; s <= maxSize; s++) {
    places += s * ((fam[s] as number) + (grp[s] as number));
    if ((fam[s] as number) + (grp[s] as number) > 0) top = s;
  }
  diag.householdPlacesBefore = places;
  const room = Math.max(0, places - split.present);
  const visitorsAtHome = households === 0 ? 0 : split.nonPrivate > 0 ? Math.min(split.visitors, room) : split.visitors;
  const awayAtHome = households === 0 ? 0 : Math.min(split.nonPrivate, Math.max(0, room - visitorsAtHome));
  const persons = split.present + visitorsAtHome + awayAtHome;
  while (places > persons) {
    let s = top;
    while (s > 2 && (fam[s] as number) + (grp[s] as number) === 0) s--;
    top = s;
    const hist = (fam[s] as number) >= (grp[s] as number) ? fam : grp;
    if (s > 2) {
      hist[s] = (hist[s] as number) - 1;
      hist[s - 1] = (hist[s - 1] as number) + 1;
    } else {
      // Only households of two left: one becomes a lone person household.
      hist[2] = (hist[2] as number) - 1;
      lone++;
      diag.householdKindsChanged++;
    }
    places--;
    diag.placesRemoved++;
  }
  while (places < persons) {
    // A household of 6 or more stays in G35's "6 or more" cell when it grows: those first.
    let from = 6;
    let multi = 0;
    for (let s = from; s <= top; s++) multi += (fam[s] as number) + (grp[s] as number);
    if (multi === 0) {
      from = 2;
      for (let s = from; s <= top; s++) multi += (fam[s] as number) + (grp[s] as number);
    }
    if (multi === 0) {
      lone--; // only lone persons: the extra person turns one into a group household of two
      grp[2] = (grp[2] as number) + 1;
      diag.householdKindsChanged++;
    } else {
      // A random family or group household gains a member.
      let pickAt = rng.int(multi);
      let s = from;
      let hist = fam;
      for (; s <= top; s++) {
        if (pickAt < (fam[s] as number)) { hist = fam; break; }
        pickAt -= fam[s] as number;
        if (pickAt < (grp[s] as number)) { hist = grp; break; }
        pickAt -= grp[s] as number;
      }
      hist[s] = (hist[s] as number) - 1;
      hist[s + 1] = (hist[s + 1] as number) + 1;
      top = Math.max(top, s + 1);
    }
    places++;
    diag.personsAbsorbed++;
  }
  bySize.lone = lone;
  bySize.top = top;
  return { visitorsAtHome, awayAtHome };
}
