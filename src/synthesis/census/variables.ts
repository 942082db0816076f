import type { DatasetType } from '../../census-names.ts';
import type { VariableDef } from './variables/define.ts';
import { DWELLING_VARIABLES } from './variables/dwellings.ts';
import { FAMILY_VARIABLES } from './variables/families.ts';
import { PERSON_VARIABLES } from './variables/persons.ts';

export { MEASUREMENTS, type Measurement, type VariableDef } from './variables/define.ts';
export { age5pOfAge, agepOfAge } from './variables/persons.ts';

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

/**
 * The ABS's own code order of the variables whose catalogue order differs (highest level first;
 * the catalogue lists ordinal levels low to high): what tables written in the ABS's order use.
 */
export const ABS_CODE_ORDER: Readonly<Record<'HSCP' | 'HEAP' | 'ENGLP', readonly string[]>> = {
  HSCP: ['Year 12 or equivalent', 'Year 11 or equivalent', 'Year 10 or equivalent', 'Year 9 or equivalent', 'Year 8 or below', 'Did not go to school', 'Not stated', 'Not applicable'],
  HEAP: [
    'Postgraduate Degree Level',
    'Graduate Diploma and Graduate Certificate Level',
    'Bachelor Degree Level',
    'Advanced Diploma and Diploma Level',
    'Certificate Level',
    'Secondary Education - Years 10 and above',
    'Secondary Education - Years 9 and below',
    'No educational attainment',
    'Level of education inadequately described',
    'Not stated',
    'Not applicable',
  ],
  ENGLP: ['Very well', 'Well', 'Not well', 'Not at all', 'Not stated', 'Not applicable'],
};

/** Catalogue index of each label of `labels` (a permutation of the variable's categories, e.g. ABS_CODE_ORDER). */
export function catalogueIndices(code: string, labels: readonly string[]): number[] {
  return labels.map((label) => categoryIndex(code, label));
}

/** Values listed by `labels` (e.g. a prior row in ABS code order), put in catalogue order. */
export function inCatalogueOrder<T>(code: string, labels: readonly string[], values: readonly T[]): T[] {
  const out = new Array<T>(values.length);
  catalogueIndices(code, labels).forEach((at, i) => (out[at] = values[i]!));
  return out;
}
