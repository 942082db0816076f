import { describe, expect, it } from 'vitest';
import { DATASET_TYPES } from '../../../src/synthesis/census/datasets.ts';
import { missingCodesOf, substantiveCategories } from '../../../src/synthesis/census/missing-codes.ts';
import { variableByCode, variablesOf } from '../../../src/synthesis/census/variables.ts';

describe('missing-value codes', () => {
  it('marks the not-applicable, non-response and partial codes of the catalogue', () => {
    expect(missingCodesOf(variableByCode('INCP').categories)).toEqual({ not_applicable: ['Not applicable'], non_response: ['Not stated'], partial_response: [] });
    expect(missingCodesOf(variableByCode('HIND').categories)).toEqual({
      not_applicable: ['Not applicable'],
      non_response: ['All incomes not stated'],
      partial_response: ['Partial income stated'],
    });
    expect(missingCodesOf(variableByCode('OCCP').categories).non_response).toEqual(['Inadequately described/Not stated']);
    expect(missingCodesOf(variableByCode('HEAP').categories).non_response).toEqual(['Level of education inadequately described', 'Not stated']);
    expect(missingCodesOf(variableByCode('LFSP').categories).partial_response).toEqual(['Employed, hours of work not stated']);
    expect(missingCodesOf(variableByCode('DLOD').categories).not_applicable).toEqual(['Not allocated']);
  });

  it('leaves every other label of every variable substantive, and no label mentioning "not stated" or "not applicable" among them', () => {
    for (const dataset of DATASET_TYPES) {
      for (const v of variablesOf(dataset)) {
        for (const categories of [v.categories, v.coarse?.categories ?? []]) {
          const substantive = substantiveCategories(categories);
          for (const label of substantive) expect(label, `${v.code}: ${label}`).not.toMatch(/not stated|not applicable|inadequately described|partial income/i);
          const m = missingCodesOf(categories);
          expect(substantive.length + m.not_applicable.length + m.non_response.length + m.partial_response.length, v.code).toBe(categories.length);
        }
      }
    }
  });
});
