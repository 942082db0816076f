import { describe, expect, it } from 'vitest';
import { cellValue, planTable, strataOf, type CellLike } from '../../../../src/synthesis/synthesizer/attributes/plan.ts';

const info = (code: string) => (code === 'SEX' ? { count: 2, notApplicable: -1 } : { count: 4, notApplicable: 3 });

describe('planTable', () => {
  it('turns a total into a remainder cell for the categories its inner cells leave out (G01 style)', () => {
    // X: 0 = rare, 1 = other, 2 = not stated, 3 = n/a. The table counts "rare" and all persons, by sex.
    const cells: CellLike[] = [
      { where: { SEX: [0] } },
      { where: { SEX: [1] } },
      { where: { SEX: [0], X: [0] } },
      { where: { SEX: [1], X: [0] } },
      { where: { Y: [1] } }, // names another variable: not relevant
    ];
    const plan = planTable('T', cells, ['X'], new Set(['SEX']), info);
    expect(plan.conditionVars).toEqual(['SEX']);
    expect(plan.strata).toHaveLength(2);
    const male = plan.strata[0]!;
    expect(male.cells.map((c) => c.pattern[0])).toEqual([[0], [1, 2, 3]]);
    expect(cellValue(male.cells[1]!, [10, 12, 3, 4, 99])).toBe(7);
    expect(cellValue(male.cells[1]!, [2, 12, 3, 4, 99])).toBe(0); // never negative
    expect(male.uncovered).toEqual([]);
  });

  it('lists the categories a table of attendees leaves out, but not n/a alone', () => {
    const partial = planTable('P', [{ where: { X: [0] } }, { where: { X: [1] } }], ['X'], new Set(), info);
    expect(partial.strata[0]!.uncovered).toEqual([[2, 3]]);
    const complete = planTable('C', [{ where: { X: [0] } }, { where: { X: [1] } }, { where: { X: [2] } }], ['X'], new Set(), info);
    expect(complete.strata[0]!.uncovered).toEqual([]);
  });

  it('finds the box of combinations a joint table leaves out (G37: renters of unnamed landlords)', () => {
    const infoJ = (code: string) => (code === 'T' ? { count: 3, notApplicable: -1 } : { count: 4, notApplicable: 3 });
    // T: 0 owned, 1 rented, 2 not stated; L: landlord 0, 1, 2 (unnamed), 3 n/a.
    const cells: CellLike[] = [{ where: { T: [0] } }, { where: { T: [1], L: [0] } }, { where: { T: [1], L: [1] } }, { where: { T: [2] } }];
    expect(planTable('J', cells, ['T', 'L'], new Set(), infoJ).strata[0]!.uncovered).toEqual([[1], [2]]);
  });

  it('drops subtotals and matches units to strata by condition and age', () => {
    const cells: CellLike[] = [
      { where: { SEX: [0], X: [0] }, age: [15, 115] },
      { where: { SEX: [0], X: [1] }, age: [15, 115] },
      { where: { SEX: [1], X: [0] }, age: [15, 115] },
      { where: { SEX: [1], X: [1] }, age: [15, 115] },
      { where: { X: [0] }, age: [15, 115] }, // subtotal over sex
    ];
    const plan = planTable('A', cells, ['X'], new Set(['SEX']), info);
    expect(plan.strata.map((s) => s.cells.map((c) => c.source))).toEqual([[0, 1], [2, 3]]);
    const sex = Uint8Array.from([0, 1, 0, 1]);
    const age = Uint8Array.from([30, 30, 10, 15]);
    expect(Array.from(strataOf(plan, 4, [sex], age))).toEqual([0, 1, -1, 1]);
    expect(Array.from(strataOf(plan, 4, [sex], age, Uint8Array.from([1, 0, 1, 1])))).toEqual([0, -1, -1, 1]);
  });
});
