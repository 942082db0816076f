import { srmse, totalAbsoluteError } from '../quality/metrics.ts';
import { SOURCE } from '../census/own-cells.ts';

/** One (suburb, table) comparison of synthetic counts with a target. */
export interface TableFit {
  readonly tableId: string;
  readonly srmse: number | undefined;
  readonly totalAbsoluteError: number;
  readonly targetTotal: number;
  readonly syntheticTotal: number;
  /** The census's own noise floor for this table in this area (quality/floor.ts), where its subtotals tell. */
  readonly floor?: number;
  /**
   * Where the table is partly the area's own (suburbs built from SAL part files, census/own-cells.ts):
   * the SRMSE over its own published cells, and over the cells taken from parents (derived, or
   * bound to own figures of another table). Absent where every cell is the area's own.
   */
  readonly own?: number;
  readonly derived?: number;
}

/** SRMSE over the cells `keep` says, published ones only; undefined where none. */
function srmseWhere(synthetic: Float64Array, target: Float64Array, keep: (i: number) => boolean): number | undefined {
  const s: number[] = [];
  const t: number[] = [];
  for (let i = 0; i < target.length; i++) {
    if (!keep(i) || Number.isNaN(target[i]!)) continue;
    s.push(synthetic[i]!);
    t.push(target[i]!);
  }
  return t.length > 0 ? srmse(s, t) : undefined;
}

/**
 * One (area, table) score: the records' cells against the published ones, unpublished cells
 * (NaN) left out, with the table's noise floor in this area where the caller measured it.
 */
export function compareTable(tableId: string, synthetic: Float64Array, publishedTarget: Float64Array, floor?: number, sources?: Uint8Array): TableFit {
  const parts = sources && sources.some((v) => v !== SOURCE.own) ? sourcesFit(synthetic, publishedTarget, sources) : {};
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
    ...parts,
  };
}

function sourcesFit(synthetic: Float64Array, target: Float64Array, sources: Uint8Array): { own?: number; derived?: number } {
  const own = srmseWhere(synthetic, target, (i) => sources[i] === SOURCE.own);
  const derived = srmseWhere(synthetic, target, (i) => sources[i] !== SOURCE.own);
  return { ...(own !== undefined ? { own } : {}), ...(derived !== undefined ? { derived } : {}) };
}
