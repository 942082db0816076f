import type { Rng } from '../../rng.ts';
import { FamilyType, HouseholdKind, Role, ROLE_COUNT, type StructureDiagnostics, type StructureTargets } from '../model.ts';
import type { ResidentSplit } from '../residents.ts';
import { placeAbsentPartners, placeOtherAbsent, type AbsentPlaces } from './absent.ts';
import { familiesPerHousehold, layOutHouseholds, multiFamilyTypes, oneFamilyTypesBySize } from './families.ts';
import { baseMembers, childAgesOf, dealExtraPlaces, extraPlaceRoles, type PlanSlots } from './members.ts';
import type { HouseholdPlan, PlanLayout, PlannedSplit } from './plan.ts';
import { householdsBySize, reconcilePlaces } from './sizes.ts';

export type { HouseholdPlan } from './plan.ts';

/**
 * The household plan of one area, in a fixed order that draws from `rng` in turn: households by
 * kind and size (sizes.ts), their families (families.ts), the absent residents' places
 * (absent.ts), the members beyond the base ones (members.ts), and the persons each role needs.
 */
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

const bump = (a: Int32Array, i: number, by: number): void => { a[i] = (a[i] as number) + by; };

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
