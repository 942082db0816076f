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

export interface ShiftOptions {
  /** 1 = a cell no published figure counts on its own (a remainder, a fill): it absorbs the difference first. */
  readonly free?: ArrayLike<number>;
  /** 1 = an empty cell that may still receive units (the parent area has some). */
  readonly open?: ArrayLike<number>;
}

/**
 * Real values ≥ 0 that add up to `total` and are nearest `values` in squared distance: the
 * perturbation model of a published table. ABS perturbation adds noise of the same size to every
 * cell whatever its count, so the best guess of where a difference between the cells' sum and
 * the true total sits is an equal share of every cell (the same shift λ for all), not a share
 * proportional to the cell.
 *
 * - `free` cells count units the published table does not (a remainder such as "not
 *   Indigenous" = total − Indigenous, or the non-attendees of an attendance table): they cost
 *   nothing, so they absorb the difference first (down to 0 when it is negative).
 * - When units must be added, they go to cells with a positive value or marked `open`; when
 *   there are none, to all cells that are not free.
 * - When units must be removed, cells are lowered by the same amount, none below 0.
 */
export function equalShift(values: ArrayLike<number>, total: number, options: ShiftOptions = {}): Float64Array {
  const n = values.length;
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = Math.max(0, (values[i] as number) || 0);
  const x = v.slice();
  const isFree = (i: number) => (options.free ? (options.free[i] as number) > 0 : false);
  let difference = total - sum(v);

  // 1. Free cells first.
  let freeValue = 0;
  let freeCells = 0;
  for (let i = 0; i < n; i++) if (isFree(i)) { freeValue += v[i] as number; freeCells++; }
  if (freeCells > 0 && difference !== 0) {
    if (difference > 0) {
      for (let i = 0; i < n; i++) if (isFree(i)) x[i] = (v[i] as number) + difference * (freeValue > 0 ? (v[i] as number) / freeValue : 1 / freeCells);
      difference = 0;
    } else {
      const take = Math.min(freeValue, -difference);
      for (let i = 0; i < n; i++) if (isFree(i) && freeValue > 0) x[i] = (v[i] as number) * (1 - take / freeValue);
      difference += take;
    }
  }

  // 2. The same shift for every paid cell that can move.
  if (difference > 1e-9) {
    let receivers = 0;
    const receives = (i: number) => !isFree(i) && ((v[i] as number) > 0 || (options.open ? (options.open[i] as number) > 0 : false));
    for (let i = 0; i < n; i++) if (receives(i)) receivers++;
    const all = receivers === 0;
    if (all) for (let i = 0; i < n; i++) if (!isFree(i)) receivers++;
    if (receivers === 0) {
      // Only free cells, all empty: spread evenly.
      for (let i = 0; i < n; i++) x[i] = total / n;
      return x;
    }
    const shift = difference / receivers;
    for (let i = 0; i < n; i++) {
      if (isFree(i)) continue;
      if (all || receives(i)) x[i] = (x[i] as number) + shift;
    }
  } else if (difference < -1e-9) {
    // Water-filling from above: lower every positive paid cell by λ, clipped at 0.
    const paid: number[] = [];
    for (let i = 0; i < n; i++) if (!isFree(i) && (v[i] as number) > 0) paid.push(v[i] as number);
    paid.sort((a, b) => a - b);
    let remove = -difference;
    let lambda = 0;
    let k = 0; // cells below index k are emptied
    for (;;) {
      const alive = paid.length - k;
      if (alive === 0) break;
      const step = (paid[k] as number) - lambda; // lowering all alive cells until the smallest empties
      if (step * alive >= remove) { lambda += remove / alive; break; }
      remove -= step * alive;
      lambda = paid[k] as number;
      k++;
    }
    for (let i = 0; i < n; i++) if (!isFree(i)) x[i] = Math.max(0, (v[i] as number) - lambda);
  }
  return x;
}

/**
 * Integers ≥ 0 that add up to `total` exactly and are as close as possible to `values` in
 * squared distance: the reconciliation that minimises a table's SRMSE when the records cannot
 * hold the table's own (perturbed) sum. The values are first brought to `total` by
 * `equalShift` (free cells first, then the same shift for every cell), then rounded by largest
 * remainder; equal remainders go to the larger `prefer` (default: the larger value, where one
 * more unit weighs least), then to the lower index, so the result is deterministic.
 */
export function nearestIntegers(
  values: ArrayLike<number>,
  total: number,
  options: ShiftOptions & { readonly prefer?: ArrayLike<number> } = {},
): Int32Array {
  const n = values.length;
  if (!Number.isInteger(total) || total < 0) throw new RangeError(`total must be a non-negative integer, got ${total}`);
  if (n === 0) {
    if (total !== 0) throw new RangeError('cannot place a positive total in zero cells');
    return new Int32Array(0);
  }
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = Math.max(0, (values[i] as number) || 0);
  return roundToTotal(equalShift(v, total, options), total, options.prefer ?? v);
}

/**
 * Whole numbers adding up to `total` from real values ≥ 0 that (nearly) add up to it: each
 * value's floor, then the units left over by largest remainder, ties to the larger `prefer`,
 * then the lower index.
 */
export function roundToTotal(x: ArrayLike<number>, total: number, prefer: ArrayLike<number> = x): Int32Array {
  const n = x.length;
  if (!Number.isInteger(total) || total < 0) throw new RangeError(`total must be a non-negative integer, got ${total}`);
  if (n === 0) {
    if (total !== 0) throw new RangeError('cannot place a positive total in zero cells');
    return new Int32Array(0);
  }
  const out = new Int32Array(n);
  const remainders = new Float64Array(n);
  let assigned = 0;
  for (let i = 0; i < n; i++) {
    const whole = Math.floor(Math.max(0, x[i] as number) + 1e-9);
    out[i] = whole;
    remainders[i] = Math.max(0, (x[i] as number) - whole);
    assigned += whole;
  }
  let left = total - assigned;
  if (left !== 0) {
    // Remainders compared at 1e-6 so that equal shifts tie exactly; ties to the larger `prefer`.
    const order: number[] = [];
    const key = new Float64Array(n);
    for (let i = 0; i < n; i++) { order.push(i); key[i] = Math.round((remainders[i] as number) * 1e6); }
    if (left > 0) {
      order.sort((a, b) => (key[b] as number) - (key[a] as number) || (prefer[b] as number) - (prefer[a] as number) || a - b);
      for (let k = 0; k < left; k++) {
        const i = order[k % n] as number;
        out[i] = (out[i] as number) + 1;
      }
    } else {
      // Floating error (or values above the total) left units too many: take them from the smallest remainders of positive cells.
      order.sort((a, b) => (key[a] as number) - (key[b] as number) || (x[a] as number) - (x[b] as number) || b - a);
      for (let k = 0; left < 0 && k < n * 4; k++) {
        const i = order[k % n] as number;
        if ((out[i] as number) > 0) { out[i] = (out[i] as number) - 1; left++; }
      }
    }
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
  const cells = roundRows(values, rows, cols, rowTotals, isAllowed);
  const excess = columnExcess(cells, rows, cols, colTotals);
  const forced = shiftToColumnTotals(values, rows, cols, cells, excess, isAllowed);
  return { cells, forced };
}

/** Each row rounded to its exact total (largest remainder over its allowed cells). */
function roundRows(values: ArrayLike<number>, rows: number, cols: number, rowTotals: ArrayLike<number>, isAllowed: (i: number, j: number) => boolean): Int32Array {
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

  return cells;
}

/** Each column's rounded sum less its total. */
function columnExcess(cells: Int32Array, rows: number, cols: number, colTotals: ArrayLike<number>): Float64Array {
  const excess = new Float64Array(cols);
  for (let j = 0; j < cols; j++) {
    let s = 0;
    for (let i = 0; i < rows; i++) s += cells[i * cols + j] as number;
    excess[j] = s - (colTotals[j] as number);
  }

  return excess;
}

/** Units moved from columns over their totals to columns under them, row by row, until every column is exact; returns the units forced through forbidden cells. */
function shiftToColumnTotals(values: ArrayLike<number>, rows: number, cols: number, cells: Int32Array, excess: Float64Array, isAllowed: (i: number, j: number) => boolean): number {
  let forced = 0;
  const previousCol = new Int32Array(cols);
  const viaRow = new Int32Array(cols);
  const queue = new Int32Array(cols);
  for (;;) {
    let source = -1;
    for (let j = 0; j < cols; j++) if ((excess[j] as number) > 0) { source = j; break; }
    if (source < 0) break;
    const target = shiftPath(values, rows, cols, cells, excess, isAllowed, source, previousCol, viaRow, queue);
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
  return forced;
}

/**
 * Breadth-first search over columns: an edge a → b through row i when cell (i, a) has a
 * unit to give and (i, b) may receive. Rows are tried in order of how far (i, a) sits
 * above its real value, so the units that move are the ones rounded up.
 * Returns the first column short of its total reached (the path back in previousCol / viaRow), or −1.
 */
function shiftPath(
  values: ArrayLike<number>,
  rows: number,
  cols: number,
  cells: Int32Array,
  excess: Float64Array,
  isAllowed: (i: number, j: number) => boolean,
  source: number,
  previousCol: Int32Array,
  viaRow: Int32Array,
  queue: Int32Array,
): number {
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
  return target;
}
