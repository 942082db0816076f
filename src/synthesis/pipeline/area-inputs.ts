/** One area's slice of a level's inputs: its tables, totals and subtotals, and the persons the census publishes for it. */
import type { CensusInputs } from '../census/inputs.ts';

/** Persons the census publishes for the suburb (G01 total), the figure the small-suburb rule is about. */
export function publishedPersons(inputs: CensusInputs, salCode: string): number {
  return inputs.totals.get('G01')?.get(salCode) ?? inputs.totals.get('G04')?.get(salCode) ?? 0;
}

/** The area's entry in each table that has one, in the tables' order. */
function areaEntries<V>(byTable: ReadonlyMap<string, ReadonlyMap<string, V>>, salCode: string): Map<string, V> {
  const entries = new Map<string, V>();
  for (const [tableId, byArea] of byTable) {
    const value = byArea.get(salCode);
    if (value !== undefined) entries.set(tableId, value);
  }
  return entries;
}

/** The area's published table totals, per table. */
export const totalsOf = (inputs: CensusInputs, salCode: string): Map<string, number> => areaEntries(inputs.totals, salCode);

/** The area's published totals and subtotals per table (spec otherCells order). */
export const aggregatesOf = (inputs: CensusInputs, salCode: string): Map<string, Float64Array> => areaEntries(inputs.aggregates, salCode);

/** The area's published cells per table (spec order). */
export const tablesOf = (inputs: CensusInputs, salCode: string): Map<string, Float64Array> => areaEntries(inputs.tables, salCode);
