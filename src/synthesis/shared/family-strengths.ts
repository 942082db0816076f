/**
 * How strongly a family's members resemble each other, and where each figure comes from. No GCP
 * table at area level crosses a partner's birthplace, religion or qualification with the
 * other's (G30 crosses only born in Australia / overseas, for parents of dependent children),
 * nor a child's with its parents', so every link's strength is a national figure: a national
 * table where the DataPack has one, else a published figure (census/reference/family-figures.ts
 * holds them, with their sources). Partners' strengths are log
 * affinities (homogamy.ts), which carry to an area whatever its margins; children's are shares
 * of children alike a parent.
 *
 * The derivations are pure functions of the published figures, so a build holding the national
 * (or a state's) tables can pass its own strengths in (AttributeOptions.familyStrengths); the
 * constants below are their values on the 2021 Australia-wide files, and
 * test/synthesis/shared/family-strengths.test.ts recomputes them from those files.
 */
import { BPLP_OVERSEAS_SHARES } from '../census/controls/priors.ts';
import { CHILD_BORN_HERE_OF_CITIZEN_IS_CITIZEN, type CouplesByBirthplace } from '../census/reference/family-figures.ts';
import { affinityTable, alikeBy, solveAffinity } from './homogamy.ts';

export interface FamilyStrengths {
  /** Log affinity of partners' birthplace regions (BPLP, stated). */
  readonly partnersBirthplace: number;
  /** Log affinity of partners' home language groups (LANP, stated). */
  readonly partnersLanguage: number;
  /** Log affinity of partners' English only or another language at home (LANP coarse, stated). */
  readonly partnersEnglishOnly: number;
  /** Log affinity of partners' religion groups (RELP, stated). */
  readonly partnersReligion: number;
  /** Log affinity of partners' qualification levels (HEAP coarse: degree / diploma or certificate / school). */
  readonly partnersQualification: number;
  /** Share of children (child and a parent stated) born in Australia or in a parent's region. */
  readonly childBirthplace: number;
  /** Share of children whose home language group (LANP) is a parent's. */
  readonly childLanguage: number;
  /** Share of children whose religion group (RELP) is a parent's. */
  readonly childReligion: number;
  /** Share of children with an Aboriginal and/or Torres Strait Islander parent who are Indigenous too. */
  readonly childOfIndigenousParent: number;
  /** Share of children born in Australia with an Australian-citizen parent who are citizens too. */
  readonly childCitizenOfCitizenParent: number;
}

// ------------------------------------------------------------------ partners' birthplace: G30

/** Share of G30's couples (birthplaces stated) where both partners were born in Australia or both overseas. */
export function birthplaceConcordance(g30: CouplesByBirthplace): number {
  const n = g30.bothOverseas + g30.fatherOnlyOverseas + g30.motherOnlyOverseas + g30.bothAustralia;
  return (g30.bothOverseas + g30.bothAustralia) / n;
}

/**
 * δ for birthplace regions such that couples with G30's margins (father and mother overseas),
 * the overseas-born split over regions as `overseasShares` (BPLP categories; Australia = 0),
 * are as often both Australian-born or both overseas-born as G30 says. One δ for every region:
 * G30 tells Australia from overseas only, so how often two migrants share a region follows from
 * the model, not from a table (docs/synthesis.md gives what it implies).
 */
export function birthplaceAffinity(g30: CouplesByBirthplace, overseasShares: ArrayLike<number> = BPLP_OVERSEAS_SHARES): number {
  const n = g30.bothOverseas + g30.fatherOnlyOverseas + g30.motherOnlyOverseas + g30.bothAustralia;
  const regions = Array.from(overseasShares).map((s, k) => (k === 0 ? 0 : Math.max(0, s)));
  const overseasTotal = regions.reduce((a, b) => a + b, 0);
  const margin = (overseas: number) => regions.map((s, k) => (k === 0 ? 1 - overseas : (overseas * s) / overseasTotal));
  const men = margin((g30.bothOverseas + g30.fatherOnlyOverseas) / n);
  const women = margin((g30.bothOverseas + g30.motherOnlyOverseas) / n);
  const k = regions.length;
  const concordance = (logAffinity: number) => {
    const table = affinityTable(men, women, logAffinity, alikeBy());
    let same = 0;
    for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) if ((i === 0) === (j === 0)) same += table[i * k + j]!;
    return same;
  };
  return solveAffinity(concordance, birthplaceConcordance(g30));
}

// ------------------------------------------------------------------ partners' language: the home's

/**
 * δ between English only and another language such that couples whose partners both use
 * another language at home with probability p (`otherShare`) live in homes using it `ratio`
 * times as often as partners use it: P(either) = (2 − ratio) p + … solved as P(both) =
 * (2 − ratio) · p, so the 2 × 2 table's odds ratio is P(both) P(neither) / P(one)² = e^(2δ) (the
 * diagonal model puts e^δ on both alike cells). The ratio is counted over all households, lone
 * persons' (ratio 1) among them, so couples' own is higher and partners less alike than this
 * says: the δ is if anything too strong (docs/synthesis.md).
 */
export function englishOnlyAffinity(otherShare: number, ratio: number): number {
  const both = (2 - ratio) * otherShare;
  const one = otherShare - both;
  const neither = 1 - 2 * otherShare + both;
  if (!(both > 0 && one > 0 && neither > 0)) throw new RangeError(`no couples' table has other-language share ${otherShare} and household ratio ${ratio}`);
  return Math.log((both * neither) / (one * one)) / 2;
}

// ------------------------------------------------------------------ partners' religion

/**
 * δ for religion groups such that couples whose partners both follow the national margins
 * (`shares`: RELP's stated groups) are alike `alikeShare` of the time.
 */
export function religionAffinity(shares: ArrayLike<number>, alikeShare: number): number {
  const same = (logAffinity: number) => {
    const table = affinityTable(shares, shares, logAffinity, alikeBy());
    let alike = 0;
    let total = 0;
    for (let i = 0; i < shares.length; i++) {
      for (let j = 0; j < shares.length; j++) {
        total += table[i * shares.length + j]!;
        if (i === j) alike += table[i * shares.length + j]!;
      }
    }
    return alike / total;
  };
  return solveAffinity(same, alikeShare);
}

// ------------------------------------------------------------------ partners' qualification

/**
 * δ for qualification levels (degree, diploma or certificate, school) such that, with men's and
 * women's level shares `men` and `women` (same order), degree holders partner each other
 * `degreeRatio` times as often as chance (P(degree, degree) / (r_degree · c_degree)).
 */
export function qualificationAffinity(men: ArrayLike<number>, women: ArrayLike<number>, degreeRatio: number): number {
  const rowTotal = Array.from(men).reduce((a, b) => a + b, 0);
  const colTotal = Array.from(women).reduce((a, b) => a + b, 0);
  const overChance = (logAffinity: number) => {
    const table = affinityTable(men, women, logAffinity, alikeBy());
    return table[0]! / rowTotal / ((men[0]! / rowTotal) * (women[0]! / colTotal));
  };
  return solveAffinity(overChance, degreeRatio);
}

// ------------------------------------------------------------------ the strengths in use

/**
 * The 2021 national strengths:
 *
 * - partnersBirthplace: birthplaceAffinity(G30_COUPLES_AUSTRALIA_2021): couple families'
 *   dependent children 1,374,986 with both parents born overseas, 389,085 father only, 384,382
 *   mother only, 2,335,894 both in Australia → 82.75% alike (independence: 52.3%).
 * - partnersLanguage: no figure at hand (G12, which crosses the partners' languages for couples
 *   with dependent children, is not in the DataPack copy here), so assumed equal to
 *   partnersBirthplace: the language a person uses at home follows where they were born
 *   (LANP is dealt given BPLP), and couples alike in one are mostly alike in the other. Left
 *   free, the children's language target pulled parents apart (55% alike against 57% by chance
 *   on 40 demo suburbs).
 * - partnersEnglishOnly: englishOnlyAffinity(OTHER_LANGUAGE_SHARE_STATED_2011,
 *   HOUSEHOLDS_OVER_PERSONS_OTHER_LANGUAGE_2011): English only or another language at home,
 *   the home's more than the person's, solved at the 2011 margins the household figure was
 *   counted at (δ carries to other margins; issue 29 first solved it at 2021's 23.4% with 2021's
 *   not-stated share in the 2011 ratio, δ = 2.261); with partnersLanguage over the ten language
 *   groups it makes mixed English-only / other-language couples as rare as homes say they are.
 * - partnersReligion: religionAffinity(G14_RELIGION_GROUPS_AUSTRALIA_2021,
 *   COUPLES_SAME_RELIGION_AT_LEAST) (a lower bound, so couples here are if anything less alike
 *   than real ones).
 * - partnersQualification: qualificationAffinity(WORKING_AGE_LEVELS_AUSTRALIA_2021 men, women,
 *   DEGREE_WITH_DEGREE_OVER_CHANCE).
 * - The children's shares are assumptions, not measurements: no table or published figure at
 *   hand crosses a child's religion, language, birthplace or Indigenous status with a parent's
 *   (G12, which crosses parents' languages, is not in the DataPack copy here). The census form
 *   answers for a child what the household reports, so a child differs from both parents
 *   rarely: mostly a child born in Australia whose migrant parents use another language at
 *   home but who is reported as speaking English only (hence the lower language share), a
 *   child recorded with no religion, or a child of an Indigenous and a non-Indigenous parent
 *   not identified as Indigenous. For that last one the ABS says which way, not how much:
 *   children of two Aboriginal and/or Torres Strait Islander parents are more often identified
 *   than those of a mixed couple, and in a mixed couple more often when the mother is the
 *   Indigenous parent (ABS 2077.0, 2016, "Changing propensity to identify"); mixed couples were
 *   74% of couples with an Indigenous partner in 2011 (ABS 2077.0, 2006–2011, "Changes in family
 *   dynamics"), so most children counted here have one Indigenous parent. The shares found for
 *   each case were not reached here, so 90% stays.
 * - childCitizenOfCitizenParent: CHILD_BORN_HERE_OF_CITIZEN_IS_CITIZEN (the law, above). Children
 *   born overseas are not linked: citizenship by descent or conferral with a parent depends on
 *   registration and on when the parent was naturalised, and no figure was found.
 * - Children's birthplace given their parents' year of arrival is not linked: year of arrival
 *   (G10, G11) is not a variable of the catalogue, so no record holds it.
 */
export const NATIONAL_FAMILY_STRENGTHS_2021: FamilyStrengths = {
  partnersBirthplace: 2.309,
  partnersLanguage: 2.309,
  partnersEnglishOnly: 2.702,
  partnersReligion: 1.457,
  partnersQualification: 1.354,
  childBirthplace: 0.99,
  childLanguage: 0.9,
  childReligion: 0.95,
  childOfIndigenousParent: 0.9,
  childCitizenOfCitizenParent: CHILD_BORN_HERE_OF_CITIZEN_IS_CITIZEN,
};
