import { describe, expect, it } from 'vitest';
import { cellInside, gcpTable } from '../../../../src/synthesis/census/gcp/table.ts';
import { tableById } from '../../../../src/synthesis/census/tables.ts';
import { categoryIndex } from '../../../../src/synthesis/census/variables.ts';

describe('gcpTable: a fitted table read whole through its vocabulary', () => {
  it('splits G46 into its 144 age × sex × labour force cells and the totals over them', () => {
    const g46 = gcpTable('G46', 'persons', 'G46', 'P_Tot_Tot');
    expect(g46.cells).toHaveLength(9 * 2 * 8);
    expect(g46.cells.every((c) => c.age && c.where['SEXP']?.length === 1 && c.where['LFSP']?.length === 1)).toBe(true);
    // No cell holds another, and every aggregate holds at least one cell.
    for (const cell of g46.cells) expect(g46.cells.filter((o) => o !== cell && cellInside(o, cell))).toEqual([]);
    for (const agg of g46.otherCells) expect(g46.cells.some((c) => cellInside(c, agg))).toBe(true);
    const fullTime1519 = g46.cells.find((c) => c.header === 'M_Emp_FullT_15_19');
    expect(fullTime1519).toEqual({ header: 'M_Emp_FullT_15_19', where: { SEXP: [0], LFSP: [categoryIndex('LFSP', 'Employed, worked full-time')] }, age: [15, 19] });
  });

  it('reads G17 as its hand-written spec does (the same cells and totals)', () => {
    const hand = tableById('G17');
    const read = gcpTable('G17', 'persons', hand.description, hand.totalHeader!);
    const sorted = (xs: readonly string[]) => [...xs].sort();
    expect(sorted(read.cells.map((c) => c.header))).toEqual(sorted(hand.cells.map((c) => c.header)));
    expect(sorted(read.otherHeaders)).toEqual(sorted(hand.otherHeaders));
  });

  it('refuses a total the table does not have', () => {
    expect(() => gcpTable('G46', 'persons', 'G46', 'No_such_total')).toThrow(/no column No_such_total/);
  });

  it('cellInside: a variable left out means every category, ages nest', () => {
    const inner = { header: 'a', where: { SEXP: [0], LFSP: [1] }, age: [20, 24] as const };
    expect(cellInside(inner, { header: 'b', where: { SEXP: [0] }, age: [15, 115] })).toBe(true);
    expect(cellInside(inner, { header: 'c', where: { SEXP: [0] }, age: [25, 34] })).toBe(false);
    expect(cellInside(inner, { header: 'd', where: { SEXP: [1] } })).toBe(false);
    expect(cellInside({ header: 'e', where: { SEXP: [0] } }, inner)).toBe(false);
  });
});
