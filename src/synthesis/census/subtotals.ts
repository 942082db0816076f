/**
 * Which of a table's cells make each of its published totals and subtotals, read from the table's
 * spec: the noise floor (quality/floor.ts) checks a subtotal against the sum of its cells, and
 * the borrowing strength (synthesizer/borrow-strength.ts) holds subtotals out to choose it, so
 * the rule lives under both.
 */
import type { CellSpec, TableSpec } from './table-spec.ts';

const WITHIN = new WeakMap<TableSpec, readonly (readonly number[])[]>();

function isWithin(cell: CellSpec, subtotal: CellSpec): boolean {
  if ((cell.count ?? 'records') !== (subtotal.count ?? 'records')) return false;
  for (const [code, allowed] of Object.entries(subtotal.where)) {
    const own = cell.where[code];
    if (!own || !own.every((c) => allowed.includes(c))) return false;
  }
  if (subtotal.age) {
    if (!cell.age || cell.age[0] < subtotal.age[0] || cell.age[1] > subtotal.age[1]) return false;
  }
  return true;
}

/** For each of the table's otherCells (totals and subtotals), the cells within it (spec order). */
export function cellsWithinSubtotals(spec: TableSpec): readonly (readonly number[])[] {
  let within = WITHIN.get(spec);
  if (!within) {
    within = spec.otherCells.map((subtotal) => spec.cells.flatMap((cell, i) => (isWithin(cell, subtotal) ? [i] : [])));
    WITHIN.set(spec, within);
  }
  return within;
}
