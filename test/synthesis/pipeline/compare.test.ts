import { describe, expect, it } from 'vitest';
import { srmse } from '../../../src/synthesis/quality/metrics.ts';
import { compareTable } from '../../../src/synthesis/pipeline/compare.ts';

const cells = (...values: number[]) => Float64Array.from(values);

describe('compareTable', () => {
  it('scores records that match the published cells at zero', () => {
    expect(compareTable('G04', cells(1, 2, 3), cells(1, 2, 3))).toEqual({ tableId: 'G04', srmse: 0, totalAbsoluteError: 0, targetTotal: 6, syntheticTotal: 6 });
  });

  it('scores the published cells alone: an unpublished cell is no census figure', () => {
    const fit = compareTable('G17', cells(4, 50, 6), cells(5, Number.NaN, 5));
    expect(fit.targetTotal).toBe(10);
    expect(fit.syntheticTotal).toBe(10);
    expect(fit.totalAbsoluteError).toBe(2);
    expect(fit.srmse).toBe(srmse(cells(4, 6), cells(5, 5)));
  });

  it("carries the area's noise floor for the table where it was measured", () => {
    expect(compareTable('G01', cells(1), cells(2), 0.25).floor).toBe(0.25);
    expect('floor' in compareTable('G01', cells(1), cells(2))).toBe(false);
  });

  it('does not change the cells it compares', () => {
    const synthetic = cells(1, 2);
    const published = cells(Number.NaN, 2);
    compareTable('G01', synthetic, published);
    expect(synthetic).toEqual(cells(1, 2));
    expect(published).toEqual(cells(Number.NaN, 2));
  });

  it('scores own cells and cells taken from parents apart where the table is partly the area\'s own (issue 39)', () => {
    const fit = compareTable('G04', cells(10, 20, 7, 9), cells(10, 18, 5, Number.NaN), undefined, Uint8Array.of(0, 0, 2, 1));
    expect(fit.own).toBe(srmse(cells(10, 20), cells(10, 18)));
    expect(fit.derived).toBe(srmse(cells(7), cells(5)));
    expect(fit.srmse).toBe(srmse(cells(10, 20, 7), cells(10, 18, 5)));
    // A table wholly the area's own carries neither.
    expect(compareTable('G14', cells(1, 2), cells(1, 2), undefined, Uint8Array.of(0, 0))).toEqual(compareTable('G14', cells(1, 2), cells(1, 2)));
  });
});
