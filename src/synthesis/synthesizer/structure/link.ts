import { weightedKey, type Rng } from '../rng.ts';
import type { HouseholdPlan } from './households.ts';
import {
  ADULT_AGE, AGES, DEFAULT_BANDS, FamilyType, HouseholdKind, MAX_PARENT_GAP, MIN_PARENT_GAP, Role, TARGET_ROLE_COUNT, TargetRole,
  type StructureDiagnostics, type StructureTargets,
} from './model.ts';
import type { DrawnPersons } from './persons.ts';

/**
 * The linked structure before ABS labels: persons grouped by dwelling (a dwelling's persons are
 * contiguous), each with a final TargetRole; families with their final type and reference
 * person; dwellings with kind, size and number of families.
 */
export interface Skeleton {
  readonly persons: {
    readonly count: number;
    readonly age: Uint8Array;
    readonly sex: Uint8Array;
    /** TargetRole (RLHP without the partner split). */
    readonly role: Uint8Array;
    /** 0 not partnered, 1 registered marriage, 2 de facto marriage. */
    readonly union: Uint8Array;
    readonly dwelling: Uint32Array;
    readonly family: Int32Array;
  };
  readonly families: {
    readonly count: number;
    readonly type: Uint8Array;
    readonly dwelling: Uint32Array;
    readonly reference: Uint32Array;
  };
  /** Occupied private dwellings (the plan's households), then the non-private dwelling when the area has one. */
  readonly dwellings: { readonly count: number; readonly kind: Uint8Array; readonly size: Uint32Array; readonly families: Uint8Array };
}

/** Relative chance that a couple whose younger partner is `age` has children at home (shape only). */
function parentingWeight(age: number): number {
  if (age < 18) return 0.02;
  if (age < 25) return 0.15;
  if (age < 30) return 0.35;
  if (age < 35) return 0.6;
  if (age < 45) return 0.8;
  if (age < 50) return 0.75;
  if (age < 55) return 0.6;
  if (age < 60) return 0.4;
  if (age < 65) return 0.25;
  if (age < 75) return 0.12;
  return 0.06;
}

/** Share of couples in a de facto marriage by the younger partner's age when no table gives it. */
function deFactoPrior(age: number): number {
  if (age < 25) return 0.75;
  if (age < 30) return 0.5;
  if (age < 35) return 0.3;
  if (age < 45) return 0.18;
  if (age < 55) return 0.12;
  if (age < 65) return 0.08;
  return 0.05;
}

/**
 * Share of children of each age 15–24 who are dependent students: the share itself when no table
 * gives one, and the odds by age of who in a band the table's students are.
 */
function studentPrior(age: number): number {
  // Of children living with a parent, the share who study full time: nearly all at 15–17, about
  // three in four at 18–19, about half at 20–24 (2021 Census, dependent students by age).
  return age < 18 ? 0.95 : age < 20 ? 0.75 : age < 22 ? 0.55 : 0.42;
}

/** Share of couples who are same-sex (2021 Census: about 1.4% of couples living together). */
export const SAME_SEX_COUPLE_SHARE = 0.014;

/**
 * Male and female same-sex couples to form from the partners of each sex: about
 * SAME_SEX_COUPLE_SHARE of all couples, split evenly, but at least what a surplus of one sex
 * needs (a surplus beyond that share says the suburb has more same-sex couples of that sex).
 */
export function sameSexCouples(men: number, women: number): { male: number; female: number } {
  const couples = Math.floor((men + women) / 2);
  const surplus = Math.trunc((men - women) / 2); // male − female same-sex couples
  const wanted = Math.max(Math.abs(surplus), Math.round(SAME_SEX_COUPLE_SHARE * couples));
  let female = Math.max(0, Math.floor((wanted - surplus) / 2));
  let male = female + surplus;
  if (male < 0) { female -= male; male = 0; }
  // Never more than the partners of a sex allow.
  while (2 * male > men || 2 * female > women) { male = Math.max(0, male - 1); female = Math.max(0, female - 1); }
  return { male, female };
}

/** Indices 0‥n−1 sorted by key descending (ties keep index order). */
function orderByDesc(keys: Float64Array): Int32Array {
  const idx = Int32Array.from({ length: keys.length }, (_, i) => i);
  return idx.sort((a, b) => (keys[b] as number) - (keys[a] as number) || a - b);
}

/**
 * Links the drawn persons into families and households, step by step: couples, then the parents
 * of each family (couples at home, couples with a partner away, lone parents), then children to
 * parents by age, other related persons, and the unrelated, group, lone and absent persons. Every
 * step draws from `rng` in this order.
 */
export function linkPersons(
  t: StructureTargets,
  plan: HouseholdPlan,
  drawn: DrawnPersons,
  rng: Rng,
  diag: StructureDiagnostics,
): Skeleton {
  const s = startLinking(plan, drawn, rng, diag);
  const { couples, singles, absentFamilies } = pairCouples(s);
  const { parentA, parentB, oneParent } = placeCoupleParents(s, couples);
  const absentCouples = placeAbsentPartnerParents(s, singles, absentFamilies, parentA, parentB);
  placeLoneParents(s, oneParent, parentA);
  const parentAge = settleParents(s, parentA, parentB);
  const slots = slotChildren(s, parentAge);
  repairMisfitChildren(s, slots, parentAge);
  settleChildren(s, slots, parentAge, parentA);
  placeOtherRelated(s);
  placeUnrelatedAndAbsent(s);
  const { age, role, household, family, union, familyType } = s;
  return assemble(t, plan, drawn, { age, role, household, family, union, familyType, parentA, parentB, couples: [...couples, ...absentCouples] }, rng);
}

/** What the linking steps share: the plan, the drawn persons, and where each person goes (filled in step by step). */
interface Linking {
  readonly plan: HouseholdPlan;
  readonly drawn: DrawnPersons;
  readonly rng: Rng;
  readonly diag: StructureDiagnostics;
  readonly n: number;
  readonly age: Uint8Array;
  readonly role: Uint8Array;
  readonly household: Int32Array;
  readonly family: Int32Array;
  readonly union: Uint8Array;
  readonly familyType: Uint8Array;
  /** The persons whose role is `r` now, in person order. */
  readonly byRole: (r: number) => number[];
  /**
   * Persons ordered by age with noise of sd `sd`, eldest first (one normal draw each); with
   * `wide`, that share of persons draws their noise with the wide sd instead.
   */
  readonly jittered: (ids: number[], sd: number, wide?: { readonly share: number; readonly sd: number }) => number[];
}

function startLinking(plan: HouseholdPlan, drawn: DrawnPersons, rng: Rng, diag: StructureDiagnostics): Linking {
  const n = drawn.count;
  const age = drawn.age; // ages may be raised below (infeasible inputs), in place
  const role = Uint8Array.from(drawn.role);
  const household = new Int32Array(n).fill(-1);
  const family = new Int32Array(n).fill(-1);
  const union = new Uint8Array(n);
  const familyType = Uint8Array.from(plan.familyType);
  const byRole = (r: number): number[] => {
    const out: number[] = [];
    for (let p = 0; p < n; p++) if (role[p] === r) out.push(p);
    return out;
  };

  const jittered = (ids: number[], sd: number, wide?: { readonly share: number; readonly sd: number }): number[] => {
    const keys = new Float64Array(ids.length);
    ids.forEach((p, i) => {
      const spread = wide && rng.next() < wide.share ? wide.sd : sd;
      keys[i] = (age[p] as number) + spread * rng.normal();
    });
    return Array.from(orderByDesc(keys), (i) => ids[i] as number);
  };
  return { plan, drawn, rng, diag, n, age, role, household, family, union, familyType, byRole, jittered };
}

/**
 * Opposite-sex partners' age noise is a mixture: most within sd 2.5 years of their age rank, a
 * tenth within sd 8, so that wide gaps are as common as the ABS says (8% of opposite-sex couples
 * 10 or more years apart, Australian Social Trends, July 2013, 2011 Census). Chosen by
 * simulating rank matching (normal noise alone: 1.6% of couples 10+ years apart; this mixture:
 * 6.0%, the rest coming from the ages the structure's constraints give, 2.7–3.5% on real
 * builds with normal noise alone); measured in every build report (quality/couples.ts).
 */
const WIDE_AGE_GAPS = { share: 0.1, sd: 8 } as const;

/** Couples by age rank (with noise, so gaps spread around the mean gap); same-sex from any surplus. */
function pairCouples(s: Linking): { couples: [number, number][]; singles: Set<number>; absentFamilies: number[] } {
  const { plan, drawn, rng, byRole, jittered } = s;
  // Partners whose partner was away on Census night (the plan's absent partners): the sex in
  // surplus first, since their partners away are of the other sex; they are no couple here.
  const present = byRole(Role.Partner);
  const absentFamilies: number[] = [];
  for (let f = 0; f < plan.families; f++) if ((plan.absentPartner[f] as number) > 0) absentFamilies.push(f);
  const singles = pickSingles(present, drawn.sex, absentFamilies.length, rng);
  const partners = present.filter((p) => !singles.has(p));
  const couples: [number, number][] = [];
  const { male, female } = sameSexCouples(partners.filter((p) => drawn.sex[p] === 0).length, partners.filter((p) => drawn.sex[p] === 1).length);
  const inSameSexCouple = new Set<number>();
  for (const [sex, pairs] of [[0, male], [1, female]] as const) {
    // Same-sex partners: a random choice of that sex, paired by age.
    const pool = partners.filter((p) => drawn.sex[p] === sex);
    rng.shuffle(pool);
    const chosen = jittered(pool.slice(0, 2 * pairs), 2.5);
    for (let i = 0; i + 1 < chosen.length; i += 2) couples.push([chosen[i] as number, chosen[i + 1] as number]);
    for (const p of chosen) inSameSexCouple.add(p);
  }
  const men = jittered(partners.filter((p) => drawn.sex[p] === 0 && !inSameSexCouple.has(p)), 2.5, WIDE_AGE_GAPS);
  const women = jittered(partners.filter((p) => drawn.sex[p] === 1 && !inSameSexCouple.has(p)), 2.5, WIDE_AGE_GAPS);
  const mixed = Math.min(men.length, women.length);
  for (let i = 0; i < mixed; i++) couples.push([men[i] as number, women[i] as number]);
  const rest = men.length > mixed ? men.slice(mixed) : women.slice(mixed);
  for (let i = 0; i + 1 < rest.length; i += 2) couples.push([rest[i] as number, rest[i + 1] as number]);
  return { couples, singles, absentFamilies };
}

/**
 * Families whose children are all 15 or over (G29) take the older parents, those with a
 * child under 15 the younger ones (by age with noise, so the two overlap).
 */
const olderChildrenFirst = (plan: HouseholdPlan) => (ids: number[]): number[] => {
  const rank = [1, 2, 0]; // childAges 0 either, 1 under 15, 2 only 15+ → 15+ first, then either, then under 15
  return [...ids].sort((a, b) => (rank[plan.childAges[a] as number] as number) - (rank[plan.childAges[b] as number] as number));
};

/** Parents: couples with children are drawn by a parenting-age weight (Efraimidis–Spirakis keys). */
function placeCoupleParents(s: Linking, couples: [number, number][]): { parentA: Int32Array; parentB: Int32Array; oneParent: number[] } {
  const { plan, rng, age, familyType } = s;
  const byChildAges = olderChildrenFirst(plan);
  const parentA = new Int32Array(plan.families).fill(-1);
  const parentB = new Int32Array(plan.families).fill(-1);
  const withChildren: number[] = [];
  const without: number[] = [];
  const oneParent: number[] = [];
  for (let f = 0; f < plan.families; f++) {
    if ((plan.absentPartner[f] as number) > 0) continue;
    if (familyType[f] === FamilyType.CoupleWithChildren) withChildren.push(f);
    else if (familyType[f] === FamilyType.CoupleNoChildren) without.push(f);
    else if (familyType[f] === FamilyType.OneParent) oneParent.push(f);
  }
  const coupleKeys = new Float64Array(couples.length);
  couples.forEach(([a, b], i) => {
    coupleKeys[i] = weightedKey(rng, parentingWeight(Math.min(age[a] as number, age[b] as number)));
  });
  const coupleOrder = orderByDesc(coupleKeys);
  rng.shuffle(withChildren);
  rng.shuffle(without);
  const parentCouples = Array.from(coupleOrder.subarray(0, Math.min(withChildren.length, coupleOrder.length)));
  const parentCoupleAge = new Float64Array(couples.length);
  for (const i of parentCouples) {
    const c = couples[i] as [number, number];
    parentCoupleAge[i] = Math.min(age[c[0]] as number, age[c[1]] as number) + 5 * rng.normal();
  }
  parentCouples.sort((a, b) => (parentCoupleAge[b] as number) - (parentCoupleAge[a] as number));
  const coupleFamilies = [...byChildAges(withChildren), ...without];
  const couplesInOrder = [...parentCouples, ...Array.from(coupleOrder.subarray(parentCouples.length))];
  coupleFamilies.forEach((f, i) => {
    const c = couples[couplesInOrder[i] as number];
    if (!c) return;
    parentA[f] = c[0];
    parentB[f] = c[1];
  });
  return { parentA, parentB, oneParent };
}

/**
 * Couples with a partner away: the present partners by parenting age to the families (those
 * with children first, as above), each with the absent resident of the other sex nearest the
 * age a partner would have, a visitor rather than a resident away in a non-private dwelling
 * when their ages are close (the plan counts the absent places, not their kinds).
 */
function placeAbsentPartnerParents(s: Linking, singles: Set<number>, absentFamilies: number[], parentA: Int32Array, parentB: Int32Array): [number, number][] {
  const { plan, drawn, rng, age, role, familyType, byRole } = s;
  const byChildAges = olderChildrenFirst(plan);
  const singleKeys = new Map([...singles].map((p) => [p, weightedKey(rng, parentingWeight(age[p] as number))]));
  const singleOrder = [...singles].sort((a, b) => (singleKeys.get(b) as number) - (singleKeys.get(a) as number) || a - b);
  const absentOrder = [
    ...byChildAges(absentFamilies.filter((f) => familyType[f] === FamilyType.CoupleWithChildren)),
    ...absentFamilies.filter((f) => familyType[f] !== FamilyType.CoupleWithChildren),
  ];
  const awayPool = [...byRole(Role.Visitor), ...byRole(Role.NonPrivate)];
  const absentCouples: [number, number][] = [];
  absentOrder.forEach((f, i) => {
    const single = singleOrder[i];
    if (single === undefined) return;
    const mate = takeAbsentPartner(awayPool, single, age, drawn.sex, role, rng);
    parentA[f] = single;
    if (mate >= 0) {
      parentB[f] = mate;
      absentCouples.push([single, mate]);
    }
  });
  return absentCouples;
}

/** Lone parents by age with noise, the older to the families whose children are older. */
function placeLoneParents(s: Linking, oneParent: number[], parentA: Int32Array): void {
  const { plan, rng, age, byRole } = s;
  const byChildAges = olderChildrenFirst(plan);
  const loneParents = byRole(Role.LoneParent);
  rng.shuffle(loneParents);
  const loneParentAge = new Map(loneParents.map((p) => [p, (age[p] as number) + 5 * rng.normal()]));
  loneParents.sort((a, b) => (loneParentAge.get(b) as number) - (loneParentAge.get(a) as number));
  byChildAges(oneParent).forEach((f, i) => { parentA[f] = loneParents[i] ?? -1; });
}

/** Puts the parents in their families and households; returns each family's parent age at home (the younger partner's). */
function settleParents(s: Linking, parentA: Int32Array, parentB: Int32Array): Int32Array {
  const { plan, age, role, family, household } = s;
  for (let f = 0; f < plan.families; f++) {
    const h = plan.familyHousehold[f] as number;
    const a = parentA[f] as number;
    const b = parentB[f] as number;
    if (a >= 0) { family[a] = f; household[a] = h; }
    if (b >= 0) { family[b] = f; household[b] = h; }
  }
  const parentAge = new Int32Array(plan.families).fill(AGES);
  for (let f = 0; f < plan.families; f++) {
    if ((parentA[f] as number) >= 0) parentAge[f] = age[parentA[f] as number] as number;
    // A partner away is no parent at home: children fit the ages of the parents at home.
    if ((parentB[f] as number) >= 0 && role[parentB[f] as number] === Role.Partner) parentAge[f] = Math.min(parentAge[f] as number, age[parentB[f] as number] as number);
  }
  return parentAge;
}

/** Children, eldest first, and the child slots of the families (family f's are childStart[f] … childStart[f + 1] − 1). */
interface ChildSlots {
  readonly children: number[];
  readonly rankOf: Int32Array;
  readonly childStart: Int32Array;
  readonly slotPerson: Int32Array;
  readonly slotOf: Int32Array;
}

/** Children to parents by rank: each family's j-th child slot expects an age of parent − 27 − 2.5 j. */
function slotChildren(s: Linking, parentAge: Int32Array): ChildSlots {
  const { plan, rng, n, age, byRole } = s;
  const children = byRole(Role.Child);
  rng.shuffle(children);
  children.sort((a, b) => (age[b] as number) - (age[a] as number));
  const rankOf = new Int32Array(n);
  children.forEach((p, i) => { rankOf[p] = i; });
  const childStart = new Int32Array(plan.families + 1);
  for (let f = 0; f < plan.families; f++) childStart[f + 1] = (childStart[f] as number) + (plan.childSlots[f] as number);
  const slotKeys = new Float64Array(childStart[plan.families] as number);
  for (let f = 0; f < plan.families; f++) {
    for (let j = 0; j < (plan.childSlots[f] as number); j++) {
      slotKeys[(childStart[f] as number) + j] = (parentAge[f] as number) - 27 - 2.5 * j + 3 * rng.normal();
    }
  }
  const slotPerson = new Int32Array(slotKeys.length).fill(-1);
  const slotOf = new Int32Array(n).fill(-1);
  // Children 15+ (the first `older` of `children`, sorted by age) go to the slots that must
  // hold one (families with no child under 15), then to the free slots expecting the oldest
  // children; children under 15 to the first slot of families that need one, then the rest.
  // Within each pool, by rank: the oldest child to the slot expecting the oldest.
  let older = 0;
  while (older < children.length && (age[children[older] as number] as number) >= 15) older++;
  const mustOld: number[] = [];
  const mustYoung: number[] = [];
  const either: number[] = [];
  for (let f = 0; f < plan.families; f++) {
    for (let j = 0; j < (plan.childSlots[f] as number); j++) {
      const slot = (childStart[f] as number) + j;
      const want = plan.childAges[f] as number;
      if (want === 2) mustOld.push(slot);
      else if (want === 1 && j === 0) mustYoung.push(slot);
      else either.push(slot);
    }
  }
  const byKeyDesc = (slots: number[]) => slots.sort((a, b) => (slotKeys[b] as number) - (slotKeys[a] as number) || a - b);
  byKeyDesc(mustOld);
  byKeyDesc(mustYoung);
  byKeyDesc(either);
  const oldSlots: number[] = [];
  const youngSlots: number[] = [];
  // More must-old slots than children 15+: the must-old slots expecting the youngest give way.
  const oldFromMust = Math.min(mustOld.length, older);
  oldSlots.push(...mustOld.slice(0, oldFromMust));
  youngSlots.push(...mustOld.slice(oldFromMust));
  const youngFromMust = Math.min(mustYoung.length, children.length - older);
  const oldFromEither = Math.max(0, Math.min(either.length, older - oldSlots.length - (mustYoung.length - youngFromMust)));
  oldSlots.push(...either.slice(0, oldFromEither));
  youngSlots.push(...either.slice(oldFromEither));
  youngSlots.push(...mustYoung.slice(0, youngFromMust));
  oldSlots.push(...mustYoung.slice(youngFromMust));
  byKeyDesc(oldSlots);
  byKeyDesc(youngSlots);
  const slotOrder = [...oldSlots, ...youngSlots];
  for (let k = 0; k < slotOrder.length && k < children.length; k++) {
    slotPerson[slotOrder[k] as number] = children[k] as number;
    slotOf[children[k] as number] = slotOrder[k] as number;
  }
  return { children, rankOf, childStart, slotPerson, slotOf };
}

/** Repair: swap a misfit with a child of similar rank when both families then fit. */
function repairMisfitChildren(s: Linking, slots: ChildSlots, parentAge: Int32Array): void {
  const { plan, age } = s;
  const { children, rankOf, childStart, slotPerson, slotOf } = slots;
  const familyOfSlot = new Int32Array(slotPerson.length);
  for (let f = 0; f < plan.families; f++) for (let s = childStart[f] as number; s < (childStart[f + 1] as number); s++) familyOfSlot[s] = f;
  const compatible = (f: number): boolean => {
    const a = parentAge[f] as number;
    let eldest = -1;
    for (let s = childStart[f] as number; s < (childStart[f + 1] as number); s++) {
      const c = slotPerson[s] as number;
      if (c < 0) continue;
      const x = age[c] as number;
      if (x > a - MIN_PARENT_GAP) return false;
      eldest = Math.max(eldest, x);
    }
    return eldest < 0 || a - eldest <= MAX_PARENT_GAP;
  };
  for (let f = 0; f < plan.families; f++) {
    if (compatible(f)) continue;
    for (let s = childStart[f] as number; s < (childStart[f + 1] as number) && !compatible(f); s++) {
      const c = slotPerson[s] as number;
      if (c < 0) continue;
      const rank = rankOf[c] as number;
      for (let d = 1; d <= 400 && !compatible(f); d++) {
        for (const r of [rank - d, rank + d]) {
          const other = children[r];
          if (other === undefined) continue;
          // Swaps stay within the child's pool (under 15 or not), so G29's split holds.
          if (((age[other] as number) >= 15) !== ((age[c] as number) >= 15)) continue;
          const s2 = slotOf[other] as number;
          const g = familyOfSlot[s2] as number;
          if (g === f) continue;
          slotPerson[s] = other; slotPerson[s2] = c; slotOf[other] = s; slotOf[c] = s2;
          if (compatible(f) && compatible(g)) break;
          slotPerson[s] = c; slotPerson[s2] = other; slotOf[other] = s2; slotOf[c] = s;
        }
        if (slotPerson[s] !== c) break;
      }
    }
  }
}

/**
 * Children into their families; a child too old for its parents, or all children when the
 * parents are too old for every one of them, becomes other related, and a family left with no
 * child changes type.
 */
function settleChildren(s: Linking, slots: ChildSlots, parentAge: Int32Array, parentA: Int32Array): void {
  const { plan, diag, age, role, family, household, familyType } = s;
  const { childStart, slotPerson } = slots;
  for (let f = 0; f < plan.families; f++) {
    const h = plan.familyHousehold[f] as number;
    const a = parentAge[f] as number;
    let kept = 0;
    for (let s = childStart[f] as number; s < (childStart[f + 1] as number); s++) {
      const c = slotPerson[s] as number;
      if (c < 0) continue;
      family[c] = f;
      household[c] = h;
      if ((age[c] as number) > a - MIN_PARENT_GAP) { role[c] = Role.OtherRelated; diag.childrenToOtherRelated++; } else kept++;
    }
    if (kept > 0) {
      let eldest = -1;
      for (let s = childStart[f] as number; s < (childStart[f + 1] as number); s++) {
        const c = slotPerson[s] as number;
        if (c >= 0 && role[c] === Role.Child) eldest = Math.max(eldest, age[c] as number);
      }
      if (a - eldest > MAX_PARENT_GAP) {
        // Parents too old for every child at home: they are grandchildren (other related).
        for (let s = childStart[f] as number; s < (childStart[f + 1] as number); s++) {
          const c = slotPerson[s] as number;
          if (c >= 0 && role[c] === Role.Child) { role[c] = Role.OtherRelated; diag.childrenToOtherRelated++; }
        }
        kept = 0;
      }
    }
    if (kept === 0 && familyType[f] === FamilyType.CoupleWithChildren) { familyType[f] = FamilyType.CoupleNoChildren; diag.familyTypesChanged++; }
    if (kept === 0 && familyType[f] === FamilyType.OneParent) {
      familyType[f] = FamilyType.Other;
      if ((parentA[f] as number) >= 0) role[parentA[f] as number] = Role.OtherRelated;
      diag.loneParentsToOtherFamily++;
    }
  }
}

/** Other related individuals: an "other family" is headed by an adult relative. */
function placeOtherRelated(s: Linking): void {
  const { plan, rng, diag, age, family, household, byRole } = s;
  const relatives = byRole(Role.OtherRelated).filter((p) => (family[p] as number) < 0);
  const adults = relatives.filter((p) => (age[p] as number) >= ADULT_AGE);
  const young = relatives.filter((p) => (age[p] as number) < ADULT_AGE);
  rng.shuffle(adults);
  rng.shuffle(young);
  const heads: number[] = [];
  for (let f = 0; f < plan.families; f++) {
    if (plan.familyType[f] !== FamilyType.Other || (plan.otherSlots[f] as number) === 0) continue;
    let p = adults.pop();
    if (p === undefined) {
      p = young.pop() as number;
      age[p] = ADULT_AGE;
      diag.agesRaised++;
    }
    heads.push(p);
    family[p] = f;
    household[p] = plan.familyHousehold[f] as number;
  }
  const pool = [...adults, ...young];
  rng.shuffle(pool);
  let next = 0;
  for (let f = 0; f < plan.families; f++) {
    const slots = (plan.otherSlots[f] as number) - (plan.familyType[f] === FamilyType.Other && (plan.otherSlots[f] as number) > 0 ? 1 : 0);
    for (let k = 0; k < slots; k++) {
      const p = pool[next++] as number;
      family[p] = f;
      household[p] = plan.familyHousehold[f] as number;
    }
  }
}

/**
 * Unrelated individuals in family households, group members by age (similar ages share), lone
 * persons; visitors and residents away in a non-private dwelling to the places their households
 * keep for them, the others to the non-private dwelling (index plan.households).
 */
function placeUnrelatedAndAbsent(s: Linking): void {
  const { plan, rng, household, byRole, jittered } = s;
  const unrelated = byRole(Role.Unrelated);
  rng.shuffle(unrelated);
  let next = 0;
  for (let h = 0; h < plan.households; h++) for (let k = 0; k < (plan.unrelatedSlots[h] as number); k++) household[unrelated[next++] as number] = h;
  const group = jittered(byRole(Role.GroupMember), 4);
  next = 0;
  const lone = byRole(Role.LonePerson);
  let nextLone = 0;
  for (let h = 0; h < plan.households; h++) {
    const members = (plan.size[h] as number) - (plan.visitorSlots[h] as number) - (plan.awaySlots[h] as number);
    if (plan.kind[h] === HouseholdKind.Group) for (let k = 0; k < members; k++) household[group[next++] as number] = h;
    else if (plan.kind[h] === HouseholdKind.LonePerson) household[lone[nextLone++] as number] = h;
  }
  // The other absent places: visitors first, then residents away in a non-private dwelling, at
  // random; those left live in the non-private dwelling.
  const visitorsLeft = byRole(Role.Visitor).filter((p) => (household[p] as number) < 0); // absent partners are placed
  const awayLeft = byRole(Role.NonPrivate).filter((p) => (household[p] as number) < 0);
  rng.shuffle(visitorsLeft);
  rng.shuffle(awayLeft);
  const absent = [...visitorsLeft, ...awayLeft];
  const places: number[] = [];
  for (let h = 0; h < plan.households; h++) for (let k = 0; k < (plan.visitorSlots[h] as number) + (plan.awaySlots[h] as number); k++) places.push(h);
  rng.shuffle(places);
  absent.forEach((p, k) => { household[p] = k < places.length ? (places[k] as number) : plan.households; });

}

/**
 * `count` of the partners at home whose partner is away: from the sex in surplus first (their
 * partners away are of the other sex, which evens the sexes of the rest), at random within a sex.
 */
function pickSingles(partners: readonly number[], sex: Uint8Array, count: number, rng: Rng): Set<number> {
  const men = partners.filter((p) => sex[p] === 0);
  const women = partners.filter((p) => sex[p] === 1);
  const n = Math.min(count, partners.length);
  const fromMen = Math.max(0, Math.min(n, men.length, Math.max(n - women.length, Math.round((n + men.length - women.length) / 2))));
  rng.shuffle(men);
  rng.shuffle(women);
  return new Set([...men.slice(0, fromMen), ...women.slice(0, n - fromMen)]);
}

/**
 * The most units that can flow from row cells to column cells through `between` (row × column
 * capacities, row-major) within the rows' and columns' supplies (Edmonds–Karp on the cells);
 * returns the flow on each row × column pair.
 */
export function maxFlowBetween(between: Int32Array, n: number, rows: ArrayLike<number>, columns: ArrayLike<number>): Int32Array {
  const flow = new Int32Array(n * n);
  const rowLeft = Array.from(rows, (v) => Math.max(0, Math.floor(v)));
  const colLeft = Array.from(columns, (v) => Math.max(0, Math.floor(v)));
  for (;;) {
    // Breadth-first search over rows (from the source) and columns (to the sink) in the residual graph.
    const fromRow = new Int32Array(n).fill(-2); // row → column it was reached from (-1: the source)
    const fromCol = new Int32Array(n).fill(-1); // column → row it was reached from
    const queue: number[] = [];
    for (let r = 0; r < n; r++) if ((rowLeft[r] as number) > 0) { fromRow[r] = -1; queue.push(r); }
    let end = -1;
    while (queue.length > 0 && end < 0) {
      const r = queue.shift()!;
      for (let c = 0; c < n && end < 0; c++) {
        if (fromCol[c] !== -1 || (between[r * n + c] as number) - (flow[r * n + c] as number) <= 0) continue;
        fromCol[c] = r;
        if ((colLeft[c] as number) > 0) { end = c; break; }
        // From column c back along flow already sent to it by another row.
        for (let r2 = 0; r2 < n; r2++) if (fromRow[r2] === -2 && (flow[r2 * n + c] as number) > 0) { fromRow[r2] = c; queue.push(r2); }
      }
    }
    if (end < 0) return flow;
    // Augment by one unit along the path.
    let c = end;
    colLeft[c] = (colLeft[c] as number) - 1;
    for (;;) {
      const r = fromCol[c] as number;
      flow[r * n + c] = (flow[r * n + c] as number) + 1;
      const back = fromRow[r] as number;
      if (back === -1) { rowLeft[r] = (rowLeft[r] as number) - 1; break; }
      flow[r * n + back] = (flow[r * n + back] as number) - 1;
      c = back;
    }
  }
}

/** Years a resident away in a non-private dwelling must be nearer than a visitor to be the partner away. */
const NON_PRIVATE_PARTNER_PENALTY = 3;

/**
 * The absent resident who is `single`'s partner away: of the other sex where the pool has one,
 * nearest the age a partner would have (men about two years older, with noise; a visitor
 * before a resident away in a non-private dwelling of about the same age); taken out of the
 * pool. -1 when the pool is empty.
 */
function takeAbsentPartner(pool: number[], single: number, age: Uint8Array, sex: Uint8Array, role: Uint8Array, rng: Rng): number {
  if (pool.length === 0) return -1;
  const target = (age[single] as number) + (sex[single] === 0 ? -2 : 2) + 2.5 * rng.normal();
  const other = pool.some((p) => sex[p] !== sex[single]);
  let best = -1;
  let bestCost = Infinity;
  pool.forEach((p, i) => {
    if (other && sex[p] === sex[single]) return;
    const cost = Math.abs((age[p] as number) - target) + (role[p] === Role.NonPrivate ? NON_PRIVATE_PARTNER_PENALTY : 0);
    if (cost < bestCost) { bestCost = cost; best = i; }
  });
  return pool.splice(best, 1)[0] as number;
}

interface Links {
  age: Uint8Array;
  role: Uint8Array;
  household: Int32Array;
  family: Int32Array;
  union: Uint8Array;
  familyType: Uint8Array;
  parentA: Int32Array;
  parentB: Int32Array;
  couples: [number, number][];
}

/** Orders persons by dwelling (then role), splits children into their RLHP kinds, marks unions, picks reference persons. */
function assemble(t: StructureTargets, plan: HouseholdPlan, drawn: DrawnPersons, links: Links, rng: Rng): Skeleton {
  const { household } = links;
  for (const p of household) if (p < 0) throw new Error('structure: a person was left without a household (plan and roles disagree)');
  registerCouples(t, drawn, links, rng);
  const finalRole = finalRoles(t, drawn, links, rng);
  return orderedSkeleton(plan, drawn, links, finalRole);
}

/** The age band (of the role table, else DEFAULT_BANDS) an age falls in. */
function bandsOf(t: StructureTargets): { bands: readonly (readonly [number, number])[]; bandOf: (a: number) => number } {
  const bands = t.roles?.bands ?? DEFAULT_BANDS;
  const bandOf = (a: number): number => Math.max(0, bands.findIndex(([lo, hi]) => a >= lo && a <= hi));
  return { bands, bandOf };
}

/** What deciding registered or de facto couples works from: each couple's key, and the caps and quotas of registered partners by sex × age. */
interface Registration {
  readonly couples: [number, number][];
  readonly bandOf: (a: number) => number;
  readonly nb: number;
  readonly expected: number;
  readonly keys: Float64Array;
  readonly cap: Float64Array;
  readonly capOf: (p: number) => number;
  readonly quota: Float64Array;
}

/** De facto or registered: one decision per couple, from the table's share for the couple's band (sets `union`). */
function registerCouples(t: StructureTargets, drawn: DrawnPersons, links: Links, rng: Rng): void {
  const registration = registrationOdds(t, drawn, links, rng);
  const planned = plannedRegistrations(registration, drawn, links);
  registerByKey(registration, planned, drawn, links);
  registerShortCells(registration, drawn, links);
}

function registrationOdds(t: StructureTargets, drawn: DrawnPersons, links: Links, rng: Rng): Registration {
  const { age, role } = links;
  const { bands, bandOf } = bandsOf(t);
  // As many registered couples as the shares expect, drawn by their chance (Efraimidis–Spirakis
  // keys), but no more registered partners of a sex and age group than the persons G05 counts
  // as married (a registered partner is "Married"; otherwise the marital status fit has to
  // force them).
  const couples = links.couples;
  const chance = new Float64Array(couples.length);
  let expected = 0;
  couples.forEach(([a, b], i) => {
    const younger = Math.min(age[a] as number, age[b] as number);
    const fromTable = t.deFactoShareByBand?.[bandOf(younger)];
    const share = fromTable !== undefined && Number.isFinite(fromTable) ? fromTable : deFactoPrior(younger);
    chance[i] = Math.min(1, Math.max(0, 1 - share));
    expected += chance[i] as number;
  });
  const keys = new Float64Array(couples.length);
  for (let i = 0; i < couples.length; i++) keys[i] = (chance[i] as number) > 0 ? weightedKey(rng, chance[i] as number) : -Infinity;
  const capRanges = t.registeredPartnerCap?.ranges ?? [];
  const cap = Float64Array.from(t.registeredPartnerCap?.bySexRange ?? []);
  /** The cap cell of a person, or -1 when no cap applies. */
  const capOf = (p: number): number => {
    const a = age[p] as number;
    const r = capRanges.findIndex(([lo, hi]) => a >= lo && a <= hi);
    return r < 0 ? -1 : (drawn.sex[p] as number) * capRanges.length + r;
  };
  // With G27's partners by sex × band: each sex × band's quota of registered partners is its share
  // of registered among that cell's partners, applied to the partners it holds here.
  const nb = bands.length;
  const quota = new Float64Array(2 * nb).fill(Infinity);
  if (t.registeredPartnersBySexBand && t.deFactoPartnersBySexBand) {
    const held = new Float64Array(2 * nb);
    for (const [a, b] of couples) for (const p of [a, b]) if (role[p] === Role.Partner) held[(drawn.sex[p] as number) * nb + bandOf(age[p] as number)]! += 1;
    for (let k = 0; k < 2 * nb; k++) {
      const r = Math.max(0, t.registeredPartnersBySexBand[k] as number);
      const d = Math.max(0, t.deFactoPartnersBySexBand[k] as number);
      if (r + d > 0) quota[k] = Math.round(((held[k] as number) * r) / (r + d));
    }
  }
  return { couples, bandOf, nb, expected, keys, cap, capOf, quota };
}

/**
 * Opposite-sex couples at home fill their two cells' quotas together: how many to register
 * between each man's cell and each woman's cell is planned as a maximum flow first, so no
 * quota is left unused because a greedy pass spent its partner cell's.
 */
function plannedRegistrations(registration: Registration, drawn: DrawnPersons, links: Links): Int32Array {
  const { age, role } = links;
  const { couples, bandOf, nb, keys, quota } = registration;
  const cellOf = (p: number) => (drawn.sex[p] as number) * nb + bandOf(age[p] as number);
  const planned = (() => {
    const between = new Int32Array(nb * nb);
    couples.forEach(([a, b], i) => {
      if (!((keys[i] as number) > -Infinity) || role[b] !== Role.Partner || drawn.sex[a] !== 0 || drawn.sex[b] !== 1) return;
      if (!Number.isFinite(quota[cellOf(a)] as number) || !Number.isFinite(quota[cellOf(b)] as number)) return;
      between[bandOf(age[a] as number) * nb + bandOf(age[b] as number)]!++;
    });
    return maxFlowBetween(between, nb, quota.subarray(0, nb), quota.subarray(nb));
  })();
  return planned;
}

/** Couples registered in key order, within the plan, the quotas and the caps (sets every couple's `union`). */
function registerByKey(registration: Registration, planned: Int32Array, drawn: DrawnPersons, links: Links): void {
  const { age, role, union } = links;
  const { couples, bandOf, nb, expected, keys, cap, capOf, quota } = registration;
  let registered = 0;
  const wanted = Math.round(expected);
  // Opposite-sex couples at home first (their plan is made), then same-sex couples and couples
  // with a partner away from the quota left: taken in one key order, same-sex couples spent the
  // men's quota the plan had counted on (postcode 2010, 830 male same-sex couples: 2,586
  // registered men for G27's 2,190).
  const oppositeSexAtHome = (i: number) => {
    const [a, b] = couples[i] as [number, number];
    return role[b] === Role.Partner && drawn.sex[a] === 0 && drawn.sex[b] === 1;
  };
  const keyOrder = Array.from(orderByDesc(keys));
  for (const i of [...keyOrder.filter(oppositeSexAtHome), ...keyOrder.filter((i) => !oppositeSexAtHome(i))]) {
    const [a, b] = couples[i] as [number, number];
    const sa = drawn.sex[a] as number;
    const sb = drawn.sex[b] as number;
    // G27's registered / de facto counts are of partners at home: a partner away takes no quota.
    const ka = sa * nb + bandOf(age[a] as number);
    const kb = role[b] === Role.Partner ? sb * nb + bandOf(age[b] as number) : -1;
    const ca = capOf(a);
    const cb = capOf(b);
    const withinCap = ca === cb ? ca < 0 || (cap[ca] as number) >= 2 : (ca < 0 || (cap[ca] as number) >= 1) && (cb < 0 || (cap[cb] as number) >= 1);
    const pair = kb >= 0 && sa === 0 && sb === 1 && Number.isFinite(quota[ka] as number) && Number.isFinite(quota[kb] as number) ? (ka % nb) * nb + (kb % nb) : -1;
    const withinQuota = pair >= 0
      ? (planned[pair] as number) > 0
      : ka === kb ? (quota[ka] as number) >= 2 : (quota[ka] as number) >= 1 && (kb < 0 || (quota[kb] as number) >= 1);
    const ok =
      (Number.isFinite(quota[ka] as number) ? withinQuota : registered < wanted) &&
      (keys[i] as number) > -Infinity &&
      withinCap;
    if (ok) {
      registered++;
      if (pair >= 0) planned[pair] = (planned[pair] as number) - 1;
      quota[ka] = (quota[ka] as number) - 1;
      if (kb >= 0) quota[kb] = (quota[kb] as number) - 1;
      if (ca >= 0) cap[ca] = (cap[ca] as number) - 1;
      if (cb >= 0) cap[cb] = (cap[cb] as number) - 1;
    }
    union[a] = ok ? 1 : 2;
    union[b] = ok ? 1 : 2;
  }
}

/**
 * A couple whose partners fall in two cells, one with registered partners to spare and the
 * other without, was left de facto above; registering it still lowers the squared error of
 * the two cells when together they lack two or more: (q_a − 1)² + (q_b − 1)² < q_a² + q_b²
 * for q_a + q_b ≥ 2.
 */
function registerShortCells(registration: Registration, drawn: DrawnPersons, links: Links): void {
  const { age, role, union } = links;
  const { couples, bandOf, nb, keys, cap, capOf, quota } = registration;
  if (Number.isFinite(quota.reduce((m, q) => Math.min(m, q), Infinity))) {
    for (const i of orderByDesc(keys)) {
      const [a, b] = couples[i] as [number, number];
      if (union[a] !== 2 || !((keys[i] as number) > -Infinity)) continue;
      const ka = (drawn.sex[a] as number) * nb + bandOf(age[a] as number);
      const kb = role[b] === Role.Partner ? (drawn.sex[b] as number) * nb + bandOf(age[b] as number) : -1;
      const short = (quota[ka] as number) + (kb >= 0 ? (quota[kb] as number) : 0) - (ka === kb ? 1 : 0);
      const ca = capOf(a);
      const cb = capOf(b);
      const withinCap = ca === cb ? ca < 0 || (cap[ca] as number) >= 2 : (ca < 0 || (cap[ca] as number) >= 1) && (cb < 0 || (cap[cb] as number) >= 1);
      // A partner away has no cell: one cell short by one is then enough.
      if (!Number.isFinite(short) || short <= (kb >= 0 ? 1 : 0) || !withinCap) continue;
      quota[ka] = (quota[ka] as number) - 1;
      if (kb >= 0) quota[kb] = (quota[kb] as number) - 1;
      if (ca >= 0) cap[ca] = (cap[ca] as number) - 1;
      if (cb >= 0) cap[cb] = (cap[cb] as number) - 1;
      union[a] = 1;
      union[b] = 1;
    }
  }
}

/** Children 15–24 by sex × band: the role table's share of them are dependent students. Returns every person's final TargetRole. */
function finalRoles(t: StructureTargets, drawn: DrawnPersons, links: Links, rng: Rng): Uint8Array {
  const n = drawn.count;
  const { age, role } = links;
  const { bandOf } = bandsOf(t);
  const studentShare = (sex: number, a: number): number => {
    if (!t.roles) return studentPrior(a);
    const cols = t.roles.byRoleSexBand.length / TARGET_ROLE_COUNT;
    const nb = cols / 2;
    const c = sex * nb + bandOf(a);
    const dep = (t.roles.byRoleSexBand[TargetRole.DependentStudent * cols + c] as number | undefined) ?? 0;
    const non = (t.roles.byRoleSexBand[TargetRole.NonDependentChild * cols + c] as number | undefined) ?? 0;
    return dep + non > 0 ? dep / (dep + non) : studentPrior(a);
  };
  const finalRole = new Uint8Array(n);
  const teenGroups = new Map<number, number[]>();
  for (let p = 0; p < n; p++) {
    const r = role[p] as number;
    const a = age[p] as number;
    if (r === Role.Child) {
      if (a < 15) finalRole[p] = TargetRole.ChildUnder15;
      else if (a > 24) finalRole[p] = TargetRole.NonDependentChild;
      else {
        const key = (drawn.sex[p] as number) * 64 + bandOf(a);
        const list = teenGroups.get(key) ?? [];
        list.push(p);
        teenGroups.set(key, list);
      }
    } else {
      finalRole[p] = [
        TargetRole.Partner, TargetRole.LoneParent, 0, TargetRole.OtherRelated, TargetRole.Unrelated, TargetRole.GroupMember, TargetRole.LonePerson,
        TargetRole.Visitor, TargetRole.NonPrivate,
      ][r] as number;
    }
  }
  for (const list of teenGroups.values()) {
    const share = list.reduce((s, p) => s + studentShare(drawn.sex[p] as number, age[p] as number), 0) / list.length;
    const students = Math.round(share * list.length);
    // Who in the band is the student: drawn by the odds of being one at each age (nearly all
    // 15–17-year-olds living with a parent, fewer each year after), not simply the youngest,
    // which put every 20–24-year-old child among the non-dependent.
    const keys = list.map((p) => {
      const chance = studentPrior(age[p] as number);
      return weightedKey(rng, chance / (1 - chance));
    });
    const order = list.map((_, i) => i).sort((x, y) => (keys[y] as number) - (keys[x] as number));
    order.forEach((i, rank) => { finalRole[list[i] as number] = rank < students ? TargetRole.DependentStudent : TargetRole.NonDependentChild; });
  }
  return finalRole;
}

/** Counting sort by (household, role): a dwelling's persons are contiguous, parents first; then reference persons and the dwellings. */
function orderedSkeleton(plan: HouseholdPlan, drawn: DrawnPersons, links: Links, finalRole: Uint8Array): Skeleton {
  const n = drawn.count;
  const { age, household, family, union, familyType } = links;
  const key = new Int32Array(n);
  for (let p = 0; p < n; p++) key[p] = (household[p] as number) * 16 + (finalRole[p] as number);
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => (key[a] as number) - (key[b] as number));
  const newIndex = new Int32Array(n);
  order.forEach((p, i) => { newIndex[p] = i; });
  const take = <A extends Uint8Array | Uint32Array | Int32Array>(src: ArrayLike<number>, out: A): A => {
    for (let i = 0; i < n; i++) out[i] = src[order[i] as number] as number;
    return out;
  };

  // Reference person: the older partner, the lone parent, or the eldest relative.
  const reference = new Uint32Array(plan.families);
  const refAge = new Int32Array(plan.families).fill(-1);
  for (let p = 0; p < n; p++) {
    const f = family[p] as number;
    if (f < 0) continue;
    const r = finalRole[p] as number;
    const eligible = familyType[f] === FamilyType.Other ? r === TargetRole.OtherRelated : r === TargetRole.Partner || r === TargetRole.LoneParent;
    if (eligible && (age[p] as number) > (refAge[f] as number)) { refAge[f] = age[p] as number; reference[f] = newIndex[p] as number; }
  }
  const dwellings = plan.households + (plan.nonPrivateDwelling ? 1 : 0);
  const familiesIn = new Uint8Array(dwellings);
  for (let f = 0; f < plan.families; f++) {
    const h = plan.familyHousehold[f] as number;
    familiesIn[h] = (familiesIn[h] as number) + 1;
  }
  const kind = new Uint8Array(dwellings);
  kind.set(plan.kind);
  const size = new Uint32Array(dwellings);
  size.set(plan.size);
  if (plan.nonPrivateDwelling) {
    kind[plan.households] = HouseholdKind.NonPrivate;
    for (const h of household) if (h === plan.households) size[h] = (size[h] as number) + 1;
  }

  return {
    persons: {
      count: n,
      age: take(age, new Uint8Array(n)),
      sex: take(drawn.sex, new Uint8Array(n)),
      role: take(finalRole, new Uint8Array(n)),
      union: take(union, new Uint8Array(n)),
      dwelling: take(household, new Uint32Array(n)),
      family: take(family, new Int32Array(n)),
    },
    families: { count: plan.families, type: familyType, dwelling: Uint32Array.from(plan.familyHousehold), reference },
    dwellings: { count: dwellings, kind, size, families: familiesIn },
  };
}
