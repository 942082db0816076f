import type { SuburbGeography } from '../census/inputs.ts';

type TableCells = ReadonlyMap<string, ReadonlyMap<string, Float64Array>>;

/**
 * Each table summed over the suburbs of every LGA (by primary LGA) and every state: the
 * parent shares that tiny suburbs are smoothed toward.
 */
export function sumTablesByParent(suburbs: readonly SuburbGeography[], tables: TableCells) {
  const byLga = new Map<string, Map<string, Float64Array>>();
  const byState = new Map<string, Map<string, Float64Array>>();
  const add = (into: Map<string, Map<string, Float64Array>>, parent: string, tableId: string, cells: Float64Array) => {
    let parentTables = into.get(parent);
    if (!parentTables) into.set(parent, (parentTables = new Map()));
    let sum = parentTables.get(tableId);
    if (!sum) parentTables.set(tableId, (sum = new Float64Array(cells.length)));
    for (let i = 0; i < cells.length; i++) sum[i]! += cells[i]!;
  };
  for (const suburb of suburbs) {
    for (const [tableId, bySuburb] of tables) {
      const cells = bySuburb.get(suburb.salCode);
      if (!cells) continue;
      add(byLga, suburb.lgaCode, tableId, cells);
      add(byState, suburb.state, tableId, cells);
    }
  }
  return { byLga, byState };
}
