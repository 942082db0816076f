import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TableSpec } from '../../../src/synthesis/census/table-spec.ts';
import { INPUT_TABLES } from '../../../src/synthesis/census/tables.ts';
import { cellsWithinSubtotals, noiseFloorSrmse } from '../../../src/synthesis/quality/floor.ts';

/** Persons by sex (0, 1) × two age groups, with each sex's subtotal and the total. */
const spec: TableSpec = {
  id: 'T',
  files: ['T'],
  universe: 'persons',
  population: { label: 'Persons', where: {} },
  description: 'toy',
  cells: [
    { header: 'M_0_14', where: { SEXP: [0] }, age: [0, 14] },
    { header: 'M_15_', where: { SEXP: [0] }, age: [15, 115] },
    { header: 'F_0_14', where: { SEXP: [1] }, age: [0, 14] },
    { header: 'F_15_', where: { SEXP: [1] }, age: [15, 115] },
  ],
  otherHeaders: ['M_Tot', 'F_Tot', 'P_0_14', 'Tot'],
  otherCells: [
    { header: 'M_Tot', where: { SEXP: [0] } },
    { header: 'F_Tot', where: { SEXP: [1] } },
    { header: 'P_0_14', where: {}, age: [0, 14] },
    { header: 'Tot', where: {} },
  ],
};

describe("the census's own noise floor", () => {
  it('finds the cells within each subtotal from the spec', () => {
    expect(cellsWithinSubtotals(spec)).toEqual([[0, 1], [2, 3], [0, 2], [0, 1, 2, 3]]);
  });

  it('is σ̂ / mean cell, σ̂² = Σ D² / Σ (k + 1) over subtotals the records confirm', () => {
    const records = [10, 30, 12, 28];
    const recordsSubtotals = [40, 40, 22, 80];
    // Published: cells and subtotals each off by a little.
    const published = [11, 29, 12, 30];
    const subtotals = [42, 40, 22, 79];
    const d = [42 - 40, 40 - 42, 22 - 23, 79 - 82];
    const k = [2, 2, 2, 4];
    const loss = d.reduce((s, x) => s + x, 0) / k.reduce((s, x) => s + x, 0);
    const variance = d.reduce((s, x, j) => s + (x - k[j]! * loss) ** 2, 0) / (3 + 3 + 3 + 5);
    expect(noiseFloorSrmse(spec, { published, subtotals, recordsCells: records, recordsSubtotals })).toBeCloseTo(Math.sqrt(variance + loss * loss) / (82 / 4), 12);
  });

  it("takes zeroed small cells as a loss per cell, not as noise growing with the subtotal's size", () => {
    // Every cell published one short (small cells zeroed), the subtotals exact: no scatter, a loss of 1 a cell.
    const records = [10, 30, 12, 28];
    const recordsSubtotals = [40, 40, 22, 80];
    const published = records.map((x) => x - 1);
    const floor = noiseFloorSrmse(spec, { published, subtotals: recordsSubtotals, recordsCells: records, recordsSubtotals });
    expect(floor).toBeCloseTo(1 / (76 / 4), 12);
  });

  it('leaves out subtotals the records do not confirm and those not published, and is 0 without noise (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 4, maxLength: 4 }), (cells) => {
        const sums = [cells[0]! + cells[1]!, cells[2]! + cells[3]!, cells[0]! + cells[2]!, cells[0]! + cells[1]! + cells[2]! + cells[3]!];
        const floor = noiseFloorSrmse(spec, { published: cells, subtotals: sums, recordsCells: cells, recordsSubtotals: sums });
        if (sums[3]! > 0) expect(floor).toBe(0);
        // A subtotal whose records disagree with its cells' records is not used; an unpublished one neither.
        const off = noiseFloorSrmse(spec, { published: cells, subtotals: [sums[0]! + 50, Number.NaN, sums[2]!, sums[3]!], recordsCells: cells, recordsSubtotals: [sums[0]! + 1, sums[1]!, sums[2]!, sums[3]!] });
        if (sums[3]! > 0 && sums[2]! > 0) expect(off).toBe(0);
      }),
    );
  });

  it('finds subtotals in the real input tables', () => {
    const g04 = INPUT_TABLES.find((t) => t.id === 'G04')!;
    const within = cellsWithinSubtotals(g04);
    expect(within.filter((cells) => cells.length >= 2).length).toBeGreaterThan(10);
  });
});
