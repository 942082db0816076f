/**
 * Raking (iterative proportional fitting) of a 2-D seed table to its row and column totals.
 *
 * The seed is stored flat (row-major over `shape`, [rows, columns]); the constraints fix the row
 * sums (dims [0]) and then the column sums (dims [1]): every caller's case, and the only one it
 * takes. A zero in the seed is a structural zero and stays zero. Perturbed census tables
 * disagree, so callers should scale every constraint to one agreed total first (see scaleTo);
 * otherwise IPF oscillates, which the diagnostics reveal.
 */

export interface MarginConstraint {
  /** Dimensions this margin keeps, ascending (e.g. [0] for row totals of a 2-D table). */
  readonly dims: readonly number[];
  /** Target sums, row-major over the kept dimensions. */
  readonly target: ArrayLike<number>;
}

export interface RakeOptions {
  readonly maxIterations?: number;
  /** Stop when every margin is within this absolute distance of its target. */
  readonly tolerance?: number;
}

export interface RakeResult {
  readonly values: Float64Array;
  readonly iterations: number;
  /** Largest |fitted margin − target| over all constraints after the last sweep. */
  readonly maxResidual: number;
  readonly converged: boolean;
}

export function rake(
  seed: ArrayLike<number>,
  shape: readonly number[],
  constraints: readonly MarginConstraint[],
  options: RakeOptions = {},
): RakeResult {
  const maxIterations = options.maxIterations ?? 200;
  const tolerance = options.tolerance ?? 1e-7;
  const [rowsMargin, columnsMargin] = constraints;
  if (shape.length !== 2 || constraints.length !== 2 || rowsMargin!.dims.join() !== '0' || columnsMargin!.dims.join() !== '1') {
    throw new RangeError(`rake fits a 2-D table to its row totals (dims [0]) then its column totals (dims [1]); got shape [${shape.join(', ')}] with dims ${constraints.map((c) => `[${c.dims.join(', ')}]`).join(', ')}`);
  }
  const cells = shape[0]! * shape[1]!;
  if (seed.length !== cells) throw new RangeError(`seed has ${seed.length} cells, shape needs ${cells}`);
  const values = Float64Array.from(seed, (v) => (v > 0 ? v : 0));
  return rakeRowsColumns(values, shape[0]!, shape[1]!, rowsMargin!.target, columnsMargin!.target, maxIterations, tolerance);
}

/**
 * Each sweep scales the rows to their totals, then the columns to theirs; a row or column with
 * no mass cannot be fitted and is left alone. The row sums the residual check takes are the ones
 * the next sweep starts from.
 */
function rakeRowsColumns(values: Float64Array, rows: number, columns: number, rowTargets: ArrayLike<number>, columnTargets: ArrayLike<number>, maxIterations: number, tolerance: number): RakeResult {
  if (rowTargets.length !== rows) throw new RangeError(`margin over dims 0 needs ${rows} targets`);
  if (columnTargets.length !== columns) throw new RangeError(`margin over dims 1 needs ${columns} targets`);
  const rowSums = new Float64Array(rows);
  const columnSums = new Float64Array(columns);
  const sumRows = () => {
    for (let r = 0, c = 0; r < rows; r++) {
      let s = 0;
      for (let j = 0; j < columns; j++, c++) s += values[c]!;
      rowSums[r] = s;
    }
  };
  const sumColumns = () => {
    columnSums.fill(0);
    for (let r = 0, c = 0; r < rows; r++) for (let j = 0; j < columns; j++, c++) columnSums[j]! += values[c]!;
  };
  /** Largest distance of rowSums and columnSums from their targets. */
  const worstOfSums = (): number => {
    let worst = 0;
    for (let k = 0; k < rows; k++) worst = Math.max(worst, Math.abs(rowSums[k]! - rowTargets[k]!));
    for (let k = 0; k < columns; k++) worst = Math.max(worst, Math.abs(columnSums[k]! - columnTargets[k]!));
    return worst;
  };
  const residual = (): number => {
    sumRows();
    sumColumns();
    return worstOfSums();
  };
  let iterations = 0;
  let maxResidual = residual();
  // A sweep in two passes over the table, not four: the row scaling sums the columns as it goes,
  // and the column scaling the rows and columns the residual takes (each sum added up in the same
  // order as a pass of its own would, so the figures are the same to the last bit).
  const columnFactors = new Float64Array(columns);
  while (maxResidual > tolerance && iterations < maxIterations) {
    iterations++;
    // rowSums hold the sums of the values as they are (the residual's).
    columnSums.fill(0);
    for (let r = 0, c = 0; r < rows; r++) {
      const s = rowSums[r]!;
      const factor = s > 0 ? Math.max(0, rowTargets[r]!) / s : 1;
      for (let j = 0; j < columns; j++, c++) columnSums[j]! += values[c] = values[c]! * factor;
    }
    for (let k = 0; k < columns; k++) {
      const s = columnSums[k]!;
      columnFactors[k] = s > 0 ? Math.max(0, columnTargets[k]!) / s : 1;
    }
    columnSums.fill(0);
    for (let r = 0, c = 0; r < rows; r++) {
      let s = 0;
      for (let j = 0; j < columns; j++, c++) {
        const v = (values[c] = values[c]! * columnFactors[j]!);
        s += v;
        columnSums[j]! += v;
      }
      rowSums[r] = s;
    }
    maxResidual = worstOfSums();
  }
  return { values, iterations, maxResidual, converged: maxResidual <= tolerance };
}

/** A copy of `values` (negatives as 0) scaled so it sums to `total`; all-zero input stays zero. */
export function scaleTo(values: ArrayLike<number>, total: number): Float64Array {
  const out = Float64Array.from(values, (v) => (v > 0 ? v : 0));
  let s = 0;
  for (let i = 0; i < out.length; i++) s += out[i] as number;
  if (s > 0) for (let i = 0; i < out.length; i++) out[i] = ((out[i] as number) * total) / s;
  return out;
}
