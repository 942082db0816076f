import type { DatasetType } from './datasets.ts';
import type { VariableDef } from './variables/define.ts';
import { DWELLING_VARIABLES } from './variables/dwellings.ts';
import { FAMILY_VARIABLES } from './variables/families.ts';
import { PERSON_VARIABLES } from './variables/persons.ts';

export { MEASUREMENTS, type Measurement, type VariableDef } from './variables/define.ts';

/**
 * The catalogue of served variables, one module per data set (variables/persons.ts,
 * families.ts, dwellings.ts; what a definition holds: variables/define.ts), in file column
 * order: persons, then families, then dwellings.
 */
export const VARIABLES: readonly VariableDef[] = [...PERSON_VARIABLES, ...FAMILY_VARIABLES, ...DWELLING_VARIABLES];

const BY_CODE = new Map(VARIABLES.map((v) => [v.code, v]));

export function variablesOf(dataset: DatasetType): readonly VariableDef[] {
  return VARIABLES.filter((v) => v.dataset === dataset);
}

/** Unknown codes are programming errors (codes come from this catalogue), hence a throw. */
export function variableByCode(code: string): VariableDef {
  const v = BY_CODE.get(code);
  if (!v) throw new Error(`unknown variable code ${code}`);
  return v;
}

/** Labels a pool column must be able to hold: fine categories then coarse ones not already present. */
export function columnLabels(v: VariableDef): readonly string[] {
  if (!v.coarse) return v.categories;
  const seen = new Set(v.categories);
  return [...v.categories, ...v.coarse.categories.filter((c) => !seen.has(c))];
}

/** Index of a category label within a variable (throws: labels come from this catalogue). */
export function categoryIndex(code: string, label: string): number {
  const i = variableByCode(code).categories.indexOf(label);
  if (i < 0) throw new Error(`variable ${code} has no category "${label}"`);
  return i;
}
