/**
 * Couples and families, as a researcher cross-tabulates them (the realism section of the build
 * report, "couples" and "mothers").
 *
 * Definition. A couple is a family with exactly two partners (registered or de facto). Over
 * opposite-sex couples: the mean man − woman age gap, the shares 10 or more years apart, with the
 * man older, of the same age (single years: the census has no birth dates); over all couples,
 * the same-sex share. Mothers: a mother's age at her family's eldest child's birth (forEachMother),
 * as a histogram; figures are its minimum, 5th percentile and median.
 *
 * Reference figures. Opposite-sex couples 10 or more years apart: 8% (ABS, Australian Social
 * Trends, July 2013, 2011 Census: census/reference/family-figures.ts OPPOSITE_SEX_GAP_10_PLUS_2011). Same-sex couples: the published
 * share, about 1.4%. Mean age gap: the goal is 1.5–2.5 years (the demo truth: 1.99). Parents are
 * about 28 at their eldest's birth (ABS Births 2021; the demo truth's median: 28). The figures
 * of one demo build are in docs/synthesis.md, "Joint realism" and "Families".
 */
import type { Population } from '../census/population.ts';
import { categoryIndex } from '../census/variables.ts';
import { isChild, isPartner, RLHP } from '../census/relationships.ts';
import { columnsOf, histogramQuantile } from './counts.ts';

const FEMALE = categoryIndex('SEXP', 'Female');
const MALE = categoryIndex('SEXP', 'Male');

/**
 * Visits every mother with her age at her family's eldest child's birth (her age − the eldest
 * child's age, in single years; the census has no birth dates). A mother is a female partner in
 * a couple family with children, or a female lone parent; children are the family's members
 * whose relationship is child under 15, dependent student or non-dependent child. Both women of
 * a female same-sex couple with children count; step-children count as children (the census
 * does not tell them apart at person level).
 */
export function forEachMother(pop: Population, visit: (ageAtEldestBirth: number) => void): void {
  const { RLHP: rlhp, SEXP: sexp } = columnsOf(pop, 'persons', ['RLHP', 'SEXP']);
  const { age, family, count } = pop.persons;
  const eldest = new Int32Array(pop.families.count).fill(-1);
  for (let p = 0; p < count; p++) {
    const f = family[p]!;
    if (f >= 0 && isChild(rlhp![p]!) && age[p]! > eldest[f]!) eldest[f] = age[p]!;
  }
  for (let p = 0; p < count; p++) {
    const f = family[p]!;
    if (f < 0 || eldest[f]! < 0 || sexp![p] !== FEMALE) continue;
    const r = rlhp![p]!;
    if (isPartner(r) || r === RLHP.loneParent) visit(age[p]! - eldest[f]!);
  }
}

/**
 * Couples: families with exactly two partners. Over opposite-sex couples: gapSum = Σ (man's age
 * − woman's age), and how many are 10 or more years apart (either way), how many have the man
 * older, how many are the same age (in single years; the census has no birth dates).
 */
export interface CoupleTally {
  couples: number;
  sameSex: number;
  gapSum: number;
  gap10Plus: number;
  manOlder: number;
  sameAge: number;
}

export const emptyCoupleTally = (): CoupleTally => ({ couples: 0, sameSex: 0, gapSum: 0, gap10Plus: 0, manOlder: 0, sameAge: 0 });

export function countCouples(pop: Population, into: CoupleTally): void {
  const { RLHP: rlhp, SEXP: sexp } = columnsOf(pop, 'persons', ['RLHP', 'SEXP']);
  const F = pop.families.count;
  const first = new Int32Array(F).fill(-1);
  const second = new Int32Array(F).fill(-1);
  const partners = new Int32Array(F);
  const { age, family, count } = pop.persons;
  for (let p = 0; p < count; p++) {
    const f = family[p]!;
    if (f < 0 || !isPartner(rlhp![p]!)) continue;
    if (partners[f]! === 0) first[f] = p;
    else if (partners[f]! === 1) second[f] = p;
    partners[f]!++;
  }
  for (let f = 0; f < F; f++) {
    if (partners[f] !== 2) continue;
    const q = first[f]!;
    const p = second[f]!;
    into.couples++;
    if (sexp![q] === sexp![p]) {
      into.sameSex++;
      continue;
    }
    const gap = sexp![q] === MALE ? age[q]! - age[p]! : age[p]! - age[q]!;
    into.gapSum += gap;
    if (Math.abs(gap) >= 10) into.gap10Plus++;
    if (gap > 0) into.manOlder++;
    else if (gap === 0) into.sameAge++;
  }
}

export function addCouples(into: CoupleTally, from: CoupleTally): void {
  into.couples += from.couples;
  into.sameSex += from.sameSex;
  into.gapSum += from.gapSum;
  into.gap10Plus += from.gap10Plus;
  into.manOlder += from.manOlder;
  into.sameAge += from.sameAge;
}

export interface CoupleFigures {
  couples: number;
  sameSex: number;
  /** Same-sex couples among couples. */
  sameSexShare: number | undefined;
  /** Mean man − woman age gap (years) over opposite-sex couples. */
  meanAgeGap: number | undefined;
  /** Opposite-sex couples 10 or more years apart (ABS: 8% in 2011, OPPOSITE_SEX_GAP_10_PLUS_2011). */
  gap10PlusShare: number | undefined;
  /** Opposite-sex couples where the man is older (in whole years). */
  manOlderShare: number | undefined;
  /** Opposite-sex couples of the same age in whole years. */
  sameAgeShare: number | undefined;
}

export function coupleFigures(t: CoupleTally): CoupleFigures {
  const opposite = t.couples - t.sameSex;
  const of = (x: number | undefined) => (opposite > 0 && x !== undefined ? x / opposite : undefined);
  return {
    couples: t.couples,
    sameSex: t.sameSex,
    sameSexShare: t.couples > 0 ? t.sameSex / t.couples : undefined,
    meanAgeGap: of(t.gapSum),
    gap10PlusShare: of(t.gap10Plus),
    manOlderShare: of(t.manOlder),
    sameAgeShare: of(t.sameAge),
  };
}

/** Mothers' ages at their eldest child's birth as a histogram: index = age + AGE_OFFSET (ages may be negative in broken records). */
export const AGE_OFFSET = 116;
export type MotherTally = Float64Array;
export const emptyMotherTally = (): MotherTally => new Float64Array(2 * AGE_OFFSET + 1);

export function countMothers(pop: Population, into: MotherTally): void {
  forEachMother(pop, (ageAtBirth) => {
    into[Math.max(0, Math.min(into.length - 1, ageAtBirth + AGE_OFFSET))]! += 1;
  });
}

export interface MotherFigures {
  mothers: number;
  min: number | undefined;
  p5: number | undefined;
  median: number | undefined;
}

export function motherFigures(t: MotherTally): MotherFigures {
  return {
    mothers: t.reduce((a, b) => a + b, 0),
    min: histogramQuantile(t, 0, AGE_OFFSET),
    p5: histogramQuantile(t, 0.05, AGE_OFFSET),
    median: histogramQuantile(t, 0.5, AGE_OFFSET),
  };
}
