import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EXTRA_ROLES, DEFAULT_FAMILY_TYPES, deFactoPrior, familySizePrior, parentingWeight, SAME_SEX_COUPLE_SHARE, studentPrior,
} from '../../../../src/synthesis/census/controls/structure-priors.ts';
import { FAMILY_TYPE_COUNT, FamilyType, MAX_AGE, MAX_TAIL_SIZE } from '../../../../src/synthesis/synthesizer/structure/model.ts';

const ages = Array.from({ length: MAX_AGE + 1 }, (_, a) => a);

describe('the structure priors', () => {
  it('are shares where they are shares: within 0‥1, the default splits summing to one', () => {
    for (const a of ages) {
      for (const share of [deFactoPrior(a), studentPrior(a)]) {
        expect(share).toBeGreaterThan(0);
        expect(share).toBeLessThan(1);
      }
    }
    expect(SAME_SEX_COUPLE_SHARE).toBeGreaterThan(0);
    expect(DEFAULT_FAMILY_TYPES).toHaveLength(FAMILY_TYPE_COUNT);
    expect(DEFAULT_FAMILY_TYPES.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(DEFAULT_EXTRA_ROLES.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('fall with age where the census says they do: de facto unions, study, and parenting after 45', () => {
    const nonIncreasing = (f: (a: number) => number, from: number) => ages.slice(from + 1).every((a) => f(a) <= f(a - 1));
    expect(nonIncreasing(deFactoPrior, 15)).toBe(true);
    expect(nonIncreasing(studentPrior, 15)).toBe(true);
    expect(nonIncreasing(parentingWeight, 45)).toBe(true);
    expect(parentingWeight(40)).toBeGreaterThan(parentingWeight(20));
  });

  it('give a family no size it cannot have (a couple with children needs three), and every size a family can have some weight', () => {
    expect(familySizePrior(FamilyType.CoupleWithChildren, 2)).toBe(0);
    for (let type = 0; type < FAMILY_TYPE_COUNT; type++) {
      for (let size = type === FamilyType.CoupleWithChildren ? 3 : 2; size <= MAX_TAIL_SIZE + 20; size++) expect(familySizePrior(type, size)).toBeGreaterThan(0);
    }
  });
});
