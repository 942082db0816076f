/**
 * Integerisation: turning fitted real counts into whole records without losing totals.
 *
 * - largestRemainder: one dimension, exact total, every cell within 1 of its real value.
 * - controlledRound2D: a matrix whose row totals AND column totals are both exact (always
 *   possible in two dimensions when no cell is forbidden; structural zeros can make it
 *   impossible, and then the fewest forbidden cells are used and counted).
 */

/** Sum of an array of numbers. */
export function sum(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i] as number;
  return total;
}

/**
 * Integers that add up to `total` exactly, proportional to `values` (scaled to `total` first,
 * negatives treated as 0). Each result is floor or ceil of its scaled value, so it is within 1
 * of it. Ties go to the lower index (deterministic). When every value is 0, the total is
 * spread as evenly as possible from the first cell on.
 */
export function largestRemainder(values: ArrayLike<number>, total: number): Int32Array {
  const n = values.length;
  const out = new Int32Array(n);
  if (!Number.isInteger(total) || total < 0) throw new RangeError(`total must be a non-negative integer, got ${total}`);
  if (n === 0) {
    if (total !== 0) throw new RangeError('cannot place a positive total in zero cells');
    return out;
  }
  let positive = 0;
  for (let i = 0; i < n; i++) positive += Math.max(0, values[i] as number);
  if (!(positive > 0)) {
    const base = Math.floor(total / n);
    for (let i = 0; i < n; i++) out[i] = base + (i < total - base * n ? 1 : 0);
    return out;
  }
  const remainders = new Float64Array(n);
  let assigned = 0;
  for (let i = 0; i < n; i++) {
    const exact = (Math.max(0, values[i] as number) / positive) * total;
    const whole = Math.floor(exact);
    out[i] = whole;
    remainders[i] = exact - whole;
    assigned += whole;
  }
  let left = total - assigned;
  if (left > 0) {
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => (remainders[b] as number) - (remainders[a] as number) || a - b);
    for (let k = 0; k < left; k++) {
      const i = order[k % n] as number;
      out[i] = (out[i] as number) + 1;
    }
    left = 0;
  }
  return out;
}

export interface ControlledRounding {
  /** Row-major integer cells: row totals and column totals exact. */
  readonly cells: Int32Array;
  /** Units that had to be placed in a forbidden cell (0 unless the structural zeros made the margins infeasible). */
  readonly forced: number;
}

/**
 * Rounds a rows × cols matrix (row-major) to integers whose row sums equal `rowTotals` and
 * column sums equal `colTotals` (the two must have the same sum). `allowed` (row-major, 1 =
 * allowed) marks structural zeros; by default every cell with a positive value or a zero
 * value is allowed.
 *
 * Method: each row by largest remainder to its total (rows exact), then surplus columns
 * give units to deficit columns along the shortest chain of rows found by breadth-first
 * search (a unit moves from (i, a) to (i, b), then (i', b) to (i', c), …), preferring cells
 * that were rounded up. It keeps every cell near its real value and never breaks a row.
 */
export function controlledRound2D(
  values: ArrayLike<number>,
  rows: number,
  cols: number,
  rowTotals: ArrayLike<number>,
  colTotals: ArrayLike<number>,
  allowed?: ArrayLike<number>,
): ControlledRounding {
  if (values.length !== rows * cols) throw new RangeError('values must have rows × cols cells');
  if (sum(rowTotals) !== sum(colTotals)) {
    throw new RangeError(`row totals (${sum(rowTotals)}) and column totals (${sum(colTotals)}) differ`);
  }
  const isAllowed = (i: number, j: number): boolean => (allowed ? (allowed[i * cols + j] as number) > 0 : true);
  const cells = new Int32Array(rows * cols);
  const rowValues = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    let anyAllowed = false;
    for (let j = 0; j < cols; j++) {
      const ok = isAllowed(i, j);
      anyAllowed ||= ok;
      rowValues[j] = ok ? Math.max(0, values[i * cols + j] as number) : 0;
    }
    // A row of zeros with a positive total: spread it over its allowed cells (or all cells).
    if (sum(rowValues) <= 0) for (let j = 0; j < cols; j++) rowValues[j] = !anyAllowed || isAllowed(i, j) ? 1 : 0;
    const rounded = largestRemainder(rowValues, rowTotals[i] as number);
    cells.set(rounded, i * cols);
  }

  const excess = new Float64Array(cols);
  for (let j = 0; j < cols; j++) {
    let s = 0;
    for (let i = 0; i < rows; i++) s += cells[i * cols + j] as number;
    excess[j] = s - (colTotals[j] as number);
  }

  let forced = 0;
  const previousCol = new Int32Array(cols);
  const viaRow = new Int32Array(cols);
  const queue = new Int32Array(cols);
  for (;;) {
    let source = -1;
    for (let j = 0; j < cols; j++) if ((excess[j] as number) > 0) { source = j; break; }
    if (source < 0) break;
    // Breadth-first search over columns: an edge a → b through row i when cell (i, a) has a
    // unit to give and (i, b) may receive. Rows are tried in order of how far (i, a) sits
    // above its real value, so the units that move are the ones rounded up.
    previousCol.fill(-2);
    previousCol[source] = -1;
    let head = 0;
    let tail = 0;
    queue[tail++] = source;
    let target = -1;
    while (head < tail && target < 0) {
      const a = queue[head++] as number;
      for (let b = 0; b < cols && target < 0; b++) {
        if (previousCol[b] !== -2) continue;
        let bestRow = -1;
        let bestScore = -Infinity;
        for (let i = 0; i < rows; i++) {
          if ((cells[i * cols + a] as number) <= 0 || !isAllowed(i, b)) continue;
          const score =
            (cells[i * cols + a] as number) - (values[i * cols + a] as number) -
            ((cells[i * cols + b] as number) - (values[i * cols + b] as number));
          if (score > bestScore) { bestScore = score; bestRow = i; }
        }
        if (bestRow < 0) continue;
        previousCol[b] = a;
        viaRow[b] = bestRow;
        if ((excess[b] as number) < 0) target = b;
        else queue[tail++] = b;
      }
    }
    if (target < 0) {
      // Infeasible under the structural zeros: move one unit straight into a deficit column
      // through a forbidden cell, and count it.
      let deficit = -1;
      for (let j = 0; j < cols; j++) if ((excess[j] as number) < 0) { deficit = j; break; }
      let row = -1;
      for (let i = 0; i < rows; i++) if ((cells[i * cols + source] as number) > 0) { row = i; break; }
      cells[row * cols + source] = (cells[row * cols + source] as number) - 1;
      cells[row * cols + deficit] = (cells[row * cols + deficit] as number) + 1;
      excess[source] = (excess[source] as number) - 1;
      excess[deficit] = (excess[deficit] as number) + 1;
      forced++;
      continue;
    }
    for (let b = target; b !== source; ) {
      const a = previousCol[b] as number;
      const i = viaRow[b] as number;
      cells[i * cols + a] = (cells[i * cols + a] as number) - 1;
      cells[i * cols + b] = (cells[i * cols + b] as number) + 1;
      b = a;
    }
    excess[source] = (excess[source] as number) - 1;
    excess[target] = (excess[target] as number) + 1;
  }
  return { cells, forced };
}
