import { describe, expect, it } from 'vitest';
import { INPUT_TABLES } from '../../../../src/synthesis/census/tables.ts';
import type { SuburbTargets } from '../../../../src/synthesis/census/targets.ts';
import { ageFigures, ageGroups } from '../../../../src/synthesis/synthesizer/structure/age-figures.ts';

const spec = (id: string) => INPUT_TABLES.find((t) => t.id === id)!;

describe('ageFigures', () => {
  it("measures each of G01's sex × age groups by every table whose strata are that group", () => {
    const males1519 = ageGroups().find((g) => g.sex === 0 && g.lo === 15 && g.hi === 19)!;
    expect(males1519.measurements.map((m) => m.tableId).sort()).toEqual(['G04', 'G05', 'G17', 'G18', 'G23', 'G46']);
    expect(males1519.measurements.find((m) => m.tableId === 'G04')!.cells).toHaveLength(5);
    expect(males1519.measurements.find((m) => m.tableId === 'G17')!.cells).toHaveLength(16);
  });

  it("a group's size is the mean of its subtotal and the tables' cells summed, leaving out a table whose subtotal differs", () => {
    const g01 = spec('G01');
    const g04 = spec('G04');
    const g18 = spec('G18');
    const g27 = spec('G27');
    const aggregates = new Map<string, Float64Array>([
      ['G01', new Float64Array(g01.otherCells.length)],
      ['G18', new Float64Array(g18.otherCells.length)],
      ['G27', new Float64Array(g27.otherCells.length)],
    ]);
    const box = (id: string, header: string) => spec(id).otherCells.findIndex((c) => c.header === header);
    aggregates.get('G01')![box('G01', 'Age_25_34_yr_F')] = 30;
    aggregates.get('G18')![box('G18', 'F_25_34_yrs_Tot')] = 30; // the same people
    aggregates.get('G27')![box('G27', 'F_Tot_25_34')] = 41; // persons in private dwellings and their visitors
    const tables = new Map<string, Float64Array>([
      ['G04', new Float64Array(g04.cells.length)],
      ['G18', new Float64Array(g18.cells.length)],
      ['G27', new Float64Array(g27.cells.length).fill(5)],
    ]);
    g04.cells.forEach((c, i) => { if (c.where['SEXP']?.[0] === 1 && c.age![0] >= 25 && c.age![1] <= 34) tables.get('G04')![i] = 3; }); // 30
    g18.cells.forEach((c, i) => { if (c.where['SEXP']?.[0] === 1 && c.age![0] === 25) tables.get('G18')![i] = 8; }); // 24
    const targets: SuburbTargets = { salCode: 'X', tables, aggregates };
    const group = ageFigures(targets).find((f) => f.sex === 1 && f.lo === 25 && f.hi === 34)!;
    expect(group.value).toBeCloseTo((30 + 30 + 24) / 3, 9);
  });

  it('without published subtotals, the ages come from G04 alone', () => {
    const g04 = new Float64Array(spec('G04').cells.length).fill(1);
    const figures = ageFigures({ salCode: 'X', tables: new Map([['G04', g04]]) });
    expect(figures).toHaveLength(spec('G04').cells.length);
  });
});
