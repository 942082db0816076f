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
});
