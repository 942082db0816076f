import { PERSON_INCOME_RANGES } from '../../tables.ts';
import { variableByCode } from '../../variables.ts';
import { cats, catRange, catsBut, type TableVocabulary, type Where } from '../vocabulary.ts';

/**
 * Education, income, assistance and work: G15–G18, G20, G23, G25, G46, G49, G52–G56, G60–G62.
 * Left undefined: government/Catholic schools and full-/part-time study (G15), qualification
 * sub-levels (Doctoral, Certificate III and IV, …), hours bands that do not line up with HRSP's
 * (G55, G61: 1–19, 20–29, 30–34, 40–44, 45–49, 50+), and travel by two or three methods (G62).
 */
const ADULTS: readonly [number, number] = [15, 115];
const EMPLOYED: Where = { LFSP: cats('LFSP', 'Employed, worked full-time', 'Employed, worked part-time', 'Employed, away from work', 'Employed, hours of work not stated') };
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
  ['Number_of_hours_worked_None', 'None'],
  ['Number_of_hours_worked_35_39_hours', '35-39 hours'],
  ['Number_of_hours_worked_Not_stated', 'Not stated'],
]);

const INCOME_BANDS: readonly (readonly [string, number])[] = [
  ['Negative_Nil_income', 0],
  ...PERSON_INCOME_RANGES.map((t, i) => [t, i + 1] as const),
  // The metadata's long header for some of G17's $2,000–$2,999 cells says "2000_2999_more".
  ['2000_2999_more', 12],
  ['3500_or_more', 14],
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
      ['Has_need_for_assistance', { ASSNP: [0] }],
      ['Does_not_have_need_for_assistance', { ASSNP: [1] }],
      ['Need_for_assistance_not_stated', one('ASSNP', 'Not stated')],
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
      ['Employed_worked_Full_time', { LFSP: [0] }],
      ['Employed_worked_Part_time', { LFSP: [1] }],
      ['Employed_away_from_work', { LFSP: [2] }],
      ['Hours_worked_not_stated', { LFSP: [3] }],
      ['Total_employed', { LFSP: catRange(0, 3) }],
      ['Unemployed_looking_for_Full_time_work', { LFSP: [4] }],
      ['Unemployed_looking_for_Part_time_work', { LFSP: [5] }],
      ['Total_unemployed', { LFSP: [4, 5] }],
      ['Total_labour_force', { LFSP: catRange(0, 5) }],
      ['Not_in_the_labour_force', { LFSP: [6] }],
      ['Labour_force_status_not_stated', { LFSP: [7] }],
    ],
  },
  { table: 'G49', universe: 'persons', ages: ADULTS, where: QUALIFIED, phrases: LEVELS },
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
      ['One_method_Total_one_method', { MTWP: catRange(0, 11) }],
    ],
  },
];
