import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { categoryIndex, variableByCode } from '../../../src/synthesis/census/variables.ts';
import { countCouples, coupleFigures, emptyCoupleTally } from '../../../src/synthesis/quality/couples.ts';
import { summarizeRealism } from '../../../src/synthesis/quality/realism.ts';
import { countResemblance, emptyResemblanceTally, RESEMBLANCE_LINKS, resemblanceFigures } from '../../../src/synthesis/quality/resemblance.ts';
import { NATIONAL_FAMILY_STRENGTHS_2021 } from '../../../src/synthesis/shared/family-strengths.ts';
import { alikeBy, alikeShareUnderAffinity } from '../../../src/synthesis/shared/homogamy.ts';
import { population, type PersonSpec } from './fixture.ts';

const REG = 'Partner in a registered marriage';
const CHILD = 'Child under 15';
const AUS = 'Australia';
const ASIA = 'Southern and Central Asia';

/** A couple in family (and dwelling) f: a man and a woman with the given labels. */
const couple = (f: number, man: Record<string, string>, woman: Record<string, string>, ages: [number, number] = [40, 38]): PersonSpec[] => [
  { age: ages[0], family: f, dwelling: f, v: { RLHP: REG, SEXP: 'Male', ...man } },
  { age: ages[1], family: f, dwelling: f, v: { RLHP: REG, SEXP: 'Female', ...woman } },
];
const child = (f: number, v: Record<string, string>): PersonSpec => ({ age: 8, family: f, dwelling: f, v: { RLHP: CHILD, ...v } });

const figuresOf = (persons: readonly PersonSpec[]) => {
  const t = emptyResemblanceTally();
  countResemblance(population(persons), t);
  return resemblanceFigures(t);
};

describe('family resemblance against independence', () => {
  it("counts couples alike, what their own margins give by chance, and the target the national strength sets at those margins", () => {
    const f = figuresOf([
      ...couple(0, { BPLP: AUS }, { BPLP: AUS }),
      ...couple(1, { BPLP: AUS }, { BPLP: AUS }),
      ...couple(2, { BPLP: ASIA }, { BPLP: ASIA }),
      ...couple(3, { BPLP: AUS }, { BPLP: ASIA }),
      ...couple(4, { BPLP: AUS }, { BPLP: 'Not stated' }),
    ]);
    const region = f.links['partners-birthplace-region']!;
    expect(region.pairs).toBe(4);
    expect(region.alike).toBe(3 / 4);
    // Men: 3 Australia, 1 Asia; women: 2 and 2 → (3·2 + 1·2) / 4 alike of 4 couples by chance.
    expect(region.independence).toBe(2 / 4);
    const aus = categoryIndex('BPLP', AUS);
    const asia = categoryIndex('BPLP', ASIA);
    const rows = new Float64Array(11);
    const cols = new Float64Array(11);
    rows[aus] = 3;
    rows[asia] = 1;
    cols[aus] = 2;
    cols[asia] = 2;
    expect(region.target).toBeCloseTo(alikeShareUnderAffinity(rows, cols, NATIONAL_FAMILY_STRENGTHS_2021.partnersBirthplace, alikeBy()), 9);
    expect(region.target!).toBeGreaterThan(region.independence!);
    // Australia / overseas: the same couples, and G30's national figure beside them.
    expect(f.links['partners-born-in-australia-or-overseas']).toMatchObject({ pairs: 4, alike: 3 / 4, published: expect.closeTo(0.8275, 4) });
    // A link the synthesizer does not pursue is measured without a target.
    const measuredOnly = { ...RESEMBLANCE_LINKS.find((l) => l.name === 'partners-language')!, target: undefined };
    const t = emptyResemblanceTally([measuredOnly]);
    countResemblance(population(couple(0, { LANP: 'English only' }, { LANP: 'English only' })), t, NATIONAL_FAMILY_STRENGTHS_2021, [measuredOnly]);
    expect(resemblanceFigures(t, [measuredOnly]).links['partners-language']).toMatchObject({ pairs: 1, alike: 1, independence: 1, target: undefined });
  });

  it('counts a child alike either parent, against the children dealt to families at random', () => {
    const f = figuresOf([
      ...couple(0, { RELP: 'Christianity' }, { RELP: 'Secular Beliefs and Other Spiritual Beliefs and No Religious Affiliation' }),
      child(0, { RELP: 'Secular Beliefs and Other Spiritual Beliefs and No Religious Affiliation' }),
      ...couple(1, { RELP: 'Christianity' }, { RELP: 'Christianity' }),
      child(1, { RELP: 'Buddhism' }),
    ]);
    const religion = f.links['child-religion']!;
    expect(religion).toMatchObject({ pairs: 2, alike: 1 / 2, target: NATIONAL_FAMILY_STRENGTHS_2021.childReligion });
    // Children's margin: half secular, half Buddhist. Family 0 holds secular (½), family 1 neither (0).
    expect(religion.independence).toBe(0.5 / 2);
  });

  it('counts only children of an Indigenous parent for the Indigenous link, and a child born in Australia alike a migrant parent', () => {
    const f = figuresOf([
      ...couple(0, { INGP: 'Non-Indigenous', BPLP: ASIA }, { INGP: 'Aboriginal', BPLP: ASIA }),
      child(0, { INGP: 'Aboriginal', BPLP: AUS }),
      ...couple(1, { INGP: 'Non-Indigenous', BPLP: ASIA }, { INGP: 'Non-Indigenous', BPLP: ASIA }),
      child(1, { INGP: 'Non-Indigenous', BPLP: 'North-West Europe' }),
    ]);
    expect(f.links['child-of-indigenous-parent']).toMatchObject({ pairs: 1, alike: 1, independence: 0.5 });
    expect(f.links['child-birthplace']).toMatchObject({ pairs: 2, alike: 1 / 2 });
  });

  it('counts for the citizenship link only children born in Australia with a citizen parent, against those children dealt at random', () => {
    const citizen = 'Australian citizen';
    const not = 'Not an Australian citizen';
    const f = figuresOf([
      // Counted: born here, a citizen parent; one a citizen (alike), one not.
      ...couple(0, { CITP: citizen }, { CITP: not }),
      child(0, { CITP: citizen, BPLP: AUS }),
      child(0, { CITP: not, BPLP: AUS }),
      // Not counted: born overseas (a citizen parent), and born here with no citizen parent.
      child(0, { CITP: not, BPLP: ASIA }),
      ...couple(1, { CITP: not }, { CITP: not }),
      child(1, { CITP: not, BPLP: AUS }),
    ]);
    // Of the three Australian-born children, one is a citizen: a counted child dealt at random is one 1 time in 3.
    expect(f.links['child-citizen-of-citizen-parent']).toMatchObject({ pairs: 2, alike: 1 / 2, independence: 1 / 3, target: NATIONAL_FAMILY_STRENGTHS_2021.childCitizenOfCitizenParent });
  });

  it("counts dependent children by their parents' birthplaces as G30 does, with G30's national figures beside them", () => {
    const overseas = { BPLP: ASIA };
    const australia = { BPLP: AUS };
    const f = figuresOf([
      ...couple(0, overseas, overseas),
      child(0, {}),
      child(0, { RLHP: 'Dependent student (aged 15-24 years)' }),
      ...couple(1, overseas, australia),
      child(1, {}),
      ...couple(2, australia, overseas),
      child(2, {}),
      ...couple(3, australia, australia),
      child(3, {}),
      { age: 30, family: 3, dwelling: 3, v: { RLHP: 'Non-dependent child', BPLP: AUS } },
    ]).parentsOfDependentChildren;
    // 5 dependent children (the non-dependent one is not counted): 2 both overseas, 1 father only, 1 mother only, 1 both in Australia.
    expect(f).toMatchObject({ children: 5, alike: 3 / 5, oddsRatio: 2 });
    expect(f.independence).toBeCloseTo((3 / 5) * (3 / 5) + (2 / 5) * (2 / 5), 12);
    expect(f.published.alike).toBeCloseTo(0.8275, 4);
    expect(f.published.oddsRatio).toBeCloseTo(21.48, 2);
  });

  it("counts children under 15 by their parents' language in G12's classes: exactly one English-only parent, and Cramér's V", () => {
    const english = { LANP: 'English only', ENGLP: 'Not applicable' };
    const other = { LANP: 'Southern Asian languages', ENGLP: 'Very well' };
    const otherPoor = { LANP: 'Southern Asian languages', ENGLP: 'Not well' };
    const f = figuresOf([
      ...couple(0, english, english),
      child(0, {}),
      child(0, {}),
      ...couple(1, other, english),
      child(1, {}),
      child(1, { RLHP: 'Dependent student (aged 15-24 years)' }),
      ...couple(2, other, otherPoor),
      child(2, {}),
      ...couple(3, english, { LANP: 'Not stated', ENGLP: 'Not stated' }),
      child(3, {}),
    ]).parentsLanguage;
    // 4 children under 15 with both parents stated: 2 of two English-only parents, 1 of one, 1 of none.
    expect(f.children).toBe(4);
    expect(f.oneEnglishOnly).toBe(1 / 4);
    // Rows (fathers) English 2, well 2; columns (mothers) English 3, not well 1: V by hand.
    const expected = [[2, 0], [1, 1]];
    let chi2 = 0;
    for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) {
      const e = ([2, 2][i]! * [3, 1][j]!) / 4;
      chi2 += (expected[i]![j]! - e) ** 2 / e;
    }
    expect(f.cramersV).toBeCloseTo(Math.sqrt(chi2 / 4), 12);
  });

  it('counts homes where another language is used against persons who use one: the household figure', () => {
    const other = { LANP: 'Southern Asian languages' };
    const english = { LANP: 'English only' };
    const f = figuresOf([...couple(0, other, other), ...couple(1, other, english), ...couple(2, english, english), ...couple(3, english, english)]).homeLanguage;
    // 2 of 4 homes use another language; 3 of 8 persons do: (2 / 4) / (3 / 8).
    expect(f.households).toBe(4);
    expect(f.householdsOverPersons).toBeCloseTo(4 / 3, 12);
    expect(f.published).toBeCloseTo(0.204 / 0.181, 9);
  });

  it('gives degree holders pairing with each other over chance', () => {
    const degree = { HEAP: 'Bachelor Degree Level' };
    const school = { HEAP: 'Secondary Education - Years 10 and above' };
    const f = figuresOf([
      ...couple(0, degree, degree),
      ...couple(1, degree, school),
      ...couple(2, school, school),
      ...couple(3, { HEAP: 'Certificate Level' }, school),
    ]);
    // Men 2 degrees, women 1 of 4 couples: chance gives 2 · 1 / 4 = 0.5 couples, the records 1.
    expect(f.degreeOverChance).toMatchObject({ couples: 4, records: 2, published: 1.85 });
    expect(f.links['partners-qualification']).toMatchObject({ pairs: 4, alike: 2 / 4 });
  });

  it("gives as independence the mean share alike over every pairing of the same partners (property)", () => {
    const regions = variableByCode('BPLP').categories.slice(0, 4);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...regions), fc.constantFrom(...regions)), { minLength: 1, maxLength: 5 }), (pairs) => {
        const men = pairs.map(([m]) => m);
        const women = pairs.map(([, w]) => w);
        const independence = figuresOf(pairs.flatMap(([m, w], f) => couple(f, { BPLP: m }, { BPLP: w }))).links['partners-birthplace-region']!.independence!;
        // Every permutation of the women over the men, equally likely.
        const permutations = (xs: readonly string[]): string[][] => (xs.length <= 1 ? [[...xs]] : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest])));
        const all = permutations(women);
        const mean = all.reduce((sum, p) => sum + p.filter((w, i) => w === men[i]).length / men.length, 0) / all.length;
        expect(independence).toBeCloseTo(mean, 9);
      }),
      { numRuns: 60 },
    );
  });

  it('pools over suburbs by adding pairs, and names a source for every link', () => {
    const one = population(couple(0, { BPLP: AUS }, { BPLP: AUS }));
    const two = population([...couple(0, { BPLP: AUS }, { BPLP: ASIA }), ...couple(1, { BPLP: ASIA }, { BPLP: ASIA }, [30, 30])]);
    const summary = summarizeRealism([{ synthetic: one }, { synthetic: two }]);
    expect(summary.all.synthetic.resemblance.links['partners-birthplace-region']).toMatchObject({ pairs: 3, alike: 2 / 3 });
    for (const link of RESEMBLANCE_LINKS) expect(link.source.length, link.name).toBeGreaterThan(10);
    expect(new Set(RESEMBLANCE_LINKS.map((l) => l.name)).size).toBe(RESEMBLANCE_LINKS.length);
  });
});

describe("couples' age gaps", () => {
  it('counts opposite-sex couples 10 or more years apart either way, with the man older, and of the same age', () => {
    const pop = population([
      ...couple(0, {}, {}, [52, 40]),
      ...couple(1, {}, {}, [35, 47]),
      ...couple(2, {}, {}, [30, 30]),
      ...couple(3, {}, {}, [33, 31]),
    ]);
    const t = emptyCoupleTally();
    countCouples(pop, t);
    expect(coupleFigures(t)).toMatchObject({ couples: 4, meanAgeGap: (12 - 12 + 0 + 2) / 4, gap10PlusShare: 2 / 4, manOlderShare: 2 / 4, sameAgeShare: 1 / 4 });
  });
});
