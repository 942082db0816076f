import type { Rng } from '../../rng.ts';
import type { HouseholdPlan } from '../households/index.ts';
import type { StructureDiagnostics, StructureTargets } from '../model.ts';
import type { DrawnPersons } from '../persons.ts';
import { assemble, type Skeleton } from './assembly.ts';
import { repairMisfitChildren, settleChildren, slotChildren } from './children.ts';
import { pairCouples } from './couples.ts';
import { startLinking } from './linking.ts';
import { placeOtherRelated, placeUnrelatedAndAbsent } from './others.ts';
import { placeAbsentPartnerParents, placeCoupleParents, placeLoneParents, settleParents } from './parents.ts';

export type { Skeleton } from './assembly.ts';

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
