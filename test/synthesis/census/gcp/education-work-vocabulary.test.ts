import { describe, expect, it } from 'vitest';
import { cell, columnsOf, def } from './columns.ts';
import { gcpVocabulary, type GcpColumn } from '../../../../src/synthesis/census/gcp/cells.ts';
import { catRange } from '../../../../src/synthesis/census/gcp/vocabulary.ts';
import { tabulateCells } from '../../../../src/synthesis/census/tabulate.ts';
import { categoryIndex } from '../../../../src/synthesis/census/variables.ts';
import { buildDemoGeography } from '../../../../src/demo/geography.ts';
import { drawSuburbPopulation } from '../../../../src/demo/truth-model.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';

const TABLES = ['G15', 'G16', 'G17', 'G18', 'G20', 'G23', 'G25', 'G46', 'G49', 'G52', 'G53', 'G54', 'G55', 'G56', 'G60', 'G61', 'G62'];

const M = { SEXP: [0] };
const F = { SEXP: [1] };
const ADULT: readonly [number, number] = [15, 115];
const EMPLOYED = { LFSP: [0, 1, 2, 3] };
/** HEAP's non-school levels, inadequately described and not stated: G49/G52/G53's universe. */
const QUALIFIED = { HEAP: [7, 6, 5, 4, 3, 8, 9] };
const ATTENDING = { TYPP: catRange(0, 6) };
const SCHOOL_DONE = { HSCP: catRange(0, 6) };

describe('education and work vocabularies (G15–G18, G20, G23, G25, G46, G49, G52–G56, G60–G62)', () => {
  it('defines the columns our categories express, and only those', () => {
    const counts = Object.fromEntries(
      TABLES.map((t) => {
        const cols = [...columnsOf(t).values()];
        return [t, `${cols.filter((c) => c.cell).length}/${cols.length}`];
      }),
    );
    expect(counts).toEqual({
      G15: '27/84',
      G16: '240/240',
      G17: '510/510',
      G18: '144/144',
      G20: '210/210',
      G23: '120/120',
      G25: '120/120',
      G46: '360/360',
      G49: '216/297',
      G52: '120/480',
      G53: '441/441',
      G54: '630/630',
      G55: '252/630',
      G56: '210/210',
      G60: '300/300',
      G61: '120/300',
      G62: '51/108',
    });
  });

  it('no age words are left in a rest: the splitter took every age', () => {
    for (const t of TABLES)
      for (const c of columnsOf(t).values()) expect(c.parts.rest, c.long).not.toMatch(/years|(^|_)Aged?(_|$)|_yrs/);
  });

  it('category indices used here are the catalogue’s', () => {
    expect(categoryIndex('TYPP', 'Not stated')).toBe(6);
    expect(categoryIndex('HSCP', 'Not stated')).toBe(6);
    expect(categoryIndex('HEAP', 'Level of education inadequately described')).toBe(8);
    expect(categoryIndex('HEAP', 'Not stated')).toBe(9);
    expect(categoryIndex('INCP', '$2,000-$2,999')).toBe(12);
    expect(categoryIndex('INCP', 'Not stated')).toBe(15);
    expect(categoryIndex('LFSP', 'Employed, hours of work not stated')).toBe(3);
    expect(categoryIndex('HRSP', '35-39 hours')).toBe(4);
    expect(categoryIndex('HRSP', 'Not stated')).toBe(8);
    expect(categoryIndex('MTWP', 'Walked only')).toBe(11);
    expect(categoryIndex('MTWP', 'Two or more methods')).toBe(12);
  });

  it('G15: institution types of persons attending; school sector and study status stay undefined', () => {
    expect(gcpVocabulary('G15')?.where).toEqual(ATTENDING);
    expect(def('G15', 'Preschool_M')).toEqual({ where: { TYPP: [0], ...M } });
    expect(def('G15', 'Primary_Tot_Primary_F')).toEqual({ where: { TYPP: [1], ...F } });
    expect(def('G15', 'Secondary_Tot_Secondary_P')).toEqual({ where: { TYPP: [2] } });
    expect(def('G15', 'Tert_Voc_edu_Tot_P')).toEqual({ where: { TYPP: [3] } });
    expect(def('G15', 'Tert_Uni_other_high_edu_Tot_M')).toEqual({ where: { TYPP: [4], ...M } });
    expect(def('G15', 'Tert_Tot_Tert_P')).toEqual({ where: { TYPP: [3, 4] } });
    expect(def('G15', 'Other_type_educ_instit_Tot_F')).toEqual({ where: { TYPP: [5], ...F } });
    expect(def('G15', 'Type_educanl_institution_ns_P')).toEqual({ where: { TYPP: [6] } });
    expect(def('G15', 'Tot_P')).toEqual({ where: ATTENDING });
    for (const h of ['Primary_Government_M', 'Primary_Catholic_P', 'Secondary_Other_non_Govt_F', 'Tert_Voc_edu_Ft_15_24_M', 'Tert_Uni_oth_h_edu_Pt_25_ov_P', 'Tert_Uni_oth_h_edu_F_Pt_ns_P', 'Othr_typ_educ_inst_Ft_stud_P'])
      expect(def('G15', h), h).toBeUndefined();
  });

  it('G16: highest year of school, persons 15+ no longer at school', () => {
    expect(def('G16', 'M_Y12e_15_19')).toEqual({ where: { ...SCHOOL_DONE, HSCP: [5], ...M }, age: [15, 19] });
    expect(def('G16', 'F_DNGTS_85_ov')).toEqual({ where: { HSCP: [0], ...F }, age: [85, 115] });
    expect(def('G16', 'P_Hghst_yr_schl_ns_85_yrs_ovr')).toEqual({ where: { HSCP: [6] }, age: [85, 115] });
    expect(def('G16', 'P_Y8b_75_84_yrs')).toEqual({ where: { HSCP: [1] }, age: [75, 84] });
    expect(def('G16', 'P_Tot_Tot')).toEqual({ where: SCHOOL_DONE, age: ADULT });
  });

  it('G17: personal income bands by age, persons 15+', () => {
    expect(def('G17', 'M_Neg_Nil_income_15_19_yrs')).toEqual({ where: { INCP: [0], ...M }, age: [15, 19] });
    expect(def('G17', 'M_Negtve_Nil_incme_85_yrs_ovr')).toEqual({ where: { INCP: [0], ...M }, age: [85, 115] });
    expect(def('G17', 'F_1_149_20_24_yrs')).toEqual({ where: { INCP: [1], ...F }, age: [20, 24] });
    expect(def('G17', 'P_1750_1999_Tot')).toEqual({ where: { INCP: [11] }, age: ADULT });
    // The females' and persons' long headers say "2000_2999_more" (a metadata slip): $2,000–$2,999.
    expect(def('G17', 'M_2000_2999_45_54_yrs')).toEqual({ where: { INCP: [12], ...M }, age: [45, 54] });
    expect(def('G17', 'F_2000_2999_15_19_yrs')).toEqual({ where: { INCP: [12], ...F }, age: [15, 19] });
    expect(def('G17', 'P_2000_2999_Tot')).toEqual({ where: { INCP: [12] }, age: ADULT });
    expect(def('G17', 'P_3500_more_65_74_yrs')).toEqual({ where: { INCP: [14] }, age: [65, 74] });
    expect(def('G17', 'M_PI_NS_15_19_yrs')).toEqual({ where: { INCP: [15], ...M }, age: [15, 19] });
    expect(def('G17', 'F_PI_NS_ns_85_yrs_ovr')).toEqual({ where: { INCP: [15], ...F }, age: [85, 115] });
    expect(def('G17', 'P_Tot_Tot')).toEqual({ where: {}, age: ADULT });
  });

  it('G18, G20, G23, G25: assistance, health conditions, volunteering, unpaid care', () => {
    expect(def('G18', 'M_0_4_yrs_Tot')).toEqual({ where: M, age: [0, 4] });
    expect(def('G18', 'F_85_over_Need_for_assistance')).toEqual({ where: { ASSNP: [0], ...F }, age: [85, 115] });
    expect(def('G18', 'P_65_74_No_need_for_assistnce')).toEqual({ where: { ASSNP: [1] }, age: [65, 74] });
    expect(def('G18', 'P_Tot_Need_for_assistance_ns')).toEqual({ where: { ASSNP: [2] } });
    expect(def('G18', 'P_Tot_Tot')).toEqual({ where: {} });

    expect(def('G20', 'M_0_cond_85_over')).toEqual({ where: { LTHP: [0], ...M }, age: [85, 115] });
    expect(def('G20', 'F_2_cond_35_44')).toEqual({ where: { LTHP: [2], ...F }, age: [35, 44] });
    expect(def('G20', 'M_3_or_mo_cond_0_14')).toEqual({ where: { LTHP: [3], ...M }, age: [0, 14] });
    expect(def('G20', 'M_1m_cond_Tot_Tot')).toEqual({ where: { LTHP: [1, 2, 3], ...M } });
    expect(def('G20', 'F_cond_NS_Tot')).toEqual({ where: { LTHP: [4], ...F } });
    expect(def('G20', 'M_Tot_Tot')).toEqual({ where: M });

    expect(def('G23', 'M_15_19_yr_Volunteer')).toEqual({ where: { VOLWP: [0], ...M }, age: [15, 19] });
    expect(def('G23', 'P_Tot_N_a_volunteer')).toEqual({ where: { VOLWP: [1] }, age: ADULT });
    expect(def('G23', 'F_Tot_Voluntary_work_ns')).toEqual({ where: { VOLWP: [2], ...F }, age: ADULT });
    expect(def('G23', 'P_85ov_Tot')).toEqual({ where: {}, age: [85, 115] });

    expect(def('G25', 'M_15_19_Prvided_unpaid_assist')).toEqual({ where: { UAI5P: [0], ...M }, age: [15, 19] });
    expect(def('G25', 'F_Tot_No_unpaid_asst_prvided')).toEqual({ where: { UAI5P: [1], ...F }, age: ADULT });
    expect(def('G25', 'M_Tot_Unpaid_assist_ns')).toEqual({ where: { UAI5P: [2], ...M }, age: ADULT });
    expect(def('G25', 'P_Tot_Tot')).toEqual({ where: {}, age: ADULT });
  });

  it('G46: labour force status with its employed, unemployed and labour force subtotals', () => {
    expect(def('G46', 'M_Emp_FullT_Tot')).toEqual({ where: { LFSP: [0], ...M }, age: ADULT });
    expect(def('G46', 'P_Hours_wkd_NS_Tot')).toEqual({ where: { LFSP: [3] }, age: ADULT });
    expect(def('G46', 'F_Tot_Emp_15_19')).toEqual({ where: { ...EMPLOYED, ...F }, age: [15, 19] });
    expect(def('G46', 'P_Tot_Unemp_Tot')).toEqual({ where: { LFSP: [4, 5] }, age: ADULT });
    expect(def('G46', 'F_Tot_LF_15_19')).toEqual({ where: { LFSP: catRange(0, 5), ...F }, age: [15, 19] });
    expect(def('G46', 'P_Not_in_LF_Tot')).toEqual({ where: { LFSP: [6] }, age: ADULT });
    expect(def('G46', 'P_LFS_NS_Tot')).toEqual({ where: { LFSP: [7] }, age: ADULT });
    expect(def('G46', 'P_Tot_Tot')).toEqual({ where: {}, age: ADULT });
  });

  it('G49: non-school qualification levels of the qualified; certificate sub-levels stay undefined', () => {
    expect(def('G49', 'M_PGrad_Deg_15_24')).toEqual({ where: { HEAP: [7], ...M }, age: [15, 24] });
    expect(def('G49', 'F_GradDip_and_GradCert_15_24')).toEqual({ where: { HEAP: [6], ...F }, age: [15, 24] });
    expect(def('G49', 'M_BachDeg_Total')).toEqual({ where: { HEAP: [5], ...M }, age: ADULT });
    expect(def('G49', 'P_Cert_Lev_Tot_Total')).toEqual({ where: { HEAP: [3] }, age: ADULT });
    expect(def('G49', 'M_Cert_Lev_Tot_25_34')).toEqual({ where: { HEAP: [3], ...M }, age: [25, 34] });
    expect(def('G49', 'P_Tot_15_24')).toEqual({ where: QUALIFIED, age: [15, 24] });
    expect(def('G49', 'P_Tot_Total')).toEqual({ where: QUALIFIED, age: ADULT });
    for (const h of ['M_Cert_III_IV_15_24', 'M_Cert_I_II_Total', 'M_Cert_Levl_nfd_85ov', 'P_Cert_III_IV_15_24']) expect(def('G49', h), h).toBeUndefined();
  });

  it('G52, G53: qualification level by occupation / industry, employed persons with a qualification', () => {
    const universe = { ...QUALIFIED, ...EMPLOYED };
    expect(def('G52', 'M_BaDe_BaDe_Mng')).toEqual({ where: { ...universe, HEAP: [5], OCCP: [0], ...M }, age: ADULT });
    expect(def('G52', 'M_LE_ID_Tot')).toEqual({ where: { ...universe, HEAP: [8], ...M }, age: ADULT });
    expect(def('G52', 'P_LE_NS_Tot')).toEqual({ where: { ...universe, HEAP: [9] }, age: ADULT });
    expect(def('G52', 'P_Tot_Mng')).toEqual({ where: { ...universe, OCCP: [0] }, age: ADULT });
    expect(def('G52', 'P_Tot_Tot')).toEqual({ where: universe, age: ADULT });
    // Sub-levels (Doctoral, Master, Certificate III and IV, … nfd) are parts of our levels.
    for (const h of ['M_PoDe_PoDe_NFD_Mng', 'M_PoDe_DoctDe_Tot', 'M_GrDi_GrCer_GrDi_Tot', 'P_AdvDi_Di_AdvDi_AsDe_Tot', 'P_Cert_CertIII_IV_Mng'])
      expect(def('G52', h), h).toBeUndefined();

    expect(def('G53', 'M_AgriForestFish_PD')).toEqual({ where: { ...universe, INDP: [0], HEAP: [7], ...M }, age: ADULT });
    expect(def('G53', 'M_AgriForestFish_AdD_D')).toEqual({ where: { ...universe, INDP: [0], HEAP: [4], ...M }, age: ADULT });
    // "Inadequately described/Not stated" as the row is an industry, as the last word a level.
    expect(def('G53', 'P_EducTrain_ID_NS')).toEqual({ where: { ...universe, INDP: [15], HEAP: [8, 9] }, age: ADULT });
    expect(def('G53', 'P_ID_NS_Cert')).toEqual({ where: { ...universe, INDP: [19], HEAP: [3] }, age: ADULT });
    expect(def('G53', 'P_ID_NS_ID_NS')).toEqual({ where: { ...universe, INDP: [19], HEAP: [8, 9] }, age: ADULT });
    expect(def('G53', 'P_ToT_ID_NS')).toEqual({ where: { ...universe, HEAP: [8, 9] }, age: ADULT });
    expect(def('G53', 'P_ToT_ToT')).toEqual({ where: universe, age: ADULT });
  });

  it('G54, G56, G60: industry and occupation of employed persons', () => {
    expect(def('G54', 'M_Ag_For_Fshg_15_19')).toEqual({ where: { ...EMPLOYED, INDP: [0], ...M }, age: [15, 19] });
    expect(def('G54', 'M_Manufact_85ov')).toEqual({ where: { ...EMPLOYED, INDP: [2], ...M }, age: [85, 115] });
    expect(def('G54', 'P_ID_NS_Tot')).toEqual({ where: { ...EMPLOYED, INDP: [19] }, age: ADULT });
    expect(def('G54', 'P_Tot_Tot')).toEqual({ where: EMPLOYED, age: ADULT });

    expect(def('G56', 'Ag_For_Fish_OcMngr')).toEqual({ where: { ...EMPLOYED, INDP: [0], OCCP: [0] }, age: ADULT });
    expect(def('G56', 'ID_NS_Tot')).toEqual({ where: { ...EMPLOYED, INDP: [19] }, age: ADULT });
    expect(def('G56', 'Tot_OcID_NS')).toEqual({ where: { ...EMPLOYED, OCCP: [8] }, age: ADULT });
    expect(def('G56', 'Tot_Tot')).toEqual({ where: EMPLOYED, age: ADULT });

    expect(def('G60', 'M_Tot_Managers')).toEqual({ where: { ...EMPLOYED, OCCP: [0], ...M }, age: ADULT });
    expect(def('G60', 'P_Tot_Occu_ID_NS')).toEqual({ where: { ...EMPLOYED, OCCP: [8] }, age: ADULT });
    expect(def('G60', 'P_Tot_Tot')).toEqual({ where: EMPLOYED, age: ADULT });
    const byAge = [...columnsOf('G60').values()].find((c) => c.long === 'FEMALES_25_34_years_Occupation_Labourers')!;
    expect(byAge.cell).toMatchObject({ where: { ...EMPLOYED, OCCP: [7], ...F }, age: [25, 34] });
  });

  it('G55, G61: hours worked only where the bands line up with HRSP (None, 35–39, Not stated)', () => {
    expect(def('G55', 'M_AgriForestFish_0')).toEqual({ where: { ...EMPLOYED, INDP: [0], HRSP: [0], ...M }, age: ADULT });
    expect(def('G55', 'M_AgriForestFish_35_39')).toEqual({ where: { ...EMPLOYED, INDP: [0], HRSP: [4], ...M }, age: ADULT });
    expect(def('G55', 'P_ID_NS_hours_NS')).toEqual({ where: { ...EMPLOYED, INDP: [19], HRSP: [8] }, age: ADULT });
    expect(def('G55', 'P_OthServ_Tot')).toEqual({ where: { ...EMPLOYED, INDP: [18] }, age: ADULT });
    expect(def('G55', 'P_Tot_Tot')).toEqual({ where: EMPLOYED, age: ADULT });
    for (const h of ['M_AgriForestFish_1_19', 'M_AgriForestFish_20_29', 'M_AgriForestFish_30_34', 'P_ID_NS_40_44', 'P_ID_NS_45_49', 'P_Tot_50_over'])
      expect(def('G55', h), h).toBeUndefined();

    expect(def('G61', 'P_Mng_0')).toEqual({ where: { ...EMPLOYED, OCCP: [0], HRSP: [0] }, age: ADULT });
    expect(def('G61', 'P_Pro_35_39')).toEqual({ where: { ...EMPLOYED, OCCP: [1], HRSP: [4] }, age: ADULT });
    expect(def('G61', 'P_Mng_hours_NS')).toEqual({ where: { ...EMPLOYED, OCCP: [0], HRSP: [8] }, age: ADULT });
    expect(def('G61', 'P_Mng_Tot')).toEqual({ where: { ...EMPLOYED, OCCP: [0] }, age: ADULT });
    for (const h of ['P_Mng_1_19', 'P_Mng_20_29', 'P_Mng_30_34', 'P_Mng_40_44', 'P_Mng_45_49', 'P_Pro_50_over']) expect(def('G61', h), h).toBeUndefined();
  });

  it('G62: single methods and their total; two- and three-method combinations stay undefined', () => {
    expect(def('G62', 'One_method_Train_M')).toEqual({ where: { ...EMPLOYED, MTWP: [0], ...M }, age: ADULT });
    expect(def('G62', 'One_met_Tram_or_lt_rail_P')).toEqual({ where: { ...EMPLOYED, MTWP: [3] }, age: ADULT });
    expect(def('G62', 'One_method_Walked_only_P')).toEqual({ where: { ...EMPLOYED, MTWP: [11] }, age: ADULT });
    expect(def('G62', 'One_method_Tot_one_method_P')).toEqual({ where: { ...EMPLOYED, MTWP: catRange(0, 11) }, age: ADULT });
    expect(def('G62', 'Worked_home_P')).toEqual({ where: { ...EMPLOYED, MTWP: [13] }, age: ADULT });
    expect(def('G62', 'Did_not_go_to_work_P')).toEqual({ where: { ...EMPLOYED, MTWP: [14] }, age: ADULT });
    expect(def('G62', 'Method_travel_to_work_ns_P')).toEqual({ where: { ...EMPLOYED, MTWP: [15] }, age: ADULT });
    expect(def('G62', 'Tot_P')).toEqual({ where: EMPLOYED, age: ADULT });
    for (const h of ['Two_methods_Train_Bus_P', 'Two_methods_Train_Tot_P', 'Two_methds_Othr_two_methds_P', 'Two_methods_Tot_two_methods_P', 'Three_meth_Tot_three_meth_P'])
      expect(def('G62', h), h).toBeUndefined();
  });

  it('on demo truth, the defined columns add up as the tables do', () => {
    const pops = buildDemoGeography('demo', 3, 4).suburbs.map((s) => drawSuburbPopulation(s, createRng(3).fork(s.index)));
    type Pop = (typeof pops)[number];
    const sum = (table: string, headers: readonly string[], pop: Pop) =>
      tabulateCells(pop, 'persons', headers.map((h) => cell(table, h)!)).reduce((a, b) => a + b, 0);
    const adds = (table: string, parts: readonly string[], total: string, pop: Pop) =>
      expect(sum(table, parts, pop), `${table} ${total}`).toBe(sum(table, [total], pop));

    for (const pop of pops) {
      const n = pop.persons.count;
      adds('G15', ['Preschool_P', 'Primary_Tot_Primary_P', 'Secondary_Tot_Secondary_P', 'Tert_Tot_Tert_P', 'Other_type_educ_instit_Tot_P', 'Type_educanl_institution_ns_P'], 'Tot_P', pop);
      adds('G15', ['Tert_Voc_edu_Tot_P', 'Tert_Uni_other_high_edu_Tot_P'], 'Tert_Tot_Tert_P', pop);
      adds('G16', ['P_Y12e_Tot', 'P_Y11e_Tot', 'P_Y10e_Tot', 'P_Y9e_Tot', 'P_Y8b_Tot', 'P_DNGTS_Tot', 'P_Hghst_yr_schl_ns_Tot'], 'P_Tot_Tot', pop);
      expect(sum('G18', ['P_Tot_Tot'], pop)).toBe(n);
      expect(sum('G20', ['P_Tot_Tot'], pop)).toBe(n);
      adds('G20', ['P_0_cond_Tot', 'P_1m_cond_Tot_Tot', 'P_cond_NS_Tot'], 'P_Tot_Tot', pop);
      adds('G20', ['P_1_cond_Tot', 'P_2_cond_Tot', 'P_3_or_mo_cond_Tot'], 'P_1m_cond_Tot_Tot', pop);
      adds('G46', ['P_Tot_LF_Tot', 'P_Not_in_LF_Tot', 'P_LFS_NS_Tot'], 'P_Tot_Tot', pop);
      adds('G46', ['P_Tot_Emp_Tot', 'P_Tot_Unemp_Tot'], 'P_Tot_LF_Tot', pop);
      // The employed are G46's, G54's, G60's, G56's, G55's, G61's and G62's universe alike.
      for (const [t, h] of [['G54', 'P_Tot_Tot'], ['G60', 'P_Tot_Tot'], ['G56', 'Tot_Tot'], ['G55', 'P_Tot_Tot'], ['G62', 'Tot_P']] as const)
        expect(sum(t, [h], pop), t).toBe(sum('G46', ['P_Tot_Emp_Tot'], pop));
      adds('G49', ['P_PGrad_Deg_Total', 'P_GradDip_and_GradCert_Total', 'P_BachDeg_Total', 'P_AdvDip_and_Dip_Total', 'P_Cert_Lev_Tot_Total', 'P_Lev_Edu_IDes_Total', 'P_Lev_Edu_NS_Total'], 'P_Tot_Total', pop);
      expect(sum('G52', ['P_Tot_Tot'], pop)).toBe(sum('G53', ['P_ToT_ToT'], pop));
      adds('G53', ['P_ToT_PD', 'P_ToT_GD_GC', 'P_ToT_BD', 'P_ToT_AdD_D', 'P_ToT_Cert', 'P_ToT_ID_NS'], 'P_ToT_ToT', pop);
      const single = ['Train', 'Bus', 'Ferry', 'Car_as_driver', 'Car_as_passenger', 'Truck', 'Motorbike_scootr', 'Bicycle', 'Other', 'Walked_only'].map((m) => `One_method_${m}_P`);
      adds('G62', [...single, 'One_met_Tram_or_lt_rail_P', 'One_met_Taxi_or_Rideshare_P'], 'One_method_Tot_one_method_P', pop);
    }
  });

  it('on demo truth, each by-age row adds up to its total column', () => {
    const pops = buildDemoGeography('demo', 3, 2).suburbs.map((s) => drawSuburbPopulation(s, createRng(5).fork(s.index)));
    // A row is the columns with the same sex and rest once "Total" words are dropped (G16's
    // "Year_12_or_equivalent" by age and "Year_12_or_equivalent_Total"; G18's "Total_Has_need…").
    const rowKey = (c: GcpColumn) => `${c.parts.sex ?? ''}|${c.parts.rest.split('_Total').join('').replace(/^Total_?/, '')}`;
    let rows = 0;
    for (const t of ['G16', 'G17', 'G18', 'G20', 'G23', 'G25', 'G46', 'G49', 'G54', 'G60']) {
      const groups = new Map<string, { byAge: GcpColumn[]; total?: GcpColumn }>();
      for (const c of columnsOf(t).values()) {
        if (!c.cell) continue;
        const g = groups.get(rowKey(c)) ?? { byAge: [] };
        if (c.parts.age) g.byAge.push(c);
        else g.total = c;
        groups.set(rowKey(c), g);
      }
      for (const [key, g] of groups) {
        if (!g.total || g.byAge.length === 0) continue;
        rows++;
        for (const pop of pops) {
          const parts = tabulateCells(pop, 'persons', g.byAge.map((c) => c.cell!)).reduce((a, b) => a + b, 0);
          const total = tabulateCells(pop, 'persons', [g.total.cell!])[0];
          expect(parts, `${t} ${key}`).toBe(total);
        }
      }
    }
    expect(rows).toBeGreaterThan(150);
  });
});
