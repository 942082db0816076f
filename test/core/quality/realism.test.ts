import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cramersV, errorRemoved, independence } from '../../../src/core/quality/realism.ts';

const labels = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);

describe("Cramér's V", () => {
  it('is 0 for an independent table and 1 for a diagonal one', () => {
    expect(cramersV([10, 20, 30, 60], labels(2), labels(2))).toBeCloseTo(0, 12);
    expect(cramersV([5, 0, 0, 0, 7, 0, 0, 0, 9], labels(3), labels(3))).toBeCloseTo(1, 12);
  });
  it('leaves out "Not stated" and "Not applicable"', () => {
    // Diagonal once the not-stated row and column are dropped.
    expect(cramersV([5, 0, 3, 0, 7, 3, 4, 4, 4], ['a', 'b', 'Not stated'], ['a', 'b', 'Not applicable'])).toBeCloseTo(1, 12);
  });
  it('lies in [0, 1] and does not depend on the order of categories (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(50), { minLength: 12, maxLength: 12 }), (cells) => {
        const v = cramersV(cells, labels(3), labels(4));
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1 + 1e-12);
        // Swap rows 0 and 2, and columns 1 and 3.
        const at = (r: number, c: number) => cells[r * 4 + c]!;
        const swapped = [2, 1, 0].flatMap((r) => [0, 3, 2, 1].map((c) => at(r, c)));
        expect(cramersV(swapped, labels(3), labels(4))).toBeCloseTo(v, 9);
      }),
    );
  });
});

describe('independence and the share of its error removed', () => {
  it('keeps every one-way margin of a 3-way table and equals a table that is already independent', () => {
    const t = [1, 2, 3, 4, 5, 6, 7, 8]; // 2 × 2 × 2
    const ind = independence(t, [2, 2, 2]);
    const margin = (x: ArrayLike<number>, k: number) => [0, 1].map((c) => Array.from(x).reduce((s, v, i) => s + ((i >> (2 - k)) % 2 === c ? v : 0), 0));
    for (let k = 0; k < 3; k++) expect(margin(ind, k).map((x) => x.toFixed(9))).toEqual(margin(t, k).map((x) => x.toFixed(9)));
    const independent = [6, 12, 9, 18]; // rows 1:1.5, columns 1:2
    expect(Array.from(independence(independent, [2, 2])).map((x) => x.toFixed(9))).toEqual(independent.map((x) => x.toFixed(9)));
  });
  it('is 1 for a perfect candidate, 0 for independence itself, undefined when independence is already exact', () => {
    expect(errorRemoved(0, 10)).toBe(1);
    expect(errorRemoved(10, 10)).toBe(0);
    expect(errorRemoved(5, 0)).toBeUndefined();
  });
});

import type { Population } from '../../../src/core/census/population.ts';
import { categoryIndex } from '../../../src/core/census/variables.ts';
import { countCouples, IMPLAUSIBLE_CHECKS } from '../../../src/core/quality/realism.ts';

describe('implausible combinations and couples', () => {
  // A couple (man 40, woman 16), their daughter aged 15 who is a dependent student not attending, and a professional without a degree.
  const persons = [
    { age: 40, SEXP: 0, RLHP: 'Partner in a registered marriage', MSTP: 'Married', family: 0 },
    { age: 16, SEXP: 1, RLHP: 'Partner in a registered marriage', MSTP: 'Married', family: 0 },
    { age: 15, SEXP: 1, RLHP: 'Dependent student (aged 15-24 years)', MSTP: 'Never married', family: 0 },
  ];
  const col = (code: string, value: (p: (typeof persons)[number]) => string) => Uint8Array.from(persons, (p) => categoryIndex(code, value(p)));
  const pop: Population = {
    persons: {
      count: 3,
      age: Uint8Array.from(persons, (p) => p.age),
      dwelling: new Uint32Array(3),
      family: Int32Array.from(persons, (p) => p.family),
      variables: {
        SEXP: Uint8Array.from(persons, (p) => p.SEXP),
        RLHP: col('RLHP', (p) => p.RLHP),
        MSTP: col('MSTP', (p) => p.MSTP),
        TYPP: col('TYPP', () => 'Not applicable'),
        OCCP: col('OCCP', (p) => (p.age === 40 ? 'Professionals' : 'Not applicable')),
        HEAP: col('HEAP', () => 'Certificate Level'),
        LFSP: col('LFSP', (p) => (p.age === 40 ? 'Employed, worked full-time' : 'Not in the labour force')),
      },
    },
    families: { count: 1, dwelling: new Uint32Array(1), variables: {} },
    dwellings: { count: 1, variables: {} },
  };
  const rate = (name: string) => {
    const into = { numerator: 0, denominator: 0 };
    IMPLAUSIBLE_CHECKS.find((c) => c.name === name)!.count(pop, into);
    return into;
  };
  it('counts each check over its own denominator', () => {
    expect(rate('partner-15-17')).toEqual({ numerator: 1, denominator: 2 });
    expect(rate('married-15-17')).toEqual({ numerator: 1, denominator: 2 });
    expect(rate('dependent-student-not-attending')).toEqual({ numerator: 1, denominator: 1 });
    expect(rate('professional-without-degree')).toEqual({ numerator: 1, denominator: 1 });
    expect(rate('lone-person-15-17')).toEqual({ numerator: 0, denominator: 2 });
  });
  it('measures the age gap of opposite-sex couples', () => {
    const c = { gapSum: 0, opposite: 0, sameSex: 0 };
    countCouples(pop, c);
    expect(c).toEqual({ gapSum: 24, opposite: 1, sameSex: 0 });
  });
});
