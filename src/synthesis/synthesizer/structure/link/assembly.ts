import { weightedKey, type Rng } from '../../rng.ts';
import { studentPrior } from '../../../census/controls/structure-priors.ts';
import type { HouseholdPlan } from '../households/index.ts';
import { FamilyType, HouseholdKind, Role, TARGET_ROLE_COUNT, TargetRole, type StructureTargets } from '../model.ts';
import type { DrawnPersons } from '../persons.ts';
import { bandsOf, type Links } from './linking.ts';
import { registerCouples } from './registration.ts';

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

/** Orders persons by dwelling (then role), splits children into their RLHP kinds, marks unions, picks reference persons. */
export function assemble(t: StructureTargets, plan: HouseholdPlan, drawn: DrawnPersons, links: Links, rng: Rng): Skeleton {
  const { household } = links;
  for (const p of household) if (p < 0) throw new Error('structure: a person was left without a household (plan and roles disagree)');
  registerCouples(t, drawn, links, rng);
  const finalRole = finalRoles(t, drawn, links, rng);
  return orderedSkeleton(plan, drawn, links, finalRole);
}

/** Children 15–24 by sex × band: the role table's share of them are dependent students. Returns every person's final TargetRole. */
export function finalRoles(t: StructureTargets, drawn: DrawnPersons, links: Links, rng: Rng): Uint8Array {
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
export function orderedSkeleton(plan: HouseholdPlan, drawn: DrawnPersons, links: Links, finalRole: Uint8Array): Skeleton {
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
