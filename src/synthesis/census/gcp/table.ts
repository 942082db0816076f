import type { DatasetType } from '../../../census-names.ts';
import type { CellSpec, TableSpec } from '../table-spec.ts';
import { gcpColumns, gcpPartsOf, gcpVocabulary } from './cells.ts';
import { GCP_TABLE_POPULATIONS } from './populations.generated.ts';

/**
 * A fitted table read whole from the DataPack through its vocabulary: every column the
 * vocabulary defines, split into the cells to fit (boxes with no other column inside them)
 * and the aggregates (totals and subtotals, read as otherCells). This is how a table's age
 * dimension is read without a hand-kept list of its headers: G46 by age × sex × labour force
 * status is 360 columns, 288 of them cells.
 */
export function gcpTable(id: string, universe: DatasetType, description: string, totalHeader: string): TableSpec {
  const columns = gcpPartsOf(id).flatMap((part) => gcpColumns(part).flatMap((column) => (column.cell ? [column.cell] : [])));
  if (columns.length === 0) throw new Error(`${id}: the vocabulary defines no column`);
  if (!columns.some((cell) => cell.header === totalHeader)) throw new Error(`${id}: no column ${totalHeader}`);
  const counted = columns.filter((cell) => cell.count !== 'members');
  const isAggregate = (cell: CellSpec): boolean =>
    counted.some((other) => other !== cell && cellInside(other, cell) && !cellInside(cell, other));
  const cells = columns.filter((cell) => cell.count !== 'members' && !isAggregate(cell));
  const other = columns.filter((cell) => !cells.includes(cell));
  return {
    id,
    files: gcpPartsOf(id),
    universe,
    // The vocabulary's condition is already in every column's definition (cells.ts).
    population: { label: GCP_TABLE_POPULATIONS[id] ?? `all ${universe}`, where: gcpVocabulary(id)?.where ?? {} },
    description,
    cells,
    otherHeaders: other.map((cell) => cell.header),
    otherCells: other,
    totalHeader,
  };
}

const NO_AGE: readonly [number, number] = [0, Number.POSITIVE_INFINITY];

/** Whether every record `inner` counts is also counted by `outer` (a variable not named means any category). */
export function cellInside(inner: CellSpec, outer: CellSpec): boolean {
  const [a, b] = inner.age ?? NO_AGE;
  const [lo, hi] = outer.age ?? NO_AGE;
  if (a < lo || b > hi) return false;
  for (const [code, allowed] of Object.entries(outer.where)) {
    const own = inner.where[code];
    if (!own) return false;
    if (own.some((k) => !allowed.includes(k))) return false;
  }
  return true;
}
