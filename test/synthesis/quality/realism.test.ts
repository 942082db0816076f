import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Population } from '../../../src/synthesis/census/population.ts';
import { INPUT_TABLES, VALIDATION_CODES, VALIDATION_TABLES } from '../../../src/synthesis/census/tables.ts';
import { tabulate } from '../../../src/synthesis/census/tabulate.ts';
import { variableByCode } from '../../../src/synthesis/census/variables.ts';
import { quantile } from '../../../src/synthesis/quality/metrics.ts';
import { countIndigenousLanguage, cramersV, cramersVOfCounts, inRemoteArea, pairCounts } from '../../../src/synthesis/quality/associations.ts';
import { emptyRate, histogramQuantile } from '../../../src/synthesis/quality/counts.ts';
import { AGE_OFFSET, countCouples, countMothers, coupleFigures, emptyCoupleTally, emptyMotherTally, motherFigures } from '../../../src/synthesis/quality/couples.ts';
import { countImplausible, IMPLAUSIBLE_CHECKS } from '../../../src/synthesis/quality/implausible.ts';
import { summarizeRealism } from '../../../src/synthesis/quality/realism.ts';
import { crossTabLayout, errorRemoved, independenceTable, restrictCrossTab, shareOfErrorRemoved } from '../../../src/synthesis/quality/recovery.ts';
import { population, type PersonSpec } from './fixture.ts';

const rate = (pop: Population, name: string) => {
  const into = emptyRate();
  IMPLAUSIBLE_CHECKS.find((c) => c.name === name)!.count(pop, into);
  return into;
};

const REG = 'Partner in a registered marriage';
const DF = 'Partner in a de facto marriage';

// ------------------------------------------------------------------ (b) Cramér's V

describe("Cramér's V", () => {
  it('is 0 for an independent table and 1 for a diagonal one', () => {
    expect(cramersVOfCounts([10, 20, 30, 60], 2, 2)).toBeCloseTo(0, 12);
    expect(cramersVOfCounts([5, 0, 0, 0, 7, 0, 0, 0, 9], 3, 3)).toBeCloseTo(1, 12);
    // A rectangular table where each row sits in its own column block: still perfect association.
    expect(cramersVOfCounts([4, 3, 0, 0, 0, 0, 2, 6], 2, 4)).toBeCloseTo(1, 12);
  });

  it('follows the definition on a worked 2 × 2 example', () => {
    // [[10, 20], [30, 40]]: n 100, χ² = n(ad − bc)² / (r1 r2 c1 c2) = 100·200² / (30·70·40·60).
    const chi2 = (100 * 200 ** 2) / (30 * 70 * 40 * 60);
    expect(cramersVOfCounts([10, 20, 30, 40], 2, 2)).toBeCloseTo(Math.sqrt(chi2 / 100), 12);
  });

  it('leaves out "Not stated" and "Not applicable" unless asked, and is undefined with fewer than two live rows', () => {
    const table = [5, 0, 3, 0, 7, 3, 4, 4, 4];
    const rows = ['a', 'b', 'Not stated'];
    const cols = ['a', 'b', 'Not applicable'];
    expect(cramersVOfCounts(table, rows, cols)).toBeCloseTo(1, 12);
    expect(cramersVOfCounts(table, rows, cols, { includeUninformative: true })!).toBeLessThan(0.9);
    expect(cramersVOfCounts([3, 4, 0, 0], 2, 2)).toBeUndefined();
    expect(cramersVOfCounts([0, 0, 0, 0], 2, 2)).toBeUndefined();
  });

  it('lies in [0, 1] and does not depend on the order of categories (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(50), { minLength: 12, maxLength: 12 }), fc.constantFrom([0, 1, 2], [2, 1, 0], [1, 2, 0]), fc.constantFrom([0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2]), (cells, rowOrder, colOrder) => {
        const v = cramersVOfCounts(cells, 3, 4);
        const at = (r: number, c: number) => cells[r * 4 + c]!;
        const permuted = cramersVOfCounts(rowOrder.flatMap((r) => colOrder.map((c) => at(r, c))), 3, 4);
        if (v === undefined) {
          // No return value: fast-check fails a property that returns anything but undefined or true.
          expect(permuted).toBeUndefined();
          return;
        }
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
        expect(permuted).toBeCloseTo(v, 9);
        // Transposing does not change it either.
        expect(cramersVOfCounts([0, 1, 2, 3].flatMap((c) => [0, 1, 2].map((r) => at(r, c))), 4, 3)).toBeCloseTo(v, 9);
      }),
    );
  });

  it('reads person variables of populations, pooled over several and restricted by a predicate', () => {
    // Religion follows birthplace in dwelling 0 (remote); in dwelling 1 (a major city) everyone is Christian.
    const persons: PersonSpec[] = [
      { age: 30, dwelling: 0, v: { BPLP: 'Australia', RELP: 'Christianity' } },
      { age: 31, dwelling: 0, v: { BPLP: 'South-East Asia', RELP: 'Buddhism' } },
      { age: 32, dwelling: 0, v: { BPLP: 'Australia', RELP: 'Christianity' } },
      { age: 33, dwelling: 0, v: { BPLP: 'Not stated', RELP: 'Hinduism' } },
      { age: 40, dwelling: 1, v: { BPLP: 'Australia', RELP: 'Christianity' } },
      { age: 41, dwelling: 1, v: { BPLP: 'South-East Asia', RELP: 'Christianity' } },
    ];
    const pop = population(persons, [{ DLOD: 'Very Remote Australia' }, { DLOD: 'Major Cities of Australia' }]);
    expect(cramersV(pop, 'RELP', 'BPLP', { keep: inRemoteArea })).toBeCloseTo(1, 12);
    const all = cramersV(pop, 'RELP', 'BPLP')!;
    expect(all).toBeGreaterThan(0);
    expect(all).toBeLessThan(1);
    // Two populations pool like one holding both.
    const first = population(persons.slice(0, 4), [{ DLOD: 'Very Remote Australia' }]);
    const second = population(persons.slice(4).map((p) => ({ ...p, dwelling: 0 })), [{ DLOD: 'Major Cities of Australia' }]);
    expect(Array.from(pairCounts([first, second], 'RELP', 'BPLP'))).toEqual(Array.from(pairCounts(pop, 'RELP', 'BPLP')));
    expect(cramersV([first, second], 'RELP', 'BPLP')).toBeCloseTo(all, 12);
  });
});

describe('Indigenous languages in remote areas', () => {
  it('counts Indigenous persons with a stated language in remote and very remote dwellings only', () => {
    const pop = population(
      [
        { age: 30, dwelling: 0, v: { INGP: 'Aboriginal', LANP: 'Australian Indigenous languages' } },
        { age: 30, dwelling: 0, v: { INGP: 'Torres Strait Islander', LANP: 'English only' } },
        { age: 30, dwelling: 0, v: { INGP: 'Aboriginal', LANP: 'Not stated' } },
        { age: 30, dwelling: 0, v: { INGP: 'Non-Indigenous', LANP: 'Australian Indigenous languages' } },
        { age: 30, dwelling: 1, v: { INGP: 'Aboriginal', LANP: 'Australian Indigenous languages' } },
      ],
      [{ DLOD: 'Remote Australia' }, { DLOD: 'Inner Regional Australia' }],
    );
    const into = emptyRate();
    countIndigenousLanguage(pop, into);
    expect(into).toEqual({ numerator: 1, denominator: 2 });
    const everywhere = emptyRate();
    countIndigenousLanguage(pop, everywhere, () => true);
    expect(everywhere).toEqual({ numerator: 2, denominator: 3 });
  });
});

// ------------------------------------------------------------------ (a) implausible combinations

describe('implausible combinations', () => {
  it('counts a 16-year-old partner, and an 18-year-old one only among 15–19', () => {
    const pop = population([
      { age: 40, family: 0, v: { RLHP: REG, MSTP: 'Married', SEXP: 'Male' } },
      { age: 16, family: 0, v: { RLHP: REG, MSTP: 'Married', SEXP: 'Female' } },
      { age: 18, family: 1, dwelling: 1, v: { RLHP: DF, MSTP: 'Never married' } },
      { age: 19, family: 1, dwelling: 1, v: { RLHP: DF, MSTP: 'Never married', SEXP: 'Female' } },
      { age: 17, dwelling: 2, v: { RLHP: 'Lone person', MSTP: 'Divorced' } },
      { age: 15, dwelling: 3, v: { RLHP: 'Group household member', MSTP: 'Never married' } },
      { age: 19, dwelling: 3, v: { RLHP: 'Group household member', MSTP: 'Widowed' } },
    ]);
    expect(rate(pop, 'partner-15-17')).toEqual({ numerator: 1, denominator: 3 });
    expect(rate(pop, 'partner-15-19')).toEqual({ numerator: 3, denominator: 6 });
    expect(rate(pop, 'married-15-17')).toEqual({ numerator: 1, denominator: 3 });
    expect(rate(pop, 'ever-married-15-17')).toEqual({ numerator: 2, denominator: 3 });
    expect(rate(pop, 'widowed-15-19')).toEqual({ numerator: 1, denominator: 6 });
    expect(rate(pop, 'divorced-separated-15-19')).toEqual({ numerator: 1, denominator: 6 });
    expect(rate(pop, 'lone-person-15-17')).toEqual({ numerator: 1, denominator: 3 });
    expect(rate(pop, 'group-member-15-17')).toEqual({ numerator: 1, denominator: 3 });
  });

  it('counts dependent students not attending, but not those whose attendance is not stated', () => {
    const student = 'Dependent student (aged 15-24 years)';
    const pop = population([
      { age: 16, v: { RLHP: student, TYPP: 'Not applicable' } },
      { age: 17, v: { RLHP: student, TYPP: 'Not stated' } },
      { age: 20, v: { RLHP: student, TYPP: 'University or other higher education' } },
      { age: 16, v: { RLHP: 'Non-dependent child', TYPP: 'Not applicable' } },
    ]);
    expect(rate(pop, 'dependent-student-not-attending')).toEqual({ numerator: 1, denominator: 3 });
  });

  it("counts mothers younger than 15 + their eldest child's age, and their age at that child's birth", () => {
    const pop = population([
      // Couple with children: mother 29, eldest child 16 → 13 at birth; father not a mother.
      { age: 35, family: 0, v: { RLHP: REG, SEXP: 'Male' } },
      { age: 29, family: 0, v: { RLHP: REG, SEXP: 'Female' } },
      { age: 16, family: 0, v: { RLHP: 'Dependent student (aged 15-24 years)' } },
      { age: 4, family: 0, v: { RLHP: 'Child under 15' } },
      // Female lone parent 40 with a child of 10 → 30.
      { age: 40, family: 1, dwelling: 1, v: { RLHP: 'Lone parent', SEXP: 'Female' } },
      { age: 10, family: 1, dwelling: 1, v: { RLHP: 'Child under 15' } },
      // Couple without children: no mother.
      { age: 30, family: 2, dwelling: 2, v: { RLHP: DF, SEXP: 'Female' } },
      { age: 31, family: 2, dwelling: 2, v: { RLHP: DF, SEXP: 'Male' } },
      // Female same-sex couple with a child of 2: both are mothers (28 and 33 at the birth).
      { age: 30, family: 3, dwelling: 3, v: { RLHP: REG, SEXP: 'Female' } },
      { age: 35, family: 3, dwelling: 3, v: { RLHP: REG, SEXP: 'Female' } },
      { age: 2, family: 3, dwelling: 3, v: { RLHP: 'Child under 15' } },
    ]);
    expect(rate(pop, 'mother-under-15-at-birth')).toEqual({ numerator: 1, denominator: 4 });
    const t = emptyMotherTally();
    countMothers(pop, t);
    expect(motherFigures(t)).toEqual({ mothers: 4, min: 13, p5: quantile([13, 30, 28, 33], 0.05), median: 29 });
  });

  it('counts professionals without a degree, and what persons under 15 should not have', () => {
    const pop = population([
      { age: 40, v: { LFSP: 'Employed, worked full-time', OCCP: 'Professionals', HEAP: 'Bachelor Degree Level' } },
      { age: 41, v: { LFSP: 'Employed, worked full-time', OCCP: 'Professionals', HEAP: 'Certificate Level' } },
      { age: 42, v: { LFSP: 'Employed, worked full-time', OCCP: 'Managers', HEAP: 'Certificate Level' } },
      { age: 12, v: { LFSP: 'Employed, worked part-time', INCP: '$150-$299', HEAP: 'Certificate Level', TYPP: 'Technical or further education institution' } },
      { age: 13, v: { INCP: 'Negative/Nil income', TYPP: 'Not applicable' } },
      { age: 16, v: { INCP: '$1,000-$1,249' } },
      { age: 17, v: { INCP: '$300-$399' } },
      { age: 17, v: { INCP: 'Not stated' } },
      { age: 19, v: { HEAP: 'Bachelor Degree Level', LFSP: 'Employed, worked part-time', OCCP: 'Professionals' } },
    ]);
    expect(rate(pop, 'employed-professional-under-20')).toEqual({ numerator: 1, denominator: 2 });
    expect(rate(pop, 'professional-without-degree')).toEqual({ numerator: 1, denominator: 3 });
    expect(rate(pop, 'employed-under-15')).toEqual({ numerator: 1, denominator: 2 });
    expect(rate(pop, 'income-under-15')).toEqual({ numerator: 1, denominator: 2 });
    expect(rate(pop, 'qualification-under-15')).toEqual({ numerator: 1, denominator: 2 });
    expect(rate(pop, 'tertiary-under-15')).toEqual({ numerator: 1, denominator: 2 });
    expect(rate(pop, 'not-attending-6-15')).toEqual({ numerator: 1, denominator: 2 });
    expect(rate(pop, 'income-1000-15-17')).toEqual({ numerator: 1, denominator: 2 });
    expect(rate(pop, 'degree-15-19')).toEqual({ numerator: 1, denominator: 4 });
  });

  it('counts renters with mortgage repayments and crowded one-bedroom dwellings', () => {
    const pop = population(
      [...Array.from({ length: 5 }, () => ({ age: 30, dwelling: 0 })), { age: 30, dwelling: 1 }, { age: 30, dwelling: 2 }],
      [
        { TEND: 'Rented', MRERD: '$0-$299', BEDRD: 'One bedroom' },
        { TEND: 'Rented', MRERD: 'Not applicable', BEDRD: 'None (includes studios)' },
        { TEND: 'Owned with a mortgage', MRERD: '$800-$999', BEDRD: 'Three bedrooms' },
      ],
    );
    expect(rate(pop, 'renter-with-mortgage')).toEqual({ numerator: 1, denominator: 2 });
    expect(rate(pop, 'crowded-one-bedroom')).toEqual({ numerator: 1, denominator: 2 });
  });

  it('gives every check a unique name and a description, and nothing to count in an empty population', () => {
    expect(new Set(IMPLAUSIBLE_CHECKS.map((c) => c.name)).size).toBe(IMPLAUSIBLE_CHECKS.length);
    for (const c of IMPLAUSIBLE_CHECKS) expect(c.description.length).toBeGreaterThan(10);
    for (const r of Object.values(countImplausible(population([])))) expect(r).toEqual({ numerator: 0, denominator: 0 });
  });

  it("measures couples' man − woman age gap and same-sex share", () => {
    const pop = population([
      { age: 40, family: 0, v: { RLHP: REG, SEXP: 'Male' } },
      { age: 36, family: 0, v: { RLHP: REG, SEXP: 'Female' } },
      { age: 30, family: 1, dwelling: 1, v: { RLHP: DF, SEXP: 'Female' } },
      { age: 32, family: 1, dwelling: 1, v: { RLHP: DF, SEXP: 'Male' } },
      { age: 50, family: 2, dwelling: 2, v: { RLHP: REG, SEXP: 'Male' } },
      { age: 45, family: 2, dwelling: 2, v: { RLHP: REG, SEXP: 'Male' } },
      { age: 60, family: 3, dwelling: 3, v: { RLHP: 'Lone parent', SEXP: 'Female' } },
      { age: 30, family: 3, dwelling: 3, v: { RLHP: 'Non-dependent child' } },
    ]);
    const t = emptyCoupleTally();
    countCouples(pop, t);
    expect(coupleFigures(t)).toEqual({ couples: 3, sameSex: 1, sameSexShare: 1 / 3, meanAgeGap: 3, gap10PlusShare: 0, manOlderShare: 1, sameAgeShare: 0 });
  });

  it('takes histogram quantiles like metrics.quantile on the expanded values (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -20, max: 60 }), { minLength: 1, maxLength: 40 }), fc.double({ min: 0, max: 1, noNaN: true }), (values, p) => {
        const h = emptyMotherTally();
        for (const v of values) h[v + AGE_OFFSET]! += 1;
        expect(histogramQuantile(h, p, AGE_OFFSET)).toBeCloseTo(quantile(values, p)!, 9);
      }),
    );
  });
});

// ------------------------------------------------------------------ (c) structure beyond independence

describe('independence and the share of its error removed', () => {
  it('reads the layout of every validation cross-tab from its cells, and refuses an input table', () => {
    for (const spec of VALIDATION_TABLES) {
      const layout = crossTabLayout(spec);
      expect(layout.codes).toEqual(VALIDATION_CODES[spec.id]);
      expect(layout.sizes.reduce((a, b) => a * b, 1)).toBe(spec.cells.length);
    }
    expect(() => crossTabLayout(INPUT_TABLES.find((t) => t.id === 'G04')!)).toThrow();
  });

  it('keeps every one-way margin of a 3-way table and reproduces a table that is already independent', () => {
    const t = [1, 2, 3, 4, 5, 6, 7, 8]; // 2 × 2 × 2
    const ind = independenceTable(t, [2, 2, 2]);
    const margin = (x: ArrayLike<number>, k: number) => [0, 1].map((c) => Array.from(x).reduce((s, v, i) => s + ((i >> (2 - k)) % 2 === c ? v : 0), 0));
    for (let k = 0; k < 3; k++) expect(margin(ind, k).map((x) => x.toFixed(9))).toEqual(margin(t, k).map((x) => x.toFixed(9)));
    // A 2-way cell is row total × column total / n.
    const two = [1, 2, 3, 4, 5, 6]; // 2 × 3: rows 6, 15; columns 5, 7, 9; n 21
    expect(Array.from(independenceTable(two, [2, 3]))).toEqual([6, 15].flatMap((r) => [5, 7, 9].map((c) => expect.closeTo((r * c) / 21, 9))));
    const independent = [6, 12, 9, 18];
    expect(Array.from(independenceTable(independent, [2, 2]))).toEqual(independent.map((x) => expect.closeTo(x, 9)));
    expect(Array.from(independenceTable([0, 0, 0, 0], [2, 2]))).toEqual([0, 0, 0, 0]);
  });

  it('is 1 for the truth itself, 0 for independence itself, and follows the definition in between', () => {
    const truth = [10, 0, 0, 10];
    const independence = independenceTable(truth, [2, 2]); // 5 everywhere: error 20
    expect(shareOfErrorRemoved({ synthetic: truth, truth, independence }).synthetic).toBe(1);
    expect(shareOfErrorRemoved({ synthetic: independence, truth, independence }).synthetic).toBe(0);
    // A synthetic table [8, 2, 2, 8] whose margins are the truth's: error 8, independence 20 → 0.6;
    // SRMSE: squared errors 16 vs 100 → 1 − sqrt(0.16) = 0.6 too.
    const r = shareOfErrorRemoved({ synthetic: [8, 2, 2, 8], truth, independence: independenceTable([8, 2, 2, 8], [2, 2]), oracle: [9, 1, 1, 9], oracleIndependence: independenceTable([9, 1, 1, 9], [2, 2]) });
    expect(r.synthetic).toBeCloseTo(0.6, 12);
    expect(r.syntheticSrmse).toBeCloseTo(0.6, 12);
    expect(r.oracle).toBeCloseTo(0.8, 12);
    expect(errorRemoved(5, 0)).toBeUndefined();
  });

  it('restricts a cross-tab to its stated categories', () => {
    const layout = { codes: ['TEND', 'VEHRD'], sizes: [5, 6], labels: [variableByCode('TEND').categories, variableByCode('VEHRD').categories] };
    const table = Array.from({ length: 30 }, (_, i) => i);
    const { table: sub, layout: subLayout } = restrictCrossTab(table, layout);
    expect(subLayout.sizes).toEqual([4, 5]);
    expect(subLayout.labels[0]).not.toContain('Not stated');
    expect(Array.from(sub)).toEqual([0, 1, 2, 3].flatMap((r) => [0, 1, 2, 3, 4].map((c) => r * 6 + c)));
  });
});

// ------------------------------------------------------------------ (d) summary over suburbs

describe('summary over suburbs', () => {
  const teens = (partners: number, others: number): PersonSpec[] => [
    ...Array.from({ length: partners }, (_, i) => [
      { age: 17, family: i, dwelling: i, v: { RLHP: DF, SEXP: 'Female', LFSP: 'Not in the labour force' } },
      { age: 25, family: i, dwelling: i, v: { RLHP: DF, SEXP: 'Male', LFSP: 'Employed, worked full-time', OCCP: 'Labourers', INDP: 'Construction' } },
    ]).flat(),
    ...Array.from({ length: others }, (_, i) => ({ age: 16, dwelling: partners + i, v: { RLHP: 'Lone person', LFSP: 'Not in the labour force' } })),
  ];

  it('pools numerators and denominators over suburbs (not an average of rates), by size band', () => {
    const small = population(teens(1, 0)); // 1 of 1 teen is a partner
    const large = population(teens(0, 3)); // 0 of 3
    const summary = summarizeRealism([
      { synthetic: small, truth: small, persons: 100 },
      { synthetic: large, truth: large, oracle: large, persons: 6000 },
    ]);
    expect(summary.all.suburbs).toBe(2);
    expect(summary.all.synthetic.implausible['partner-15-17']).toEqual({ numerator: 1, denominator: 4, rate: 0.25 });
    expect(summary.byBand['<500'].synthetic.implausible['partner-15-17']!.rate).toBe(1);
    expect(summary.byBand['>=5000'].synthetic.implausible['partner-15-17']!.rate).toBe(0);
    expect(summary.byBand['500-5000'].suburbs).toBe(0);
    expect(summary.all.synthetic.couples.meanAgeGap).toBe(8);
    expect(summary.all.truth!.implausible['lone-person-15-17']).toEqual({ numerator: 3, denominator: 4, rate: 0.75 });
    // The oracle is pooled over the suburbs that have one.
    expect(summary.all.oracle!.implausible['lone-person-15-17']).toEqual({ numerator: 3, denominator: 3, rate: 1 });
    expect(summary.byBand['<500'].oracle).toBeUndefined();
  });

  it('pools the cross-tabs before scoring them: suburbs swapped between synthetic and truth score 1 pooled, less per suburb', () => {
    const a = population(teens(3, 4));
    const b = population(teens(1, 3));
    const summary = summarizeRealism([
      { synthetic: a, truth: b },
      { synthetic: b, truth: a },
    ]);
    const occ = summary.all.errorRemoved.V_OCC_IND!;
    expect(occ.pooled!.synthetic).toBe(1);
    expect(occ.cells.synthetic!).toBeLessThan(1);
  });

  it('scores the synthetic records that are the truth as removing all of the error of independence', () => {
    const pop = population(teens(3, 4));
    const summary = summarizeRealism([{ synthetic: pop, truth: pop, oracle: pop }]);
    const occ = summary.all.errorRemoved.V_OCC_IND!;
    expect(occ.cells.synthetic).toBe(1);
    expect(occ.cells.oracle).toBe(1);
    expect(summary.all.errorRemoved.V_AGE_RLHP!.cells.synthetic).toBe(1);
    // A table the truth fills in one cell only has nothing to remove beyond independence.
    expect(summary.all.errorRemoved.V_STRD_BEDRD!.cells.synthetic).toBeUndefined();
    // And the synthetic tables were tabulated like the build's report does.
    expect(tabulate(pop, VALIDATION_TABLES.find((t) => t.id === 'V_OCC_IND')!).reduce((a, b) => a + b, 0)).toBe(pop.persons.count);
  });
});
