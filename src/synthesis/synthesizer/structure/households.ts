import { controlledRound2D, largestRemainder, nearestIntegers, sum } from '../integerise.ts';
import { rake } from '../../shared/rake.ts';
import { weightedKey, type Rng } from '../rng.ts';
import {
  FAMILY_TYPE_COUNT, FamilyType, HouseholdKind, MAX_ABSENT_PER_DWELLING, MAX_TAIL_SIZE, Role, ROLE_COUNT, ROLE_OF_TARGET, TARGET_ROLE_COUNT, TargetRole,
  type StructureDiagnostics, type StructureTargets,
} from './model.ts';
import type { ResidentSplit } from './residents.ts';

/**
 * The household plan: every household with its kind and size, every family with its type and
 * the slots its members will fill, and the resulting number of persons needed in each role.
 * Household tables are the truth here (Wickramasinghe et al.): the dwelling total is exact, the
 * person total is exact, and the person roles are bent to fit the households. Persons outside
 * occupied private dwellings live in one non-private dwelling record after the households.
 */
export interface HouseholdPlan {
  readonly households: number;
  /**
   * Residents away on Census night each household counts among its usual residents (NPRD counts
   * up to three): visitors to another private dwelling, and residents who were in a non-private
   * dwelling that night (a hospital, a hotel) with RLHP "Not applicable".
   */
  readonly visitorSlots: Uint8Array;
  readonly awaySlots: Uint8Array;
  /**
   * Per family: its second partner is away on Census night (1 a visitor, 2 in a non-private
   * dwelling), one of its household's absent residents; 0 both partners at home.
   */
  readonly absentPartner: Uint8Array;
  /** Whether the area has a non-private dwelling record (dwelling index `households`). */
  readonly nonPrivateDwelling: boolean;
  readonly kind: Uint8Array;
  readonly size: Uint16Array;
  /** Families of household h are familyStart[h] ‥ familyStart[h+1]−1. */
  readonly familyStart: Uint32Array;
  /** Non-family members (unrelated individuals) of each family household. */
  readonly unrelatedSlots: Uint16Array;
  readonly families: number;
  readonly familyType: Uint8Array;
  readonly familyHousehold: Uint32Array;
  /** Child slots per family (couples with children and one-parent families: at least 1). */
  readonly childSlots: Uint16Array;
  /** Other related individuals per family (an "other family" has at least 2). */
  readonly otherSlots: Uint16Array;
  /** Persons needed per building Role. */
  readonly roleTotals: Int32Array;
  /** Per family, which children linking should give it: 1 at least one under 15, 2 only 15 and over, 0 either. */
  readonly childAges: Uint8Array;
}

/** Members a family of each type needs at least: partners/parent, one child, or two relatives. */
const MIN_FAMILY_SIZE = [2, 3, 2, 2] as const;
/** National-ish shares of family types when the tables give none. */
const DEFAULT_FAMILY_TYPES = [0.39, 0.43, 0.16, 0.02];
/** Share of extra household places filled by children, other relatives and unrelated persons, by default. */
const DEFAULT_EXTRA_ROLES = [0.75, 0.15, 0.1];

/** Prior P(size | family type) for one-family households: only the joint's shape; margins come from the tables. */
function sizePrior(type: number, size: number): number {
  switch (type) {
    case FamilyType.CoupleNoChildren: return size === 2 ? 1 : 0.1 * 0.25 ** (size - 3);
    case FamilyType.CoupleWithChildren: return size < 3 ? 0 : [0.35, 0.4, 0.17, 0.05][size - 3] ?? 0.02 * 0.5 ** (size - 7);
    case FamilyType.OneParent: return [0.55, 0.3, 0.1, 0.04][size - 2] ?? 0.01 * 0.5 ** (size - 6);
    default: return [0.75, 0.18, 0.05][size - 2] ?? 0.02 * 0.5 ** (size - 5);
  }
}

const bump = (a: Int32Array, i: number, by: number): void => { a[i] = (a[i] as number) + by; };
const value = (a: ArrayLike<number> | undefined, i: number): number => Math.max(0, (a?.[i] as number | undefined) ?? 0);

/** Splits the "6 or more" count over sizes 6‥MAX_TAIL_SIZE with a geometric tail of the given mean. */
function spreadTail(count: number, mean: number): Int32Array {
  const m = Math.min(Math.max(mean, 6), 10);
  const q = (m - 6) / (m - 5);
  const weights = Array.from({ length: MAX_TAIL_SIZE - 5 }, (_, j) => (1 - q) * q ** j);
  return largestRemainder(weights, count);
}

export function planHouseholds(t: StructureTargets, split: ResidentSplit, rng: Rng, diag: StructureDiagnostics): HouseholdPlan {
  const households = split.households;
  const bySize = householdsBySize(t, split);
  const { visitorsAtHome, awayAtHome } = reconcilePlaces(split, bySize, rng, diag);
  const perHousehold = familiesPerHousehold(t, bySize);
  const multi = multiFamilyTypes(perHousehold, rng, diag);
  const oneFamily = oneFamilyTypesBySize(perHousehold.typeCounts, multi.oneFamilySizes);
  const layout = layOutHouseholds(households, bySize, perHousehold, multi.multiTypes, oneFamily, diag);
  return finishPlan(t, layout, { ...split, visitorsAtHome, awayAtHome }, rng, diag);
}

/** Households by size: family (fam) and group (grp) histograms, lone persons, the largest size a histogram holds; `top` the largest in use. */
interface HouseholdsBySize {
  readonly fam: Int32Array;
  readonly grp: Int32Array;
  lone: number;
  top: number;
  readonly maxSize: number;
}

/** 1. Households by kind × size, integerised to the dwelling anchor. */
function householdsBySize(t: StructureTargets, split: ResidentSplit): HouseholdsBySize {
  const households = split.households;
  const cells = [
    ...Array.from({ length: 6 }, (_, i) => value(t.familyHouseholdsBySize, i + 1)),
    ...Array.from({ length: 6 }, (_, i) => value(t.groupHouseholdsBySize, i + 1)),
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
 * 2. Reconcile household places (usual residents, NPRD) with the persons who fill them: those
 * at home on Census night, and the absent residents NPRD also counts. G35's places are within
 * ±4% of G27's total (at home + visitors) in most real postal areas, so visitors take the
 * places beyond those at home first; places left after them are residents who spent the night
 * in a non-private dwelling (hospital, hotel: RLHP "Not applicable"). Visitors beyond the places
 * live in the area's non-private dwellings (students of a hall of residence away for the
 * night) when it has any; else the households grow to hold them. Moves households between sizes
 * (and kinds) in `bySize`.
 */
function reconcilePlaces(split: ResidentSplit, bySize: HouseholdsBySize, rng: Rng, diag: StructureDiagnostics): { visitorsAtHome: number; awayAtHome: number } {
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

/** Family households (largest first), how many families each holds, and the families' types to share out. */
interface FamiliesPerHousehold {
  readonly familySizes: number[];
  readonly familyHouseholds: number;
  readonly nfam: Uint8Array;
  readonly families: number;
  readonly typeCounts: Int32Array;
}

/** 3. Families: number per household, then types. */
function familiesPerHousehold(t: StructureTargets, bySize: HouseholdsBySize): FamiliesPerHousehold {
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
function multiFamilyTypes(perHousehold: FamiliesPerHousehold, rng: Rng, diag: StructureDiagnostics): { multiTypes: number[]; oneFamilySizes: number[] } {
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
function oneFamilyTypesBySize(typeCounts: Int32Array, oneFamilySizes: number[]): { sizes: number[]; rounded: ReturnType<typeof controlledRound2D> } {
  const largest = oneFamilySizes.reduce((a, b) => Math.max(a, b), 2);
  const sizes = Array.from({ length: largest - 1 }, (_, i) => i + 2);
  const colTotals = new Int32Array(sizes.length);
  for (const x of oneFamilySizes) colTotals[x - 2] = (colTotals[x - 2] as number) + 1;
  const seed = new Float64Array(FAMILY_TYPE_COUNT * sizes.length);
  const allowed = new Uint8Array(seed.length);
  for (let r = 0; r < FAMILY_TYPE_COUNT; r++) {
    for (let c = 0; c < sizes.length; c++) {
      seed[r * sizes.length + c] = sizePrior(r, sizes[c] as number);
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
function layOutHouseholds(
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

interface PlanLayout {
  households: number;
  kind: Uint8Array;
  size: Uint16Array;
  familyStart: Uint32Array;
  families: number;
  familyType: Uint8Array;
  familyHousehold: Uint32Array;
}

const hasChildren = (type: number): boolean => type === FamilyType.CoupleWithChildren || type === FamilyType.OneParent;
/** Persons of one TargetRole in a G27-style role table. */
function roleSum(byRoleSexBand: ArrayLike<number>, role: number): number {
  const cells = byRoleSexBand.length / TARGET_ROLE_COUNT;
  let total = 0;
  for (let c = 0; c < cells; c++) total += value(byRoleSexBand, role * cells + c);
  return total;
}

/** Members each family type has before extra places: partners or parent, first child, or two relatives. */
const BASE_MEMBERS = [2, 3, 2, 2] as const;

/** The split of the persons, with the absent residents the households count among their usual residents. */
type PlannedSplit = ResidentSplit & {
  /** Visitors counted in their household. */
  readonly visitorsAtHome: number;
  /** Residents of a household who spent Census night in a non-private dwelling. */
  readonly awayAtHome: number;
};

/**
 * Places an absent resident can take: a family household's places beyond its families' base
 * members, a group household's places but one (someone is at home), never a lone person's (a
 * lone-person household has one usual resident); at most three per household (NPRD counts up
 * to three absent residents). Residents are away together (a household away visiting, a
 * partner with the children): households are taken at random, those with a partner away
 * first, and each is given as many absent residents as it has places for. Spread one per
 * household instead, the households with someone away alone outnumbered G33's households of
 * partial income (which counts every household with a member 15+ away) in large postal areas
 * (7250: 1,110 vs 865 published); together, 995, and G33's median SRMSE over Tasmania's postal
 * areas fell from 0.144 to 0.111. `counts[k]` absent residents of kind k are dealt in turn;
 * returns each kind's places per household.
 */
function dealAbsentPlaces(layout: PlanLayout, extra: Int32Array, taken: Uint8Array, counts: readonly number[], rng: Rng): Uint8Array[] {
  const { households, kind, size } = layout;
  const slots = counts.map(() => new Uint8Array(households));
  const order = Int32Array.from({ length: households }, (_, h) => h);
  rng.shuffle(order);
  const places: number[] = [];
  for (const pass of [1, 0]) for (const h of order) {
    if ((taken[h]! > 0 ? 1 : 0) !== pass) continue;
    const room = kind[h] === HouseholdKind.Family ? (extra[h] as number) : kind[h] === HouseholdKind.Group ? (size[h] as number) - 1 : 0;
    for (let k = 0; k < Math.min(room, MAX_ABSENT_PER_DWELLING - (taken[h] as number)); k++) places.push(h);
  }
  let at = 0;
  counts.forEach((n, k) => {
    for (let j = 0; j < n && at < places.length; j++) slots[k]![places[at++] as number]!++;
  });
  return slots;
}

/**
 * Gives the absent residents their household places (couples' partners away first, then the
 * others household by household), then fills each family household's remaining places beyond
 * its families' base members with children, other relatives and unrelated persons, in the
 * proportions the role table asks for (an extra child only where a family has children), and
 * totals the persons needed per role, visitors and residents outside households included.
 */
function finishPlan(t: StructureTargets, layout: PlanLayout, split: PlannedSplit, rng: Rng, diag: StructureDiagnostics): HouseholdPlan {
  const slots = baseMembers(layout);
  const partners = placeAbsentPartners(t, layout, split, rng);
  const absent = placeOtherAbsent(layout, split, slots.extra, partners, rng, diag);
  const roles = extraPlaceRoles(t, layout, slots);
  dealExtraPlaces(layout, slots, roles, rng);
  const childAges = childAgesOf(t, layout, slots.childSlots, rng);
  const roleTotals = roleTotalsOf(layout, slots, partners.absentPartner, absent);
  const { visitorSlots, awaySlots, nonPrivate, visitorsInNonPrivate } = absent;
  const { childSlots, otherSlots, unrelatedSlots } = slots;
  const { absentPartner } = partners;
  return {
    ...layout,
    visitorSlots,
    awaySlots,
    absentPartner,
    nonPrivateDwelling: nonPrivate + visitorsInNonPrivate > 0,
    unrelatedSlots,
    childSlots,
    otherSlots,
    roleTotals,
    childAges,
  };
}

/** Each family's and household's places beyond the families' base members (`extra`), and the slots the steps below fill. */
interface PlanSlots {
  readonly childSlots: Uint16Array;
  readonly otherSlots: Uint16Array;
  readonly unrelatedSlots: Uint16Array;
  readonly extra: Int32Array;
  readonly baseChildren: number;
  readonly baseOther: number;
}

/** A family's base members (partners or a parent, one child where it has children, two relatives in an other family); the rest of each household is extra. */
function baseMembers(layout: PlanLayout): PlanSlots {
  const { households, kind, size, familyStart, families, familyType } = layout;
  const childSlots = new Uint16Array(families);
  const otherSlots = new Uint16Array(families);
  const unrelatedSlots = new Uint16Array(households);
  const extra = new Int32Array(households);
  let baseChildren = 0;
  let baseOther = 0;
  for (let h = 0; h < households; h++) {
    if (kind[h] !== HouseholdKind.Family) continue;
    let base = 0;
    for (let f = familyStart[h] as number; f < (familyStart[h + 1] as number); f++) {
      const type = familyType[f] as number;
      base += BASE_MEMBERS[type as 0];
      if (hasChildren(type)) { childSlots[f] = 1; baseChildren++; }
      if (type === FamilyType.Other) { otherSlots[f] = 2; baseOther += 2; }
    }
    extra[h] = Math.max(0, (size[h] as number) - base);
  }
  return { childSlots, otherSlots, unrelatedSlots, extra, baseChildren, baseOther };
}

interface AbsentPartners {
  readonly absentPartner: Uint8Array;
  readonly absentIn: Uint8Array;
  readonly partnersAway: number;
  readonly visitorPartners: number;
  readonly awayPartners: number;
}

/**
 * Absent partners: family composition is coded with the residents temporarily absent, G27's
 * partners are those at home, so 2 × G29's couple families less G27's partners are couples
 * whose partner was away (190,462 in Australia, 1.7% of partners). Their places are the
 * first of the absent residents' (visitors first), one partner a couple.
 */
function placeAbsentPartners(t: StructureTargets, layout: PlanLayout, split: PlannedSplit, rng: Rng): AbsentPartners {
  const { households, families, familyType } = layout;
  const absentPartner = new Uint8Array(families);
  const absentIn = new Uint8Array(households);
  const couples: number[] = [];
  for (let f = 0; f < families; f++) if (familyType[f] === FamilyType.CoupleNoChildren || familyType[f] === FamilyType.CoupleWithChildren) couples.push(f);
  const presentPartners = t.roles ? roleSum(t.roles.byRoleSexBand, TargetRole.Partner) : 2 * couples.length;
  const absentPartners = Math.min(Math.max(0, Math.round(2 * couples.length - presentPartners)), couples.length, split.visitorsAtHome + split.awayAtHome);
  rng.shuffle(couples);
  let partnersAway = 0;
  for (const f of couples) {
    if (partnersAway === absentPartners) break;
    const h = layout.familyHousehold[f] as number;
    if ((absentIn[h] as number) >= MAX_ABSENT_PER_DWELLING) continue;
    absentPartner[f] = partnersAway < split.visitorsAtHome ? 1 : 2;
    absentIn[h] = (absentIn[h] as number) + 1;
    partnersAway++;
  }
  const visitorPartners = Math.min(partnersAway, split.visitorsAtHome);
  const awayPartners = partnersAway - visitorPartners;
  return { absentPartner, absentIn, partnersAway, visitorPartners, awayPartners };
}

interface AbsentPlaces {
  readonly visitorSlots: Uint8Array;
  readonly awaySlots: Uint8Array;
  readonly visitorsPlaced: number;
  readonly awayPlaced: number;
  readonly nonPrivate: number;
  readonly visitorsInNonPrivate: number;
}

/**
 * Then the other absent residents: visitors, then residents away in a non-private dwelling. A
 * place no absent resident can take (no room within three a household) is taken by a resident
 * at home: a resident away in a non-private dwelling is at home instead; a visitor lives in
 * the non-private dwelling while one of its residents comes home, or, where it has none left,
 * is at home. Takes the places from `extra`.
 */
function placeOtherAbsent(layout: PlanLayout, split: PlannedSplit, extra: Int32Array, partners: AbsentPartners, rng: Rng, diag: StructureDiagnostics): AbsentPlaces {
  const { households, kind } = layout;
  const { absentIn, partnersAway, visitorPartners, awayPartners } = partners;
  const [visitorSlots, awaySlots] = dealAbsentPlaces(layout, extra, absentIn, [split.visitorsAtHome - visitorPartners, split.awayAtHome - awayPartners], rng) as [
    Uint8Array,
    Uint8Array,
  ];
  let visitorsPlaced = visitorPartners;
  let awayPlaced = awayPartners;
  for (let h = 0; h < households; h++) {
    visitorsPlaced += visitorSlots[h] as number;
    awayPlaced += awaySlots[h] as number;
    if (kind[h] === HouseholdKind.Family) extra[h] = (extra[h] as number) - (visitorSlots[h] as number) - (awaySlots[h] as number);
  }
  const awayMadeResidents = split.awayAtHome - awayPlaced;
  const visitorsUnplaced = split.visitorsAtHome - visitorsPlaced;
  const inNonPrivate = split.nonPrivate - split.awayAtHome;
  const cameHome = Math.min(visitorsUnplaced, inNonPrivate);
  const nonPrivate = inNonPrivate - cameHome;
  const visitorsInNonPrivate = split.visitors - split.visitorsAtHome + cameHome;
  diag.visitorsAtHome = visitorsPlaced;
  diag.absentPartners = partnersAway;
  diag.awayInNonPrivate = awayPlaced;
  diag.visitorsInNonPrivate = visitorsInNonPrivate;
  diag.nonPrivateMadeResidents = awayMadeResidents + cameHome;
  diag.visitorsMadeResidents = visitorsUnplaced - cameHome;
  diag.nonPrivateResidents = nonPrivate;
  return { visitorSlots, awaySlots, visitorsPlaced, awayPlaced, nonPrivate, visitorsInNonPrivate };
}

/** How many extra places go to children, other relatives and unrelated persons: the role table's proportions (an extra child only where a family has children). */
function extraPlaceRoles(t: StructureTargets, layout: PlanLayout, slots: PlanSlots): { eligible: number; extraTotal: number; extraChildren: number; extraOther: number } {
  const { households, kind, familyStart, familyType } = layout;
  const { extra, baseChildren, baseOther } = slots;
  let eligible = 0;
  let extraTotal = 0;
  for (let h = 0; h < households; h++) {
    if (kind[h] !== HouseholdKind.Family) continue;
    extraTotal += extra[h] as number;
    let withChildren = false;
    for (let f = familyStart[h] as number; f < (familyStart[h + 1] as number); f++) withChildren ||= hasChildren(familyType[f] as number);
    if (withChildren) eligible += extra[h] as number;
  }

  const want = [0, 0, 0];
  if (t.roles) {
    const perRole = new Float64Array(TARGET_ROLE_COUNT);
    const cellsPerRole = t.roles.byRoleSexBand.length / TARGET_ROLE_COUNT;
    for (let r = 0; r < TARGET_ROLE_COUNT; r++) {
      for (let c = 0; c < cellsPerRole; c++) perRole[r] = (perRole[r] as number) + value(t.roles.byRoleSexBand, r * cellsPerRole + c);
    }
    let children = 0;
    for (let r = 0; r < TARGET_ROLE_COUNT; r++) if (ROLE_OF_TARGET[r] === Role.Child) children += perRole[r] as number;
    want[0] = Math.max(0, children - baseChildren);
    want[1] = Math.max(0, (perRole[5] as number) - baseOther);
    want[2] = perRole[6] as number;
  }
  const extraRoles = largestRemainder(sum(want) > 0 ? want : DEFAULT_EXTRA_ROLES, extraTotal);
  const extraChildren = Math.min(extraRoles[0] as number, eligible);
  const surplus = (extraRoles[0] as number) - extraChildren;
  const rest = largestRemainder(want[1]! + want[2]! > 0 ? [want[1]!, want[2]!] : [1, 0], surplus);
  const extraOther = (extraRoles[1] as number) + (rest[0] as number);
  return { eligible, extraTotal, extraChildren, extraOther };
}

/** Deal the extra places: children first among households that have a family with children, then other relatives, then unrelated persons. */
function dealExtraPlaces(layout: PlanLayout, slots: PlanSlots, roles: { eligible: number; extraTotal: number; extraChildren: number; extraOther: number }, rng: Rng): void {
  const { households, familyStart, familyType } = layout;
  const { extra, childSlots, otherSlots, unrelatedSlots } = slots;
  const { eligible, extraTotal } = roles;
  let { extraChildren, extraOther } = roles;
  const eligibleSlots = new Int32Array(eligible);
  const otherPlaces = new Int32Array(extraTotal);
  let e = 0;
  let o = 0;
  for (let h = 0; h < households; h++) {
    const n = extra[h] as number;
    if (n === 0) continue;
    let withChildren = false;
    for (let f = familyStart[h] as number; f < (familyStart[h + 1] as number); f++) withChildren ||= hasChildren(familyType[f] as number);
    for (let k = 0; k < n; k++) {
      if (withChildren) eligibleSlots[e++] = h;
      else otherPlaces[o++] = h;
    }
  }
  rng.shuffle(eligibleSlots);
  for (const h of eligibleSlots) {
    const first = familyStart[h] as number;
    const last = familyStart[h + 1] as number;
    if (extraChildren > 0) {
      // A random family with children in the household takes the child.
      let f = first + rng.int(last - first);
      while (!hasChildren(familyType[f] as number)) f = f + 1 < last ? f + 1 : first;
      childSlots[f] = (childSlots[f] as number) + 1;
      extraChildren--;
    } else {
      otherPlaces[o++] = h;
    }
  }
  rng.shuffle(otherPlaces, o);
  for (let k = 0; k < o; k++) {
    const h = otherPlaces[k] as number;
    if (extraOther > 0) {
      const f = (familyStart[h] as number) + rng.int((familyStart[h + 1] as number) - (familyStart[h] as number));
      otherSlots[f] = (otherSlots[f] as number) + 1;
      extraOther--;
    } else {
      unrelatedSlots[h] = (unrelatedSlots[h] as number) + 1;
    }
  }
}

/**
 * Families with children: which have a child under 15 (G29), more likely the larger ones
 * (Efraimidis–Spirakis keys weighted by child slots).
 */
function childAgesOf(t: StructureTargets, layout: PlanLayout, childSlots: Uint16Array, rng: Rng): Uint8Array {
  const { families, familyType } = layout;
  const childAges = new Uint8Array(families);
  for (const type of [FamilyType.CoupleWithChildren, FamilyType.OneParent]) {
    const share = t.under15Share?.[type];
    if (share === undefined || !Number.isFinite(share)) continue;
    const ids: number[] = [];
    for (let f = 0; f < families; f++) if (familyType[f] === type) ids.push(f);
    if (ids.length === 0) continue;
    const young = largestRemainder([Math.min(1, Math.max(0, share)), 1 - Math.min(1, Math.max(0, share))], ids.length)[0] as number;
    const keys = new Map(ids.map((f) => [f, weightedKey(rng, Math.max(1, childSlots[f] as number))]));
    ids.sort((a, b) => (keys.get(b) as number) - (keys.get(a) as number) || a - b);
    ids.forEach((f, i) => { childAges[f] = i < young ? 1 : 2; });
  }
  return childAges;
}

/** The persons needed per role, visitors and residents outside households included. */
function roleTotalsOf(layout: PlanLayout, slots: PlanSlots, absentPartner: Uint8Array, absent: AbsentPlaces): Int32Array {
  const { households, kind, size, families, familyType } = layout;
  const { childSlots, otherSlots, unrelatedSlots } = slots;
  const { visitorSlots, awaySlots, visitorsPlaced, awayPlaced, nonPrivate, visitorsInNonPrivate } = absent;
  const roleTotals = new Int32Array(ROLE_COUNT);
  for (let f = 0; f < families; f++) {
    const type = familyType[f] as number;
    if (type === FamilyType.CoupleNoChildren || type === FamilyType.CoupleWithChildren) bump(roleTotals, Role.Partner, absentPartner[f] ? 1 : 2);
    if (type === FamilyType.OneParent) bump(roleTotals, Role.LoneParent, 1);
    bump(roleTotals, Role.Child, childSlots[f] as number);
    bump(roleTotals, Role.OtherRelated, otherSlots[f] as number);
  }
  for (let h = 0; h < households; h++) {
    bump(roleTotals, Role.Unrelated, unrelatedSlots[h] as number);
    if (kind[h] === HouseholdKind.Group) bump(roleTotals, Role.GroupMember, (size[h] as number) - (visitorSlots[h] as number) - (awaySlots[h] as number));
    if (kind[h] === HouseholdKind.LonePerson) bump(roleTotals, Role.LonePerson, 1);
  }
  bump(roleTotals, Role.Visitor, visitorsPlaced + visitorsInNonPrivate);
  bump(roleTotals, Role.NonPrivate, awayPlaced + nonPrivate);
  return roleTotals;
}
