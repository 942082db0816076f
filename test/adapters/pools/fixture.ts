/**
 * A small, realistic pool release for tests (pools, HTTP, end-to-end): six suburbs over three
 * states, with
 * - "Richmond" in VIC and in NSW (identifiers "Richmond (VIC)" and "Richmond (NSW)"),
 * - Richmond (VIC) and Burnley sharing postcode 3121 and the LGA Yarra (LGA27350), which Fitzroy
 *   is in too (so LGA Yarra = Richmond (VIC) + Burnley + Fitzroy),
 * - Wandiligong: a small suburb (60 persons) in which every variable that has coarse categories
 *   is coarsened,
 * - a few hundred linked persons, families and dwellings per suburb; values from a fixed seed.
 * FIXTURE_SUBURBS lists what was written, so tests can compute expectations. The variables are
 * the real catalogue (src/synthesis/census/variables.ts) unless a tiny one is passed in.
 */
import { join } from 'node:path';
import type { Population } from '../../../src/synthesis/census/population.ts';
import type { DatasetType } from '../../../src/core/dataset.ts';
import type { SuburbEntry } from '../../../src/adapters/pools/catalog.ts';
import { substantiveCategories } from '../../../src/synthesis/census/missing-codes.ts';
import { variablesOf, type VariableDef } from '../../../src/synthesis/census/variables.ts';
import { createPoolReleaseWriter } from '../../../src/adapters/pools/writer.ts';
import { implicateDir } from '../../../src/adapters/pools/release-dirs.ts';

export const FIXTURE_VERSION = 'test-2021.1';

export type VariableCatalogue = Readonly<Record<DatasetType, readonly VariableDef[]>>;

/** The real catalogue, per dataset. */
export const CATALOGUE_VARIABLES: VariableCatalogue = { persons: variablesOf('persons'), families: variablesOf('families'), dwellings: variablesOf('dwellings') };

/** A tiny catalogue in ABS style, for tests that check labels one by one. */
export const TINY_VARIABLES: VariableCatalogue = {
  persons: [
    {
      code: 'AGE5P',
      dataset: 'persons',
      measurement: 'ordinal',
      description: 'Age in five-year groups',
      categories: ['0-4 years', '5-14 years', '15-24 years', '25-44 years', '45-64 years', '65-84 years', '85 years and over'],
      coarse: { categories: ['0-14 years', '15-64 years', '65 years and over'], fromFine: [0, 0, 1, 1, 1, 2, 2] },
    },
    { code: 'SEXP', dataset: 'persons', measurement: 'nominal', description: 'Sex', categories: ['Male', 'Female'] },
    {
      code: 'INCP',
      dataset: 'persons',
      measurement: 'ordinal',
      description: 'Total personal income (weekly)',
      categories: ['Negative income', 'Nil income', '$1-$399', '$400-$999', '$1,000-$1,999', '$2,000 or more', 'Not stated', 'Not applicable'],
      coarse: { categories: ['Under $400', '$400-$1,999', '$2,000 or more', 'Not stated', 'Not applicable'], fromFine: [0, 0, 0, 1, 1, 2, 3, 4] },
    },
  ],
  families: [
    { code: 'FMCF', dataset: 'families', measurement: 'nominal', description: 'Family composition', categories: ['Couple family without children', 'Couple family with children', 'One parent family', 'Other family'] },
  ],
  dwellings: [
    { code: 'TEND', dataset: 'dwellings', measurement: 'nominal', description: 'Tenure type', categories: ['Owned outright', 'Owned with a mortgage', 'Rented', 'Other tenure type', 'Not stated'] },
    { code: 'NPRD', dataset: 'dwellings', measurement: 'ordinal', description: 'Number of persons usually resident', categories: ['One person', 'Two persons', 'Three persons', 'Four persons'] },
  ],
};

/** Whether a variable has missing-value codes (fine or coarse), which a file holds in its own column CODE_missing (variable-columns.ts). */
export const hasMissingCodes = (v: VariableDef): boolean => {
  const labels = [...v.categories, ...(v.coarse?.categories ?? [])];
  return substantiveCategories(labels).length < labels.length;
};

/** A variable's columns in a file: CODE, CODE_coarse where the file has a coarsened suburb, CODE_missing where it has missing codes. */
export const fileColumnsOf = (v: VariableDef, coarsened: boolean, prefix = ''): string[] => [
  `${prefix}${v.code}`,
  ...(coarsened && v.coarse ? [`${prefix}${v.code}_coarse`] : []),
  ...(hasMissingCodes(v) ? [`${prefix}${v.code}_missing`] : []),
];

export interface FixtureSuburb {
  readonly suburb: SuburbEntry;
  readonly persons: number;
}

const base = { smallSuburb: false } as const;
export const FIXTURE_SUBURBS: readonly FixtureSuburb[] = [
  // SA2s: Richmond's and Fitzroy's as a release of 2026-12-07 on names them (code and name); Burnley's
  // as an older release does (its name alone); Wandiligong and the rest none (the correspondences place none).
  {
    suburb: { ...base, salCode: 'SAL22170', suburbId: 'Richmond (VIC)', name: 'Richmond', state: 'VIC', postcode: '3121', lga: 'Yarra', lgaCode: 'LGA27350', gccsa: 'Greater Melbourne', sa2: 'Richmond - North', sa2Code: '206071518' },
    persons: 320,
  },
  { suburb: { ...base, salCode: 'SAL20394', suburbId: 'Burnley', name: 'Burnley', state: 'VIC', postcode: '3121', lga: 'Yarra', lgaCode: 'LGA27350', gccsa: 'Greater Melbourne', sa2: 'Richmond (South) - Cremorne' }, persons: 150 },
  {
    suburb: { ...base, salCode: 'SAL20963', suburbId: 'Fitzroy', name: 'Fitzroy', state: 'VIC', postcode: '3065', lga: 'Yarra', lgaCode: 'LGA27350', gccsa: 'Greater Melbourne', postcodes: ['3065', '3068'], sa2: 'Fitzroy', sa2Code: '206071142' },
    persons: 280,
  },
  {
    suburb: { salCode: 'SAL22733', suburbId: 'Wandiligong', name: 'Wandiligong', state: 'VIC', postcode: '3744', lga: 'Alpine', lgaCode: 'LGA20110', gccsa: 'Rest of Vic.', smallSuburb: true },
    persons: 60,
  },
  { suburb: { ...base, salCode: 'SAL13327', suburbId: 'Richmond (NSW)', name: 'Richmond', state: 'NSW', postcode: '2753', lga: 'Hawkesbury', lgaCode: 'LGA14100', gccsa: 'Greater Sydney' }, persons: 250 },
  { suburb: { ...base, salCode: 'SAL30370', suburbId: 'Brisbane City', name: 'Brisbane City', state: 'QLD', postcode: '4000', lga: 'Brisbane', lgaCode: 'LGA31000', gccsa: 'Greater Brisbane' }, persons: 200 },
];

/** Park–Miller LCG: deterministic values without depending on the sampler under test. */
const lcg = (seed: number): ((k: number) => number) => {
  let s = seed % 2147483647 || 1;
  return (k) => {
    s = (s * 48271) % 2147483647;
    return s % k;
  };
};

/**
 * Occupants per dwelling cycle 1, 2, 3, 4; a dwelling of two or more holds one family of all
 * its occupants, a lone person has no family (family_id NULL).
 */
export function fixturePopulation(persons: number, coarsened: readonly string[], seed: number, variables: VariableCatalogue): Population {
  const next = lcg(seed);
  const dwellingOf = new Uint32Array(persons);
  const familyOf = new Int32Array(persons);
  const familyDwelling: number[] = [];
  let dwellings = 0;
  for (let p = 0, size = 1; p < persons; size = (size % 4) + 1) {
    const occupants = Math.min(size, persons - p);
    const family = occupants >= 2 ? familyDwelling.push(dwellings) - 1 : -1;
    for (let k = 0; k < occupants; k++, p++) {
      dwellingOf[p] = dwellings;
      familyOf[p] = family;
    }
    dwellings++;
  }
  const columns = (dataset: DatasetType, count: number): Record<string, Uint8Array> =>
    Object.fromEntries(
      variables[dataset].map((v) => {
        const k = coarsened.includes(v.code) && v.coarse ? v.coarse.categories.length : v.categories.length;
        return [v.code, Uint8Array.from({ length: count }, () => next(k))];
      }),
    );
  return {
    persons: { count: persons, age: Uint8Array.from({ length: persons }, () => next(100)), dwelling: dwellingOf, family: familyOf, variables: columns('persons', persons) },
    families: { count: familyDwelling.length, dwelling: Uint32Array.from(familyDwelling), variables: columns('families', familyDwelling.length) },
    dwellings: { count: dwellings, variables: columns('dwellings', dwellings) },
  };
}

/** Codes a small suburb serves coarsened: every variable that has coarse categories. */
export const coarsenedCodes = (variables: VariableCatalogue): string[] =>
  Object.values(variables).flatMap((vs) => vs.filter((v) => v.coarse !== undefined).map((v) => v.code));

/** The fixture's first seed; implicate k's populations start at FIXTURE_SEED + 1000·(k − 1). */
export const FIXTURE_SEED = 20211;

/**
 * Writes the fixture release into `<dir>/<version>` and returns that directory. With
 * `implicates: M`, implicates 2..M go to `<release>/implicates/<k>` as the builder lays them out:
 * the same suburbs and pool sizes, other records (their own seeds).
 */
export async function buildFixtureRelease(
  dir: string,
  options: { variables?: VariableCatalogue; version?: string; implicates?: number; areas?: readonly FixtureSuburb[]; sqlCopy?: boolean } = {},
): Promise<string> {
  const version = options.version ?? FIXTURE_VERSION;
  const releaseDir = join(dir, version);
  const areas = options.areas ?? FIXTURE_SUBURBS;
  for (let k = 1; k <= (options.implicates ?? 1); k++) await writeFixtureImplicate(implicateDir(releaseDir, k), version, k, options.variables ?? CATALOGUE_VARIABLES, areas, options.sqlCopy ?? true);
  return releaseDir;
}

async function writeFixtureImplicate(releaseDir: string, version: string, implicate: number, variables: VariableCatalogue, areas: readonly FixtureSuburb[], sqlCopy: boolean): Promise<void> {
  let seed = FIXTURE_SEED + 1000 * (implicate - 1);
  const writer = await createPoolReleaseWriter({ dir: releaseDir, version, variables, synthesis: { implicate, seed: String(seed) }, sqlCopy });
  for (const { suburb, persons } of areas) {
    const coarsened = suburb.smallSuburb ? coarsenedCodes(variables) : [];
    await writer.append({ suburb, population: fixturePopulation(persons, coarsened, seed++, variables), coarsened });
  }
  await writer.finish({ fixture: true, suburbs: areas.length }, 'Fixture pool release for tests.\n');
}
