/** The persons outside the couples and children: other related individuals, unrelated persons, group members, lone persons and the absent residents. */
import { ADULT_AGE, FamilyType, HouseholdKind, Role } from '../model.ts';
import type { Linking } from './linking.ts';

/** Other related individuals: an "other family" is headed by an adult relative. */
export function placeOtherRelated(s: Linking): void {
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
export function placeUnrelatedAndAbsent(s: Linking): void {
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
