/**
 * The structure builder's own vocabulary: what it needs from the census tables (StructureTargets,
 * filled by from-tables.ts) and the linked skeleton it produces before the ABS categories are
 * written (encode.ts). Kept apart from the ABS labels so the maths can be tested on hand-made
 * numbers.
 */

export const MAX_AGE = 115;
export const AGES = MAX_AGE + 1;
/** Largest household size the "6 or more" tail is spread over (NPRD tops out at "8 or more"). */
export const MAX_TAIL_SIZE = 12;
/** A child is at least this many years younger than each parent. */
export const MIN_PARENT_GAP = 15;
/** The younger parent is at most this many years older than the family's eldest child. */
export const MAX_PARENT_GAP = 50;
/** Partners, lone parents, lone persons, group members and family reference persons are at least this old. */
export const ADULT_AGE = 15;

/** Person roles while building (children are split into under 15 / student / non-dependent at the end). */
export const Role = {
  Partner: 0,
  LoneParent: 1,
  Child: 2,
  OtherRelated: 3,
  Unrelated: 4,
  GroupMember: 5,
  LonePerson: 6,
  /** A usual resident away on Census night, visiting another private dwelling (RLHP "Visitor"). */
  Visitor: 7,
  /** A resident of a non-private dwelling (RLHP "Not applicable"). */
  NonPrivate: 8,
} as const;
export const ROLE_COUNT = 9;
export const ADULT_ROLES: readonly number[] = [Role.Partner, Role.LoneParent, Role.GroupMember, Role.LonePerson];

/**
 * Roles as RLHP distinguishes them (partners not yet split into registered / de facto): G27's rows,
 * visitors included, then the residents of non-private dwellings, whom G27 does not count.
 */
export const TargetRole = {
  Partner: 0,
  LoneParent: 1,
  ChildUnder15: 2,
  DependentStudent: 3,
  NonDependentChild: 4,
  OtherRelated: 5,
  Unrelated: 6,
  GroupMember: 7,
  LonePerson: 8,
  Visitor: 9,
  NonPrivate: 10,
} as const;
export const TARGET_ROLE_COUNT = 11;
/** Building role of each target role. */
export const ROLE_OF_TARGET: readonly number[] = [
  Role.Partner, Role.LoneParent, Role.Child, Role.Child, Role.Child, Role.OtherRelated, Role.Unrelated, Role.GroupMember, Role.LonePerson,
  Role.Visitor, Role.NonPrivate,
];
/** A visitor is one of at most this many absent residents NPRD counts per dwelling (G35 footnote a). */
export const MAX_ABSENT_PER_DWELLING = 3;

/** Family types, in the order G29 / HCFMD use them. */
export const FamilyType = { CoupleNoChildren: 0, CoupleWithChildren: 1, OneParent: 2, Other: 3 } as const;
export const FAMILY_TYPE_COUNT = 4;

export const HouseholdKind = { Family: 0, LonePerson: 1, Group: 2, NonPrivate: 3 } as const;

/** Age bands used when no role table gives its own (G27's bands). */
export const DEFAULT_BANDS: readonly (readonly [number, number])[] = [
  [0, 14], [15, 24], [25, 34], [35, 44], [45, 54], [55, 64], [65, 74], [75, 84], [85, MAX_AGE],
];

/**
 * What the builder needs, as real (perturbed, non-additive) counts. Only the two anchors and
 * persons by age × sex are required; the rest sharpens the fit and has a documented default.
 */
/** Caps on registered partners per sex × age range (G05's married by age group). */
export interface RegisteredPartnerCap {
  readonly ranges: readonly (readonly [number, number])[];
  readonly bySexRange: ArrayLike<number>;
}

export interface StructureTargets {
  /** Persons usually resident (anchor: the person total the report compares with). */
  readonly persons: number;
  /**
   * Of them, persons in occupied private dwellings (G27's total): at home on Census night, or
   * away visiting another private dwelling; the rest live in non-private dwellings. Absent: all
   * persons (no table says otherwise), unless the area has no occupied private dwelling.
   */
  readonly privatePersons?: number;
  /** Of the persons in occupied private dwellings, visitors from within Australia (G27's visitor rows). */
  readonly visitors?: number;
  /** Persons by sex (0 male, 1 female) × single-year age: index sex·116 + age. */
  readonly personsByAgeSex: ArrayLike<number>;
  /** Occupied private dwellings = households (anchor). */
  readonly dwellings: number;
  /** Family households by persons usually resident, index = size 1‥6 (6 = "6 or more"); index 0 unused. */
  readonly familyHouseholdsBySize: ArrayLike<number>;
  /** Group households by size, same indexing. */
  readonly groupHouseholdsBySize: ArrayLike<number>;
  readonly loneHouseholds: number;
  /** Mean persons per occupied private dwelling (pins down the "6 or more" tail). */
  readonly meanHouseholdSize?: number;
  /** Family households with one, two, three or more families. */
  readonly familyHouseholdsByFamilies?: ArrayLike<number>;
  /** Families by FamilyType. */
  readonly familiesByType?: ArrayLike<number>;
  /**
   * Per FamilyType, the share of its families with a child under 15 (G29 splits couples with
   * children and one-parent families that way); NaN or absent: whatever linking gives.
   */
  readonly under15Share?: ArrayLike<number>;
  /**
   * Persons by TargetRole × sex × band (row-major), G27-style: G27's rows, then the residents of
   * non-private dwellings (G04 less G27, by sex × band).
   */
  readonly roles?: { readonly bands: readonly (readonly [number, number])[]; readonly byRoleSexBand: ArrayLike<number> };
  /**
   * Most partners in a registered marriage per sex × age range (index sex·ranges + range; 0
   * male, 1 female): they are all "Married" in G05, which also counts married persons not
   * living with a spouse, by age group.
   */
  readonly registeredPartnerCap?: RegisteredPartnerCap;
  /** Share of partners in a de facto (not registered) marriage, per band of `roles.bands` (or DEFAULT_BANDS). */
  readonly deFactoShareByBand?: ArrayLike<number>;
  /**
   * Partners in a registered marriage per sex × band (index sex·bands + band, G27's counts): when
   * given, couples are registered so that each sex × band gets close to its own count.
   */
  readonly registeredPartnersBySexBand?: ArrayLike<number>;
  /** Partners in a de facto marriage per sex × band, same indexing. */
  readonly deFactoPartnersBySexBand?: ArrayLike<number>;
}

/** Counts of every compromise the builder made, so the report can show them. */
export interface StructureDiagnostics {
  persons: number;
  dwellings: number;
  families: number;
  /** Household places (Σ sizes) before they were reconciled with the person total. */
  householdPlacesBefore: number;
  /** Persons added to households because the persons in private dwellings exceeded the places (perturbation). */
  personsAbsorbed: number;
  /** Residents of non-private dwellings (G01 less G27, less those a household counts as away): one non-private dwelling record holds them. */
  nonPrivateResidents: number;
  /** Visitors counted among their household's usual residents (NPRD counts up to three absent ones). */
  visitorsAtHome: number;
  /** Couples whose second partner was away on Census night (2 × G29's couples less G27's partners). */
  absentPartners: number;
  /** Residents of a household who spent Census night in a non-private dwelling (RLHP "Not applicable"): G35's places beyond G27's persons. */
  awayInNonPrivate: number;
  /** Visitors whose usual residence is the area's non-private dwelling (no household place was left for them). */
  visitorsInNonPrivate: number;
  /**
   * Residents of non-private dwellings (by G01 less G27) made residents at home, where a household
   * place was left that no absent resident could take (at most three absent a household).
   */
  nonPrivateMadeResidents: number;
  /** Visitors made residents at home for the same reason, where no resident of a non-private dwelling was left to come home. */
  visitorsMadeResidents: number;
  /** Places removed because they exceeded the person total. */
  placesRemoved: number;
  /** Households whose kind had to change (family/group ↔ lone person) to stay feasible. */
  householdKindsChanged: number;
  /** Families whose type changed because their household was too small (e.g. couple with children in a 2-person household). */
  familyTypesChanged: number;
  /** Children who found no parent of compatible age and stayed in the family as other related individuals. */
  childrenToOtherRelated: number;
  /** One-parent families left without a child, turned into other families. */
  loneParentsToOtherFamily: number;
  /** Persons whose age was raised to 15 because their role needs an adult (infeasible inputs only). */
  agesRaised: number;
  /** Units the role × age rounding placed in a forbidden cell (infeasible inputs only). */
  roleCellsForced: number;
  /** Raking of the role × age table: sweeps and largest residual. */
  roleRakeIterations: number;
  roleRakeResidual: number;
}

export function emptyDiagnostics(): StructureDiagnostics {
  return {
    persons: 0, dwellings: 0, families: 0, householdPlacesBefore: 0, personsAbsorbed: 0, placesRemoved: 0,
    nonPrivateResidents: 0, visitorsAtHome: 0, absentPartners: 0, awayInNonPrivate: 0, visitorsInNonPrivate: 0, nonPrivateMadeResidents: 0, visitorsMadeResidents: 0,
    householdKindsChanged: 0, familyTypesChanged: 0, childrenToOtherRelated: 0, loneParentsToOtherFamily: 0,
    agesRaised: 0, roleCellsForced: 0, roleRakeIterations: 0, roleRakeResidual: 0,
  };
}
