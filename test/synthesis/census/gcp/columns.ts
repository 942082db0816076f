import { gcpColumns, gcpPartsOf, type GcpColumn } from '../../../../src/synthesis/census/gcp/cells.ts';
import type { CellSpec } from '../../../../src/synthesis/census/table-spec.ts';

/** A table's real columns by short header (all its part files). */
export function columnsOf(table: string): Map<string, GcpColumn> {
  return new Map(gcpPartsOf(table).flatMap((p) => gcpColumns(p)).map((c) => [c.header, c]));
}

/** A column's definition (throws on a header the table does not have). */
export function cell(table: string, header: string): CellSpec | undefined {
  const col = columnsOf(table).get(header);
  if (!col) throw new Error(`${table} has no column ${header}`);
  return col.cell;
}

/** A column's definition without its header, for toEqual. */
export const def = (table: string, header: string) => {
  const c = cell(table, header);
  return c ? { where: c.where, ...(c.age ? { age: c.age } : {}), ...(c.count ? { count: c.count } : {}) } : undefined;
};
