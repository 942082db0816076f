import { describe, expect, it } from 'vitest';
import { coarsenPopulation, coarseColumnMap } from '../../../src/synthesis/synthesizer/coarsen.ts';
import { VARIABLES, variableByCode } from '../../../src/synthesis/census/variables.ts';
import type { Population } from '../../../src/synthesis/census/population.ts';

function toy(): Population {
  const persons = 3;
  const col = (code: string, values: number[]) => [code, Uint8Array.from(values)] as const;
  return {
    persons: {
      count: persons,
      age: Uint8Array.from([30, 40, 50]),
      dwelling: Uint32Array.from([0, 0, 0]),
      family: Int32Array.from([0, 0, -1]),
      variables: Object.fromEntries([col('INCP', [0, 8, 15]), col('SEXP', [0, 1, 0]), col('BPLP', [0, 5, 10])]),
    },
    families: { count: 1, dwelling: Uint32Array.from([0]), variables: Object.fromEntries([col('FINF', [17])]) },
    dwellings: { count: 1, variables: Object.fromEntries([col('STRD', [4]), col('TEND', [1])]) },
  };
}

describe('coarsenPopulation', () => {
  it('maps every coarsenable column to its coarse labels and lists the codes', () => {
    const pop = toy();
    const { population, coarsened } = coarsenPopulation(pop);
    expect(coarsened).toEqual(['BPLP', 'INCP', 'FINF', 'STRD']);
    const label = (code: string, level: 'persons' | 'families' | 'dwellings', i: number) =>
      variableByCode(code).coarse!.categories[population[level].variables[code]![i]!];
    expect([0, 1, 2].map((i) => label('INCP', 'persons', i))).toEqual(['Negative/Nil income', '$1,000-$1,749', 'Not stated']);
    expect([0, 1, 2].map((i) => label('BPLP', 'persons', i))).toEqual(['Australia', 'Overseas', 'Not stated']);
    expect(label('FINF', 'families', 0)).toBe('Partial income stated');
    expect(label('STRD', 'dwellings', 0)).toBe('Flat or apartment');
    // Columns without a coarse version are shared; the input is unchanged.
    expect(population.persons.variables.SEXP).toBe(pop.persons.variables.SEXP);
    expect(population.dwellings.variables.TEND).toBe(pop.dwellings.variables.TEND);
    expect(Array.from(pop.persons.variables.INCP!)).toEqual([0, 8, 15]);
    expect(population.persons.age).toBe(pop.persons.age);
  });

  it('every coarse map sends each fine category to the label its catalogue entry names', () => {
    for (const v of VARIABLES.filter((x) => x.coarse)) {
      const map = coarseColumnMap(v);
      const labels = v.coarse!.categories;
      v.categories.forEach((_, fine) => expect(labels[map[fine]!], `${v.code} ${fine}`).toBe(v.coarse!.categories[v.coarse!.fromFine[fine]!]));
      expect(new Set(Array.from(map)).size).toBe(v.coarse!.categories.length);
    }
  });
});
