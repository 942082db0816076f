/**
 * How strongly a family's members resemble each other, and where each figure comes from. No GCP
 * table at area level crosses a partner's birthplace, religion or qualification with the
 * other's (G30 crosses only born in Australia / overseas, for parents of dependent children),
 * nor a child's with its parents', so every link's strength is a national figure: a national
 * table where the DataPack has one, else a published figure. Partners' strengths are log
 * affinities (homogamy.ts), which carry to an area whatever its margins; children's are shares
 * of children alike a parent.
 *
 * The derivations are pure functions of the published figures, so a build holding the national
 * (or a state's) tables can pass its own strengths in (AttributeOptions.familyStrengths); the
 * constants below are their values on the 2021 Australia-wide files, and
 * test/synthesis/synthesizer/attributes/family-strengths.test.ts recomputes them from those files.
 */
import { BPLP_OVERSEAS_SHARES } from './priors.ts';
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
}

// ------------------------------------------------------------------ partners' birthplace: G30

/** Couple families' dependent children by their parents' birthplace (G30, "CF_C_…_Tot" cells). */
export interface CouplesByBirthplace {
  readonly bothOverseas: number;
  readonly fatherOnlyOverseas: number;
  readonly motherOnlyOverseas: number;
  readonly bothAustralia: number;
}

/** The G30 cells (short header → value) for couple families, all ages of dependent children. */
export function couplesByBirthplaceFromG30(cells: ReadonlyMap<string, number>): CouplesByBirthplace {
  const cell = (header: string): number => {
    const value = cells.get(header);
    if (value === undefined || !Number.isFinite(value)) throw new Error(`G30 has no published ${header}`);
    return value;
  };
  return {
    bothOverseas: cell('CF_C_BPBO_Tot'),
    fatherOnlyOverseas: cell('CF_C_FBO_Tot'),
    motherOnlyOverseas: cell('CF_C_MBO_Tot'),
    bothAustralia: cell('CF_C_BPBAu_Tot'),
  };
}

/** G30 for Australia, 2021 (the Australia-wide DataPack file; the test reads it back). */
export const G30_COUPLES_AUSTRALIA_2021: CouplesByBirthplace = {
  bothOverseas: 1374986,
  fatherOnlyOverseas: 389085,
  motherOnlyOverseas: 384382,
  bothAustralia: 2335894,
};

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
 * Language used at home is, by its definition, mostly the home's: a household where a language
 * other than English is used is counted once however many of its members use it. So the share
 * of households using such a language, over the share of persons who do, says how far members
 * of one home share it: ratio 1 when all members of every home agree, 1 + (mean members − 1) ×
 * (1 − p) or so when persons are dealt to homes at random. Published for Australia, 2011 Census
 * (the GCP has no household language table; the 2021 QuickStats figure is not at hand here):
 * 20.4% of households used two or more languages at home (QuickStats, as reported by W. Steed,
 * "The latest talk on Australia's linguistic diversity", Crikey "Fully (sic)", 22 June 2012), and
 * 76.8% of persons spoke only English at home (ABS media release CO/60, 21 June 2012), so
 * 23.2% spoke another language or did not say; the not-stated share is taken as 2021's (G13 for
 * Australia: 1,455,423 of 25,422,788 persons, 5.7%), leaving 17.5% of persons using another
 * language and a ratio of 20.4 / 17.5 = 1.17.
 */
export const HOUSEHOLDS_OVER_PERSONS_OTHER_LANGUAGE_2011 = 0.204 / (1 - 0.768 - 1455423 / 25422788);

/**
 * Persons using English only and another language at home, language stated: G13 for
 * Australia, 2021 (P_Tot_SEO; P_Tot_UOLSE_Tot less P_LUatH_NS_UOLSE_Tot).
 */
export const G13_ENGLISH_ONLY_OR_NOT_AUSTRALIA_2021 = { englishOnly: 18303662, otherLanguage: 5729890 - 124006 } as const;

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

/**
 * Persons by RELP's stated groups (Buddhism, Christianity, Hinduism, Islam, Judaism, other
 * religions, secular beliefs and no religious affiliation): G14 for Australia, 2021.
 */
export const G14_RELIGION_GROUPS_AUSTRALIA_2021 = [615823, 11148814, 684002, 813392, 99956, 325421, 9886957] as const;

/**
 * Couples whose partners share a religion: the ABC's analysis of 2021 Census data ("When it
 * comes to love, more of us are crossing the religious divide", ABC News, September 2025): 3.3
 * million persons hold different religious beliefs from their partner, among 5.2 million married
 * and de facto couples (10.4 million partnered persons). Counted over 50+ denominations, so
 * Catholic with Anglican counts as different where RELP's groups call both Christianity:
 * 1 − 3.3 / 10.4 = 68.3% alike is a lower bound for RELP. Read from a republished copy of the
 * article, not from the ABS; not verified here.
 */
export const COUPLES_SAME_RELIGION_AT_LEAST = 1 - 3.3 / 10.4;

// ------------------------------------------------------------------ partners' qualification

/**
 * How much more often than chance two degree holders are partners: "about 85% more likely to
 * partner with another bachelor's graduate than chance would predict" (e61 Institute, analysis
 * of 2021 Census data on working-age couples, media release of February 2026 as carried by
 * Mirage News and Medianet). Read from the release, not from the study's tables; not verified
 * here.
 */
export const DEGREE_WITH_DEGREE_OVER_CHANCE = 1.85;

/**
 * Persons aged 25–64 by level (degree, diploma or certificate, school: G49A's bachelor degree
 * and above; advanced diploma, diploma and certificates; the rest of G01's persons of those
 * ages), men then women: Australia, 2021. "School" holds those whose qualification was not
 * stated too (G49 counts only the qualified).
 */
export const WORKING_AGE_LEVELS_AUSTRALIA_2021 = {
  men: [1939889, 2325348, 1758200],
  women: [2562767, 2006621, 1744963],
} as const;

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
 * - partnersEnglishOnly: englishOnlyAffinity(other-language share of G13_ENGLISH_ONLY_OR_NOT_AUSTRALIA_2021,
 *   HOUSEHOLDS_OVER_PERSONS_OTHER_LANGUAGE_2011): English only or another language at home,
 *   the home's more than the person's; with partnersLanguage over the ten language groups it
 *   makes mixed English-only / other-language couples as rare as homes say they are.
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
 *   not identified as Indigenous.
 */
export const NATIONAL_FAMILY_STRENGTHS_2021: FamilyStrengths = {
  partnersBirthplace: 2.309,
  partnersLanguage: 2.309,
  partnersEnglishOnly: 2.261,
  partnersReligion: 1.457,
  partnersQualification: 1.354,
  childBirthplace: 0.99,
  childLanguage: 0.9,
  childReligion: 0.95,
  childOfIndigenousParent: 0.9,
};
