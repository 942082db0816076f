/** Maximum flow through a bipartite table of capacities, for plans that must spend two sides' supplies together. */

/**
 * The most units that can flow from row cells to column cells through `between` (row × column
 * capacities, row-major) within the rows' and columns' supplies (Edmonds–Karp on the cells);
 * returns the flow on each row × column pair.
 */
export function maxFlowBetween(between: Int32Array, n: number, rows: ArrayLike<number>, columns: ArrayLike<number>): Int32Array {
  const flow = new Int32Array(n * n);
  const rowLeft = Array.from(rows, (v) => Math.max(0, Math.floor(v)));
  const colLeft = Array.from(columns, (v) => Math.max(0, Math.floor(v)));
  for (;;) {
    // Breadth-first search over rows (from the source) and columns (to the sink) in the residual graph.
    const fromRow = new Int32Array(n).fill(-2); // row → column it was reached from (-1: the source)
    const fromCol = new Int32Array(n).fill(-1); // column → row it was reached from
    const queue: number[] = [];
    for (let r = 0; r < n; r++) if ((rowLeft[r] as number) > 0) { fromRow[r] = -1; queue.push(r); }
    let end = -1;
    while (queue.length > 0 && end < 0) {
      const r = queue.shift()!;
      for (let c = 0; c < n && end < 0; c++) {
        if (fromCol[c] !== -1 || (between[r * n + c] as number) - (flow[r * n + c] as number) <= 0) continue;
        fromCol[c] = r;
        if ((colLeft[c] as number) > 0) { end = c; break; }
        // From column c back along flow already sent to it by another row.
        for (let r2 = 0; r2 < n; r2++) if (fromRow[r2] === -2 && (flow[r2 * n + c] as number) > 0) { fromRow[r2] = c; queue.push(r2); }
      }
    }
    if (end < 0) return flow;
    // Augment by one unit along the path.
    let c = end;
    colLeft[c] = (colLeft[c] as number) - 1;
    for (;;) {
      const r = fromCol[c] as number;
      flow[r * n + c] = (flow[r * n + c] as number) + 1;
      const back = fromRow[r] as number;
      if (back === -1) { rowLeft[r] = (rowLeft[r] as number) - 1; break; }
      flow[r * n + back] = (flow[r * n + back] as number) - 1;
      c = back;
    }
  }
}
