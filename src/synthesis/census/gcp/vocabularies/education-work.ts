import { PERSON_INCOME_RANGES } from '../../income-ranges.ts';
import { categoryIndex, variableByCode } from '../../variables.ts';
import { cats, catRange, catsBut, type TableVocabulary, type Where } from '../vocabulary.ts';

/**
 * Education, income, assistance and work: G15–G18, G20, G23, G25, G43, G46, G49–G56, G60–G62.
 * A column is defined only when our categories express it exactly. Left undefined:
 * - G15: government/Catholic/other-non-government schools and full-/part-time student status
 *   (spq carries neither), including the by-age tertiary columns (which are by study status);
 * - G43: the percentages (rates, not counts), the certificate sub-levels and usual address 1 and
 *   5 years ago (spq carries no migration);
 * - G50, G51: fields of study (spq carries none), so only their totals by age (G50) and by
 *   occupation (G51) are defined;
 * - G49, G52: qualification sub-levels (Certificate III and IV, Doctoral, Master, Diploma, … nfd),
 *   subsets of our HEAP levels; G52 has level totals only for Bachelor (its one sub-level);
 * - G55, G61: the hours bands 1–19, 20–29, 30–34, 40–44, 45–49, 50+, which cut across HRSP's
 *   1–15, 16–24, 25–34, 40, 41–48, 49+ (only None, 35–39 and Not stated line up);
 * - G62: travel by two or three methods (only their sum is our "Two or more methods", and the
 *   table has no such column).
 */
const ADULTS: readonly [number, number] = [15, 115];
const EMPLOYED_LABELS = ['Employed, worked full-time', 'Employed, worked part-time', 'Employed, away from work', 'Employed, hours of work not stated'];
const UNEMPLOYED_LABELS = ['Unemployed, looking for full-time work', 'Unemployed, looking for part-time work'];
const EMPLOYED: Where = { LFSP: cats('LFSP', ...EMPLOYED_LABELS) };
const QUALIFIED: Where = {
  HEAP: cats(
    'HEAP',
    'Postgraduate Degree Level',
    'Graduate Diploma and Graduate Certificate Level',
    'Bachelor Degree Level',
    'Advanced Diploma and Diploma Level',
    'Certificate Level',
    'Level of education inadequately described',
    'Not stated',
  ),
};
const one = (code: string, label: string): Where => ({ [code]: cats(code, label) });
const phrasesOf = (code: string, pairs: readonly (readonly [string, string])[]) => pairs.map(([phrase, label]) => [phrase, one(code, label)] as const);

const LEVELS = phrasesOf('HEAP', [
  ['Postgraduate_Degree_Level', 'Postgraduate Degree Level'],
  ['Graduate_Diploma_and_Graduate_Certificate_Level', 'Graduate Diploma and Graduate Certificate Level'],
  ['Bachelor_Degree_Level', 'Bachelor Degree Level'],
  ['Advanced_Diploma_and_Diploma_Level', 'Advanced Diploma and Diploma Level'],
  ['Certificate_Level', 'Certificate Level'],
  ['Level_of_education_inadequately_described', 'Level of education inadequately described'],
  ['Level_of_education_not_stated', 'Not stated'],
]);

const OCCUPATIONS: readonly (readonly [string, string])[] = [
  ['Managers', 'Managers'],
  ['Professionals', 'Professionals'],
  ['Technicians_and_trades_workers', 'Technicians and Trades Workers'],
  ['Community_and_personal_service_workers', 'Community and Personal Service Workers'],
  ['Clerical_and_administrative_workers', 'Clerical and Administrative Workers'],
  ['Sales_workers', 'Sales Workers'],
  ['Machinery_operators_and_drivers', 'Machinery Operators and Drivers'],
  ['Labourers', 'Labourers'],
  ['Inadequately_described_Not_stated', 'Inadequately described/Not stated'],
];
const OCCUPATION_PHRASES = phrasesOf('OCCP', OCCUPATIONS.map(([p, l]) => [`Occupation_${p}`, l] as const));

/** Industry phrases from INDP's own labels ("Rental, Hiring and Real Estate Services" → "Rental_Hiring_and_Real_Estate_Services"). */
const INDUSTRY_PHRASES = variableByCode('INDP')
  .categories.filter((l) => l !== 'Not applicable')
  .map((label) => [label.replace(/[,/]/g, '').replace(/ /g, '_').replace('Inadequately_describedNot_stated', 'Inadequately_described_Not_stated'), one('INDP', label)] as const);

const HOURS = phrasesOf('HRSP', [
  ['Number_of_hours_worked_None', 'No hours worked'],
  ['Number_of_hours_worked_35_39_hours', '35-39 hours'],
  ['Number_of_hours_worked_Not_stated', 'Not stated'],
]);

/** G17's income phrases → INCP index (the dollar ranges are INCP 1‥13 in order). */
const INCOME_BANDS: readonly (readonly [string, number])[] = [
  ['Negative_Nil_income', categoryIndex('INCP', 'Negative/Nil income')],
  ...PERSON_INCOME_RANGES.map((t, i) => [t, i + 1] as const),
  // The metadata misspells the females' and persons' $2,000–$2,999 long headers as "2000_2999_more"
  // (short headers F_/P_2000_2999_*, between 1750_1999 and 3000_3499): the same band.
  ['2000_2999_more', categoryIndex('INCP', '$2,000-$2,999')],
  ['3500_or_more', categoryIndex('INCP', '$3,500 or more')],
];

/**
 * G43's labour force and qualification rows. Its "Employed, away from work" comprises (footnote d)
 * those who worked no hours and those who did not state their hours: LFSP's away from work and
 * hours not stated together (at AUS, G43's 991,758 is G46's 787,382 + 204,375).
 */
const G43_PHRASES: readonly (readonly [string, Where])[] = [
  ['Persons', {}],
  ['Labour_force_status', {}],
  ['Employed_worked_full_time', one('LFSP', 'Employed, worked full-time')],
  ['Employed_worked_part_time', one('LFSP', 'Employed, worked part-time')],
  ['Employed_away_from_work', { LFSP: cats('LFSP', 'Employed, away from work', 'Employed, hours of work not stated') }],
  ['Unemployed_looking_for_work', { LFSP: cats('LFSP', ...UNEMPLOYED_LABELS) }],
  ['Total_labour_force', { LFSP: cats('LFSP', ...EMPLOYED_LABELS, ...UNEMPLOYED_LABELS) }],
  ['Not_in_the_labour_force', one('LFSP', 'Not in the labour force')],
  ['Highest_non_school_qualifications', {}],
  ...LEVELS,
];

export const WORK_VOCABULARIES: readonly TableVocabulary[] = [
  {
    table: 'G15',
    universe: 'persons',
    where: { TYPP: catsBut('TYPP', 'Not applicable') },
    phrases: [
      ...phrasesOf('TYPP', [
        ['Preschool', 'Pre-school'],
        ['Primary', 'Infants/Primary'],
        ['Secondary', 'Secondary'],
        ['Tertiary_Vocational_education_including_TAFE_and_private_training_providers', 'Technical or further education institution'],
        ['Tertiary_University_or_other_higher_education', 'University or other higher education'],
        ['Other_type_of_education_institution', 'Other educational institution'],
        ['Type_of_education_institution_not_stated', 'Not stated'],
      ]),
      ['Tertiary', { TYPP: cats('TYPP', 'Technical or further education institution', 'University or other higher education') }],
    ],
  },
  {
    table: 'G16',
    universe: 'persons',
    ages: ADULTS,
    where: { HSCP: catsBut('HSCP', 'Not applicable') },
    phrases: phrasesOf('HSCP', [
      ['Year_12_or_equivalent', 'Year 12 or equivalent'],
      ['Year_11_or_equivalent', 'Year 11 or equivalent'],
      ['Year_10_or_equivalent', 'Year 10 or equivalent'],
      ['Year_9_or_equivalent', 'Year 9 or equivalent'],
      ['Year_8_or_below', 'Year 8 or below'],
      ['Did_not_go_to_school', 'Did not go to school'],
      ['Highest_year_of_school_not_stated', 'Not stated'],
    ]),
  },
  {
    table: 'G17',
    universe: 'persons',
    ages: ADULTS,
    phrases: [...INCOME_BANDS.map(([p, k]) => [p, { INCP: [k] }] as const), ['Personal_income_not_stated', one('INCP', 'Not stated')]],
  },
  {
    table: 'G18',
    universe: 'persons',
    phrases: [
      ...phrasesOf('ASSNP', [
        ['Has_need_for_assistance', 'Has need for assistance with core activities'],
        ['Does_not_have_need_for_assistance', 'Does not have need for assistance with core activities'],
        ['Need_for_assistance_not_stated', 'Not stated'],
      ]),
    ],
  },
  {
    table: 'G20',
    universe: 'persons',
    phrases: [
      ['Count_of_selected_long_term_health_conditions', {}],
      ...phrasesOf('LTHP', [
        ['None_of_the_selected_conditions', 'No long-term health condition'],
        ['One_condition', 'One condition'],
        ['Two_conditions', 'Two conditions'],
        ['Three_or_more_conditions', 'Three or more conditions'],
        ['Not_stated', 'Not stated'],
      ]),
      ['Has_one_or_more_selected_long_term_health_conditions', { LTHP: cats('LTHP', 'One condition', 'Two conditions', 'Three or more conditions') }],
    ],
  },
  {
    table: 'G23',
    universe: 'persons',
    ages: ADULTS,
    phrases: phrasesOf('VOLWP', [
      ['Volunteer', 'Volunteer'],
      ['Not_a_volunteer', 'Not a volunteer'],
      ['Voluntary_work_not_stated', 'Not stated'],
    ]),
  },
  {
    table: 'G25',
    universe: 'persons',
    ages: ADULTS,
    phrases: phrasesOf('UAI5P', [
      ['Provided_unpaid_assistance', 'Provided unpaid assistance'],
      ['No_unpaid_assistance_provided', 'No unpaid assistance provided'],
      ['Unpaid_assistance_not_stated', 'Not stated'],
    ]),
  },
  {
    table: 'G46',
    universe: 'persons',
    ages: ADULTS,
    phrases: [
      ...phrasesOf('LFSP', [
        ['Employed_worked_Full_time', 'Employed, worked full-time'],
        ['Employed_worked_Part_time', 'Employed, worked part-time'],
        ['Employed_away_from_work', 'Employed, away from work'],
        ['Hours_worked_not_stated', 'Employed, hours of work not stated'],
        ['Unemployed_looking_for_Full_time_work', 'Unemployed, looking for full-time work'],
        ['Unemployed_looking_for_Part_time_work', 'Unemployed, looking for part-time work'],
        ['Not_in_the_labour_force', 'Not in the labour force'],
        ['Labour_force_status_not_stated', 'Not stated'],
      ]),
      ['Total_employed', EMPLOYED],
      ['Total_unemployed', { LFSP: cats('LFSP', ...UNEMPLOYED_LABELS) }],
      ['Total_labour_force', { LFSP: cats('LFSP', ...EMPLOYED_LABELS, ...UNEMPLOYED_LABELS) }],
    ],
  },
  // Persons aged 15 and over: the percentages and the migration rows (ages 1+ and 5+) stay undefined.
  { table: 'G43', universe: 'persons', ages: ADULTS, phrases: G43_PHRASES },
  { table: 'G49', universe: 'persons', ages: ADULTS, where: QUALIFIED, phrases: LEVELS },
  // G49's population (equal totals at AUS); fields of study are no spq variable, so only totals read.
  { table: 'G50', universe: 'persons', ages: ADULTS, where: QUALIFIED, phrases: [] },
  // G52's population (equal totals at AUS): employed persons with a non-school qualification.
  { table: 'G51', universe: 'persons', ages: ADULTS, where: { ...EMPLOYED, ...QUALIFIED }, phrases: OCCUPATION_PHRASES },
  { table: 'G52', universe: 'persons', ages: ADULTS, where: { ...EMPLOYED, ...QUALIFIED }, phrases: [...LEVELS, ...OCCUPATION_PHRASES] },
  {
    table: 'G53',
    universe: 'persons',
    ages: ADULTS,
    where: { ...EMPLOYED, ...QUALIFIED },
    phrases: [...LEVELS, ...INDUSTRY_PHRASES],
    lastPhrases: [['Inadequately_described_Not_stated', { HEAP: cats('HEAP', 'Level of education inadequately described', 'Not stated') }]],
  },
  { table: 'G54', universe: 'persons', ages: ADULTS, where: EMPLOYED, phrases: INDUSTRY_PHRASES },
  { table: 'G55', universe: 'persons', ages: ADULTS, where: EMPLOYED, phrases: [...INDUSTRY_PHRASES, ...HOURS] },
  { table: 'G56', universe: 'persons', ages: ADULTS, where: EMPLOYED, phrases: [...INDUSTRY_PHRASES, ...OCCUPATION_PHRASES] },
  { table: 'G60', universe: 'persons', ages: ADULTS, where: EMPLOYED, phrases: OCCUPATION_PHRASES },
  { table: 'G61', universe: 'persons', ages: ADULTS, where: EMPLOYED, phrases: [...phrasesOf('OCCP', OCCUPATIONS), ...HOURS] },
  {
    table: 'G62',
    universe: 'persons',
    ages: ADULTS,
    where: EMPLOYED,
    phrases: [
      ...phrasesOf('MTWP', [
        ['One_method_Train', 'Train'],
        ['One_method_Bus', 'Bus'],
        ['One_method_Ferry', 'Ferry'],
        ['One_method_Tram_light_rail', 'Tram/light rail'],
        ['One_method_Taxi_ride_share_service', 'Taxi/ride-share service'],
        ['One_method_Car_as_driver', 'Car, as driver'],
        ['One_method_Car_as_passenger', 'Car, as passenger'],
        ['One_method_Truck', 'Truck'],
        ['One_method_Motorbike_scooter', 'Motorbike/scooter'],
        ['One_method_Bicycle', 'Bicycle'],
        ['One_method_Other', 'Other'],
        ['One_method_Walked_only', 'Walked only'],
        ['Worked_at_home', 'Worked at home'],
        ['Did_not_go_to_work', 'Did not go to work'],
        ['Method_of_travel_to_work_not_stated', 'Not stated'],
      ]),
      // Every single method: Train … Walked only (not "Two or more methods", worked at home, …).
      ['One_method_Total_one_method', { MTWP: catRange(categoryIndex('MTWP', 'Train'), categoryIndex('MTWP', 'Walked only')) }],
    ],
  },
];
