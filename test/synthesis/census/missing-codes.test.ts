import { describe, expect, it } from 'vitest';
import { DATASET_TYPES } from '../../../src/census-names.ts';
import { missingCodesOf, substantiveCategories } from '../../../src/synthesis/census/missing-codes.ts';
import { variableByCode, variablesOf } from '../../../src/synthesis/census/variables.ts';

/**
 * Every variable's missing-value codes, audited against the ABS 2021 Census Dictionary: "Not
 * stated" and "inadequately described" are non-response; "Not applicable" (and DLOD's "Not
 * allocated", for pools that straddle remoteness areas) are not applicable; "Partial income
 * stated" and a family's "Labour force status not stated" leave the record's category unknown.
 * LFSP's "Employed, hours of work not stated" is none of these: the person is employed.
 * [not_applicable, non_response, partial_response], fine categories.
 */
const NA = 'Not applicable';
const NS = 'Not stated';
const INCOMES: Expected = [[NA], ['All incomes not stated'], ['Partial income stated']];
type Expected = readonly [readonly string[], readonly string[], readonly string[]];
const AUDITED: Readonly<Record<string, Expected>> = {
  AGE5P: [[], [], []],
  AGEP: [[], [], []],
  SEXP: [[], [], []],
  RLHP: [[NA], [], []],
  MSTP: [[NA], [], []],
  MDCP: [[NA], [], []],
  INGP: [[], [NS], []],
  BPLP: [[], [NS], []],
  CITP: [[], [NS], []],
  LANP: [[], [NS], []],
  ENGLP: [[NA], [NS], []],
  RELP: [[], [NS], []],
  TYPP: [[NA], [NS], []],
  HSCP: [[NA], [NS], []],
  HEAP: [[NA], ['Level of education inadequately described', NS], []],
  INCP: [[NA], [NS], []],
  ASSNP: [[], [NS], []],
  LTHP: [[], [NS], []],
  UAI5P: [[NA], [NS], []],
  VOLWP: [[NA], [NS], []],
  LFSP: [[NA], [NS], []],
  HRSP: [[NA], [NS], []],
  OCCP: [[NA], ['Inadequately described/Not stated'], []],
  INDP: [[NA], ['Inadequately described/Not stated'], []],
  MTWP: [[NA], [NS], []],
  FMCF: [[], [], []],
  CDCF: [[], [], []],
  CACF: [[], [], []],
  NPRF: [[], [], []],
  FINF: INCOMES,
  LFSF: [[NA], [], ['Couple family: Labour force status not stated (one or both)', 'One parent family: Labour force status not stated']],
  SSCF: [[NA], [], []],
  FBLF: [[NA], [], []],
  FMHD: [[], [], []],
  AGFRF: [[], [], []],
  DWTD: [[], [], []],
  STRD: [[NA], [NS], []],
  TEND: [[NA], [NS], []],
  LLDD: [[NA], ['Landlord type not stated'], []],
  BEDRD: [[NA], [NS], []],
  VEHRD: [[NA], [NS], []],
  NPRD: [[NA], [], []],
  HHCD: [[NA], [], []],
  HCFMD: [[NA], [], []],
  HIND: INCOMES,
  HIED: INCOMES,
  RNTRD: [[NA], [NS], []],
  MRERD: [[NA], [NS], []],
  NFMD: [[NA], [], []],
  DLOD: [['Not allocated'], [], []],
};

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
    expect(missingCodesOf(variableByCode('LFSP').categories).partial_response).toEqual([]);
    expect(missingCodesOf(variableByCode('DLOD').categories).not_applicable).toEqual(['Not allocated']);
  });

  it('lists, for every variable of the catalogue, the missing codes the ABS definitions give it', () => {
    const all = DATASET_TYPES.flatMap((d) => variablesOf(d));
    expect(all.map((v) => v.code).sort()).toEqual(Object.keys(AUDITED).sort());
    for (const v of all) {
      const m = missingCodesOf(v.categories);
      expect([m.not_applicable, m.non_response, m.partial_response], v.code).toEqual(AUDITED[v.code]);
    }
    // The employed whose hours are not stated are employed: a substantive LFSP level.
    expect(substantiveCategories(variableByCode('LFSP').categories)).toContain('Employed, hours of work not stated');
  });

  it('leaves every other label of every variable substantive, and no label mentioning "not stated" or "not applicable" among them', () => {
    for (const dataset of DATASET_TYPES) {
      for (const v of variablesOf(dataset)) {
        for (const categories of [v.categories, v.coarse?.categories ?? []]) {
          const substantive = substantiveCategories(categories);
          const employed = (label: string) => label === 'Employed, hours of work not stated';
          for (const label of substantive.filter((l) => !employed(l))) expect(label, `${v.code}: ${label}`).not.toMatch(/not stated|not applicable|inadequately described|partial income/i);
          const m = missingCodesOf(categories);
          expect(substantive.length + m.not_applicable.length + m.non_response.length + m.partial_response.length, v.code).toBe(categories.length);
        }
      }
    }
  });
});
