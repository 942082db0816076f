/** Family members beyond partners and parents: each family's child and relative places, each household's unrelated places, and which families need a child under 15. */
import { largestRemainder, sum } from '../../integerise.ts';
import { weightedKey, type Rng } from '../../rng.ts';
import { DEFAULT_EXTRA_ROLES } from '../../../census/controls/structure-priors.ts';
import { FamilyType, HouseholdKind, Role, ROLE_OF_TARGET, TARGET_ROLE_COUNT, type StructureTargets } from '../model.ts';
import { MIN_FAMILY_SIZE } from './families.ts';
import { countAt, type PlanLayout } from './plan.ts';

export const hasChildren = (type: number): boolean => type === FamilyType.CoupleWithChildren || type === FamilyType.OneParent;

/** Each family's and household's places beyond the families' base members (`extra`), and the slots the steps below fill. */
export interface PlanSlots {
  readonly childSlots: Uint16Array;
  readonly otherSlots: Uint16Array;
  readonly unrelatedSlots: Uint16Array;
  readonly extra: Int32Array;
  readonly baseChildren: number;
  readonly baseOther: number;
}

/** A family's base members (partners or a parent, one child where it has children, two relatives in an other family); the rest of each household is extra. */
export function baseMembers(layout: PlanLayout): PlanSlots {
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
      base += MIN_FAMILY_SIZE[type as 0];
      if (hasChildren(type)) { childSlots[f] = 1; baseChildren++; }
      if (type === FamilyType.Other) { otherSlots[f] = 2; baseOther += 2; }
    }
    extra[h] = Math.max(0, (size[h] as number) - base);
  }
  return { childSlots, otherSlots, unrelatedSlots, extra, baseChildren, baseOther };
}

/** How many extra places go to children, other relatives and unrelated persons: the role table's proportions (an extra child only where a family has children). */
export function extraPlaceRoles(t: StructureTargets, layout: PlanLayout, slots: PlanSlots): { eligible: number; extraTotal: number; extraChildren: number; extraOther: number } {
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
      for (let c = 0; c < cellsPerRole; c++) perRole[r] = (perRole[r] as number) + countAt(t.roles.byRoleSexBand, r * cellsPerRole + c);
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
export function dealExtraPlaces(layout: PlanLayout, slots: PlanSlots, roles: { eligible: number; extraTotal: number; extraChildren: number; extraOther: number }, rng: Rng): void {
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
export function childAgesOf(t: StructureTargets, layout: PlanLayout, childSlots: Uint16Array, rng: Rng): Uint8Array {
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
