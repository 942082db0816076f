/**
 * Raking (iterative proportional fitting) of a seed array to marginal totals.
 *
 * The seed is an n-dimensional array stored flat (row-major over `shape`). Each constraint
 * fixes the sums over some of the dimensions (`dims`, in increasing order) to `target`
 * (row-major over those dimensions). A zero in the seed is a structural zero and stays zero.
 * Perturbed census tables disagree, so callers should scale every constraint to one agreed
 * total first (see scaleTo); otherwise IPF oscillates, which the diagnostics reveal.
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

/** Maps every flat cell to its index in the margin over `dims`. */
function marginIndex(shape: readonly number[], dims: readonly number[]): { index: Int32Array; size: number } {
  const cells = shape.reduce((a, b) => a * b, 1);
  const index = new Int32Array(cells);
  const strides = new Array<number>(shape.length).fill(0);
  let size = 1;
  for (let k = dims.length - 1; k >= 0; k--) {
    const d = dims[k] as number;
    strides[d] = size;
    size *= shape[d] as number;
  }
  const coord = new Array<number>(shape.length).fill(0);
  for (let c = 0; c < cells; c++) {
    let m = 0;
    for (let d = 0; d < shape.length; d++) m += (coord[d] as number) * (strides[d] as number);
    index[c] = m;
    for (let d = shape.length - 1; d >= 0; d--) {
      coord[d] = (coord[d] as number) + 1;
      if ((coord[d] as number) < (shape[d] as number)) break;
      coord[d] = 0;
    }
  }
  return { index, size };
}

export function rake(
  seed: ArrayLike<number>,
  shape: readonly number[],
  constraints: readonly MarginConstraint[],
  options: RakeOptions = {},
): RakeResult {
  const maxIterations = options.maxIterations ?? 200;
  const tolerance = options.tolerance ?? 1e-7;
  const cells = shape.reduce((a, b) => a * b, 1);
  if (seed.length !== cells) throw new RangeError(`seed has ${seed.length} cells, shape needs ${cells}`);
  const values = Float64Array.from(seed, (v) => (v > 0 ? v : 0));
  const [rowsMargin, columnsMargin] = constraints;
  if (shape.length === 2 && constraints.length === 2 && rowsMargin!.dims.join() === '0' && columnsMargin!.dims.join() === '1')
    return rakeRowsColumns(values, shape[0]!, shape[1]!, rowsMargin!.target, columnsMargin!.target, maxIterations, tolerance);
  const maps = constraints.map((c) => {
    const m = marginIndex(shape, c.dims);
    if (m.size !== c.target.length) throw new RangeError(`margin over dims ${c.dims.join(',')} needs ${m.size} targets`);
    return { ...m, target: c.target, sums: new Float64Array(m.size) };
  });

  const residual = (): number => {
    let worst = 0;
    for (const m of maps) {
      m.sums.fill(0);
      for (let c = 0; c < cells; c++) { const k = m.index[c] as number; m.sums[k] = (m.sums[k] as number) + (values[c] as number); }
      for (let k = 0; k < m.size; k++) worst = Math.max(worst, Math.abs((m.sums[k] as number) - (m.target[k] as number)));
    }
    return worst;
  };

  let iterations = 0;
  let maxResidual = residual();
  while (maxResidual > tolerance && iterations < maxIterations) {
    iterations++;
    for (const m of maps) {
      m.sums.fill(0);
      for (let c = 0; c < cells; c++) { const k = m.index[c] as number; m.sums[k] = (m.sums[k] as number) + (values[c] as number); }
      // Factor per margin cell; a margin cell with no mass cannot be fitted and is left alone.
      for (let k = 0; k < m.size; k++) {
        const s = m.sums[k] as number;
        m.sums[k] = s > 0 ? Math.max(0, m.target[k] as number) / s : 1;
      }
      for (let c = 0; c < cells; c++) values[c] = (values[c] as number) * (m.sums[m.index[c] as number] as number);
    }
    maxResidual = residual();
  }
  return { values, iterations, maxResidual, converged: maxResidual <= tolerance };
}

/**
 * rake() of a 2-D array to its row and column totals (every caller's case), without the index
 * maps: the same sums in the same order, so the same values to the last bit, in about half the
 * time. The row sums the residual check takes are the ones the next sweep starts from.
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
  const residual = (): number => {
    sumRows();
    sumColumns();
    let worst = 0;
    for (let k = 0; k < rows; k++) worst = Math.max(worst, Math.abs(rowSums[k]! - rowTargets[k]!));
    for (let k = 0; k < columns; k++) worst = Math.max(worst, Math.abs(columnSums[k]! - columnTargets[k]!));
    return worst;
  };
  let iterations = 0;
  let maxResidual = residual();
  while (maxResidual > tolerance && iterations < maxIterations) {
    iterations++;
    // rowSums hold the sums of the values as they are (the residual's).
    for (let r = 0, c = 0; r < rows; r++) {
      const s = rowSums[r]!;
      const factor = s > 0 ? Math.max(0, rowTargets[r]!) / s : 1;
      for (let j = 0; j < columns; j++, c++) values[c] = values[c]! * factor;
    }
    sumColumns();
    for (let k = 0; k < columns; k++) {
      const s = columnSums[k]!;
      columnSums[k] = s > 0 ? Math.max(0, columnTargets[k]!) / s : 1;
    }
    for (let r = 0, c = 0; r < rows; r++) for (let j = 0; j < columns; j++, c++) values[c] = values[c]! * columnSums[j]!;
    maxResidual = residual();
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
