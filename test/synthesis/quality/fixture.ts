/** Tiny hand-built populations for the quality tests: persons by age and category labels. */
import type { Population } from '../../../src/synthesis/census/population.ts';
import { categoryIndex, variableByCode, variablesOf } from '../../../src/synthesis/census/variables.ts';

export type Labels = Readonly<Record<string, string>>;
export interface PersonSpec {
  readonly age: number;
  readonly dwelling?: number;
  readonly family?: number;
  /** Variable code → category label; AGE5P follows the age; others default to "Not applicable" or the first category. */
  readonly v?: Labels;
}

const defaultLabel = (code: string) => {
  const cats = variableByCode(code).categories;
  return cats.includes('Not applicable') ? 'Not applicable' : cats[0]!;
};
const columns = (level: 'persons' | 'families' | 'dwellings', rows: readonly Labels[]) =>
  Object.fromEntries(variablesOf(level).map((v) => [v.code, Uint8Array.from(rows, (r) => categoryIndex(v.code, r[v.code] ?? defaultLabel(v.code)))]));

/** A population from person specs; families and dwellings are as many as the persons name (dwelling 0 by default). */
export function population(persons: readonly PersonSpec[], dwellings: readonly Labels[] = [], families: readonly Labels[] = []): Population {
  const dwellingCount = Math.max(dwellings.length, 1 + Math.max(-1, ...persons.map((p) => p.dwelling ?? 0)));
  const familyCount = Math.max(families.length, 1 + Math.max(-1, ...persons.map((p) => p.family ?? -1)));
  const familyDwelling = Array.from({ length: familyCount }, (_, f) => persons.find((p) => p.family === f)?.dwelling ?? 0);
  return {
    persons: {
      count: persons.length,
      age: Uint8Array.from(persons, (p) => p.age),
      dwelling: Uint32Array.from(persons, (p) => p.dwelling ?? 0),
      family: Int32Array.from(persons, (p) => p.family ?? -1),
      variables: columns(
        'persons',
        persons.map((p) => ({ AGE5P: variableByCode('AGE5P').categories[Math.min(20, Math.floor(p.age / 5))]!, SEXP: 'Male', ...p.v })),
      ),
    },
    families: { count: familyCount, dwelling: Uint32Array.from(familyDwelling), variables: columns('families', Array.from({ length: familyCount }, (_, f) => families[f] ?? {})) },
    dwellings: { count: dwellingCount, variables: columns('dwellings', Array.from({ length: dwellingCount }, (_, d) => dwellings[d] ?? {})) },
  };
}

