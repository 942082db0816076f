import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { INPUT_TABLES } from '../../../../src/synthesis/census/tables.ts';
import type { SuburbTargets } from '../../../../src/synthesis/census/targets.ts';
import { AGES } from '../../../../src/synthesis/synthesizer/structure/model.ts';
import { structureTargetsFrom } from '../../../../src/synthesis/synthesizer/structure/from-tables.ts';

const spec = (id: string) => INPUT_TABLES.find((t) => t.id === id)!;
const headerIndex = (id: string, header: string) => spec(id).cells.findIndex((c) => c.header === header);

function cells(id: string, values: Readonly<Record<string, number>>): Float64Array {
  const out = new Float64Array(spec(id).cells.length);
  for (const [header, v] of Object.entries(values)) {
    const i = headerIndex(id, header);
    if (i < 0) throw new Error(`${id} has no cell ${header}`);
    out[i] = v;
  }
  return out;
}

const sumRange = (a: ArrayLike<number>, from: number, to: number) => {
  let s = 0;
  for (let i = from; i < to; i++) s += a[i] as number;
  return s;
};

describe('structureTargetsFrom', () => {
  it('splits the person anchor by G01 sex and keeps G04 cells, groups whole', () => {
    const g04 = cells('G04', { Age_yr_30_M: 40, Age_yr_31_M: 20, Age_yr_30_F: 30, Age_yr_80_84_F: 10, Age_yr_100_yr_over_F: 3 });
    const g01 = cells('G01', { Tot_P_M: 61, Tot_P_F: 45 });
    const targets: SuburbTargets = { salCode: 'SAL1', tables: new Map([['G04', g04], ['G01', g01]]) };
    const t = structureTargetsFrom(targets, { smallSuburb: false, totals: new Map([['G01', 106]]) });
    expect(t.persons).toBe(106);
    const a = t.personsByAgeSex;
    expect(sumRange(a, 0, AGES)).toBe(61);
    expect(sumRange(a, AGES, 2 * AGES)).toBe(45);
    // Males: one person more than G04 says, on the larger cell when the shift leaves a choice.
    expect([a[30], a[31]]).toEqual([41, 20]);
    // Females: 45 = 30 + 10 + 3 + 2: one more on each of the two largest cells.
    expect(a[AGES + 30]).toBe(31);
    expect(sumRange(a, AGES + 80, AGES + 85)).toBe(11);
    expect(sumRange(a, AGES + 100, 2 * AGES)).toBe(3);
    for (let i = 0; i < a.length; i++) expect(Number.isInteger(a[i])).toBe(true);
  });

  it('property: persons by age × sex are whole and add up to the anchor', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(9), { minLength: 190, maxLength: 190 }), fc.nat(2000), fc.option(fc.tuple(fc.nat(900), fc.nat(900)), { nil: undefined }), (raw, persons, bySex) => {
        const tables = new Map<string, Float64Array>([['G04', Float64Array.from(raw)]]);
        if (bySex) tables.set('G01', cells('G01', { Tot_P_M: bySex[0], Tot_P_F: bySex[1] }));
        const t = structureTargetsFrom({ salCode: 'SAL1', tables }, { smallSuburb: false, totals: new Map([['G01', persons]]) });
        let total = 0;
        for (let i = 0; i < t.personsByAgeSex.length; i++) {
          expect(Number.isInteger(t.personsByAgeSex[i])).toBe(true);
          expect(t.personsByAgeSex[i]).toBeGreaterThanOrEqual(0);
          total += t.personsByAgeSex[i] as number;
        }
        expect(total).toBe(persons);
      }),
      { numRuns: 60 },
    );
  });

  it('reads the under-15 split, second families and the married from G29, G35 and G05', () => {
    const g35 = cells('G35', { Num_Psns_UR_2_FamHhold: 30, Num_Psns_UR_4_FamHhold: 40, Num_Psns_UR_1_NonFamHhold: 20 });
    const g29 = cells('G29', {
      CF_no_children_F: 30, CF_ChU15_a_Total_F: 30, CF_no_ChU15_a_Total_F: 10, OPF_ChU15_a_Total_F: 4, OPF_no_ChU15_a_Total_F: 4, Other_family_F: 2,
    });
    const g05 = cells('G05', { M_25_34_yr_Married: 30, M_35_44_yr_Married: 10, F_25_34_yr_Married: 42 });
    const t = structureTargetsFrom({ salCode: 'SAL1', tables: new Map([['G35', g35], ['G29', g29], ['G05', g05]]) }, { smallSuburb: false, totals: new Map([['G01', 300], ['G35', 90]]) });
    expect(Array.from(t.familiesByType!)).toEqual([30, 40, 8, 2]);
    expect(t.under15Share![1]).toBeCloseTo(0.75);
    expect(t.under15Share![2]).toBeCloseTo(0.5);
    // 80 families in 70 family households: 10 households of two families (of 4 or more persons).
    expect(Array.from(t.familyHouseholdsByFamilies!)).toEqual([60, 10, 0]);
    // G05's married by sex × age group, less the 5% living apart from their spouse (rounded down).
    const cap = t.registeredPartnerCap!;
    const at = (sex: number, lo: number) => cap.bySexRange[sex * cap.ranges.length + cap.ranges.findIndex(([a]) => a === lo)];
    expect([at(0, 25), at(0, 35), at(1, 25), at(1, 15)]).toEqual([28, 9, 39, 0]);
  });
});
