import { describe, expect, it } from 'vitest';
import { columnsOf, def } from './columns.ts';
import { gcpColumns } from '../../../../src/synthesis/census/gcp/cells.ts';
import { catRange } from '../../../../src/synthesis/census/gcp/vocabulary.ts';
import { salPartsRead } from '../../../../src/census-input/load-sal.ts';
import { tabulateCells } from '../../../../src/synthesis/census/tabulate.ts';
import { buildDemoGeography } from '../../../../src/demo/geography.ts';
import { drawSuburbPopulation } from '../../../../src/demo/truth-model.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';

/**
 * The tables whose SAL part files (G19C, G24B, G26B, G43, G44, G45, G50C, G51C) a suburb build
 * reads to bind since issue 39's "use every own cell": what their real headers define. G48B
 * (dependent children of one-parent families by the parent's labour force) defines nothing.
 */
const M = { SEXP: [0] };
const F = { SEXP: [1] };
const ADULT: readonly [number, number] = [15, 115];
const EMPLOYED = { LFSP: [0, 1, 2, 3] };
const QUALIFIED = { HEAP: [7, 6, 5, 4, 3, 8, 9] };
const LTHP_NOT_STATED = { LTHP: [4] };

describe('vocabularies of the SAL part files read to bind (issue 39)', () => {
  it('defines the columns our categories express, and only those', () => {
    const counts = Object.fromEntries(
      ['G19', 'G24', 'G26', 'G43', 'G44', 'G45', 'G48', 'G50', 'G51'].map((t) => {
        const cols = [...columnsOf(t).values()];
        return [t, `${cols.filter((c) => c.cell).length}/${cols.length}`];
      }),
    );
    expect(counts).toEqual({
      G19: '60/420',
      G24: '30/210',
      G26: '30/210',
      G43: '36/66',
      G44: '3/51',
      G45: '3/51',
      G48: '0/288',
      G50: '27/405',
      G51: '30/450',
    });
  });

  it('G19: persons and "not stated" by age; single conditions and "no condition" stay undefined', () => {
    expect(def('G19', 'P_Tot_0_14')).toEqual({ where: {}, age: [0, 14] });
    expect(def('G19', 'P_Tot_85_over')).toEqual({ where: {}, age: [85, 115] });
    expect(def('G19', 'P_Tot_Tot')).toEqual({ where: {} });
    expect(def('G19', 'P_NS_25_34')).toEqual({ where: LTHP_NOT_STATED, age: [25, 34] });
    expect(def('G19', 'P_NS_Tot')).toEqual({ where: LTHP_NOT_STATED });
    // G19's "no long-term health conditions" leaves out persons with only "any other" condition.
    for (const h of ['P_None_Tot', 'P_Other_Tot', 'P_Other_85_over']) expect(def('G19', h), h).toBeUndefined();
  });

  it('G24, G26: persons 15+ by age; unpaid domestic work and child care stay undefined', () => {
    for (const t of ['G24', 'G26']) {
      expect(def(t, 'P_Tot_Total'), t).toEqual({ where: {}, age: ADULT });
      const by = (long: string) => [...columnsOf(t).values()].find((c) => c.long === long)?.cell;
      expect(by('MALES_15_19_years_Total'), t).toMatchObject({ where: M, age: [15, 19] });
    }
    expect(def('G24', 'P_85y_ov_Total')).toEqual({ where: {}, age: [85, 115] });
    expect(def('G26', 'P_85ov_Total')).toEqual({ where: {}, age: [85, 115] });
    for (const h of ['P_85y_ov_DNUDW', 'P_Tot_DUDW_LT_5_h', 'P_Tot_UDW_NS']) expect(def('G24', h), h).toBeUndefined();
    for (const h of ['P_85ov_DNPCC', 'P_Tot_CF_Own_CCO', 'P_Tot_CF_Total']) expect(def('G26', h), h).toBeUndefined();
  });

  it('G43: labour force (away from work with hours not stated) and levels of persons 15+; rates and migration stay undefined', () => {
    expect(def('G43', 'P_15_yrs_over_F')).toEqual({ where: F, age: ADULT });
    expect(def('G43', 'lfs_Emplyed_wrked_full_time_M')).toEqual({ where: { LFSP: [0], ...M }, age: ADULT });
    expect(def('G43', 'lfs_Emplyed_wrked_part_time_P')).toEqual({ where: { LFSP: [1] }, age: ADULT });
    expect(def('G43', 'lfs_Employed_away_from_work_P')).toEqual({ where: { LFSP: [2, 3] }, age: ADULT });
    expect(def('G43', 'lfs_Unmplyed_lookng_for_wrk_P')).toEqual({ where: { LFSP: [4, 5] }, age: ADULT });
    expect(def('G43', 'lfs_Tot_LF_P')).toEqual({ where: { LFSP: catRange(0, 5) }, age: ADULT });
    expect(def('G43', 'lfs_N_the_labour_force_F')).toEqual({ where: { LFSP: [6], ...F }, age: ADULT });
    expect(def('G43', 'non_sch_qual_PostGrad_Dgre_P')).toEqual({ where: { HEAP: [7] }, age: ADULT });
    expect(def('G43', 'non_sch_qual_CertTot_Level_M')).toEqual({ where: { HEAP: [3], ...M }, age: ADULT });
    for (const h of ['Percent_Unem_loyment_P', 'Percnt_LabForc_prticipation_M', 'non_sch_qual_Cert3a4_Level_P', 'non_sch_qual_Certnfd_Level_P', 'Migtn_Lvd_same_add_1_yr_ago_P', 'Mign_Lvd_Diff_add_5_yrs_ago_F'])
      expect(def('G43', h), h).toBeUndefined();
  });

  it('G44, G45: persons aged 1 (5) and over by sex; where they lived stays undefined', () => {
    expect(def('G44', 'Tot_M')).toEqual({ where: M, age: [1, 115] });
    expect(def('G44', 'Tot_P')).toEqual({ where: {}, age: [1, 115] });
    expect(def('G45', 'Tot_F')).toEqual({ where: F, age: [5, 115] });
    for (const h of ['Sme_Usl_ad_1_yr_ago_as_2021_P', 'Dif_Us_ad_1_ago_Dif_SA2_Tas_P', 'N_stated_P']) expect(def('G44', h), h).toBeUndefined();
  });

  it('G50, G51: the qualified by age and the employed qualified by occupation; fields of study stay undefined', () => {
    expect(def('G50', 'P_Tot_55_64')).toEqual({ where: QUALIFIED, age: [55, 64] });
    expect(def('G50', 'P_Tot_85ov')).toEqual({ where: QUALIFIED, age: [85, 115] });
    expect(def('G50', 'P_Tot_Tot')).toEqual({ where: QUALIFIED, age: ADULT });
    const universe = { ...EMPLOYED, ...QUALIFIED };
    expect(def('G51', 'P_Tot_Occ_Mng')).toEqual({ where: { ...universe, OCCP: [0] }, age: ADULT });
    expect(def('G51', 'P_Tot_Occ_IDNS')).toEqual({ where: { ...universe, OCCP: [8] }, age: ADULT });
    expect(def('G51', 'P_Total_Total')).toEqual({ where: universe, age: ADULT });
    for (const h of ['P_FoodHospPersServ_Occ_Mng', 'P_MixFieldProg_Total', 'P_FS_NS_Occ_Lab']) expect(def('G51', h), h).toBeUndefined();
  });

  it('a suburb build reads the eight parts to bind, and not G48B', () => {
    const read = salPartsRead();
    for (const p of ['G19C', 'G24B', 'G26B', 'G43', 'G44', 'G45', 'G50C', 'G51C']) expect(read, p).toContain(p);
    expect(read).not.toContain('G48B');
    expect(gcpColumns('G48B').some((c) => c.cell)).toBe(false);
  });

  it('on demo truth, the new totals agree with the tables already read', () => {
    const pops = buildDemoGeography('demo', 3, 3).suburbs.map((s) => drawSuburbPopulation(s, createRng(11).fork(s.index)));
    const count = (table: string, header: string, pop: (typeof pops)[number]) => {
      const col = columnsOf(table).get(header)!.cell!;
      return tabulateCells(pop, 'persons', [col])[0]!;
    };
    for (const pop of pops) {
      expect(count('G19', 'P_Tot_Tot', pop)).toBe(pop.persons.count);
      expect(count('G19', 'P_NS_Tot', pop)).toBe(count('G20', 'P_cond_NS_Tot', pop));
      expect(count('G43', 'P_15_yrs_over_P', pop)).toBe(count('G46', 'P_Tot_Tot', pop));
      expect(count('G43', 'lfs_Tot_LF_P', pop)).toBe(count('G46', 'P_Tot_LF_Tot', pop));
      expect(count('G43', 'lfs_Employed_away_from_work_P', pop)).toBe(count('G46', 'P_Emp_awy_f_wrk_Tot', pop) + count('G46', 'P_Hours_wkd_NS_Tot', pop));
      expect(count('G50', 'P_Tot_Tot', pop)).toBe(count('G49', 'P_Tot_Total', pop));
      expect(count('G51', 'P_Total_Total', pop)).toBe(count('G52', 'P_Tot_Tot', pop));
      expect(count('G51', 'P_Tot_Occ_Pro', pop)).toBe(count('G52', 'P_Tot_Pro', pop));
      expect(count('G24', 'P_Tot_Total', pop)).toBe(count('G43', 'P_15_yrs_over_P', pop));
    }
  });
});
