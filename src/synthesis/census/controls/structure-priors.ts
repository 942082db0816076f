/**
 * The priors the structure builder (synthesizer/structure/) falls back on where no table says
 * more: shapes it needs that no GCP table crosses, and shares a missing table would have given.
 * Data, no method: each says where its values come from. Family types are indexed in G29's
 * order (couple family without children, couple family with children, one-parent family, other
 * family), the order of FamilyType in synthesizer/structure/model.ts.
 */

/**
 * Relative chance that a couple whose younger partner is `age` has children at home. Only the
 * shape matters: G29 fixes how many couple families have children, this decides which couples.
 * Set by hand (no GCP table crosses family type with the partners' ages): rising through the
 * late twenties, highest at 35–44, falling after 55 as children leave home.
 */
export function parentingWeight(age: number): number {
  if (age < 18) return 0.02;
  if (age < 25) return 0.15;
  if (age < 30) return 0.35;
  if (age < 35) return 0.6;
  if (age < 45) return 0.8;
  if (age < 50) return 0.75;
  if (age < 55) return 0.6;
  if (age < 60) return 0.4;
  if (age < 65) return 0.25;
  if (age < 75) return 0.12;
  return 0.06;
}

/**
 * Share of couples in a de facto marriage by the younger partner's age, used when no table gives
 * it (G27 does, by band, wherever it is read). Set by hand near G27's national shares of partners
 * in a de facto marriage by their own age (2021, Australia: 82% at 15–24, 43% at 25–34, 19% at
 * 35–44, 16% at 45–54, 12% at 55–64, 7% at 65–74, 4% at 75–84).
 */
export function deFactoPrior(age: number): number {
  if (age < 25) return 0.75;
  if (age < 30) return 0.5;
  if (age < 35) return 0.3;
  if (age < 45) return 0.18;
  if (age < 55) return 0.12;
  if (age < 65) return 0.08;
  return 0.05;
}

/**
 * Share of children of each age 15–24 who are dependent students: the share itself when no table
 * gives one, and the odds by age of who in a band the table's students are. Of children living
 * with a parent, the share who study full time: nearly all at 15–17, about three in four at
 * 18–19, about half at 20–24 (2021 Census, dependent students by age).
 */
export function studentPrior(age: number): number {
  return age < 18 ? 0.95 : age < 20 ? 0.75 : age < 22 ? 0.55 : 0.42;
}

/** Share of couples who are same-sex (2021 Census: about 1.4% of couples living together). */
export const SAME_SEX_COUPLE_SHARE = 0.014;

/**
 * Shares of family types (G29's order) when the tables give none: 2021 Australia's G29 rounded
 * to hundredths (38.8% couples without children, 43.7% with, 15.9% one-parent, 1.6% other).
 */
export const DEFAULT_FAMILY_TYPES = [0.39, 0.43, 0.16, 0.02];

/**
 * Share of a family household's places beyond its families' base members that go to children,
 * other relatives and unrelated persons, when no role table gives them. Set by hand; 2021
 * Australia's G27 and G29 give 82/10/8 (children beyond the first of each family with children,
 * relatives beyond an other family's two, unrelated persons in family households). Real builds
 * read G27, so the default only serves areas without it.
 */
export const DEFAULT_EXTRA_ROLES = [0.75, 0.15, 0.1];

/**
 * Prior P(size | family type) of one-family households. No GCP table crosses family type with
 * household size, so the shape is set by hand: couples without children mostly in households of
 * two, couples with children in three or four, one-parent families in two or three, other
 * families in two, each with a geometric tail. Raking to G29's types and G35's sizes replaces
 * both margins, so only the interaction of the two comes from here.
 */
export function familySizePrior(type: number, size: number): number {
  switch (type) {
    case 0: return size === 2 ? 1 : 0.1 * 0.25 ** (size - 3);
    case 1: return size < 3 ? 0 : [0.35, 0.4, 0.17, 0.05][size - 3] ?? 0.02 * 0.5 ** (size - 7);
    case 2: return [0.55, 0.3, 0.1, 0.04][size - 2] ?? 0.01 * 0.5 ** (size - 6);
    default: return [0.75, 0.18, 0.05][size - 2] ?? 0.02 * 0.5 ** (size - 5);
  }
}

/** Partners' age noise around their age rank, in years (most couples; WIDE_AGE_GAPS the rest). */
export const PARTNER_AGE_RANK_SD = 2.5;

/**
 * Opposite-sex partners' age noise is a mixture: most within sd 2.5 years of their age rank, a
 * tenth within sd 8, so that wide gaps are as common as the ABS says (8% of opposite-sex couples
 * 10 or more years apart, Australian Social Trends, July 2013, 2011 Census). Chosen by
 * simulating rank matching (normal noise alone: 1.6% of couples 10+ years apart; this mixture:
 * 6.0%, the rest coming from the ages the structure's constraints give, 2.7–3.5% on real
 * builds with normal noise alone); measured in every build report (quality/couples.ts).
 */
export const WIDE_AGE_GAPS = { share: 0.1, sd: 8 } as const;
