/**
 * The strengths of family resemblance: the homogamy model's maths on cases with a known answer,
 * and the 2021 constants recomputed from the real Australia-wide DataPack files (G30, G14,
 * G49A, G01) where they are at hand: the repository's census/2021-gcp/AUS, else the shared
 * copy of the ABS pack.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CHILD_BORN_HERE_OF_CITIZEN_IS_CITIZEN,
  COUPLES_SAME_RELIGION_AT_LEAST,
  couplesByBirthplaceFromG30,
  DEGREE_WITH_DEGREE_OVER_CHANCE,
  G14_RELIGION_GROUPS_AUSTRALIA_2021,
  G30_COUPLES_AUSTRALIA_2021,
  HOUSEHOLDS_OVER_PERSONS_OTHER_LANGUAGE_2011,
  OTHER_LANGUAGE_SHARE_STATED_2011,
  WORKING_AGE_LEVELS_AUSTRALIA_2021,
} from '../../../src/synthesis/census/reference/family-figures.ts';
import {
  birthplaceAffinity,
  birthplaceConcordance,
  englishOnlyAffinity,
  NATIONAL_FAMILY_STRENGTHS_2021,
  qualificationAffinity,
  religionAffinity,
} from '../../../src/synthesis/shared/family-strengths.ts';
import { affinityTable, alikeBy, alikeShareUnderAffinity, alikeShareUnderIndependence, nestedAlikeShares } from '../../../src/synthesis/shared/homogamy.ts';

describe('homogamy model', () => {
  it('is independence at δ = 0 and has odds ratio exp(2δ) on a 2 × 2 table, with both margins kept', () => {
    const rows = [70, 30];
    const cols = [60, 40];
    expect(alikeShareUnderIndependence(rows, cols, alikeBy())).toBeCloseTo(0.7 * 0.6 + 0.3 * 0.4, 9);
    const t = affinityTable(rows, cols, 1.2, alikeBy());
    expect((t[0]! * t[3]!) / (t[1]! * t[2]!)).toBeCloseTo(Math.exp(2.4), 6);
    expect(t[0]! + t[1]!).toBeCloseTo(70, 6);
    expect(t[0]! + t[2]!).toBeCloseTo(60, 6);
  });

  it('compares groups when asked, and rises with δ', () => {
    const rows = [10, 20, 30];
    const byGroup = alikeBy([0, 0, 1]);
    expect(alikeShareUnderAffinity(rows, rows, 0, byGroup)).toBeCloseTo((30 / 60) ** 2 + (30 / 60) ** 2, 9);
    expect(alikeShareUnderAffinity(rows, rows, 2, byGroup)).toBeGreaterThan(alikeShareUnderAffinity(rows, rows, 1, byGroup));
  });

  it("recovers G30's odds ratio when the overseas-born form one region (2 × 2: δ = ln(OR) / 2)", () => {
    const g30 = { bothOverseas: 300, fatherOnlyOverseas: 100, motherOnlyOverseas: 80, bothAustralia: 520 };
    const oddsRatio = (300 * 520) / (100 * 80);
    expect(birthplaceAffinity(g30, [0, 1])).toBeCloseTo(Math.log(oddsRatio) / 2, 6);
    expect(birthplaceConcordance(g30)).toBeCloseTo(0.82, 9);
  });

  it('solves religion and qualification affinities that reproduce their figures', () => {
    const shares = [0.5, 0.4, 0.1];
    const delta = religionAffinity(shares, 0.7);
    expect(alikeShareUnderAffinity(shares, shares, delta, alikeBy())).toBeCloseTo(0.7, 6);
    const men = [0.3, 0.4, 0.3];
    const women = [0.4, 0.3, 0.3];
    const q = qualificationAffinity(men, women, 1.85);
    expect(affinityTable(men, women, q, alikeBy())[0]! / (0.3 * 0.4)).toBeCloseTo(1.85, 6);
    expect(() => religionAffinity(shares, 1.5)).toThrow(RangeError);
  });
});

// ------------------------------------------------------------------ the 2021 national figures

describe("the home's language", () => {
  it('gives couples whose homes use another language `ratio` times as often as partners do', () => {
    for (const [p, ratio] of [[0.2, 1.1], [0.3, 1.3], [0.05, 1.02]] as const) {
      const delta = englishOnlyAffinity(p, ratio);
      const table = affinityTable([1 - p, p], [1 - p, p], delta, alikeBy());
      const total = table.reduce((a, b) => a + b, 0);
      const eitherOther = (table[1]! + table[2]! + table[3]!) / total;
      expect(eitherOther / p).toBeCloseTo(ratio, 6);
    }
    // Independence: P(either) = 2p − p², ratio 2 − p; a ratio of 2 or more is no table at all.
    expect(englishOnlyAffinity(0.2, 1.8)).toBeCloseTo(0, 9);
    expect(() => englishOnlyAffinity(0.2, 2)).toThrow(RangeError);
  });

  it('nests the language group within English only or not: coarse as the 2 × 2 model, fine never above it', () => {
    // English only, then three other languages.
    const margins = [700, 150, 100, 50];
    const groupOf = [0, 1, 1, 1];
    const shares = nestedAlikeShares(margins, margins, groupOf, 2, 1);
    const coarse = alikeShareUnderAffinity([700, 300], [700, 300], 2, alikeBy());
    expect(shares.coarse).toBeCloseTo(coarse, 9);
    const within = alikeShareUnderAffinity([150, 100, 50], [150, 100, 50], 1, alikeBy());
    const table = affinityTable([700, 300], [700, 300], 2, alikeBy());
    const total = table.reduce((a, b) => a + b, 0);
    expect(shares.fine).toBeCloseTo((table[0]! + table[3]! * within) / total, 9);
    expect(nestedAlikeShares(margins, margins, groupOf, 2, 20).fine).toBeCloseTo(coarse, 6);
  });
});

describe('2021 national strengths', () => {
  it('are the affinities of the national figures they name', () => {
    expect(birthplaceConcordance(G30_COUPLES_AUSTRALIA_2021)).toBeCloseTo(0.8275, 4);
    expect(birthplaceAffinity(G30_COUPLES_AUSTRALIA_2021)).toBeCloseTo(NATIONAL_FAMILY_STRENGTHS_2021.partnersBirthplace, 3);
    expect(religionAffinity(G14_RELIGION_GROUPS_AUSTRALIA_2021, COUPLES_SAME_RELIGION_AT_LEAST)).toBeCloseTo(NATIONAL_FAMILY_STRENGTHS_2021.partnersReligion, 3);
    // 2011: 20.4% of households over 1 − 76.8% − 5.1% (not stated) of persons, at 2011's own margin.
    expect(HOUSEHOLDS_OVER_PERSONS_OTHER_LANGUAGE_2011).toBeCloseTo(0.204 / 0.181, 9);
    expect(OTHER_LANGUAGE_SHARE_STATED_2011).toBeCloseTo(0.181 / 0.949, 9);
    expect(englishOnlyAffinity(OTHER_LANGUAGE_SHARE_STATED_2011, HOUSEHOLDS_OVER_PERSONS_OTHER_LANGUAGE_2011)).toBeCloseTo(NATIONAL_FAMILY_STRENGTHS_2021.partnersEnglishOnly, 3);
    expect(NATIONAL_FAMILY_STRENGTHS_2021.childCitizenOfCitizenParent).toBe(CHILD_BORN_HERE_OF_CITIZEN_IS_CITIZEN);
    const { men, women } = WORKING_AGE_LEVELS_AUSTRALIA_2021;
    expect(qualificationAffinity(men, women, DEGREE_WITH_DEGREE_OVER_CHANCE)).toBeCloseTo(NATIONAL_FAMILY_STRENGTHS_2021.partnersQualification, 3);
  });
});

const PACKS = [
  resolve(import.meta.dirname, '../../../census/2021-gcp/AUS'),
  '/work/shared/abs/2021-gcp/datapack/2021 Census GCP All Geographies for AUS/AUS',
];
const pack = PACKS.find((dir) => existsSync(join(dir, '2021Census_G30_AUS_AUS.csv')));

/** The one data row of an Australia-wide DataPack file, by short header. */
function australia(part: string): Map<string, number> {
  const [header, row] = readFileSync(join(pack!, `2021Census_${part}_AUS_AUS.csv`), 'utf8').trim().split(/\r?\n/);
  const values = row!.split(',');
  return new Map(header!.split(',').map((h, k) => [h.trim(), Number(values[k])]));
}

describe.skipIf(!pack)('2021 national figures, read back from the Australia-wide DataPack files', () => {
  it("G30's couples by parents' birthplace", () => {
    expect(couplesByBirthplaceFromG30(australia('G30'))).toEqual(G30_COUPLES_AUSTRALIA_2021);
  });

  it("G14's religion groups", () => {
    const g14 = australia('G14');
    const groups = ['Buddhism_P', 'Christianity_Tot_P', 'Hinduism_P', 'Islam_P', 'Judaism_P', 'Other_Religions_Tot_P', 'SB_OSB_NRA_Tot_P'].map((h) => g14.get(h)!);
    expect(groups).toEqual([...G14_RELIGION_GROUPS_AUSTRALIA_2021]);
  });

  it('25–64-year-olds by level of qualification and sex (G49A, G01)', () => {
    const g49 = australia('G49A');
    const g01 = australia('G01');
    const ages = ['25_34', '35_44', '45_54', '55_64'];
    const sum = (cells: readonly string[]) => cells.reduce((s, h) => s + g49.get(h)!, 0);
    const levels = (sex: 'M' | 'F') => {
      const degree = sum(ages.flatMap((a) => ['PGrad_Deg', 'GradDip_and_GradCert', 'BachDeg'].map((l) => `${sex}_${l}_${a}`)));
      const diploma = sum(ages.flatMap((a) => ['AdvDip_and_Dip', 'Cert_Lev_Tot'].map((l) => `${sex}_${l}_${a}`)));
      const qualified = sum(ages.map((a) => `${sex}_Tot_${a}`));
      const persons = ages.reduce((s, a) => s + g01.get(`Age_${a}_yr_${sex}`)!, 0);
      return [degree, diploma, persons - qualified];
    };
    expect({ men: levels('M'), women: levels('F') }).toEqual({ men: [...WORKING_AGE_LEVELS_AUSTRALIA_2021.men], women: [...WORKING_AGE_LEVELS_AUSTRALIA_2021.women] });
  });
});
