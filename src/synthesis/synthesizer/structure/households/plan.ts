import type { ResidentSplit } from '../residents.ts';

/**
 * The household plan: every household with its kind and size, every family with its type and
 * the slots its members will fill, and the resulting number of persons needed in each role.
 * Household tables are the truth here (Wickramasinghe et al.): the dwelling total is exact, the
 * person total is exact, and the person roles are bent to fit the households. Persons outside
 * occupied private dwellings live in one non-private dwelling record after the households.
 */
export interface HouseholdPlan {
  readonly households: number;
  /**
   * Residents away on Census night each household counts among its usual residents (NPRD counts
   * up to three): visitors to another private dwelling, and residents who were in a non-private
   * dwelling that night (a hospital, a hotel) with RLHP "Not applicable".
   */
  readonly visitorSlots: Uint8Array;
  readonly awaySlots: Uint8Array;
  /**
   * Per family: its second partner is away on Census night (1 a visitor, 2 in a non-private
   * dwelling), one of its household's absent residents; 0 both partners at home.
   */
  readonly absentPartner: Uint8Array;
  /** Whether the area has a non-private dwelling record (dwelling index `households`). */
  readonly nonPrivateDwelling: boolean;
  readonly kind: Uint8Array;
  readonly size: Uint16Array;
  /** Families of household h are familyStart[h] ‥ familyStart[h+1]−1. */
  readonly familyStart: Uint32Array;
  /** Non-family members (unrelated individuals) of each family household. */
  readonly unrelatedSlots: Uint16Array;
  readonly families: number;
  readonly familyType: Uint8Array;
  readonly familyHousehold: Uint32Array;
  /** Child slots per family (couples with children and one-parent families: at least 1). */
  readonly childSlots: Uint16Array;
  /** Other related individuals per family (an "other family" has at least 2). */
  readonly otherSlots: Uint16Array;
  /** Persons needed per building Role. */
  readonly roleTotals: Int32Array;
  /** Per family, which children linking should give it: 1 at least one under 15, 2 only 15 and over, 0 either. */
  readonly childAges: Uint8Array;
}

/** The households laid out: each with its kind and size, its families (familyStart) and their types; the slots come after. */
export interface PlanLayout {
  households: number;
  kind: Uint8Array;
  size: Uint16Array;
  familyStart: Uint32Array;
  families: number;
  familyType: Uint8Array;
  familyHousehold: Uint32Array;
}

/** The split of the persons, with the absent residents the households count among their usual residents. */
export type PlannedSplit = ResidentSplit & {
  /** Visitors counted in their household. */
  readonly visitorsAtHome: number;
  /** Residents of a household who spent Census night in a non-private dwelling. */
  readonly awayAtHome: number;
};

/** A count of a table (absent or negative: none). */
export const countAt = (a: ArrayLike<number> | undefined, i: number): number => Math.max(0, (a?.[i] as number | undefined) ?? 0);
