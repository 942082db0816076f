import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitLongHeader } from '../../../../src/synthesis/census/gcp/long-header.ts';
import { readRest, type TableVocabulary } from '../../../../src/synthesis/census/gcp/vocabulary.ts';

describe('splitLongHeader', () => {
  it.each([
    ['MALES_Negative_Nil_income_Age_85_years_and_over', { sex: 'M', age: [85, 115], rest: 'Negative_Nil_income' }],
    ['Age_years_7_Females', { sex: 'F', age: [7, 7], rest: '' }],
    ['Age_groups_0_4_years_Persons', { sex: 'P', age: [0, 4], rest: '' }],
    ['MALES_15_19_years_Married_in_a_registered_marriage', { sex: 'M', age: [15, 19], rest: 'Married_in_a_registered_marriage' }],
    ['MALES_Arthritis_Age_Total_responses', { sex: 'M', rest: 'Arthritis' }],
    ['DEPENDENT_CHILDREN_AGED_0_4_YEARS_FEMALE_PARENT_Speaks_English_only', { age: [0, 4], rest: 'FEMALE_PARENT_Speaks_English_only' }],
    ['Couple_family_with_no_children_Persons', { sex: 'P', rest: 'Couple_family_with_no_children' }],
    ['Occupied_private_dwellings_Separate_house_Dwellings', { count: 'records', rest: 'Occupied_private_dwellings_Separate_house' }],
    // Dollar ranges are not ages: no "years" after them.
    ['0_149_Couple_family_with_No_children', { rest: '0_149_Couple_family_with_No_children' }],
  ])('%s', (long, parts) => {
    expect(splitLongHeader(long)).toEqual(parts);
  });
});

describe('readRest', () => {
  const vocabulary: TableVocabulary = {
    table: 'GXX',
    universe: 'persons',
    phrases: [
      ['Christianity', { RELP: [1] }],
      ['Christianity_Anglican', { RELP: [1], X: [0] }],
      ['Occupation_Managers', { OCCP: [0] }],
    ],
  };
  it('reads longest phrases first, ands them, and takes Total as no condition', () => {
    expect(readRest(vocabulary, 'Christianity_Total')).toEqual({ RELP: [1] });
    expect(readRest(vocabulary, 'Christianity_Anglican')).toEqual({ RELP: [1], X: [0] });
    expect(readRest(vocabulary, 'Christianity_Occupation_Managers')).toEqual({ RELP: [1], OCCP: [0] });
    expect(readRest(vocabulary, '')).toEqual({});
  });
  it('refuses a rest it cannot read whole, and phrases that end mid-word', () => {
    expect(readRest(vocabulary, 'Christianity_Baptist')).toBeUndefined();
    expect(readRest(vocabulary, 'ChristianityX')).toBeUndefined();
  });
  it('never reads a rest that has an unknown word in it (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('Christianity', 'Total', 'Occupation_Managers', 'Unknown'), { maxLength: 5 }), (words) => {
        const read = readRest(vocabulary, words.join('_'));
        expect(read === undefined).toBe(words.includes('Unknown'));
      }),
    );
  });
});
