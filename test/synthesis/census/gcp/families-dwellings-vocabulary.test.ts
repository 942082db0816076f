import { describe, expect, it } from 'vitest';
import { cell, columnsOf, def } from './columns.ts';
import { gcpVocabulary } from '../../../../src/synthesis/census/gcp/cells.ts';
import { catRange } from '../../../../src/synthesis/census/gcp/vocabulary.ts';
import { tabulateCells } from '../../../../src/synthesis/census/tabulate.ts';
import type { DatasetType } from '../../../../src/census-names.ts';
import { categoryIndex } from '../../../../src/synthesis/census/variables.ts';
import { buildDemoGeography } from '../../../../src/demo/geography.ts';
import { drawSuburbPopulation } from '../../../../src/demo/truth-model.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';

/** Every dwelling table counts occupied private dwellings only: their columns all say so. */
const OPD = { DWTD: [categoryIndex('DWTD', 'Occupied private dwelling')] };

const TABLES = ['G29', 'G31', 'G32', 'G33', 'G34', 'G35', 'G36', 'G37', 'G38', 'G40', 'G41', 'G42', 'G57', 'G58', 'G59'];
const WHOM_ONLY = ['G12', 'G30', 'G39', 'G47', 'G48'];

const FLAT = catRange(3, 7);
const COUPLE_NO_KIDS = { FMCF: [0] };
const COUPLE_KIDS = { FMCF: [1, 2] };
const ONE_PARENT = { FMCF: [3, 4] };

describe('family and dwelling vocabularies (G29, G31–G38, G40–G42, G57–G59)', () => {
  it('defines the columns our categories express, and only those', () => {
    const counts = Object.fromEntries(
      [...TABLES, ...WHOM_ONLY].map((t) => {
        const cols = [...columnsOf(t).values()];
        return [t, `${cols.filter((c) => c.cell).length}/${cols.length}`];
      }),
    );
    expect(counts).toEqual({
      G29: '22/46',
      G31: '8/8',
      G32: '100/100',
      G33: '60/60',
      G34: '8/8',
      G35: '21/21',
      G36: '26/38',
      G37: '72/72',
      G38: '78/78',
      G40: '112/112',
      G41: '117/117',
      G42: '104/136',
      G57: '80/240',
      G58: '80/240',
      G59: '80/220',
      // Whom only: G30's dependent children by age; G39 defines nothing (its population is not expressible).
      G12: '0/392',
      G30: '8/104',
      G39: '0/140',
      G47: '0/1152',
      G48: '0/288',
    });
  });

  it('the splitter takes no income, rent or mortgage range for an age, and _Persons means members', () => {
    for (const t of TABLES)
      for (const c of columnsOf(t).values()) {
        expect(c.parts.age, c.long).toBeUndefined();
        if (c.long.endsWith('_Persons')) expect(c.cell?.count ?? (c.cell ? 'records' : undefined), c.long).not.toBe('records');
        else if (c.cell) expect(c.cell.count, c.long).toBeUndefined();
      }
  });

  it('category indices used here are the catalogue’s', () => {
    expect(categoryIndex('FMCF', 'Couple family with no children under 15')).toBe(2);
    expect(categoryIndex('FMCF', 'One parent family with no children under 15')).toBe(4);
    expect(categoryIndex('CDCF', 'No dependent children')).toBe(0);
    expect(categoryIndex('LFSF', 'Couple family: Neither employed')).toBe(4);
    expect(categoryIndex('LFSF', 'One parent family: Labour force status not stated')).toBe(9);
    expect(categoryIndex('STRD', 'Not stated')).toBe(9);
    expect(categoryIndex('LLDD', 'Landlord type not stated')).toBe(5);
    expect(categoryIndex('RNTRD', 'Not stated')).toBe(14);
    expect(categoryIndex('MRERD', 'Not stated')).toBe(11);
    expect(categoryIndex('HIND', 'All incomes not stated')).toBe(18);
    expect(categoryIndex('HCFMD', 'Multiple family household: Couple family with children')).toBe(5);
  });

  it('G29: families and their members by composition; dependent students apart only where CDCF says it', () => {
    expect(def('G29', 'CF_no_children_F')).toEqual({ where: COUPLE_NO_KIDS });
    expect(def('G29', 'CF_no_children_P')).toEqual({ where: COUPLE_NO_KIDS, count: 'members' });
    expect(def('G29', 'CF_ChU15_a_Total_F')).toEqual({ where: { FMCF: [1] } });
    expect(def('G29', 'OPF_no_ChU15_a_Total_P')).toEqual({ where: { FMCF: [4] }, count: 'members' });
    expect(def('G29', 'CF_Total_P')).toEqual({ where: COUPLE_KIDS, count: 'members' });
    expect(def('G29', 'Total_F')).toEqual({ where: {} });
    expect(def('G29', 'CF_no_ChU15_a_no_DSs_a_NdCh_F')).toEqual({ where: { FMCF: [2], CDCF: [0] } });
    expect(def('G29', 'OPF_no_ChU15_no_DSs_a_NdCh_P')).toEqual({ where: { FMCF: [4], CDCF: [0] }, count: 'members' });
    for (const h of ['CF_ChU15_a_DSs_a_NdCh_F', 'CF_ChU15_a_no_DSs_a_no_NdCh_P', 'CF_ChU15_a_no_DSs_a_NdCh_F', 'CF_no_ChU15_a_DSs_a_NdCh_F', 'CF_no_ChU15_a_DSs_a_no_NdCh_P', 'OPF_ChU15_a_no_DSs_no_NdCh_F', 'OPF_no_ChU15_a_DSs_no_NdCh_F'])
      expect(def('G29', h), h).toBeUndefined();
  });

  it('G31–G35: blending, family and household income, vehicles, household size', () => {
    expect(gcpVocabulary('G31')?.where).toEqual(COUPLE_KIDS);
    expect(def('G31', 'Otr_cpl_fam_otr_chld_only_Fam')).toEqual({ where: { ...COUPLE_KIDS, FBLF: [6] } });
    expect(def('G32', 'FI_1_149_One_parent_fam')).toEqual({ where: { FINF: [1], ...ONE_PARENT } });
    expect(def('G32', 'All_inc_ns_cpl_fam_wth_chld')).toEqual({ where: { FINF: [18], ...COUPLE_KIDS } });
    expect(def('G32', 'Tot_Other_fam')).toEqual({ where: { FMCF: [5] } });
    expect(def('G33', 'HI_4000_more_Non_fam_hsehlds')).toEqual({ where: { ...OPD, HIND: [16], HHCD: [1, 2] } });
    expect(def('G33', 'Part_inc_stated_Fam_household')).toEqual({ where: { ...OPD, HIND: [17], HHCD: [0] } });
    expect(def('G34', 'Num_MVs_per_dweling_Tot')).toEqual({ where: { ...OPD, VEHRD: catRange(0, 4) } });
    expect(def('G34', 'Num_MVs_NS')).toEqual({ where: { ...OPD, VEHRD: [5] } });
    expect(def('G35', 'Num_Psns_UR_6mo_FamHhold')).toEqual({ where: { ...OPD, NPRD: [5, 6, 7], HHCD: [0] } });
    expect(def('G35', 'Num_Psns_UR_1_NonFamHhold')).toEqual({ where: { ...OPD, NPRD: [0], HHCD: [1, 2] } });
  });

  it('G36–G38, G40–G42: structure, tenure, landlord, mortgage, rent, bedrooms, household composition', () => {
    expect(def('G36', 'OPDs_F_ap_I_4to8_sty_blk_Ps')).toEqual({ where: { ...OPD, STRD: [5] }, count: 'members' });
    expect(def('G36', 'OPDs_Other_dwelling_Tot_Dwgs')).toEqual({ where: { ...OPD, STRD: [8] } });
    expect(def('G36', 'OPDs_Tot_OPDs_Persons')).toEqual({ where: { ...OPD }, count: 'members' });
    for (const h of ['OPDs_Oth_dwg_Cvn_Ds', 'OPDs_Ot_dwg_Hs_f_att_sh_of_Ps', 'Unoccupied_PDs_Dwgs', 'Total_PDs_Dwellings', 'Total_PDs_Persons'])
      expect(def('G36', h), h).toBeUndefined();
    expect(def('G37', 'R_Com_Hp_DS_Flt_apt')).toEqual({ where: { ...OPD, TEND: [2], LLDD: [2], STRD: FLAT } });
    expect(def('G37', 'R_Landld_typ_NS_Total')).toEqual({ where: { ...OPD, TEND: [2], LLDD: [5] } });
    expect(def('G37', 'Oth_ten_type_DS_not_stated')).toEqual({ where: { ...OPD, TEND: [3], STRD: [9] } });
    expect(gcpVocabulary('G38')?.where).toEqual({ ...OPD, TEND: [1] });
    expect(def('G38', 'M_4000_over_DS_Other_dwg')).toEqual({ where: { ...OPD, TEND: [1], MRERD: [10], STRD: [8] } });
    expect(def('G38', 'Mort_Rpmnt_ns_DS_ns')).toEqual({ where: { ...OPD, TEND: [1], MRERD: [11], STRD: [9] } });
    expect(gcpVocabulary('G40')?.where).toEqual({ ...OPD, TEND: [2] });
    expect(def('G40', 'R_650_749_LT_Psn_not_Sme_hhd')).toEqual({ where: { ...OPD, TEND: [2], RNTRD: [10], LLDD: [3] } });
    expect(def('G40', 'Rent_ns_LT_Lld_type_ns')).toEqual({ where: { ...OPD, TEND: [2], RNTRD: [14], LLDD: [5] } });
    expect(def('G41', 'Se_d_r_or_t_h_t_2_st_NofB_6_m')).toEqual({ where: { ...OPD, STRD: [2], BEDRD: [6] } });
    expect(def('G41', 'Dweling_structur_NS_NofB_NS')).toEqual({ where: { ...OPD, STRD: [9], BEDRD: [7] } });
    expect(def('G42', 'FoA_9moSB_FHs_OnePF')).toEqual({ where: { ...OPD, STRD: [6], HHCD: [0], HCFMD: [2, 6] } });
    expect(def('G42', 'OD_Tot_Lone_P_H')).toEqual({ where: { ...OPD, STRD: [8], HHCD: [1] } });
    expect(def('G42', 'OD_C_FHs_CF_C')).toBeUndefined();
  });

  it('G57–G59: family income by the partners’ or parent’s labour force status, single LFSF categories only', () => {
    expect(def('G57', 'NegNil_Inc_BE_WFT')).toEqual({ where: { ...COUPLE_NO_KIDS, FINF: [0], LFSF: [0] } });
    expect(def('G57', 'I_1_149_BNW')).toEqual({ where: { ...COUPLE_NO_KIDS, FINF: [1], LFSF: [4] } });
    expect(def('G58', 'NegNil_Inc_LFsta_NS')).toEqual({ where: { ...COUPLE_KIDS, FINF: [0], LFSF: [5] } });
    expect(def('G58', 'I_1_149_Tot')).toEqual({ where: { ...COUPLE_KIDS, FINF: [1] } });
    // LFSF's "one employed full-time, other part-time" also holds full-time + away from work.
    for (const t of ['G57', 'G58'])
      for (const h of ['NegNil_Inc_1EFT_OthPT', 'I_1_149_1EFT_OthAW', 'I_1_149_BE_WPT', 'I_1_149_1EPT_OthNW'])
        expect(def(t, h), `${t} ${h}`).toBeUndefined();
    const g59 = [...columnsOf('G59').values()];
    const byRest = (rest: string) => g59.find((c) => c.parts.rest === rest)?.cell?.where;
    expect(byRest('Total_Employed_Total')).toEqual({ ...ONE_PARENT, LFSF: [6, 7] });
    expect(byRest('Total_Employed_Worked_full_time')).toEqual({ ...ONE_PARENT, LFSF: [6] });
    expect(byRest('All_incomes_not_stated_Labour_force_status_not_stated')).toEqual({ ...ONE_PARENT, FINF: [18], LFSF: [9] });
    for (const rest of ['Total_Employed_Worked_part_time', 'Total_Employed_Away_from_work', 'Total_Unemployed_looking_for_Total', 'Total_Total_labour_force', 'Total_Not_in_the_labour_force'])
      expect(byRest(rest), rest).toBeUndefined();
  });

  it('G30: dependent children by age; the parents’ birthplace and family type stay undefined', () => {
    const DEPENDENT = { RLHP: [3, 4] };
    expect(def('G30', 'Tot_DC_15_17')).toEqual({ where: DEPENDENT, age: [15, 17] });
    expect(def('G30', 'Tot_Tot')).toEqual({ where: DEPENDENT });
    expect(def('G30', 'CF_C_Tot_DC_0_4')).toBeUndefined();
    expect(def('G30', 'One_PF_BPBAu_DC_5_9')).toBeUndefined();
  });
});

describe('family and dwelling definitions on demo truth populations', () => {
  const populations = buildDemoGeography('demo', 7, 4).suburbs.map((s) => drawSuburbPopulation(s, createRng(11).fork(s.index)));
  const count = (universe: DatasetType, table: string, headers: readonly string[]) => {
    const cells = headers.map((h) => {
      const c = cell(table, h);
      if (!c) throw new Error(`${table} ${h} is undefined`);
      return c;
    });
    return populations.map((pop) => [...tabulateCells(pop, universe, cells)]);
  };

  it('G29: the children-under-15 kinds and the non-dependent-only kind add up within their totals', () => {
    for (const [cf, opf, ndOnly, ndOnlyOpf, noU15, noU15Opf, total] of count('families', 'G29', [
      'CF_Total_F', 'OPF_Total_F', 'CF_no_ChU15_a_no_DSs_a_NdCh_F', 'OPF_no_ChU15_no_DSs_a_NdCh_F', 'CF_no_ChU15_a_Total_F', 'OPF_no_ChU15_a_Total_F', 'Total_F',
    ])) {
      expect(ndOnly).toBeLessThanOrEqual(noU15!);
      expect(ndOnlyOpf).toBeLessThanOrEqual(noU15Opf!);
      expect(cf! + opf!).toBeLessThanOrEqual(total!);
    }
    const [members, families] = [count('families', 'G29', ['Total_P'])[0]![0]!, count('families', 'G29', ['Total_F'])[0]![0]!];
    expect(members).toBeGreaterThanOrEqual(2 * families);
  });

  it('G36, G41, G42: structures add up to all occupied private dwellings', () => {
    for (const [a, b, c, d, e, total] of count('dwellings', 'G36', [
      'OPDs_Separate_house_Dwellings', 'OPDs_SD_r_t_h_th_Tot_Dwgs', 'OPDs_Flt_apart_Tot_Dwgs', 'OPDs_Other_dwelling_Tot_Dwgs', 'OPDs_Dwlling_structur_NS_Dwgs', 'OPDs_Tot_OPDs_Dwellings',
    ]))
      expect(a! + b! + c! + d! + e!).toBe(total);
    for (const [fam, lone, group, total] of count('dwellings', 'G42', ['Tot_FHs_Tot', 'Tot_Lone_P_H', 'Tot_Group_H', 'Tot_Tot'])) expect(fam! + lone! + group!).toBe(total);
  });

  it('G57–G59: the defined labour force columns of a row stay within the row total', () => {
    for (const t of ['G57', 'G58'])
      for (const [ft, none, ns, total] of count('families', t, ['I_1000_1249_BE_WFT', 'I_1000_1249_BNW', 'I_1000_1249_LFsta_NS', 'I_1000_1249_Tot']))
        expect(ft! + none! + ns!).toBeLessThanOrEqual(total!);
    const g59 = [...columnsOf('G59').values()];
    const header = (rest: string) => g59.find((c) => c.parts.rest === rest)!.header;
    for (const [employed, ns, total] of count('families', 'G59', [header('Total_Employed_Total'), header('Total_Labour_force_status_not_stated'), header('Total_Total')]))
      expect(employed! + ns!).toBeLessThanOrEqual(total!);
  });
});
