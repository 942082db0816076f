import { describe, expect, it } from 'vitest';
import { cell, columnsOf, def } from './columns.ts';
import { catRange } from '../../../../src/synthesis/census/gcp/vocabulary.ts';
import { tabulateCells } from '../../../../src/synthesis/census/tabulate.ts';
import { categoryIndex } from '../../../../src/synthesis/census/variables.ts';
import { buildDemoGeography } from '../../../../src/demo/geography.ts';
import { drawSuburbPopulation } from '../../../../src/demo/truth-model.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';

const M = { SEXP: [0] };
const F = { SEXP: [1] };
const RLHP_ALL = catRange(0, 10); // G27's universe: every relationship but "Not applicable"

describe('person table vocabularies (G01, G04–G07, G09, G13, G14, G27)', () => {
  it('defines the columns our categories express, and only those', () => {
    const counts = Object.fromEntries(
      ['G01', 'G04', 'G05', 'G06', 'G07', 'G09', 'G13', 'G14', 'G27'].map((t) => {
        const cols = [...columnsOf(t).values()];
        return [t, `${cols.filter((c) => c.cell).length}/${cols.length}`];
      }),
    );
    expect(counts).toEqual({
      G01: '96/108',
      G04: '306/306',
      G05: '180/180',
      G06: '120/120',
      G07: '180/180',
      G09: '90/1590',
      G13: '90/846',
      G14: '27/102',
      G27: '360/360',
    });
  });

  it('G01: selected characteristics', () => {
    expect(def('G01', 'Tot_P_M')).toEqual({ where: M });
    expect(def('G01', 'Age_85ov_F')).toEqual({ where: F, age: [85, 115] });
    expect(def('G01', 'Indigenous_P_Tot_P')).toEqual({ where: { INGP: [1, 2, 3] } });
    expect(def('G01', 'Indig_Bth_Abor_Torres_St_Is_M')).toEqual({ where: { INGP: [3], ...M } });
    expect(def('G01', 'Birthplace_Elsewhere_P')).toEqual({ where: { BPLP: catRange(1, 9) } });
    expect(def('G01', 'Lang_used_home_Oth_Lang_F')).toEqual({ where: { LANP: catRange(1, 9), ...F } });
    // Footnote (e): attending, type stated (so neither "Not stated" nor "Not applicable").
    expect(def('G01', 'Age_psns_att_educ_inst_0_4_M')).toEqual({ where: { TYPP: catRange(0, 5), ...M }, age: [0, 4] });
    expect(def('G01', 'Age_psns_att_edu_inst_25_ov_P')).toEqual({ where: { TYPP: catRange(0, 5) }, age: [25, 115] });
    expect(def('G01', 'High_yr_schl_comp_D_n_g_sch_F')).toEqual({ where: { HSCP: [0], ...F } });
    // No spq variable: usual address on Census Night; place-of-enumeration dwelling counts.
    for (const h of ['Counted_Census_Night_home_M', 'Count_Census_Nt_Ewhere_Aust_P', 'Count_psns_occ_priv_dwgs_M', 'Count_Persons_other_dwgs_P'])
      expect(def('G01', h), h).toBeUndefined();
  });

  it('G04–G07: age, marital status and Indigenous status by age by sex', () => {
    expect(def('G04', 'Age_yr_0_M')).toEqual({ where: M, age: [0, 0] });
    expect(def('G04', 'Age_yr_100_yr_over_F')).toEqual({ where: F, age: [100, 115] });
    expect(def('G04', 'Tot_P')).toEqual({ where: {} });
    expect(def('G05', 'M_15_19_yr_Married')).toEqual({ where: { MSTP: [4], ...M }, age: [15, 19] });
    expect(def('G05', 'P_Tot_Tot')).toEqual({ where: {}, age: [15, 115] });
    expect(def('G06', 'M_15_19_yr_Marrd_reg_marrge')).toEqual({ where: { MDCP: [0], ...M }, age: [15, 19] });
    expect(def('G06', 'F_Tot_Not_married')).toEqual({ where: { MDCP: [2], ...F }, age: [15, 115] });
    expect(def('G07', 'A_0_4_y_Indigenous_M')).toEqual({ where: { INGP: [1, 2, 3], ...M }, age: [0, 4] });
    expect(def('G07', 'Tot_Indig_status_ns_M')).toEqual({ where: { INGP: [4], ...M } });
  });

  it('G09: Australia, not stated and totals; single countries and "Born elsewhere" stay undefined', () => {
    expect(def('G09', 'M_Australia_0_4')).toEqual({ where: { BPLP: [0], ...M }, age: [0, 4] });
    expect(def('G09', 'P_COB_NS_Tot')).toEqual({ where: { BPLP: [10] } });
    expect(def('G09', 'F_Tot_25_44')).toEqual({ where: F, age: [25, 44] });
    for (const h of ['M_Afghanistan_0_4', 'P_England_Tot', 'F_New_Zealand_Tot', 'M_Elsewhere_Tot', 'P_Elsewhere_0_4'])
      expect(def('G09', h), h).toBeUndefined();
  });

  it('G13: language groups by proficiency in spoken English', () => {
    expect(def('G13', 'MSEO_SEO')).toEqual({ where: { LANP: [0], ...M } });
    expect(def('G13', 'MOL_Tot_UOLSE_VWorW')).toEqual({ where: { LANP: catRange(1, 9), ENGLP: [3, 2], ...M } });
    expect(def('G13', 'MOL_AIndLng_UOLSE_NWorNAA')).toEqual({ where: { LANP: [8], ENGLP: [1, 0], ...M } });
    // "Speaks English only" as a proficiency is the English-only speakers: none in another row.
    expect(def('G13', 'MOL_Tot_SEO')).toEqual({ where: { LANP: [], ...M } });
    expect(def('G13', 'M_LUatH_NS_NS')).toEqual({ where: { LANP: [10], ENGLP: [4], ...M } });
    expect(def('G13', 'P_Tot_UOLSE_Tot')).toEqual({ where: { ENGLP: [3, 2, 1, 0] } });
    expect(def('G13', 'P_Tot_SEO')).toEqual({ where: { LANP: [0] } });
    for (const h of ['MOL_Arabic_Tot', 'MOL_CL_Tot_Tot', 'FOL_IAL_Tot_SEO', 'MOL_SAL_Tot_Tot', 'MOL_Oth_Tot'])
      expect(def('G13', h), h).toBeUndefined();
  });

  it('G14: religion groups; denominations stay undefined', () => {
    expect(def('G14', 'Christianity_Tot_M')).toEqual({ where: { RELP: [1], ...M } });
    expect(def('G14', 'Other_Religions_Tot_P')).toEqual({ where: { RELP: [5] } });
    expect(def('G14', 'Religious_affiliation_ns_F')).toEqual({ where: { RELP: [7], ...F } });
    for (const h of ['Christianity_Anglican_M', 'Othr_Rel_Sikhism_P', 'SB_OSB_NRA_NR_F']) expect(def('G14', h), h).toBeUndefined();
  });

  it('G27: relationship in household by age by sex, persons in occupied private dwellings', () => {
    expect(def('G27', 'M_Ptn_in_RM_15_24')).toEqual({ where: { RLHP: [0], ...M }, age: [15, 24] });
    expect(def('G27', 'F_Ptn_in_DFM_85ov')).toEqual({ where: { RLHP: [1], ...F }, age: [85, 115] });
    expect(def('G27', 'M_CU15_0_14')).toEqual({ where: { RLHP: [3], ...M }, age: [0, 14] });
    expect(def('G27', 'F_DpStu_15_24')).toEqual({ where: { RLHP: [4], ...F }, age: [15, 24] });
    // "Dependent_student_aged_15_24_years_Total": the header's own 15–24 is read as the age.
    expect(def('G27', 'M_DpStu_Tot')).toEqual({ where: { RLHP: [4], ...M }, age: [15, 24] });
    expect(def('G27', 'P_Vis_within_Aus_Tot')).toEqual({ where: { RLHP: [10] } });
    expect(def('G27', 'P_Tot_Tot')).toEqual({ where: { RLHP: RLHP_ALL } });
    expect(def('G27', 'F_Tot_0_14')).toEqual({ where: { RLHP: RLHP_ALL, ...F }, age: [0, 14] });
  });

  it('category indices used above are the catalogue’s', () => {
    expect(categoryIndex('RLHP', 'Not applicable')).toBe(11);
    expect(categoryIndex('TYPP', 'Not stated')).toBe(6);
    expect(categoryIndex('LANP', 'Australian Indigenous languages')).toBe(8);
    expect(categoryIndex('ENGLP', 'Not stated')).toBe(4);
  });

  it('on demo truth, the defined columns add up as the tables do', () => {
    const pops = buildDemoGeography('demo', 3, 4).suburbs.map((s) => drawSuburbPopulation(s, createRng(3).fork(s.index)));
    const sum = (table: string, headers: readonly string[], pop: (typeof pops)[number]) => {
      const cells = headers.map((h) => cell(table, h)!);
      return tabulateCells(pop, 'persons', cells).reduce((a, b) => a + b, 0);
    };
    for (const pop of pops) {
      const n = pop.persons.count;
      expect(sum('G01', ['Tot_P_P'], pop)).toBe(n);
      expect(sum('G27', ['P_Tot_Tot'], pop)).toBe(n); // the truth puts everyone in a private dwelling
      const roles = ['Ptn_in_RM', 'Ptn_in_DFM', 'LonePnt', 'CU15', 'DpStu', 'NDpChl', 'OthRI', 'URI_in_FH', 'GrpH_Mem', 'LonePsn', 'Vis_within_Aus'];
      expect(sum('G27', roles.map((r) => `P_${r}_Tot`), pop)).toBe(n);
      for (const t of ['G04', 'G07']) expect(sum(t, ['Tot_P', 'Tot_Tot_P'].filter((h) => columnsOf(t).has(h)), pop)).toBe(n);
      // G05/G06: the five / three statuses make up the 15+ total.
      expect(sum('G05', ['P_Tot_Married', 'P_Tot_Separated', 'P_Tot_Divorced', 'P_Tot_Widowed', 'P_Tot_Never_married'], pop)).toBe(sum('G05', ['P_Tot_Tot'], pop));
      expect(sum('G06', ['P_Tot_Marrd_reg_marrge', 'P_Tot_Married_de_facto', 'P_Tot_Not_married'], pop)).toBe(sum('G06', ['P_Tot_Total'], pop));
      // G13: English-only speakers have no proficiency column but their own.
      expect(sum('G13', ['PSEO_UOLSE_Tot', 'PSEO_NS'], pop)).toBe(0);
      expect(sum('G13', ['PSEO_SEO'], pop)).toBe(sum('G13', ['PSEO_Tot'], pop));
      // G14: the religion groups and not stated make up the total.
      const groups = ['Buddhism_P', 'Christianity_Tot_P', 'Hinduism_P', 'Islam_P', 'Judaism_P', 'Other_Religions_Tot_P', 'SB_OSB_NRA_Tot_P', 'Religious_affiliation_ns_P'];
      expect(sum('G14', groups, pop)).toBe(sum('G14', ['Tot_P'], pop));
    }
  });
});
