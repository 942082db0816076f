/**
 * Areas sized to an estimated resident population, the pure part: tables scaled and rounded cell
 * by cell, every area's factor from its own estimate (SA2s) or its SA2s' change (others, with
 * the state's change where no SA2 is linked, and calibrated to the state's SA2s where the level
 * covers the state), the inputs scaled, and an estimate by age and sex carried to every persons
 * cell through the census's G04.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CensusInputs } from '../../../src/synthesis/census/inputs.ts';
import { ERP_AGE_GROUPS, type PopulationEstimate } from '../../../src/synthesis/census/population-estimate.ts';
import { INPUT_TABLES } from '../../../src/synthesis/census/tables.ts';
import { ageSexFactors, linkedFactor, roundCells, sa2Factors, scaleInputs, sizeLevel, stateTotals, withinEstimate } from '../../../src/synthesis/pipeline/population.ts';
import { area, cells, handMadeInputs } from './hand-made.ts';

describe('roundCells', () => {
  it('gives each value its nearest whole number, unpublished cells kept, equal values alike', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ min: 0, max: 5000, noNaN: true }), fc.constant(Number.NaN)), { maxLength: 40 }), (values) => {
        const out = roundCells(Float64Array.from(values));
        values.forEach((v, i) => {
          if (Number.isNaN(v)) return expect(out[i]).toBeNaN();
          expect(Number.isInteger(out[i])).toBe(true);
          expect(Math.abs(out[i]! - v)).toBeLessThanOrEqual(0.5);
          values.forEach((w, j) => {
            if (w === v) expect(out[j]).toBe(out[i]);
          });
        });
      }),
    );
  });
});

const estimate = (sa2: Record<string, number>, base2021?: Record<string, number>): PopulationEstimate => ({
  year: 2023,
  source: 'hand-made',
  breakdown: 'totals',
  sa2: new Map(Object.entries(sa2)),
  ...(base2021 ? { base2021: new Map(Object.entries(base2021)) } : {}),
});

describe('each area\'s estimate', () => {
  it('an SA2\'s factor is its estimate over its census count (over its 2021 estimate without one); a linked area\'s the share-weighted mean', () => {
    const e = estimate({ '601011001': 110, '601011002': 300, '601011003': 50 }, { '601011001': 100, '601011002': 250, '601011003': 50 });
    expect([...sa2Factors(e, new Map([['601011001', 100], ['601011002', 200]]))]).toEqual([['601011001', 1.1], ['601011002', 1.5]]);
    expect(sa2Factors(e, undefined).get('601011002')).toBe(1.2);
    const f = new Map([['a', 1.1], ['b', 1.5]]);
    expect(linkedFactor([{ code: 'a', ratio: 0.75 }, { code: 'b', ratio: 0.25 }], f)).toBeCloseTo(1.2, 12);
    // An SA2 without a factor (split in 2021, or not in the estimate) is left out, the others' shares renormalised.
    expect(linkedFactor([{ code: 'a', ratio: 0.5 }, { code: 'gone', ratio: 0.5 }], f)).toBeCloseTo(1.1, 12);
    expect(linkedFactor([{ code: 'gone', ratio: 1 }], f)).toBeUndefined();
  });

  const sa2Area = (code: string) => ({ ...area(code, 'L1', 'NSW'), level: 'sa2' as const, salCode: code });
  it('SA2s get their own estimate; an SA2 of the release the estimate lacks is a problem naming it; one the census found empty is a note', () => {
    const inputs = { level: 'sa2' as const, suburbs: [sa2Area('101'), sa2Area('102'), sa2Area('103')], totals: new Map([['G01', new Map([['101', 100], ['102', 80], ['103', 0]])]]) };
    const { sizes, problems } = sizeLevel(inputs, estimate({ '101': 130, '103': 50 }), new Map([['101', 1.3]]), new Map(), () => ({ shares: [], via: 'x' }), 'erp.csv');
    expect([...sizes.sizes]).toEqual([['101', { census: 100, estimate: 130, via: 'own estimate' }], ['103', { census: 0, estimate: 50, via: 'own estimate' }]]);
    expect(problems).toEqual([{ file: 'erp.csv', message: 'no estimate for SA2 102 (102), an area of the release' }]);
    expect(sizes.notes).toEqual([
      "ages and sexes are the census's (the estimate has totals only)",
      "sa2: 1 areas the census counted nobody in have an estimate (103: 50): they take their state's tables, scaled to it",
    ]);
  });

  it('other areas change with their SA2s, or their state; a level covering its state sums to the state\'s SA2s\' estimate', () => {
    const inputs = handMadeInputs('poa');
    const links = (a: CensusInputs['suburbs'][number]) => ({ shares: a.salCode === 'C' ? [] : [{ code: a.salCode === 'A' ? 's1' : 's2', ratio: 1 }], via: 'test links' });
    const factors = new Map([['s1', 1.5], ['s2', 1]]);
    // NSW's SA2s: census 2,000, estimate 2,300 (A and B cover all of it); VIC's: 9,000 → 9,900 (C has no SA2 linked).
    const states = new Map([['NSW', { census: 2120, estimate: 2300 }], ['VIC', { census: 9000, estimate: 9900 }]]);
    const { sizes, problems } = sizeLevel(inputs, estimate({}), factors, states, links, 'erp.csv');
    expect(problems).toEqual([]);
    const a = sizes.sizes.get('A')!;
    const b = sizes.sizes.get('B')!;
    // Before calibration A 180, B 2,000 (2,180); scaled by 2,300 / 2,180 to the state's estimate.
    expect(a.estimate + b.estimate).toBeCloseTo(2300, 9);
    expect(a.estimate / b.estimate).toBeCloseTo(180 / 2000, 12);
    expect(sizes.sizes.get('C')).toEqual({ census: 9000, estimate: 9900, via: "its state's change (no SA2 linked)" });
    expect(sizes.byVia).toEqual({ 'test links': 2, "its state's change (no SA2 linked)": 1 });
    expect(sizes.notes.some((n) => n.startsWith('poa: the areas of NSW scaled by 1.0550'))).toBe(true);
    // A level covering under 95 % of its state's census count is not calibrated (a build of a few areas).
    const partial = sizeLevel(inputs, estimate({}), factors, new Map([['NSW', { census: 100_000, estimate: 120_000 }]]), links, 'erp.csv');
    expect(partial.sizes.sizes.get('A')!.estimate).toBeCloseTo(180, 9);
  });

  it('an area within ±0.5 % or ±5 persons of its estimate', () => {
    expect([withinEstimate(1005, 1000), withinEstimate(1006, 1000), withinEstimate(20_100, 20_000), withinEstimate(20_101, 20_000)]).toEqual([true, false, true, false]);
  });

  it('the states\' SA2s summed', () => {
    const e = estimate({ '601011001': 110, '601011002': 300, '801011001': 40 });
    const census = new Map([['601011001', 100], ['601011002', 200], ['801011001', 40]]);
    expect([...stateTotals(e, census, (c) => (c[0] === '6' ? 'TAS' : 'ACT'))]).toEqual([['TAS', { estimate: 410, census: 300 }], ['ACT', { estimate: 40, census: 40 }]]);
  });
});

describe('the inputs scaled', () => {
  it('every cell, subtotal and total of a sized area × its factor, rounded; unsized areas and unpublished cells as they were', () => {
    const inputs = handMadeInputs();
    const T1 = INPUT_TABLES.find((t) => t.id === 'G33')!; // any real spec: the hand-made tables borrow one by id below
    const withSpec: CensusInputs = {
      ...inputs,
      tables: new Map([[T1.id, new Map([['A', cells(...T1.cells.map((_, i) => (i === 0 ? Number.NaN : i)))], ['C', cells(...T1.cells.map(() => 3))]])]]),
      totals: new Map([['G01', new Map([['A', 120], ['C', 9000]])], [T1.id, new Map([['A', 50], ['C', 7]])]]),
      aggregates: new Map(),
    };
    const scaled = scaleInputs(withSpec, { sizes: new Map([['A', { census: 120, estimate: 150, via: 'x' }]]), ageSex: new Map(), byVia: {}, notes: [] });
    const before = withSpec.tables.get(T1.id)!.get('A')!;
    const after = scaled.tables.get(T1.id)!.get('A')!;
    expect(after[0]).toBeNaN();
    for (let i = 1; i < before.length; i++) expect(after[i]).toBe(Math.round(before[i]! * 1.25));
    expect(scaled.totals.get('G01')!.get('A')).toBe(150);
    // C has no size: as it was.
    expect(scaled.tables.get(T1.id)!.get('C')).toBe(withSpec.tables.get(T1.id)!.get('C'));
    expect(scaled.totals.get(T1.id)!.get('C')).toBe(7);
  });

  it('an area the census counted nobody in takes its state\'s tables, scaled to its estimate', () => {
    const G04 = INPUT_TABLES.find((t) => t.id === 'G04')!;
    const G33 = INPUT_TABLES.find((t) => t.id === 'G33')!;
    const stateG04 = cells(...G04.cells.map(() => 100)); // the state's persons: 100 a cell
    const stateG33 = cells(...G33.cells.map((_, i) => (i === 0 ? Number.NaN : 2 * i)));
    const inputs: CensusInputs = {
      level: 'sa2',
      suburbs: [{ ...area('Z', 'L1', 'NSW'), level: 'sa2' }],
      tables: new Map([['G04', new Map([['Z', cells(...G04.cells.map(() => 0))]])], ['G33', new Map([['Z', cells(...G33.cells.map(() => 0))]])]]),
      totals: new Map([['G01', new Map([['Z', 0]])], ['G04', new Map([['Z', 0]])]]),
      aggregates: new Map([['G04', new Map([['Z', cells(0, 0)]])]]),
      parents: { states: new Map([['NSW', new Map([['G04', stateG04], ['G33', stateG33]])]]), australia: undefined },
    };
    const persons = 100 * G04.cells.length;
    const scaled = scaleInputs(inputs, { sizes: new Map([['Z', { census: 0, estimate: persons / 10, via: 'own estimate' }]]), ageSex: new Map(), byVia: {}, notes: [] });
    expect([...scaled.tables.get('G04')!.get('Z')!]).toEqual(G04.cells.map(() => 10));
    expect([...scaled.tables.get('G33')!.get('Z')!]).toEqual(G33.cells.map((_, i) => (i === 0 ? Number.NaN : Math.round(0.2 * i))));
    expect(scaled.totals.get('G01')!.get('Z')).toBe(persons / 10);
    expect(scaled.totals.get('G04')!.get('Z')).toBe(persons / 10);
    expect(scaled.aggregates.get('G04')!.has('Z')).toBe(false);
  });

  it('with an estimate by age and sex, each G04 cell takes its age group\'s and sex\'s factor, so G04 adds up to the estimate', () => {
    const G04 = INPUT_TABLES.find((t) => t.id === 'G04')!;
    const g04 = cells(...G04.cells.map(() => 10));
    const groups = ERP_AGE_GROUPS.length;
    // The census's persons per group and sex: 50 (five single years × 10) up to 80–84, 85 and over: 4 groups × 10.
    const censusOf = (g: number) => (g < 16 ? 50 : g === 16 ? 10 : 40);
    const male = Float64Array.from({ length: groups }, (_, g) => censusOf(g) * (g >= 13 ? 2 : 1));
    const female = Float64Array.from({ length: groups }, (_, g) => censusOf(g));
    // The total factor: the estimate over the census (here G04 is the census's every person).
    const total = [...male, ...female].reduce((x, y) => x + y, 0) / g04.reduce((x, y) => x + y, 0);
    const factors = ageSexFactors(g04, { male, female }, total)!;
    const bySexGroup = (sex: 0 | 1) => {
      const out = new Float64Array(groups);
      G04.cells.forEach((c, i) => {
        if (c.where['SEXP']![0] === sex) out[Math.min(groups - 1, Math.floor(c.age![0] / 5))]! += g04[i]! * factors.factor[i]!;
      });
      return out;
    };
    expect([...bySexGroup(0)].map((v) => Math.round(v))).toEqual([...male]);
    expect([...bySexGroup(1)].map((v) => Math.round(v))).toEqual([...female]);
  });
});
