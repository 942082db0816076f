import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { maxFlowBetween } from '../../../src/synthesis/synthesizer/max-flow.ts';

/** Flow out of each row and into each column. */
function margins(flow: Int32Array, n: number): { rows: number[]; columns: number[] } {
  const rows = Array.from({ length: n }, (_, r) => flow.slice(r * n, r * n + n).reduce((a, b) => a + b, 0));
  const columns = Array.from({ length: n }, (_, c) => rows.reduce((s, _, r) => s + flow[r * n + c]!, 0));
  return { rows, columns };
}

/**
 * The minimum cut of source → rows → columns → sink by trying every cut: rows on the sink side
 * pay their supply, columns on the source side pay theirs, and each row (source side) to column
 * (sink side) pays its capacity. By max-flow / min-cut this is the maximum flow.
 */
function bruteMinCut(between: ArrayLike<number>, n: number, rows: readonly number[], columns: readonly number[]): number {
  const supply = (v: number) => Math.max(0, Math.floor(v));
  let best = Infinity;
  for (let rowSide = 0; rowSide < 1 << n; rowSide++) {
    for (let colSide = 0; colSide < 1 << n; colSide++) {
      let cut = 0;
      for (let r = 0; r < n; r++) if (!(rowSide & (1 << r))) cut += supply(rows[r]!);
      for (let c = 0; c < n; c++) if (colSide & (1 << c)) cut += supply(columns[c]!);
      for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (rowSide & (1 << r) && !(colSide & (1 << c))) cut += between[r * n + c]!;
      best = Math.min(best, cut);
    }
  }
  return best;
}

const total = (flow: Int32Array) => flow.reduce((a, b) => a + b, 0);

describe('maxFlowBetween', () => {
  it('reroutes along an augmenting path where the greedy first choice would block the second row', () => {
    // Row 0 can go to either column, row 1 only to column 0: sending row 0 to column 0 first
    // leaves row 1 nothing, so the path row 1 → column 0 ← row 0 → column 1 must be taken.
    const between = Int32Array.of(1, 1, 1, 0);
    const flow = maxFlowBetween(between, 2, [1, 1], [1, 1]);
    expect(Array.from(flow)).toEqual([0, 1, 1, 0]);
  });

  it('is bounded by the smaller of the supplies and the capacities', () => {
    expect(total(maxFlowBetween(Int32Array.of(5, 5, 5, 5), 2, [3, 1], [2, 9]))).toBe(4);
    expect(total(maxFlowBetween(Int32Array.of(1, 0, 0, 1), 2, [9, 9], [9, 9]))).toBe(2);
    expect(total(maxFlowBetween(Int32Array.of(4, 4, 4, 4), 2, [0, 0], [4, 4]))).toBe(0);
  });

  it('reads supplies as whole non-negative units, and infinite ones as unbounded', () => {
    expect(total(maxFlowBetween(Int32Array.of(3), 1, [2.9], [Infinity]))).toBe(2);
    expect(total(maxFlowBetween(Int32Array.of(3), 1, [-1], [3]))).toBe(0);
    expect(total(maxFlowBetween(Int32Array.of(3, 2, 0, 4), 2, [Infinity, Infinity], [Infinity, Infinity]))).toBe(9);
  });

  it('respects every capacity and supply and reaches the minimum cut (property, tiny graphs)', () => {
    const graph = fc.integer({ min: 1, max: 3 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        between: fc.array(fc.nat(4), { minLength: n * n, maxLength: n * n }),
        rows: fc.array(fc.oneof(fc.nat(6), fc.double({ min: -2, max: 6, noNaN: true })), { minLength: n, maxLength: n }),
        columns: fc.array(fc.oneof(fc.nat(6), fc.double({ min: -2, max: 6, noNaN: true })), { minLength: n, maxLength: n }),
      }),
    );
    fc.assert(
      fc.property(graph, ({ n, between, rows, columns }) => {
        const flow = maxFlowBetween(Int32Array.from(between), n, rows, columns);
        flow.forEach((f, k) => {
          expect(f).toBeGreaterThanOrEqual(0);
          expect(f).toBeLessThanOrEqual(between[k]!);
        });
        // Conservation at each row and column: out of a row no more than came in from the source, …
        const m = margins(flow, n);
        m.rows.forEach((f, r) => expect(f).toBeLessThanOrEqual(Math.max(0, Math.floor(rows[r]!))));
        m.columns.forEach((f, c) => expect(f).toBeLessThanOrEqual(Math.max(0, Math.floor(columns[c]!))));
        expect(total(flow)).toBe(bruteMinCut(between, n, rows, columns));
      }),
      { numRuns: 400 },
    );
  });
});
