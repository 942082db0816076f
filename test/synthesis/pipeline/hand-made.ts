/**
 * Three areas' hand-made inputs with unpublished cells: A and B in LGA L1 (NSW, which publishes no
 * state table), C in L2 (VIC, which does); T1 is estimated from a parent where an area leaves a
 * cell out, T2's first cell is published nowhere (a structural zero).
 */
import type { CensusInputs, SuburbGeography } from '../../../src/synthesis/census/inputs.ts';

const N = Number.NaN;
export const cells = (...values: number[]) => Float64Array.from(values);

export const area = (salCode: string, lgaCode: string, state: 'NSW' | 'VIC'): SuburbGeography => ({
  level: 'sal',
  salCode,
  absName: salCode,
  name: salCode,
  suburbId: `${salCode} (${state})`,
  state,
  postcodes: [],
  lgas: [{ code: lgaCode, name: lgaCode, ratio: 1 }],
  postcode: '',
  lgaCode,
  lgaName: lgaCode,
  gccsa: '',
  remoteness: 1,
  areaSqkm: 1,
});

export function handMadeInputs(level: CensusInputs['level'] = 'sal'): CensusInputs {
  const byArea = <T>(entries: Record<string, T>) => new Map(Object.entries(entries));
  return {
    level,
    suburbs: [area('A', 'L1', 'NSW'), area('B', 'L1', 'NSW'), area('C', 'L2', 'VIC')],
    tables: new Map([
      ['T1', byArea({ A: cells(1, N, 3), B: cells(2, 4, 6), C: cells(5, 5, N) })],
      ['T2', byArea({ A: cells(N, 4) })],
    ]),
    totals: new Map([['G01', byArea({ A: 120, B: 2000, C: 9000 })]]),
    aggregates: new Map([['T1', byArea({ A: cells(4), B: cells(12) })]]),
    parents: {
      states: new Map([['VIC', new Map([['T1', cells(10, 10, N)]])]]),
      australia: new Map([
        ['T1', cells(100, 100, 50)],
        ['T2', cells(N, 9)],
      ]),
    },
  };
}
