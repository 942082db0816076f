import type { DatasetType } from '../../census-names.ts';
import type { CellSpec, TableSpec } from './table-spec.ts';
import { categoryIndex, variableByCode } from './variables.ts';
import { PERSON_INCOME_RANGES } from './income-ranges.ts';
import { gcpTable } from './gcp/table.ts';
import { GCP_TABLE_POPULATIONS } from './gcp/populations.generated.ts';
import { andWhere } from './gcp/vocabulary.ts';
import { OCCUPIED_PRIVATE_DWELLINGS, PERSONS_AT_HOME, PERSONS_IN_OCCUPIED_PRIVATE_DWELLINGS } from './universes.ts';

/**
 * The one place that maps ABS GCP 2021 DataPack column headers (short headers, SAL level) to
 * our variables. A cell is a conjunction of category sets of our variables, plus a single-year
 * age range for persons. docs/inputs.md says which headers were checked against published
 * DataPack files and which follow the DataPack naming pattern.
 */

// ------------------------------------------------------------------ helpers
type Where = Record<string, readonly number[]>;

const idx = (code: string, ...labels: string[]) => labels.map((l) => categoryIndex(code, l));
/** Indices from..to inclusive of a variable's categories. */
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** All categories of a variable except the listed labels. */
const allBut = (code: string, ...labels: string[]) => {
  const cats = variableByCode(code).categories;
  return range(0, cats.length - 1).filter((i) => !labels.includes(cats[i]!));
};

const MALE = { SEXP: [0] } as const;
const FEMALE = { SEXP: [1] } as const;
const SEXES = [
  ['M', MALE],
  ['F', FEMALE],
] as const;
const SEXES_P = [...SEXES, ['P', {}]] as const;
const ADULT: readonly [number, number] = [15, 115];

const c = (header: string, where: Where, age?: readonly [number, number], count?: 'members'): CellSpec => ({
  header,
  where,
  ...(age ? { age } : {}),
  ...(count ? { count } : {}),
});

/**
 * A hand-written table spec. `population` is the table's population as a condition on the
 * universe's records; it is added to every cell, so a cell counts only records of the table's
 * population (G35's "Total_Total" counts occupied private dwellings, not every dwelling record).
 */
function table(
  id: string,
  files: readonly string[],
  universe: DatasetType,
  description: string,
  cells: readonly CellSpec[],
  other: readonly CellSpec[],
  totalHeader?: string,
  population: Where = {},
  members?: Where,
): TableSpec {
  const within = (cell: CellSpec): CellSpec => ({ ...cell, where: andWhere(population, cell.where) });
  return {
    id,
    files,
    universe,
    population: { label: GCP_TABLE_POPULATIONS[id] ?? `all ${universe}`, where: population, ...(members ? { members } : {}) },
    description,
    cells: cells.map(within),
    otherHeaders: other.map((o) => o.header),
    otherCells: other.map(within),
    ...(totalHeader ? { totalHeader } : {}),
  };
}

/** For each (token, where) and each sex: "<pre><sex><mid><token><post>"-style headers. */
function bySex(
  parts: readonly (readonly [string, Where])[],
  header: (sex: string, token: string) => string,
  sexes: readonly (readonly [string, Where])[] = SEXES,
  age?: readonly [number, number],
): CellSpec[] {
  const out: CellSpec[] = [];
  for (const [sex, sexWhere] of sexes)
    for (const [token, where] of parts) out.push(c(header(sex, token), { ...sexWhere, ...where }, age));
  return out;
}

// ------------------------------------------------------------------ G01
const G01_PARTS: readonly (readonly [string, Where])[] = [
  ['Indigenous_psns_Aboriginal', { INGP: idx('INGP', 'Aboriginal') }],
  ['Indig_psns_Torres_Strait_Is', { INGP: idx('INGP', 'Torres Strait Islander') }],
  ['Indig_Bth_Abor_Torres_St_Is', { INGP: idx('INGP', 'Both Aboriginal and Torres Strait Islander') }],
  ['Birthplace_Australia', { BPLP: idx('BPLP', 'Australia') }],
  ['Birthplace_Elsewhere', { BPLP: allBut('BPLP', 'Australia', 'Not stated') }],
  ['Lang_used_home_Eng_only', { LANP: idx('LANP', 'English only') }],
  ['Lang_used_home_Oth_Lang', { LANP: allBut('LANP', 'English only', 'Not stated') }],
  ['Australian_citizen', { CITP: idx('CITP', 'Australian citizen') }],
];
const G01_AGES: readonly (readonly [string, readonly [number, number]])[] = [
  ['Age_0_4_yr', [0, 4]],
  ['Age_5_14_yr', [5, 14]],
  ['Age_15_19_yr', [15, 19]],
  ['Age_20_24_yr', [20, 24]],
  ['Age_25_34_yr', [25, 34]],
  ['Age_35_44_yr', [35, 44]],
  ['Age_45_54_yr', [45, 54]],
  ['Age_55_64_yr', [55, 64]],
  ['Age_65_74_yr', [65, 74]],
  ['Age_75_84_yr', [75, 84]],
  ['Age_85ov', [85, 115]],
];
const G01 = table(
  'G01',
  ['G01'],
  'persons',
  'Selected person characteristics by sex',
  [
    c('Tot_P_M', MALE),
    c('Tot_P_F', FEMALE),
    ...bySex(G01_PARTS, (s, t) => `${t}_${s}`),
  ],
  [
    c('Tot_P_P', {}),
    ...G01_AGES.flatMap(([t, age]) => SEXES_P.map(([s, w]) => c(`${t}_${s}`, w, age))),
    ...SEXES_P.map(([s, w]) => c(`Indigenous_P_Tot_${s}`, { ...w, INGP: allBut('INGP', 'Non-Indigenous', 'Not stated') })),
    ...G01_PARTS.map(([t, w]) => c(`${t}_P`, w)),
  ],
  'Tot_P_P',
);

// ------------------------------------------------------------------ G04
const G04_SINGLE = range(0, 79);
const G04_GROUPS: readonly (readonly [string, readonly [number, number]])[] = [
  ['80_84', [80, 84]],
  ['85_89', [85, 89]],
  ['90_94', [90, 94]],
  ['95_99', [95, 99]],
  ['100_yr_over', [100, 115]],
];
const G04 = table(
  'G04',
  ['G04A', 'G04B'],
  'persons',
  'Age by sex',
  [
    ...G04_SINGLE.flatMap((a) => SEXES.map(([s, w]) => c(`Age_yr_${a}_${s}`, w, [a, a]))),
    ...G04_GROUPS.flatMap(([t, age]) => SEXES.map(([s, w]) => c(`Age_yr_${t}_${s}`, w, age))),
  ],
  [
    ...range(0, 15).flatMap((g) =>
      SEXES_P.map(([s, w]) => c(`Age_yr_${g * 5}_${g * 5 + 4}_${s}`, w, [g * 5, g * 5 + 4])),
    ),
    ...G04_SINGLE.map((a) => c(`Age_yr_${a}_P`, {}, [a, a])),
    ...G04_GROUPS.map(([t, age]) => c(`Age_yr_${t}_P`, {}, age)),
    c('Tot_M', MALE),
    c('Tot_F', FEMALE),
    c('Tot_P', {}),
  ],
  'Tot_P',
);

// ------------------------------------------------------------------ G05
const G05 = gcpTable('G05', 'persons', 'Registered marital status by age by sex (persons aged 15 years and over)', 'P_Tot_Tot');

// ------------------------------------------------------------------ G14
const RELP_PARTS: readonly (readonly [string, Where])[] = [
  ['Buddhism', { RELP: idx('RELP', 'Buddhism') }],
  ['Christianity_Tot', { RELP: idx('RELP', 'Christianity') }],
  ['Hinduism', { RELP: idx('RELP', 'Hinduism') }],
  ['Islam', { RELP: idx('RELP', 'Islam') }],
  ['Judaism', { RELP: idx('RELP', 'Judaism') }],
  ['Other_Religions_Tot', { RELP: idx('RELP', 'Other religions') }],
  ['SB_OSB_NRA_Tot', { RELP: idx('RELP', 'Secular Beliefs and Other Spiritual Beliefs and No Religious Affiliation') }],
  ['Religious_affiliation_ns', { RELP: idx('RELP', 'Not stated') }],
];
const G14 = table(
  'G14',
  ['G14'],
  'persons',
  'Religious affiliation by sex',
  bySex(RELP_PARTS, (s, t) => `${t}_${s}`),
  [...RELP_PARTS.map(([t, w]) => c(`${t}_P`, w)), ...SEXES_P.map(([s, w]) => c(`Tot_${s}`, w))],
  'Tot_P',
);

// ------------------------------------------------------------------ G15
const TYPP_PARTS: readonly (readonly [string, Where])[] = [
  ['Preschool', { TYPP: idx('TYPP', 'Pre-school') }],
  ['Primary_Tot_Primary', { TYPP: idx('TYPP', 'Infants/Primary') }],
  ['Secondary_Tot_Secondary', { TYPP: idx('TYPP', 'Secondary') }],
  ['Tert_Voc_edu_Tot', { TYPP: idx('TYPP', 'Technical or further education institution') }],
  ['Tert_Uni_other_high_edu_Tot', { TYPP: idx('TYPP', 'University or other higher education') }],
  ['Other_type_educ_instit_Tot', { TYPP: idx('TYPP', 'Other educational institution') }],
];
// The type-not-stated cells are left out on purpose: G15 counts attendees only, and the units
// its cells leave over (not attending, or not stated) are the fill the fit shares between the two.
const G15 = table(
  'G15',
  ['G15'],
  'persons',
  'Type of educational institution attending by sex',
  bySex(TYPP_PARTS, (s, t) => `${t}_${s}`),
  TYPP_PARTS.map(([t, w]) => c(`${t}_P`, w)),
);

// ------------------------------------------------------------------ G16
const G16 = gcpTable('G16', 'persons', 'Highest year of school completed by age by sex (persons aged 15 years and over, not attending school)', 'P_Tot_Tot');

// ------------------------------------------------------------------ G17
const INCP = variableByCode('INCP').categories;
export { PERSON_INCOME_RANGES } from './income-ranges.ts';
const G17_BANDS: readonly (readonly [string, number])[] = [
  ['Neg_Nil_income', 0],
  ...PERSON_INCOME_RANGES.map((t, i) => [t, i + 1] as const),
  ['3500_more', 14],
  ['PI_NS_ns', INCP.indexOf('Not stated')],
];
const G17_AGES: readonly (readonly [string, readonly [number, number]])[] = [
  ['15_19_yrs', [15, 19]],
  ['20_24_yrs', [20, 24]],
  ['25_34_yrs', [25, 34]],
  ['35_44_yrs', [35, 44]],
  ['45_54_yrs', [45, 54]],
  ['55_64_yrs', [55, 64]],
  ['65_74_yrs', [65, 74]],
  ['75_84_yrs', [75, 84]],
  ['85ov', [85, 115]],
];
/**
 * G17's short headers are regular except where the ABS shortened them irregularly (the
 * metadata's long headers are regular): 85+ is "85ov" but "85_yrs_ovr" for the nil and
 * not-stated bands, whose tokens also change; the not-stated band drops "_ns" at 15–19.
 */
function g17Header(sex: string, band: string, age: string): string {
  if (age !== '85ov') return `${sex}_${band === 'PI_NS_ns' && age === '15_19_yrs' ? 'PI_NS' : band}_${age}`;
  if (band === 'Neg_Nil_income') return `${sex}_${sex === 'F' ? 'Neg' : 'Negtve'}_Nil_incme_85_yrs_ovr`;
  if (band === 'PI_NS_ns') return `${sex}_PI_NS_ns_85_yrs_ovr`;
  return `${sex}_${band}_85ov`;
}
const G17 = table(
  'G17',
  ['G17A', 'G17B', 'G17C'],
  'persons',
  'Total personal income (weekly) by age by sex (persons aged 15 years and over)',
  SEXES.flatMap(([s, w]) =>
    G17_BANDS.flatMap(([band, i]) => G17_AGES.map(([a, age]) => c(g17Header(s, band, a), { ...w, INCP: [i] }, age))),
  ),
  [
    ...G17_BANDS.flatMap(([band, i]) => G17_AGES.map(([a, age]) => c(g17Header('P', band, a), { INCP: [i] }, age))),
    ...SEXES_P.flatMap(([s, w]) => [
      ...G17_BANDS.map(([band, i]) => c(`${s}_${band}_Tot`, { ...w, INCP: [i] }, ADULT)),
      ...G17_AGES.map(([a, age]) => c(`${s}_Tot_${a}`, w, age)),
      c(`${s}_Tot_Tot`, w, ADULT),
    ]),
  ],
  'P_Tot_Tot',
);

// ------------------------------------------------------------------ G18
const G18 = gcpTable('G18', 'persons', 'Core activity need for assistance by age by sex', 'P_Tot_Tot');

// ------------------------------------------------------------------ G23
const G23 = gcpTable('G23', 'persons', 'Voluntary work for an organisation or group by age by sex (persons aged 15 years and over)', 'P_Tot_Tot');

// ------------------------------------------------------------------ G46
const G46 = gcpTable('G46', 'persons', 'Labour force status by age by sex (persons aged 15 years and over)', 'P_Tot_Tot');

// ------------------------------------------------------------------ G49
const G49 = gcpTable('G49', 'persons', 'Highest non-school qualification: level of education by age by sex (persons aged 15 years and over)', 'P_Tot_Total');

// ------------------------------------------------------------------ G54
const G54 = gcpTable('G54', 'persons', 'Industry of employment by age by sex (employed persons)', 'P_Tot_Tot');

// ------------------------------------------------------------------ G60
const G60 = gcpTable('G60', 'persons', 'Occupation by age by sex (employed persons)', 'P_Tot_Tot');

// ------------------------------------------------------------------ G62
const MTWP_HEADERS: readonly (readonly [string, string])[] = [
  ['One_method_Train_P', 'Train'],
  ['One_method_Bus_P', 'Bus'],
  ['One_method_Ferry_P', 'Ferry'],
  ['One_met_Tram_or_lt_rail_P', 'Tram/light rail'],
  ['One_met_Taxi_or_Rideshare_P', 'Taxi/ride-share service'],
  ['One_method_Car_as_driver_P', 'Car, as driver'],
  ['One_method_Car_as_passenger_P', 'Car, as passenger'],
  ['One_method_Truck_P', 'Truck'],
  ['One_method_Motorbike_scootr_P', 'Motorbike/scooter'],
  ['One_method_Bicycle_P', 'Bicycle'],
  ['One_method_Other_P', 'Other'],
  ['One_method_Walked_only_P', 'Walked only'],
  ['Worked_home_P', 'Worked at home'],
  ['Did_not_go_to_work_P', 'Did not go to work'],
  ['Method_travel_to_work_ns_P', 'Not stated'],
];
const G62 = table(
  'G62',
  ['G62'],
  'persons',
  'Method of travel to work (employed persons)',
  MTWP_HEADERS.map(([h, label]) => c(h, { MTWP: idx('MTWP', label) })),
  [c('Tot_P', { MTWP: allBut('MTWP', 'Not applicable') })],
  'Tot_P',
);

// ------------------------------------------------------------------ G27
const RLHP_TOKENS: readonly (readonly [string, string])[] = [
  ['Ptn_in_RM', 'Partner in a registered marriage'],
  ['Ptn_in_DFM', 'Partner in a de facto marriage'],
  ['LonePnt', 'Lone parent'],
  ['CU15', 'Child under 15'],
  ['DpStu', 'Dependent student (aged 15-24 years)'],
  ['NDpChl', 'Non-dependent child'],
  ['OthRI', 'Other related individual'],
  ['URI_in_FH', 'Unrelated individual living in family household'],
  ['GrpH_Mem', 'Group household member'],
  ['LonePsn', 'Lone person'],
  // Residents who were away on Census night, visiting another private dwelling in Australia
  // (footnote d): they are the area's usual residents, counted in G01/G04 like everyone else.
  ['Vis_within_Aus', 'Visitor (from within Australia)'],
];
/** G27's age bands (also the structure builder's DEFAULT_BANDS). */
export const G27_AGES: readonly (readonly [string, readonly [number, number]])[] = [
  ['0_14', [0, 14]],
  ['15_24', [15, 24]],
  ['25_34', [25, 34]],
  ['35_44', [35, 44]],
  ['45_54', [45, 54]],
  ['55_64', [55, 64]],
  ['65_74', [65, 74]],
  ['75_84', [75, 84]],
  ['85ov', [85, 115]],
];
const G27 = table(
  'G27',
  ['G27A', 'G27B'],
  'persons',
  'Relationship in household by age by sex (persons in occupied private dwellings)',
  SEXES.flatMap(([s, w]) =>
    RLHP_TOKENS.flatMap(([t, label]) => G27_AGES.map(([a, age]) => c(`${s}_${t}_${a}`, { ...w, RLHP: idx('RLHP', label) }, age))),
  ),
  [
    ...RLHP_TOKENS.flatMap(([t, label]) => G27_AGES.map(([a, age]) => c(`P_${t}_${a}`, { RLHP: idx('RLHP', label) }, age))),
    ...SEXES_P.flatMap(([s, w]) => [
      ...RLHP_TOKENS.map(([t, label]) => c(`${s}_${t}_Tot`, { ...w, RLHP: idx('RLHP', label) })),
      ...G27_AGES.map(([a, age]) => c(`${s}_Tot_${a}`, w, age)),
      c(`${s}_Tot_Tot`, w),
    ]),
  ],
  'P_Tot_Tot',
  PERSONS_IN_OCCUPIED_PRIVATE_DWELLINGS,
);

// ------------------------------------------------------------------ G29 (families)
const FAMILY_TYPES: readonly (readonly [string, Where])[] = [
  ['CF_no_children', { FMCF: [0] }],
  ['CF_ChU15_a_Total', { FMCF: [1] }],
  ['CF_no_ChU15_a_Total', { FMCF: [2] }],
  ['OPF_ChU15_a_Total', { FMCF: [3] }],
  ['OPF_no_ChU15_a_Total', { FMCF: [4] }],
  ['Other_family', { FMCF: [5] }],
];
const FAMILY_SUBTOTALS: readonly (readonly [string, Where])[] = [
  ['CF_Total', { FMCF: [1, 2] }],
  ['OPF_Total', { FMCF: [3, 4] }],
  ['Total', {}],
];
const G29 = table(
  'G29',
  ['G29'],
  'families',
  'Family composition (families in family households)',
  FAMILY_TYPES.map(([t, w]) => c(`${t}_F`, w)),
  [
    ...FAMILY_SUBTOTALS.map(([t, w]) => c(`${t}_F`, w)),
    ...[...FAMILY_TYPES, ...FAMILY_SUBTOTALS].map(([t, w]) => c(`${t}_P`, w, undefined, 'members')),
  ],
  'Total_F',
  {},
  PERSONS_AT_HOME,
);

// ------------------------------------------------------------------ G32 (families)
const G32 = gcpTable('G32', 'families', 'Total family income (weekly) by family composition (families in family households)', 'Tot_Tot');

// ------------------------------------------------------------------ dwellings
const G33 = gcpTable('G33', 'dwellings', 'Total household income (weekly) by household composition (occupied private dwellings)', 'Tot_Tot');

const G34 = table(
  'G34',
  ['G34'],
  'dwellings',
  'Number of motor vehicles per dwelling (occupied private dwellings)',
  [
    c('Num_MVs_per_dweling_0_MVs', { VEHRD: [0] }),
    c('Num_MVs_per_dweling_1_MVs', { VEHRD: [1] }),
    c('Num_MVs_per_dweling_2_MVs', { VEHRD: [2] }),
    c('Num_MVs_per_dweling_3_MVs', { VEHRD: [3] }),
    c('Num_MVs_per_dweling_4mo_MVs', { VEHRD: [4] }),
    c('Num_MVs_NS', { VEHRD: [5] }),
  ],
  [c('Num_MVs_per_dweling_Tot', { VEHRD: [0, 1, 2, 3, 4] }), c('Total_dwelings', {})],
  'Total_dwelings',
  OCCUPIED_PRIVATE_DWELLINGS,
);

const NPRD_GROUPS: readonly (readonly [string, readonly number[]])[] = [
  ['1', [0]],
  ['2', [1]],
  ['3', [2]],
  ['4', [3]],
  ['5', [4]],
  ['6mo', [5, 6, 7]],
];
const HH_FAMILY = { HHCD: [0] };
const HH_NONFAMILY = { HHCD: [1, 2] };
const G35 = table(
  'G35',
  ['G35'],
  'dwellings',
  'Number of persons usually resident by household composition (occupied private dwellings)',
  [
    ...NPRD_GROUPS.slice(1).map(([n, k]) => c(`Num_Psns_UR_${n}_FamHhold`, { ...HH_FAMILY, NPRD: k })),
    ...NPRD_GROUPS.map(([n, k]) => c(`Num_Psns_UR_${n}_NonFamHhold`, { ...HH_NONFAMILY, NPRD: k })),
  ],
  [
    c('Num_Psns_UR_1_FamHhold', { ...HH_FAMILY, NPRD: [0] }),
    ...NPRD_GROUPS.map(([n, k]) => c(`Num_Psns_UR_${n}_Total`, { NPRD: k })),
    c('Total_FamHhold', HH_FAMILY),
    c('Total_NonFamHhold', HH_NONFAMILY),
    c('Total_Total', {}),
  ],
  'Total_Total',
  OCCUPIED_PRIVATE_DWELLINGS,
);

const G36 = table(
  'G36',
  ['G36'],
  'dwellings',
  'Dwelling structure (occupied private dwellings)',
  [
    c('OPDs_Separate_house_Dwellings', { STRD: [0] }),
    c('OPDs_SD_r_t_h_th_1_sty_Dwgs', { STRD: [1] }),
    c('OPDs_SD_r_t_h_th_2_m_sty_Dwgs', { STRD: [2] }),
    c('OPDs_F_ap_I_1or2_sty_blk_Ds', { STRD: [3] }),
    c('OPDs_F_ap_I_3_sty_blk_Dwgs', { STRD: [4] }),
    c('OPDs_F_ap_I_4to8_sty_blk_Ds', { STRD: [5] }),
    c('OPDs_F_ap_I_9_m_sty_blk_Ds', { STRD: [6] }),
    c('OPDs_Flt_apt_Att_house_Ds', { STRD: [7] }),
    c('OPDs_Other_dwelling_Tot_Dwgs', { STRD: [8] }),
    c('OPDs_Dwlling_structur_NS_Dwgs', { STRD: [9] }),
  ],
  [
    c('OPDs_SD_r_t_h_th_Tot_Dwgs', { STRD: [1, 2] }),
    c('OPDs_Flt_apart_Tot_Dwgs', { STRD: [3, 4, 5, 6, 7] }),
    c('OPDs_Tot_OPDs_Dwellings', {}),
    c('OPDs_Separate_house_Persons', { STRD: [0] }, undefined, 'members'),
    c('OPDs_SD_r_t_h_th_Tot_Psns', { STRD: [1, 2] }, undefined, 'members'),
    c('OPDs_Flt_apart_Tot_Psns', { STRD: [3, 4, 5, 6, 7] }, undefined, 'members'),
  ],
  'OPDs_Tot_OPDs_Dwellings',
  OCCUPIED_PRIVATE_DWELLINGS,
  PERSONS_AT_HOME,
);

const G37 = gcpTable('G37', 'dwellings', 'Tenure and landlord type by dwelling structure (occupied private dwellings)', 'Total_Total');

const G38 = gcpTable('G38', 'dwellings', 'Mortgage repayment (monthly) by dwelling structure (occupied private dwellings being purchased)', 'Tot_Tot');

const G40 = gcpTable('G40', 'dwellings', 'Rent (weekly) by landlord type (rented occupied private dwellings)', 'Tot_Tot');

const G41 = gcpTable('G41', 'dwellings', 'Dwelling structure by number of bedrooms (occupied private dwellings)', 'Total_Total');

const G42 = table(
  'G42',
  ['G42'],
  'dwellings',
  'Household composition (occupied private dwellings)',
  [c('Tot_FHs_Tot', { HHCD: [0] }), c('Tot_Lone_P_H', { HHCD: [1] }), c('Tot_Group_H', { HHCD: [2] })],
  [c('Tot_Tot', {})],
  'Tot_Tot',
  OCCUPIED_PRIVATE_DWELLINGS,
);

/** Tables the synthesizer fits, in file order of the DataPack. */
export const INPUT_TABLES: readonly TableSpec[] = [
  G01, G04, G05, G14, G15, G16, G17, G18, G23, G27, G29, G32, G33, G34, G35, G36, G37, G38, G40, G41, G42, G46, G49, G54, G60, G62,
];

// ------------------------------------------------------------------ validation (demo truth only)
/** Every combination of the given variables' categories, as cells with our own header names. */
function crossTab(id: string, universe: DatasetType, description: string, codes: readonly string[], age?: readonly [number, number]): TableSpec {
  let cells: { header: string; where: Where }[] = [{ header: id, where: {} }];
  for (const code of codes) {
    const cats = variableByCode(code).categories;
    cells = cells.flatMap((cell) => cats.map((_, i) => ({ header: `${cell.header}_${code}${i}`, where: { ...cell.where, [code]: [i] } })));
  }
  // The truth's dwelling cross-tabs are of occupied private dwellings, as the census's own.
  const population = universe === 'dwellings' ? OCCUPIED_PRIVATE_DWELLINGS : {};
  return table(id, [id], universe, description, cells.map((cell) => c(cell.header, cell.where, age)), [], undefined, population);
}

/**
 * Two- and three-way cross-tabulations that are not inputs: the hidden truth's answers to
 * questions the synthesizer was never told, to judge whether it kept the joint structure.
 */
/** The variables each validation cross-tab crosses, in cell order (the last varies fastest). */
export const VALIDATION_CODES: Readonly<Record<string, readonly string[]>> = {
  V_AGE_SEX_LFS: ['AGE5P', 'SEXP', 'LFSP'],
  V_INC_HEAP: ['INCP', 'HEAP'],
  V_OCC_IND: ['OCCP', 'INDP'],
  V_AGE_RLHP: ['AGE5P', 'RLHP'],
  V_TEND_HIND: ['TEND', 'HIND'],
  V_STRD_BEDRD: ['STRD', 'BEDRD'],
  V_NPRD_VEHRD: ['NPRD', 'VEHRD'],
  V_FMCF_FINF: ['FMCF', 'FINF'],
};
const v = (id: string, universe: DatasetType, description: string, age?: readonly [number, number]) =>
  crossTab(id, universe, description, VALIDATION_CODES[id]!, age);

export const VALIDATION_TABLES: readonly TableSpec[] = [
  v('V_AGE_SEX_LFS', 'persons', 'Age group × sex × labour force status'),
  v('V_INC_HEAP', 'persons', 'Personal income × highest educational attainment (15+)', ADULT),
  v('V_OCC_IND', 'persons', 'Occupation × industry'),
  v('V_AGE_RLHP', 'persons', 'Age group × relationship in household'),
  v('V_TEND_HIND', 'dwellings', 'Tenure × household income'),
  v('V_STRD_BEDRD', 'dwellings', 'Dwelling structure × bedrooms'),
  v('V_NPRD_VEHRD', 'dwellings', 'Household size × motor vehicles'),
  v('V_FMCF_FINF', 'families', 'Family composition × family income'),
];

export function tableById(id: string): TableSpec {
  const t = INPUT_TABLES.find((x) => x.id === id) ?? VALIDATION_TABLES.find((x) => x.id === id);
  if (!t) throw new Error(`unknown table ${id}`);
  return t;
}
