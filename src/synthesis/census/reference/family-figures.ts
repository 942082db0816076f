/**
 * Published national figures on how alike families are, as data: the DataPack's Australia-wide
 * tables where it has one (G30, G14, G49, G01), else a published figure with its source, or the
 * law. The synthesizer turns them into strengths of resemblance (shared/family-strengths.ts),
 * and the realism measures report them beside the records' own (quality/resemblance.ts,
 * couples' ages in quality/realism-render.ts);
 * test/synthesis/shared/family-strengths.test.ts reads the 2021 Australia-wide files back.
 */

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

/**
 * Language used at home is, by its definition, mostly the home's: a household where a language
 * other than English is used is counted once however many of its members use it. So the share
 * of households using such a language, over the share of persons who do, says how far members
 * of one home share it: ratio 1 when all members of every home agree, 1 + (mean members − 1) ×
 * (1 − p) or so when persons are dealt to homes at random. Published for Australia, 2011 Census
 * (the GCP has no household language table; the 2021 QuickStats figure is not at hand here):
 * 20.4% of households used two or more languages at home (QuickStats for Australia, as reported
 * by W. Steed, "The latest talk on Australia's linguistic diversity", Crikey "Fully (sic)", 22 June
 * 2012; "just over 20% of households" in the Language Museum's note of 24 June 2012: the primary
 * QuickStats page was not reached here), and 76.8% of persons spoke only English at home (ABS
 * media release CO/60, 21 June 2012). The rest, 23.2%, spoke another language or did not say:
 * LANP's non-response in 2011 was 5.1% (ABS, 2011 Census data quality statement "Language
 * Spoken at Home (LANP)"; issue 29 had taken 2021's 5.7% in its place), leaving 18.1% of persons
 * using another language and a ratio of 20.4 / 18.1 = 1.13.
 */
export const LANGUAGE_NOT_STATED_2011 = 0.051;
export const PERSONS_ENGLISH_ONLY_2011 = 0.768;
export const HOUSEHOLDS_OTHER_LANGUAGE_2011 = 0.204;
export const HOUSEHOLDS_OVER_PERSONS_OTHER_LANGUAGE_2011 = HOUSEHOLDS_OTHER_LANGUAGE_2011 / (1 - PERSONS_ENGLISH_ONLY_2011 - LANGUAGE_NOT_STATED_2011);
/** 2011's share of persons, language stated, who used another language at home: the margin the household ratio was observed at. */
export const OTHER_LANGUAGE_SHARE_STATED_2011 = (1 - PERSONS_ENGLISH_ONLY_2011 - LANGUAGE_NOT_STATED_2011) / (1 - LANGUAGE_NOT_STATED_2011);

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
 * A child born in Australia is an Australian citizen when a parent was a citizen or a permanent
 * resident at the birth (Australian Citizenship Act 2007, s 12(1)(a)), so a child born here with
 * a citizen parent is a citizen but for the rare parent naturalised after the birth while on a
 * temporary visa at it, and the answers of a form filled in for the whole home. No table crosses
 * the two (G01 counts citizens, by sex only): 99% is the law less those (an assumption).
 */
export const CHILD_BORN_HERE_OF_CITIZEN_IS_CITIZEN = 0.99;

/**
 * Opposite-sex couples 10 or more years apart: "only 8 per cent" (ABS, Australian Social Trends,
 * July 2013, "Same-sex couples", 2011 Census; from the ABS media release, not its tables).
 */
export const OPPOSITE_SEX_GAP_10_PLUS_2011 = 0.08;
