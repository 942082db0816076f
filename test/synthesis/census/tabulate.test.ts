import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Population } from '../../../src/synthesis/census/population.ts';
import type { TableSpec } from '../../../src/synthesis/census/table-spec.ts';
import { tableById } from '../../../src/synthesis/census/tables.ts';
import { tabulate, tabulateCells } from '../../../src/synthesis/census/tabulate.ts';
import { variablesOf } from '../../../src/synthesis/census/variables.ts';

/** A population whose every variable is 0 except those given. */
function toy(persons: { age: number; dwelling: number; family: number; vars?: Record<string, number> }[], families: { dwelling: number; vars?: Record<string, number> }[], dwellings: Record<string, number>[]): Population {
  const cols = (dataset: 'persons' | 'families' | 'dwellings', rows: Record<string, number>[]) =>
    Object.fromEntries(variablesOf(dataset).map((v) => [v.code, Uint8Array.from(rows.map((r) => r[v.code] ?? 0))]));
  return {
    persons: {
      count: persons.length,
      age: Uint8Array.from(persons.map((p) => p.age)),
      dwelling: Uint32Array.from(persons.map((p) => p.dwelling)),
      family: Int32Array.from(persons.map((p) => p.family)),
      variables: cols('persons', persons.map((p) => p.vars ?? {})),
    },
    families: { count: families.length, dwelling: Uint32Array.from(families.map((f) => f.dwelling)), variables: cols('families', families.map((f) => f.vars ?? {})) },
    dwellings: { count: dwellings.length, variables: cols('dwellings', dwellings) },
  };
}

const at = (table: TableSpec, counts: Float64Array, header: string) => {
  const i = table.cells.findIndex((c) => c.header === header);
  if (i < 0) throw new Error(`no cell ${header}`);
  return counts[i]!;
};

describe('tabulate', () => {
  // A couple aged 34 and 31 with children of 3 and 0, and a lone woman of 82.
  const pop = toy(
    [
      { age: 34, dwelling: 0, family: 0, vars: { SEXP: 0, INCP: 9, LFSP: 0, OCCP: 1 } },
      { age: 31, dwelling: 0, family: 0, vars: { SEXP: 1, INCP: 5, LFSP: 1, OCCP: 3 } },
      { age: 3, dwelling: 0, family: 0, vars: { SEXP: 1, INCP: 16, LFSP: 8, OCCP: 9 } },
      { age: 0, dwelling: 0, family: 0, vars: { SEXP: 0, INCP: 16, LFSP: 8, OCCP: 9 } },
      { age: 82, dwelling: 1, family: -1, vars: { SEXP: 1, INCP: 3, LFSP: 6, OCCP: 9 } },
    ],
    [{ dwelling: 0, vars: { FMCF: 1 } }],
    [{ STRD: 0, NPRD: 3, HHCD: 0 }, { STRD: 4, NPRD: 0, HHCD: 1 }],
  );

  it('counts single-year and grouped ages by sex (G04)', () => {
    const g04 = tableById('G04');
    const counts = tabulate(pop, g04);
    expect(at(g04, counts, 'Age_yr_0_M')).toBe(1);
    expect(at(g04, counts, 'Age_yr_3_F')).toBe(1);
    expect(at(g04, counts, 'Age_yr_34_M')).toBe(1);
    expect(at(g04, counts, 'Age_yr_80_84_F')).toBe(1);
    expect(at(g04, counts, 'Age_yr_80_84_M')).toBe(0);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    const other = tabulateCells(pop, 'persons', g04.otherCells);
    expect(other[g04.otherHeaders.indexOf('Tot_P')]).toBe(5);
    expect(other[g04.otherHeaders.indexOf('Age_yr_0_4_P')]).toBe(2);
  });

  it('counts income by age band and sex, persons 15+ only (G17)', () => {
    const g17 = tableById('G17');
    const counts = tabulate(pop, g17);
    expect(at(g17, counts, 'M_1250_1499_25_34_yrs')).toBe(1);
    expect(at(g17, counts, 'F_500_649_25_34_yrs')).toBe(1);
    expect(at(g17, counts, 'F_300_399_75_84_yrs')).toBe(1);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
  });

  it('counts families and the persons in them (G29 _F and _P)', () => {
    const g29 = tableById('G29');
    expect(at(g29, tabulate(pop, g29), 'CF_ChU15_a_Total_F')).toBe(1);
    const other = tabulateCells(pop, 'families', g29.otherCells);
    expect(other[g29.otherHeaders.indexOf('CF_ChU15_a_Total_P')]).toBe(4);
    expect(other[g29.otherHeaders.indexOf('Total_F')]).toBe(1);
  });

  it('counts dwellings by household composition and size (G35)', () => {
    const g35 = tableById('G35');
    const counts = tabulate(pop, g35);
    expect(at(g35, counts, 'Num_Psns_UR_4_FamHhold')).toBe(1);
    expect(at(g35, counts, 'Num_Psns_UR_1_NonFamHhold')).toBe(1);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('property: disjoint cells that cover the universe sum to the record count', () => {
    const g04 = tableById('G04');
    const g36 = tableById('G36');
    fc.assert(
      fc.property(
        fc.array(fc.record({ age: fc.integer({ min: 0, max: 115 }), sex: fc.integer({ min: 0, max: 1 }) }), { maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 30 }),
        (people, structures) => {
          const p = toy(people.map((x) => ({ age: x.age, dwelling: 0, family: -1, vars: { SEXP: x.sex } })), [], structures.map((s) => ({ STRD: s })));
          expect(tabulate(p, g04).reduce((a, b) => a + b, 0)).toBe(people.length);
          expect(tabulate(p, g36).reduce((a, b) => a + b, 0)).toBe(structures.length);
        },
      ),
      { numRuns: 50 },
    );
  });
});
