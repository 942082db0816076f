/**
 * Confidentiality for small suburbs (issue 2, item 4): every variable that has a coarse
 * version in the catalogue (VariableDef.coarse) is mapped to it, so that a tiny suburb's
 * records cannot single out a person by a rare fine category.
 *
 * A coarsened column holds indices into the variable's coarse.categories (as a fine column
 * holds indices into categories); the pool writer maps both onto the one ENUM column
 * (columnLabels), and the catalogue records per suburb which codes were coarsened.
 */
import { VARIABLES, type VariableDef } from '../census/variables.ts';
import type { Population } from '../census/population.ts';

/** fine category index → index of its coarse category in coarse.categories. */
export function coarseColumnMap(v: VariableDef): Uint8Array {
  if (!v.coarse) throw new Error(`variable ${v.code} has no coarse categories`);
  if (v.coarse.fromFine.length !== v.categories.length) throw new Error(`variable ${v.code}: coarse map covers ${v.coarse.fromFine.length} of ${v.categories.length} categories`);
  return Uint8Array.from(v.coarse.fromFine);
}

const MAPS = new Map<string, Uint8Array>(VARIABLES.filter((v) => v.coarse).map((v) => [v.code, coarseColumnMap(v)]));

function coarsenColumns(
  columns: Readonly<Record<string, Uint8Array>>,
  coarsened: string[],
): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const [code, column] of Object.entries(columns)) {
    const map = MAPS.get(code);
    if (!map) {
      out[code] = column;
      continue;
    }
    const mapped = new Uint8Array(column.length);
    for (let i = 0; i < column.length; i++) mapped[i] = map[column[i]!]!;
    out[code] = mapped;
    coarsened.push(code);
  }
  return out;
}

/**
 * A copy of the population whose coarsenable columns hold coarse categories, and the codes
 * that were coarsened (catalogue order). Columns without a coarse version are shared, not
 * copied; the input is not changed.
 */
export function coarsenPopulation(pop: Population): { population: Population; coarsened: string[] } {
  const found: string[] = [];
  const population: Population = {
    persons: { ...pop.persons, variables: coarsenColumns(pop.persons.variables, found) },
    families: { ...pop.families, variables: coarsenColumns(pop.families.variables, found) },
    dwellings: { ...pop.dwellings, variables: coarsenColumns(pop.dwellings.variables, found) },
  };
  const order = new Map(VARIABLES.map((v, i) => [v.code, i]));
  found.sort((a, b) => order.get(a)! - order.get(b)!);
  return { population, coarsened: found };
}
