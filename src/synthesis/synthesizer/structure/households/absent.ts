/** The absent residents' places: couples' partners away first, then visitors and residents away in a non-private dwelling. */
import type { Rng } from '../../rng.ts';
import { FamilyType, HouseholdKind, MAX_ABSENT_PER_DWELLING, TARGET_ROLE_COUNT, TargetRole, type StructureDiagnostics, type StructureTargets } from '../model.ts';
import { countAt, type PlanLayout, type PlannedSplit } from './plan.ts';

/** Persons of one TargetRole in a G27-style role table. */
export function roleSum(byRoleSexBand: ArrayLike<number>, role: number): number {
  const cells = byRoleSexBand.length / TARGET_ROLE_COUNT;
  let total = 0;
  for (let c = 0; c < cells; c++) total += countAt(byRoleSexBand, role * cells + c);
  return total;
}

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
export function dealAbsentPlaces(layout: PlanLayout, extra: Int32Array, taken: Uint8Array, counts: readonly number[], rng: Rng): Uint8Array[] {
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

export interface AbsentPartners {
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
export function placeAbsentPartners(t: StructureTargets, layout: PlanLayout, split: PlannedSplit, rng: Rng): AbsentPartners {
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

export interface AbsentPlaces {
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
export function placeOtherAbsent(layout: PlanLayout, split: PlannedSplit, extra: Int32Array, partners: AbsentPartners, rng: Rng, diag: StructureDiagnostics): AbsentPlaces {
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
