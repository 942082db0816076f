import { describe, expect, it } from 'vitest';
import { INPUT_TABLES, VALIDATION_TABLES, tableById } from '../../../src/synthesis/census/tables.ts';
import { categoryIndex, variableByCode } from '../../../src/synthesis/census/variables.ts';

describe('GCP table specs', () => {
  it('covers the tables the issue names', () => {
    const ids = INPUT_TABLES.map((t) => t.id);
    for (const id of ['G01', 'G04', 'G17', 'G29', 'G32', 'G33', 'G34', 'G35', 'G36', 'G37', 'G41', 'G42', 'G46', 'G49', 'G54', 'G60']) {
      expect(ids).toContain(id);
    }
  });

  it('has unique headers per table, a listed total, and cells over valid categories of the universe', () => {
    for (const t of [...INPUT_TABLES, ...VALIDATION_TABLES]) {
      const headers = [...t.cells.map((c) => c.header), ...t.otherHeaders];
      expect(new Set(headers).size, t.id).toBe(headers.length);
      expect(t.otherCells.map((c) => c.header)).toEqual(t.otherHeaders);
      if (t.totalHeader) expect(t.otherHeaders).toContain(t.totalHeader);
      for (const cell of [...t.cells, ...t.otherCells]) {
        for (const [code, allowed] of Object.entries(cell.where)) {
          const v = variableByCode(code);
          expect(v.dataset, `${t.id} ${cell.header}`).toBe(t.universe);
          for (const i of allowed) expect(i).toBeLessThan(v.categories.length);
        }
        if (cell.age) expect(t.universe).toBe('persons');
      }
    }
  });

  it('names each table\'s own population, which every one of its cells counts within', () => {
    const label = (id: string) => tableById(id).population.label;
    expect(label('G04')).toBe('Persons');
    expect(label('G27')).toBe('Persons in occupied private dwellings');
    expect(label('G35')).toBe('Occupied private dwellings');
    expect(tableById('G27').population.where).toEqual({ RLHP: expect.not.arrayContaining([categoryIndex('RLHP', 'Not applicable')]) });
    for (const id of ['G33', 'G34', 'G35', 'G36', 'G37', 'G38', 'G40', 'G41', 'G42'])
      expect(tableById(id).population.where['DWTD'], id).toEqual([categoryIndex('DWTD', 'Occupied private dwelling')]);
    for (const t of [...INPUT_TABLES, ...VALIDATION_TABLES]) {
      for (const cell of [...t.cells, ...t.otherCells]) {
        for (const [code, allowed] of Object.entries(t.population.where)) {
          expect(cell.where[code], `${t.id} ${cell.header}`).toBeDefined();
          for (const k of cell.where[code]!) expect(allowed, `${t.id} ${cell.header} ${code}`).toContain(k);
        }
      }
    }
  });

  it('uses the real ABS short headers where they are known', () => {
    const headers = (id: string) => [...tableById(id).cells.map((c) => c.header), ...tableById(id).otherHeaders];
    expect(headers('G04')).toEqual(expect.arrayContaining(['Age_yr_0_M', 'Age_yr_79_F', 'Age_yr_0_4_M', 'Age_yr_100_yr_over_F', 'Tot_P']));
    expect(headers('G17')).toEqual(expect.arrayContaining(['P_Neg_Nil_income_Tot', 'P_3500_more_Tot', 'P_PI_NS_ns_Tot', 'P_Tot_Tot']));
    expect(headers('G01')).toEqual(expect.arrayContaining(['Tot_P_M', 'Tot_P_F', 'Tot_P_P', 'Australian_citizen_M']));
    expect(headers('G36')).toEqual(expect.arrayContaining(['OPDs_Separate_house_Dwellings', 'OPDs_Tot_OPDs_Dwellings']));
    expect(headers('G29')).toEqual(expect.arrayContaining(['CF_no_children_F', 'CF_Total_F', 'OPF_Total_F', 'Total_F']));
  });

  it('G04 single-year cells cover ages 0-115 for each sex exactly once', () => {
    const g04 = tableById('G04');
    for (const sex of [0, 1]) {
      const covered = new Array(116).fill(0);
      for (const c of g04.cells.filter((c) => c.where.SEXP?.[0] === sex)) for (let a = c.age![0]; a <= c.age![1]; a++) covered[a]++;
      expect(covered.every((n) => n === 1)).toBe(true);
    }
  });
});
