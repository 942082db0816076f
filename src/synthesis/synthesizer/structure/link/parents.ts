/** Parents: which couples and lone parents head which families, and the partner away of a couple missing one. */
import { weightedKey, type Rng } from '../../rng.ts';
import { parentingWeight } from '../../../census/controls/structure-priors.ts';
import type { HouseholdPlan } from '../households/index.ts';
import { AGES, FamilyType, Role } from '../model.ts';
import { orderByDesc, type Linking } from './linking.ts';

/**
 * Families whose children are all 15 or over (G29) take the older parents, those with a
 * child under 15 the younger ones (by age with noise, so the two overlap).
 */
export const olderChildrenFirst = (plan: HouseholdPlan) => (ids: number[]): number[] => {
  const rank = [1, 2, 0]; // childAges 0 either, 1 under 15, 2 only 15+ → 15+ first, then either, then under 15
  return [...ids].sort((a, b) => (rank[plan.childAges[a] as number] as number) - (rank[plan.childAges[b] as number] as number));
};

/** Parents: couples with children are drawn by a parenting-age weight (Efraimidis–Spirakis keys). */
export function placeCoupleParents(s: Linking, couples: [number, number][]): { parentA: Int32Array; parentB: Int32Array; oneParent: number[] } {
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
export function placeAbsentPartnerParents(s: Linking, singles: Set<number>, absentFamilies: number[], parentA: Int32Array, parentB: Int32Array): [number, number][] {
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
export function placeLoneParents(s: Linking, oneParent: number[], parentA: Int32Array): void {
  const { plan, rng, age, byRole } = s;
  const byChildAges = olderChildrenFirst(plan);
  const loneParents = byRole(Role.LoneParent);
  rng.shuffle(loneParents);
  const loneParentAge = new Map(loneParents.map((p) => [p, (age[p] as number) + 5 * rng.normal()]));
  loneParents.sort((a, b) => (loneParentAge.get(b) as number) - (loneParentAge.get(a) as number));
  byChildAges(oneParent).forEach((f, i) => { parentA[f] = loneParents[i] ?? -1; });
}

/** Puts the parents in their families and households; returns each family's parent age at home (the younger partner's). */
export function settleParents(s: Linking, parentA: Int32Array, parentB: Int32Array): Int32Array {
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

/** Years a resident away in a non-private dwelling must be nearer than a visitor to be the partner away. */
const NON_PRIVATE_PARTNER_PENALTY = 3;

/**
 * The absent resident who is `single`'s partner away: of the other sex where the pool has one,
 * nearest the age a partner would have (men about two years older, with noise; a visitor
 * before a resident away in a non-private dwelling of about the same age); taken out of the
 * pool. -1 when the pool is empty.
 */
export function takeAbsentPartner(pool: number[], single: number, age: Uint8Array, sex: Uint8Array, role: Uint8Array, rng: Rng): number {
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
