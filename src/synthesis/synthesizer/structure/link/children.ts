/** Children: to the families' child places by age rank, misfits swapped or kept as other related. */
import { FamilyType, MAX_PARENT_GAP, MIN_PARENT_GAP, Role } from '../model.ts';
import type { Linking } from './linking.ts';

/** Children, eldest first, and the child slots of the families (family f's are childStart[f] … childStart[f + 1] − 1). */
export interface ChildSlots {
  readonly children: number[];
  readonly rankOf: Int32Array;
  readonly childStart: Int32Array;
  readonly slotPerson: Int32Array;
  readonly slotOf: Int32Array;
}

/** Children to parents by rank: each family's j-th child slot expects an age of parent − 27 − 2.5 j. */
export function slotChildren(s: Linking, parentAge: Int32Array): ChildSlots {
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
export function repairMisfitChildren(s: Linking, slots: ChildSlots, parentAge: Int32Array): void {
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
export function settleChildren(s: Linking, slots: ChildSlots, parentAge: Int32Array, parentA: Int32Array): void {
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
