/** One area's slice of a level's inputs: its tables, totals and subtotals, and the persons the census publishes for it. */
import type { CensusInputs } from '../census/inputs.ts';

/** Persons the census publishes for the suburb (G01 total), the figure the small-suburb rule is about. */
export function publishedPersons(inputs: CensusInputs, salCode: string): number {
  return inputs.totals.get('G01')?.get(salCode) ?? inputs.totals.get('G04')?.get(salCode) ?? 0;
}

export function totalsOf(inputs: CensusInputs, salCode: string): Map<string, number> {
  const totals = new Map<string, number>();
  for (const [tableId, bySuburb] of inputs.totals) {
    const total = bySuburb.get(salCode);
    if (total !== undefined) totals.set(tableId, total);
  }
  return totals;
}

/** The area's published totals and subtotals per table (spec otherCells order). */
export function aggregatesOf(inputs: CensusInputs, salCode: string): Map<string, Float64Array> {
  const aggregates = new Map<string, Float64Array>();
  for (const [tableId, byArea] of inputs.aggregates) {
    const values = byArea.get(salCode);
    if (values) aggregates.set(tableId, values);
  }
  return aggregates;
}

export function tablesOf(inputs: CensusInputs, salCode: string): Map<string, Float64Array> {
  const tables = new Map<string, Float64Array>();
  for (const [tableId, bySuburb] of inputs.tables) {
    const cells = bySuburb.get(salCode);
    if (cells) tables.set(tableId, cells);
  }
  return tables;
}
