import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogSuburb, CatalogVariable } from '../../../src/adapters/pools/catalog.ts';
import { coarseColumnName, fileValue, NULL_CODE, variableFileColumns } from '../../../src/adapters/pools/variable-columns.ts';

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

describe('variableFileColumns: no column mixes fine and coarse categories', () => {
  it('serves a variable as it is stored when no suburb of the file is coarsened', () => {
    const columns = variableFileColumns(catalog, 'persons', [0, 2]);
    expect(columns.map((c) => c.name)).toEqual(['AGE5P', 'SEXP']);
    expect(columns[0]!.labels).toEqual(age.labels);
    expect(fileValue(columns[0]!, 2, 0)).toBe(2);
  });

  it('adds a coarse companion for every record and empties the fine column for the coarsened suburb', () => {
    const columns = variableFileColumns(catalog, 'persons', [0, 1, 1]);
    expect(columns.map((c) => c.name)).toEqual(['AGE5P', coarseColumnName('AGE5P'), 'SEXP']);
    const [fine, coarse] = columns;
    expect(fine!.labels).toEqual(age.categories);
    expect(coarse!.labels).toEqual(age.coarseCategories);
    // Big (ordinal 0) stores fine "65+" (2); Small (ordinal 1) stores coarse "Under 65" (label 4) or shared "Not stated" (3).
    expect([fileValue(fine!, 2, 0), fileValue(coarse!, 2, 0)]).toEqual([2, 1]);
    expect([fileValue(fine!, 4, 1), fileValue(coarse!, 4, 1)]).toEqual([NULL_CODE, 0]);
    expect([fileValue(fine!, 3, 1), fileValue(coarse!, 3, 1)]).toEqual([NULL_CODE, 2]);
    // Every fine value of every suburb lands in the coarse column's own labels.
    for (let v = 0; v < age.labels.length; v++) expect(fileValue(coarse!, v, 0)).toBeLessThan(age.coarseCategories!.length);
  });

  it('serves a release without a fine-to-coarse map, whose categories this code does not know, as it was built', () => {
    const { coarseOfFine: _, ...old } = age;
    const legacy = { ...catalog, variables: { persons: [old], families: [], dwellings: [] } } as unknown as Catalog;
    const columns = variableFileColumns(legacy, 'persons', [1]);
    expect(columns.map((c) => c.name)).toEqual(['AGE5P']);
    expect(columns[0]!.labels).toEqual(age.labels);
  });
});
