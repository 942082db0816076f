import { srmse, totalAbsoluteError } from '../quality/metrics.ts';

/** One (suburb, table) comparison of synthetic counts with a target. */
export interface TableFit {
  readonly tableId: string;
  readonly srmse: number | undefined;
  readonly totalAbsoluteError: number;
  readonly targetTotal: number;
  readonly syntheticTotal: number;
  /** The census's own noise floor for this table in this area (quality/floor.ts), where its subtotals tell. */
  readonly floor?: number;
}

/**
 * One (area, table) score: the records' cells against the published ones, unpublished cells
 * (NaN) left out, with the table's noise floor in this area where the caller measured it.
 */
export function compareTable(tableId: string, synthetic: Float64Array, publishedTarget: Float64Array, floor?: number): TableFit {
  // Unpublished cells (NaN) are no census figure: the fit is scored on the published ones.
  const keep = publishedTarget.map((v) => (Number.isNaN(v) ? 0 : 1));
  const target = keep.every((k) => k === 1) ? publishedTarget : publishedTarget.filter((_, i) => keep[i] === 1);
  if (target !== publishedTarget) synthetic = synthetic.filter((_, i) => keep[i] === 1);
  let targetTotal = 0;
  let syntheticTotal = 0;
  for (let i = 0; i < target.length; i++) {
    targetTotal += target[i]!;
    syntheticTotal += synthetic[i]!;
  }
  return {
    tableId,
    srmse: srmse(synthetic, target),
    totalAbsoluteError: totalAbsoluteError(synthetic, target),
    targetTotal,
    syntheticTotal,
    ...(floor !== undefined ? { floor } : {}),
  };
}
