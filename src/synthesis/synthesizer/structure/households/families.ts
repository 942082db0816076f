/** Families: how many each family household holds, their types, and the households laid out in order with their families. */
import { controlledRound2D, largestRemainder, nearestIntegers, sum } from '../../integerise.ts';
import { rake } from '../../../shared/rake.ts';
import type { Rng } from '../../rng.ts';
import { DEFAULT_FAMILY_TYPES, familySizePrior } from '../../../census/controls/structure-priors.ts';
import { FAMILY_TYPE_COUNT, FamilyType, HouseholdKind, type StructureDiagnostics, type StructureTargets } from '../model.ts';
import type { PlanLayout } from './plan.ts';
import type { HouseholdsBySize } from './sizes.ts';

/** Members a family of each type needs at least, its base members before any extra place: partners or parent, one child, or two relatives. */
export const MIN_FAMILY_SIZE = [2, 3, 2, 2] as const;

/** Family households (largest first), how many families each holds, and the families' types to share out. */
export interface FamiliesPerHousehold {
  readonly familySizes: number[];
  readonly familyHouseholds: number;
  readonly nfam: Uint8Array;
  readonly families: number;
  readonly typeCounts: Int32Array;
}

/** Families: number per household, then types. */
export function familiesPerHousehold(t: StructureTargets, bySize: HouseholdsBySize): FamiliesPerHousehold {
  const { fam, top } = bySize;
  const familySizes: number[] = [];
  for (let s = top; s >= 2; s--) for (let k = 0; k < (fam[s] as number); k++) familySizes.push(s);
  const familyHouseholds = familySizes.length;
  const byFamilies = t.familyHouseholdsByFamilies && sum(t.familyHouseholdsByFamilies) > 0
    ? largestRemainder(t.familyHouseholdsByFamilies, familyHouseholds)
    : Int32Array.of(familyHouseholds, 0, 0);
  // The largest households hold the multi-family ones (two families need ≥ 4 people, three ≥ 6).
  const nfam = new Uint8Array(familyHouseholds).fill(1);
  let three = byFamilies[2] as number;
  let two = byFamilies[1] as number;
  for (let h = 0; h < familyHouseholds; h++) {
    const size = familySizes[h] as number;
    if (three > 0 && size >= 6) { nfam[h] = 3; three--; }
    else if ((two > 0 || three > 0) && size >= 4) { nfam[h] = 2; if (two > 0) two--; else three--; }
  }
  let families = 0;
  for (let h = 0; h < familyHouseholds; h++) families += nfam[h] as number;
  const typeCounts = t.familiesByType && sum(t.familiesByType) > 0 ? nearestIntegers(t.familiesByType, families) : largestRemainder(DEFAULT_FAMILY_TYPES, families);
  return { familySizes, familyHouseholds, nfam, families, typeCounts };
}

/** Multi-family households first: their families are drawn from the pool of types and made to fit. */
export function multiFamilyTypes(perHousehold: FamiliesPerHousehold, rng: Rng, diag: StructureDiagnostics): { multiTypes: number[]; oneFamilySizes: number[] } {
  const { familySizes, familyHouseholds, nfam, typeCounts } = perHousehold;
  const takeType = (): number => {
    const k = rng.pick(typeCounts);
    if (k < 0) return FamilyType.CoupleNoChildren;
    typeCounts[k] = (typeCounts[k] as number) - 1;
    return k;
  };
  const multiTypes: number[] = [];
  const oneFamilySizes: number[] = [];
  for (let i = 0; i < familyHouseholds; i++) {
    if (nfam[i] === 1) { oneFamilySizes.push(familySizes[i] as number); continue; }
    let room = familySizes[i] as number;
    for (let k = 0; k < (nfam[i] as number); k++) {
      let type = takeType();
      const left = (nfam[i] as number) - k - 1;
      if (room - MIN_FAMILY_SIZE[type as 0] < 2 * left) { type = FamilyType.CoupleNoChildren; diag.familyTypesChanged++; }
      room -= MIN_FAMILY_SIZE[type as 0];
      multiTypes.push(type);
    }
  }
  return { multiTypes, oneFamilySizes };
}

/** One-family households: family type × size, raked to both margins and rounded with both exact. */
export function oneFamilyTypesBySize(typeCounts: Int32Array, oneFamilySizes: number[]): { sizes: number[]; rounded: ReturnType<typeof controlledRound2D> } {
  const largest = oneFamilySizes.reduce((a, b) => Math.max(a, b), 2);
  const sizes = Array.from({ length: largest - 1 }, (_, i) => i + 2);
  const colTotals = new Int32Array(sizes.length);
  for (const x of oneFamilySizes) colTotals[x - 2] = (colTotals[x - 2] as number) + 1;
  const seed = new Float64Array(FAMILY_TYPE_COUNT * sizes.length);
  const allowed = new Uint8Array(seed.length);
  for (let r = 0; r < FAMILY_TYPE_COUNT; r++) {
    for (let c = 0; c < sizes.length; c++) {
      // The prior of a household past 40 is 40's: further out it underflows to 0 (a prison or a camp counted as one private dwelling of a thousand), and a column of zeros cannot be raked to its households.
      seed[r * sizes.length + c] = familySizePrior(r, Math.min(sizes[c] as number, 40));
      allowed[r * sizes.length + c] = (sizes[c] as number) >= MIN_FAMILY_SIZE[r as 0] ? 1 : 0;
    }
  }
  const fit = rake(seed, [FAMILY_TYPE_COUNT, sizes.length], [
    { dims: [0], target: typeCounts },
    { dims: [1], target: colTotals },
  ], { maxIterations: 100, tolerance: 1e-6 });
  const rounded = controlledRound2D(fit.values, FAMILY_TYPE_COUNT, sizes.length, typeCounts, colTotals, allowed);
  return { sizes, rounded };
}

/** Lay out the households: one-family (by the rounded cells), multi-family, group, lone. */
export function layOutHouseholds(
  households: number,
  bySize: HouseholdsBySize,
  perHousehold: FamiliesPerHousehold,
  multiTypes: number[],
  oneFamily: { sizes: number[]; rounded: ReturnType<typeof controlledRound2D> },
  diag: StructureDiagnostics,
): PlanLayout {
  const { grp, lone, top } = bySize;
  const { familySizes, familyHouseholds, nfam, families } = perHousehold;
  const { sizes, rounded } = oneFamily;
  const kind = new Uint8Array(households);
  const size = new Uint16Array(households);
  const familyType = new Uint8Array(families);
  const familyHousehold = new Uint32Array(families);
  const familyStart = new Uint32Array(households + 1);
  let nextFamily = 0;
  let h = 0;
  for (let r = 0; r < FAMILY_TYPE_COUNT; r++) {
    for (let c = 0; c < sizes.length; c++) {
      const s = sizes[c] as number;
      for (let k = 0; k < (rounded.cells[r * sizes.length + c] as number); k++) {
        let type = r;
        if (s < MIN_FAMILY_SIZE[type as 0]) { type = FamilyType.CoupleNoChildren; diag.familyTypesChanged++; }
        kind[h] = HouseholdKind.Family;
        size[h] = s;
        familyStart[h] = nextFamily;
        familyType[nextFamily] = type;
        familyHousehold[nextFamily++] = h;
        h++;
      }
    }
  }
  let multiAt = 0;
  for (let i = 0; i < familyHouseholds; i++) {
    if (nfam[i] === 1) continue;
    kind[h] = HouseholdKind.Family;
    size[h] = familySizes[i] as number;
    familyStart[h] = nextFamily;
    for (let k = 0; k < (nfam[i] as number); k++) {
      familyType[nextFamily] = multiTypes[multiAt++] as number;
      familyHousehold[nextFamily++] = h;
    }
    h++;
  }
  for (let s = 2; s <= top; s++) {
    for (let k = 0; k < (grp[s] as number); k++) { kind[h] = HouseholdKind.Group; size[h] = s; familyStart[h] = nextFamily; h++; }
  }
  for (let k = 0; k < lone; k++) { kind[h] = HouseholdKind.LonePerson; size[h] = 1; familyStart[h] = nextFamily; h++; }
  familyStart[households] = nextFamily;
  return { households, kind, size, familyStart, families, familyType, familyHousehold };
}
