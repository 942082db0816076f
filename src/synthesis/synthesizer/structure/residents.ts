import type { StructureTargets } from './model.ts';

/**
 * Where an area's usual residents were on Census night, in whole persons: the tables count
 * different populations (G01 every usual resident, G27 those in occupied private dwellings with
 * the ones away visiting another private dwelling, G35 the occupied private dwellings), so the
 * person total is split before anyone is placed.
 */
export interface ResidentSplit {
  /** Every usual resident (G01): present + visitors + nonPrivate. */
  readonly persons: number;
  /** Occupied private dwellings (G35), each with at least one resident at home. */
  readonly households: number;
  /** Residents of occupied private dwellings at home on Census night (G27 less its visitors). */
  readonly present: number;
  /** Residents away on Census night visiting another private dwelling (G27's visitor rows). */
  readonly visitors: number;
  /** Residents of non-private dwellings (G01 less G27): hospitals, aged care, prisons, colleges, hotels… */
  readonly nonPrivate: number;
}

const whole = (x: number, max: number): number => Math.min(max, Math.max(0, Math.round(Number.isFinite(x) ? x : 0)));

/**
 * The split of `persons` (the anchor) by the targets: persons in occupied private dwellings are
 * G27's total (all persons when no table gives it), of whom G27's visitors were away; the rest
 * live in non-private dwellings. An area without occupied private dwellings has nobody at home
 * in one (its visitors live in its non-private dwellings). Every occupied private dwelling has
 * someone at home, so where the tables disagree the dwelling anchor wins over G27 (the residents
 * at home are raised, first from the non-private, then from the visitors).
 */
export function splitResidents(t: StructureTargets, persons: number): ResidentSplit {
  const dwellings = whole(t.dwellings, Number.MAX_SAFE_INTEGER);
  const inPrivate = t.privatePersons === undefined ? persons : whole(t.privatePersons, persons);
  let visitors = whole(t.visitors ?? 0, inPrivate);
  let present = dwellings === 0 ? 0 : inPrivate - visitors;
  if (present < dwellings) {
    present = Math.min(dwellings, persons - visitors);
    if (present < dwellings) {
      visitors = Math.max(0, persons - dwellings);
      present = Math.min(dwellings, persons);
    }
  }
  return { persons, households: Math.min(dwellings, present), present, visitors, nonPrivate: persons - present - visitors };
}
