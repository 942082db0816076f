import { describe, expect, it } from 'vitest';
import { sumTablesByParent } from '../../../src/synthesis/pipeline/parent-targets.ts';
import { area, cells } from './hand-made.ts';

describe('sumTablesByParent', () => {
  const suburbs = [area('A', 'L1', 'NSW'), area('B', 'L1', 'NSW'), area('C', 'L2', 'NSW'), area('D', 'L3', 'VIC')];
  const tables = new Map([
    ['T1', new Map([['A', cells(1, 2)], ['B', cells(3, 4)], ['C', cells(10, 20)], ['D', cells(5, 6)]])],
    ['T2', new Map([['A', cells(1, Number.NaN)], ['C', cells(2, 3)], ['X', cells(100, 100)]])],
  ]);
  const { byLga, byState } = sumTablesByParent(suburbs, tables);

  it("sums each table over every LGA's and every state's areas", () => {
    expect(byLga.get('L1')!.get('T1')).toEqual(cells(4, 6));
    expect(byLga.get('L2')!.get('T1')).toEqual(cells(10, 20));
    expect(byState.get('NSW')!.get('T1')).toEqual(cells(14, 26));
    expect(byState.get('VIC')!.get('T1')).toEqual(cells(5, 6));
  });

  it('leaves out areas without the table and areas not of the level, and keeps an unpublished cell unpublished', () => {
    expect(byLga.get('L1')!.get('T2')).toEqual(cells(1, Number.NaN));
    expect(byState.get('NSW')!.get('T2')).toEqual(cells(3, Number.NaN));
    expect(byState.get('VIC')!.has('T2')).toBe(false);
    expect(byLga.get('L3')!.has('T2')).toBe(false);
  });

  it('does not change the areas it sums', () => {
    expect(tables.get('T1')!.get('A')).toEqual(cells(1, 2));
  });
});
