import { OCCUPIED_PRIVATE_DWELLINGS } from '../../universes.ts';
import { cats, catRange, type TableVocabulary, type Where } from '../vocabulary.ts';

/**
 * Family and dwelling tables: G29, G31–G38, G40–G42, G57–G59, and whom G12, G30, G39, G47 and
 * G48 count. Left undefined (our categories do not say them exactly):
 * - G29's split of families with children by dependent students and non-dependent children,
 *   except "no children under 15, no dependent students, with non-dependent children", which is
 *   FMCF's "no children under 15" kind with no dependent children (CDCF);
 * - G36's unoccupied and total private dwellings (spq has occupied private dwellings only) and
 *   the four kinds of "other dwelling" in G36 and G42 (STRD keeps one "other dwelling");
 * - G57/G58's pairs of partners beyond both full-time, both not working and not stated: LFSF's
 *   "one employed full-time, other part-time" also holds full-time + away from work, and its
 *   part-time-or-away and one-not-employed kinds each join three of the table's columns;
 * - G59's part-time and away from work apart, and the not employed parent by unemployed / not in
 *   the labour force (LFSF joins them);
 * - the tables that cross persons or dwellings with families (G12, G30 by family type or parents'
 *   birthplace, G39, G47, G48): only G30's dependent children by age are read.
 */
const one = (code: string, label: string): Where => ({ [code]: cats(code, label) });
const indices = (code: string, phrases: readonly string[], from = 0) => phrases.map((p, i) => [p, { [code]: [from + i] }] as const);

const HOUSEHOLD_INCOME = (code: 'HIND' | 'FINF') => [
  ...indices(code, [
    'Negative_Nil_income', '1_149', '150_299', '300_399', '400_499', '500_649', '650_799', '800_999', '1000_1249', '1250_1499',
    '1500_1749', '1750_1999', '2000_2499', '2500_2999', '3000_3499', '3500_3999', '4000_or_more',
  ]),
  ['Partial_income_stated', one(code, 'Partial income stated')] as const,
  ['All_incomes_not_stated', one(code, 'All incomes not stated')] as const,
];

/** Dwelling structure as G36 and G41 name its rows. */
const STRUCTURE = [
  ['Separate_house', { STRD: [0] }],
  ['Semi_detached_row_or_terrace_house_townhouse_etc_with', { STRD: [1, 2] }],
  ['Semi_detached_row_or_terrace_house_townhouse_etc_with_One_storey', { STRD: [1] }],
  ['Semi_detached_row_or_terrace_house_townhouse_etc_with_Two_or_more_storeys', { STRD: [2] }],
  ['Flat_or_apartment', { STRD: catRange(3, 7) }],
  ['Flat_or_apartment_In_a_one_or_two_storey_block', { STRD: [3] }],
  ['Flat_or_apartment_In_a_three_storey_block', { STRD: [4] }],
  ['Flat_or_apartment_In_a_four_to_eight_storey_block', { STRD: [5] }],
  ['Flat_or_apartment_In_a_nine_or_more_storey_block', { STRD: [6] }],
  ['Flat_or_apartment_Attached_to_a_house', { STRD: [7] }],
  ['Other_dwelling', { STRD: [8] }],
  ['Dwelling_structure_not_stated', { STRD: [9] }],
] as const;
/** Dwelling structure as G37 and G38 name their columns (four groups). */
const STRUCTURE_COLUMNS = [
  ['Dwelling_structure_Separate_house', { STRD: [0] }],
  ['Dwelling_structure_Semi_detached_row_or_terrace_house_townhouse_etc', { STRD: [1, 2] }],
  ['Dwelling_structure_Flat_or_apartment', { STRD: catRange(3, 7) }],
  ['Dwelling_structure_Other_dwelling', { STRD: [8] }],
  ['Dwelling_structure_not_stated', { STRD: [9] }],
  ['Dwelling_structure_Not_stated', { STRD: [9] }],
] as const;
const LANDLORDS = [
  'Real estate agent', 'State or territory housing authority', 'Community housing provider', 'Person not in same household', 'Other landlord type',
].map((l) => [l.replaceAll(' ', '_').replace(/^./, (c) => c.toUpperCase()), one('LLDD', l)] as const);

/** A family's type; G42 counts a household by its primary family, HCFMD's one- and multiple-family kinds. */
const PRIMARY_FAMILY: readonly (readonly [string, Where])[] = [
  ['Couple_family_with_no_children', { HCFMD: [0, 4] }],
  ['Couple_family_with_children', { HCFMD: [1, 5] }],
  ['One_parent_family', { HCFMD: [2, 6] }],
  ['Other_family', { HCFMD: [3, 7] }],
];

/**
 * G57/G58's columns that are one LFSF category. Not "One_employed_full_time_Other_part_time": LFSF's
 * category of that name also holds a full-time partner with one away from work (footnote c: away
 * includes hours not stated), which the table counts apart.
 */
const COUPLE_LABOUR_FORCE = [
  ['Both_employed_Worked_full_time', one('LFSF', 'Couple family: Both employed, worked full-time')],
  ['Both_not_working', one('LFSF', 'Couple family: Neither employed')],
  ['Labour_force_status_not_stated', one('LFSF', 'Couple family: Labour force status not stated (one or both)')],
] as const;

const NO_DEPENDENT: Where = one('CDCF', 'No dependent children');

const DEPENDENT_CHILDREN: Where = { RLHP: cats('RLHP', 'Child under 15', 'Dependent student (aged 15-24 years)') };

export const HOUSEHOLD_VOCABULARIES: readonly TableVocabulary[] = [
  {
    table: 'G29',
    universe: 'families',
    phrases: [
      ['Couple_family_with_no_children', { FMCF: [0] }],
      ['Couple_family_with_children_under_15_and', { FMCF: [1] }],
      ['Couple_family_with_no_children_under_15_and', { FMCF: [2] }],
      // With no child under 15, a family with children and no dependent child has only non-dependent ones.
      ['Couple_family_with_no_children_under_15_and_no_dependent_students_and_with_non_dependent_children', { FMCF: [2], ...NO_DEPENDENT }],
      ['Couple_family_with', { FMCF: [1, 2] }],
      ['One_parent_family_with_children_under_15_and', { FMCF: [3] }],
      ['One_parent_family_with_no_children_under_15_and', { FMCF: [4] }],
      ['One_parent_family_with_no_children_under_15_and_no_dependent_students_and_with_non_dependent_children', { FMCF: [4], ...NO_DEPENDENT }],
      ['One_parent_family_with', { FMCF: [3, 4] }],
      ['Other_family', { FMCF: [5] }],
    ],
  },
  {
    table: 'G31',
    universe: 'families',
    where: { FMCF: [1, 2] },
    phrases: indices('FBLF', [
      'Intact_family_with_no_other_children_present',
      'Step_family_with_no_other_children_present',
      'Blended_family_with_no_other_children_present',
      'Intact_family_with_other_children_present',
      'Step_family_with_other_children_present',
      'Blended_family_with_other_children_present',
      'Other_couple_family_with_other_children_only',
    ]),
  },
  {
    table: 'G32',
    universe: 'families',
    phrases: [
      ...HOUSEHOLD_INCOME('FINF'),
      ['Couple_family_with_no_children', { FMCF: [0] }],
      ['Couple_family_with_children', { FMCF: [1, 2] }],
      ['One_parent_family', { FMCF: [3, 4] }],
      ['Other_family', { FMCF: [5] }],
    ],
  },
  {
    table: 'G33',
    universe: 'dwellings',
    where: OCCUPIED_PRIVATE_DWELLINGS,
    phrases: [...HOUSEHOLD_INCOME('HIND'), ['Family_households', { HHCD: [0] }], ['Non_family_households', { HHCD: [1, 2] }]],
  },
  {
    table: 'G34',
    universe: 'dwellings',
    where: OCCUPIED_PRIVATE_DWELLINGS,
    phrases: [
      ['Number_of_motor_vehicles_per_dwelling', { VEHRD: catRange(0, 4) }],
      ...indices('VEHRD', ['No_motor_vehicles', 'One_motor_vehicle', 'Two_motor_vehicles', 'Three_motor_vehicles', 'Four_or_more_motor_vehicles']),
      ['Number_of_motor_vehicles_not_stated', one('VEHRD', 'Not stated')],
    ],
  },
  {
    table: 'G35',
    universe: 'dwellings',
    where: OCCUPIED_PRIVATE_DWELLINGS,
    phrases: [
      ['Number_of_Persons_usually_resident', {}],
      ...indices('NPRD', ['One', 'Two', 'Three', 'Four', 'Five']),
      ['Six_or_more', { NPRD: [5, 6, 7] }],
      ['Family_households', { HHCD: [0] }],
      ['Non_family_households', { HHCD: [1, 2] }],
    ],
  },
  {
    table: 'G36',
    universe: 'dwellings',
    where: OCCUPIED_PRIVATE_DWELLINGS,
    phrases: [['Occupied_private_dwellings', {}], ['Total_occupied_private_dwellings', {}], ...STRUCTURE],
  },
  {
    table: 'G37',
    universe: 'dwellings',
    where: OCCUPIED_PRIVATE_DWELLINGS,
    phrases: [
      ['Owned_outright', { TEND: [0] }],
      ['Owned_with_a_mortgage', { TEND: [1] }],
      ['Rented', { TEND: [2] }],
      ...LANDLORDS,
      ['Landlord_type_not_stated', one('LLDD', 'Landlord type not stated')],
      ['Other_tenure_type', { TEND: [3] }],
      ['Tenure_type_not_stated', { TEND: [4] }],
      ...STRUCTURE_COLUMNS,
    ],
  },
  {
    table: 'G38',
    universe: 'dwellings',
    where: { ...OCCUPIED_PRIVATE_DWELLINGS, TEND: [1] },
    phrases: [
      ...indices('MRERD', ['0_299', '300_449', '450_599', '600_799', '800_999', '1000_1399', '1400_1799', '1800_2399', '2400_2999', '3000_3999', '4000_and_over']),
      ['Mortgage_repayment_not_stated', one('MRERD', 'Not stated')],
      ...STRUCTURE_COLUMNS,
    ],
  },
  // Families in dwellings being purchased: tenure is a dwelling variable, so no family condition says
  // whom G39 counts, and none of its columns is defined (not even "Total_Total").
  { table: 'G39', universe: 'families', phrases: [], populationNotExpressible: true },
  {
    table: 'G40',
    universe: 'dwellings',
    where: { ...OCCUPIED_PRIVATE_DWELLINGS, TEND: [2] },
    phrases: [
      ...indices('RNTRD', [
        '1_74', '75_99', '100_149', '150_199', '200_224', '225_274', '275_349', '350_449', '450_549', '550_649', '650_and_749', '750_and_849',
        '850_and_949', '950_and_over',
      ]),
      ['Rent_not_stated', one('RNTRD', 'Not stated')],
      ...LANDLORDS.map(([p, w]) => [`Landlord_type_${p}`, w] as const),
      ['Landlord_type_Not_stated', one('LLDD', 'Landlord type not stated')],
    ],
  },
  {
    table: 'G41',
    universe: 'dwellings',
    where: OCCUPIED_PRIVATE_DWELLINGS,
    phrases: [
      ...STRUCTURE,
      ...indices('BEDRD', [
        'Number_of_bedrooms_None_includes_studio_apartments_or_bedsitters',
        'Number_of_bedrooms_One_bedroom',
        'Number_of_bedrooms_Two_bedrooms',
        'Number_of_bedrooms_Three_bedrooms',
        'Number_of_bedrooms_Four_bedrooms',
        'Number_of_bedrooms_Five_bedrooms',
        'Number_of_bedrooms_Six_bedrooms_or_more',
        'Number_of_bedrooms_Not_stated',
      ]),
    ],
  },
  {
    table: 'G42',
    universe: 'dwellings',
    where: OCCUPIED_PRIVATE_DWELLINGS,
    phrases: [
      ...STRUCTURE,
      ['Family_households', { HHCD: [0] }],
      ...PRIMARY_FAMILY,
      ['Lone_person_household', { HHCD: [1] }],
      ['Lone_person_households', { HHCD: [1] }],
      ['Group_household', { HHCD: [2] }],
      ['Group_households', { HHCD: [2] }],
    ],
  },
  { table: 'G57', universe: 'families', where: { FMCF: [0] }, phrases: [...HOUSEHOLD_INCOME('FINF'), ...COUPLE_LABOUR_FORCE] },
  { table: 'G58', universe: 'families', where: { FMCF: [1, 2] }, phrases: [...HOUSEHOLD_INCOME('FINF'), ...COUPLE_LABOUR_FORCE] },
  {
    table: 'G59',
    universe: 'families',
    where: { FMCF: [3, 4] },
    phrases: [
      ...HOUSEHOLD_INCOME('FINF'),
      ['Employed_Worked_full_time', one('LFSF', 'One parent family: Parent employed, worked full-time')],
      ['Employed_Total', { LFSF: cats('LFSF', 'One parent family: Parent employed, worked full-time', 'One parent family: Parent employed, worked part-time or away from work') }],
      ['Labour_force_status_not_stated', one('LFSF', 'One parent family: Labour force status not stated')],
    ],
  },
  // Dependent children by their parents' attributes. G30's totals by age are all dependent children;
  // G12 and G47 count those in couple families, G48 those in one-parent families, which RLHP does not
  // tell apart, so their where is a superset used only for the demo's made-up fills (no column reads).
  { table: 'G12', universe: 'persons', where: DEPENDENT_CHILDREN, phrases: [] },
  { table: 'G30', universe: 'persons', where: DEPENDENT_CHILDREN, phrases: [] },
  { table: 'G47', universe: 'persons', where: DEPENDENT_CHILDREN, phrases: [] },
  { table: 'G48', universe: 'persons', where: DEPENDENT_CHILDREN, phrases: [] },
];
