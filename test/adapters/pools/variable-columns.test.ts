import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogSuburb, CatalogVariable } from '../../../src/adapters/pools/catalog.ts';
import { coarseColumnName, fileValue, missingColumnName, NULL_CODE, variableFileColumns } from '../../../src/adapters/pools/variable-columns.ts';
import { substantiveCategories } from '../../../src/synthesis/census/missing-codes.ts';
import { VARIABLES } from '../../../src/synthesis/census/variables.ts';

const age: CatalogVariable = {
  code: 'AGE5P',
  description: 'Age',
  categories: ['0-14', '15-64', '65+', 'Not stated'],
  coarseCategories: ['Under 65', '65+', 'Not stated'],
  coarseOfFine: [0, 0, 1, 2],
  // columnLabels: the fine labels, then the coarse ones not among them.
  labels: ['0-14', '15-64', '65+', 'Not stated', 'Under 65'],
};
const sex: CatalogVariable = { code: 'SEXP', description: 'Sex', categories: ['Male', 'Female'], labels: ['Male', 'Female'] };
const suburb = (suburbId: string, coarsened: string[]) => ({ suburbId, coarsened }) as unknown as CatalogSuburb;
const catalog = {
  variables: { persons: [age, sex], families: [], dwellings: [] },
  suburbs: [suburb('Big', []), suburb('Small', ['AGE5P']), suburb('Other', [])],
} as unknown as Catalog;

describe('variableFileColumns: no column mixes fine and coarse categories, or substantive ones and missing codes', () => {
  it('serves a variable with its substantive fine categories and its missing codes apart when no suburb of the file is coarsened', () => {
    const columns = variableFileColumns(catalog, 'persons', [0, 2]);
    expect(columns.map((c) => [c.name, c.role])).toEqual([
      ['AGE5P', 'variable'],
      [missingColumnName('AGE5P'), 'missing'],
      ['SEXP', 'variable'],
    ]);
    const [fine, missing] = columns;
    // Only what can occur: no coarse label ("Under 65") where no suburb is coarsened, no missing code.
    expect(fine!.labels).toEqual(['0-14', '15-64', '65+']);
    expect(missing!.labels).toEqual(['Not stated']);
    expect([fileValue(fine!, 2, 0), fileValue(missing!, 2, 0)]).toEqual([2, NULL_CODE]);
    expect([fileValue(fine!, 3, 0), fileValue(missing!, 3, 0)]).toEqual([NULL_CODE, 0]);
  });

  it('adds a coarse companion for every record and empties the fine column for the coarsened suburb; a missing code is in the missing column alone', () => {
    const columns = variableFileColumns(catalog, 'persons', [0, 1, 1]);
    expect(columns.map((c) => c.name)).toEqual(['AGE5P', coarseColumnName('AGE5P'), missingColumnName('AGE5P'), 'SEXP']);
    const [fine, coarse, missing] = columns;
    expect(fine!.labels).toEqual(['0-14', '15-64', '65+']);
    expect(coarse!.labels).toEqual(['Under 65', '65+']);
    expect(missing!.labels).toEqual(['Not stated']);
    const row = (pool: number, suburb: number) => [fileValue(fine!, pool, suburb), fileValue(coarse!, pool, suburb), fileValue(missing!, pool, suburb)];
    // Big (ordinal 0) stores fine "65+" (2) or "Not stated" (3); Small (ordinal 1) stores coarse "Under 65" (label 4) or shared "Not stated" (3).
    expect(row(2, 0)).toEqual([2, 1, NULL_CODE]);
    expect(row(3, 0)).toEqual([NULL_CODE, NULL_CODE, 0]);
    expect(row(4, 1)).toEqual([NULL_CODE, 0, NULL_CODE]);
    expect(row(3, 1)).toEqual([NULL_CODE, NULL_CODE, 0]);
    // Every value of every suburb lands in exactly one of the coarse column's labels and the missing column's.
    for (let v = 0; v < age.labels.length; v++) expect([fileValue(coarse!, v, 0), fileValue(missing!, v, 0)].filter((x) => x !== NULL_CODE)).toHaveLength(1);
  });

  it('serves a release without a fine-to-coarse map, whose categories this code does not know, as it was built (missing codes apart)', () => {
    const { coarseOfFine: _, ...old } = age;
    const legacy = { ...catalog, variables: { persons: [old], families: [], dwellings: [] } } as unknown as Catalog;
    const columns = variableFileColumns(legacy, 'persons', [1]);
    expect(columns.map((c) => c.name)).toEqual(['AGE5P', missingColumnName('AGE5P')]);
    expect(columns[0]!.labels).toEqual(['0-14', '15-64', '65+', 'Under 65']);
  });
});

describe('the catalogue never coarsens a substantive category into a missing code', () => {
  it('maps every substantive fine category to a substantive coarse one', () => {
    // Else a big suburb's record would lose its value in CODE_coarse, which is empty where the
    // record's value is a missing code. (The reverse is allowed: HRSP's fine "Not stated" is coarse
    // "Employed, hours withheld"; such a record has CODE_coarse empty and CODE_missing "Not stated".)
    for (const v of VARIABLES.filter((d) => d.coarse)) {
      const substantive = new Set(substantiveCategories([...v.categories, ...v.coarse!.categories]));
      v.categories.forEach((c, i) => {
        if (substantive.has(c)) expect(substantive.has(v.coarse!.categories[v.coarse!.fromFine[i]!]!), `${v.code}: ${c}`).toBe(true);
      });
    }
  });
});
