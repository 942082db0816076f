/** The persons data set's variables, in file column order (the catalogue: ../variables.ts). */
import { coarsen, coarsenByRuns, NA, NS, type VariableDef } from './define.ts';

const AGE5P_CATS = [
  ...Array.from({ length: 20 }, (_, i) => `${i * 5}-${i * 5 + 4} years`),
  '100 years and over',
];

/**
 * Age as G04 publishes it: single years 0–79, then five-year groups to "100 years and over" (the
 * DataPack's cells; the ABS Census Dictionary's AGEP runs to 115, but no table publishes single
 * years past 79, so none is served). Every label starts with three digits, the lowest age it
 * holds, so that a reader that sorts the labels as text (polars, DuckDB) sorts them by age, and
 * `int(label[:3])` is the age (a group's lowest).
 */
const AGEP_CATS = [
  ...Array.from({ length: 80 }, (_, age) => `${String(age).padStart(3, '0')} years`),
  ...Array.from({ length: 4 }, (_, i) => `${String(80 + i * 5).padStart(3, '0')}-${String(84 + i * 5).padStart(3, '0')} years`),
  '100 years and over',
];

/** AGE5P's category of a single-year age (0‥115): its five-year group, 100 and over last. */
export const age5pOfAge = (age: number): number => Math.min(20, Math.floor(age / 5));

/** AGEP's category of a single-year age (0‥115): the age itself to 79, its G04 group above. */
export const agepOfAge = (age: number): number => (age < 80 ? age : Math.min(AGEP_CATS.length - 1, 80 + Math.floor((age - 80) / 5)));

const INCOME_WEEKLY_PERSON = [
  'Negative/Nil income',
  '$1-$149',
  '$150-$299',
  '$300-$399',
  '$400-$499',
  '$500-$649',
  '$650-$799',
  '$800-$999',
  '$1,000-$1,249',
  '$1,250-$1,499',
  '$1,500-$1,749',
  '$1,750-$1,999',
  '$2,000-$2,999',
  '$3,000-$3,499',
  '$3,500 or more',
  NS,
  NA,
];

const RLHP_CATS = [
  'Partner in a registered marriage',
  'Partner in a de facto marriage',
  'Lone parent',
  'Child under 15',
  'Dependent student (aged 15-24 years)',
  'Non-dependent child',
  'Other related individual',
  'Unrelated individual living in family household',
  'Group household member',
  'Lone person',
  'Visitor (from within Australia)',
  NA,
];

const BPLP_CATS = [
  'Australia',
  'Oceania and Antarctica (excl. Australia)',
  'North-West Europe',
  'Southern and Eastern Europe',
  'North Africa and the Middle East',
  'South-East Asia',
  'North-East Asia',
  'Southern and Central Asia',
  'Americas',
  'Sub-Saharan Africa',
  NS,
];

const LANP_CATS = [
  'English only',
  'Northern European languages (excl. English)',
  'Southern European languages',
  'Eastern European languages',
  'Southwest and Central Asian languages',
  'Southern Asian languages',
  'Southeast Asian languages',
  'Eastern Asian languages',
  'Australian Indigenous languages',
  'Other languages',
  NS,
];

const RELP_CATS = [
  'Buddhism',
  'Christianity',
  'Hinduism',
  'Islam',
  'Judaism',
  'Other religions',
  'Secular Beliefs and Other Spiritual Beliefs and No Religious Affiliation',
  NS,
];

const TYPP_CATS = [
  'Pre-school',
  'Infants/Primary',
  'Secondary',
  'Technical or further education institution',
  'University or other higher education',
  'Other educational institution',
  NS,
  NA,
];

// Ordinal variables list their levels from low to high (missing codes last), unlike the ABS's
// own code order for HSCP, HEAP and ENGLP (highest first), so that every file and reader agrees.
const HSCP_CATS = [
  'Did not go to school',
  'Year 8 or below',
  'Year 9 or equivalent',
  'Year 10 or equivalent',
  'Year 11 or equivalent',
  'Year 12 or equivalent',
  NS,
  NA,
];

const HEAP_CATS = [
  'No educational attainment',
  'Secondary Education - Years 9 and below',
  'Secondary Education - Years 10 and above',
  'Certificate Level',
  'Advanced Diploma and Diploma Level',
  'Bachelor Degree Level',
  'Graduate Diploma and Graduate Certificate Level',
  'Postgraduate Degree Level',
  'Level of education inadequately described',
  NS,
  NA,
];

const ENGLP_CATS = ['Not at all', 'Not well', 'Well', 'Very well', NS, NA];

const LFSP_CATS = [
  'Employed, worked full-time',
  'Employed, worked part-time',
  'Employed, away from work',
  'Employed, hours of work not stated',
  'Unemployed, looking for full-time work',
  'Unemployed, looking for part-time work',
  'Not in the labour force',
  NS,
  NA,
];

// "No hours worked" is the ABS's "None": pandas and R read a cell "None" as missing.
const HRSP_CATS = [
  'No hours worked',
  '1-15 hours',
  '16-24 hours',
  '25-34 hours',
  '35-39 hours',
  '40 hours',
  '41-48 hours',
  '49 hours and over',
  NS,
  NA,
];

const OCCP_CATS = [
  'Managers',
  'Professionals',
  'Technicians and Trades Workers',
  'Community and Personal Service Workers',
  'Clerical and Administrative Workers',
  'Sales Workers',
  'Machinery Operators and Drivers',
  'Labourers',
  'Inadequately described/Not stated',
  NA,
];

const INDP_CATS = [
  'Agriculture, Forestry and Fishing',
  'Mining',
  'Manufacturing',
  'Electricity, Gas, Water and Waste Services',
  'Construction',
  'Wholesale Trade',
  'Retail Trade',
  'Accommodation and Food Services',
  'Transport, Postal and Warehousing',
  'Information Media and Telecommunications',
  'Financial and Insurance Services',
  'Rental, Hiring and Real Estate Services',
  'Professional, Scientific and Technical Services',
  'Administrative and Support Services',
  'Public Administration and Safety',
  'Education and Training',
  'Health Care and Social Assistance',
  'Arts and Recreation Services',
  'Other Services',
  'Inadequately described/Not stated',
  NA,
];

const MTWP_CATS = [
  'Train',
  'Bus',
  'Ferry',
  'Tram/light rail',
  'Taxi/ride-share service',
  'Car, as driver',
  'Car, as passenger',
  'Truck',
  'Motorbike/scooter',
  'Bicycle',
  'Other',
  'Walked only',
  'Two or more methods',
  'Worked at home',
  'Did not go to work',
  NS,
  NA,
];

export const PERSON_VARIABLES: readonly VariableDef[] = [
  {
    code: 'AGE5P',
    dataset: 'persons',
    measurement: 'ordinal',
    description: 'Age in five-year groups',
    categories: AGE5P_CATS,
    // Ten-year groups from 15, as the census's own (G01): a boundary at 15 because every 15+
    // variable (labour force, income, marital status) tells 14 from 15 whatever the age group.
    coarse: coarsenByRuns(AGE5P_CATS, [
      ['0-14 years', 0],
      ...Array.from({ length: 7 }, (_, i) => [`${15 + i * 10}-${24 + i * 10} years`, 3 + i * 2] as const),
      ['85 years and over', 17],
    ]),
  },
  {
    code: 'AGEP',
    dataset: 'persons',
    measurement: 'ordinal',
    description: 'Age in single years to 79, then five-year groups to 100 years and over (as G04)',
    categories: AGEP_CATS,
    // AGE5P's coarse groups (ten years from 15), so that a small suburb's coarse AGEP and coarse
    // AGE5P are the same groups and neither gives a single year or a five-year group back.
    coarse: coarsenByRuns(AGEP_CATS, [
      ['000-014 years', 0],
      ...Array.from({ length: 7 }, (_, i) => [`${String(15 + i * 10).padStart(3, '0')}-${String(24 + i * 10).padStart(3, '0')} years`, 15 + i * 10] as const),
      ['085 years and over', agepOfAge(85)],
    ]),
  },
  { code: 'SEXP', dataset: 'persons', measurement: 'nominal', description: 'Sex', categories: ['Male', 'Female'] },
  {
    code: 'RLHP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Relationship in household',
    categories: RLHP_CATS,
    // Not coarsened: age (0-14), attendance, marital status and the household's type give every
    // category back (docs/synthesis.md, "Coarsening").
  },
  {
    code: 'MSTP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Registered marital status',
    categories: ['Never married', 'Widowed', 'Divorced', 'Separated', 'Married', NA],
  },
  {
    code: 'MDCP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Social marital status',
    categories: ['Married in a registered marriage', 'Married in a de facto marriage', 'Not married', NA],
  },
  {
    code: 'INGP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Indigenous status',
    categories: ['Non-Indigenous', 'Aboriginal', 'Torres Strait Islander', 'Both Aboriginal and Torres Strait Islander', NS],
    coarse: coarsen(
      ['Non-Indigenous', 'Aboriginal', 'Torres Strait Islander', 'Both Aboriginal and Torres Strait Islander', NS],
      [
        ['Non-Indigenous', ['Non-Indigenous']],
        ['Aboriginal and/or Torres Strait Islander', ['Aboriginal', 'Torres Strait Islander', 'Both Aboriginal and Torres Strait Islander']],
        [NS, [NS]],
      ],
    ),
  },
  {
    code: 'BPLP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Country of birth (region)',
    categories: BPLP_CATS,
    coarse: coarsenByRuns(BPLP_CATS, [
      ['Australia', 0],
      ['Overseas', 1],
      [NS, 10],
    ]),
  },
  {
    code: 'CITP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Australian citizenship',
    categories: ['Australian citizen', 'Not an Australian citizen', NS],
  },
  {
    code: 'LANP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Language used at home (group)',
    categories: LANP_CATS,
    coarse: coarsenByRuns(LANP_CATS, [
      ['English only', 0],
      ['Other language', 1],
      [NS, 10],
    ]),
  },
  {
    code: 'ENGLP',
    dataset: 'persons',
    measurement: 'ordinal',
    description: 'Proficiency in spoken English',
    categories: ENGLP_CATS,
  },
  {
    code: 'RELP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Religious affiliation (group)',
    categories: RELP_CATS,
    coarse: coarsen(RELP_CATS, [
      ['Christianity', ['Christianity']],
      ['Other religions', ['Buddhism', 'Hinduism', 'Islam', 'Judaism', 'Other religions']],
      [RELP_CATS[6]!, [RELP_CATS[6]!]],
      [NS, [NS]],
    ]),
  },
  {
    code: 'TYPP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Type of educational institution attending',
    categories: TYPP_CATS,
    coarse: coarsen(TYPP_CATS, [
      ['Pre-school or school', ['Pre-school', 'Infants/Primary', 'Secondary']],
      ['Tertiary or other institution', [TYPP_CATS[3]!, TYPP_CATS[4]!, TYPP_CATS[5]!]],
      [NS, [NS]],
      [NA, [NA]],
    ]),
  },
  {
    code: 'HSCP',
    dataset: 'persons',
    measurement: 'ordinal',
    description: 'Highest year of school completed',
    categories: HSCP_CATS,
    // Coarsened with HEAP, whose coarse "Secondary Education or below" Year 9 or 10 would split.
    coarse: coarsenByRuns(HSCP_CATS, [
      ['Year 11 or below', 0],
      ['Year 12 or equivalent', 5],
      [NS, 6],
      [NA, 7],
    ]),
  },
  {
    code: 'HEAP',
    dataset: 'persons',
    measurement: 'ordinal',
    description: 'Level of highest educational attainment',
    categories: HEAP_CATS,
    coarse: coarsenByRuns(HEAP_CATS, [
      ['Secondary Education or below', 0],
      ['Advanced Diploma, Diploma or Certificate Level', 3],
      ['Bachelor Degree Level and above', 5],
      ['Level of education inadequately described', 8],
      [NS, 9],
      [NA, 10],
    ]),
  },
  {
    code: 'INCP',
    dataset: 'persons',
    measurement: 'ordinal',
    description: 'Total personal income (weekly)',
    categories: INCOME_WEEKLY_PERSON,
    coarse: coarsenByRuns(INCOME_WEEKLY_PERSON, [
      ['Negative/Nil income', 0],
      ['$1-$299', 1],
      ['$300-$649', 3],
      ['$650-$999', 6],
      ['$1,000-$1,749', 8],
      ['$1,750-$2,999', 11],
      ['$3,000 or more', 13],
      [NS, 15],
      [NA, 16],
    ]),
  },
  {
    code: 'ASSNP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Core activity need for assistance',
    categories: ['Has need for assistance with core activities', 'Does not have need for assistance with core activities', NS],
  },
  {
    code: 'LTHP',
    dataset: 'persons',
    measurement: 'ordinal',
    description: 'Long-term health condition (count of selected conditions)',
    categories: ['No long-term health condition', 'One condition', 'Two conditions', 'Three or more conditions', NS],
  },
  {
    code: 'UAI5P',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Unpaid assistance to a person with a disability, health condition or due to old age',
    categories: ['Provided unpaid assistance', 'No unpaid assistance provided', NS, NA],
  },
  {
    code: 'VOLWP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Voluntary work for an organisation or group',
    categories: ['Volunteer', 'Not a volunteer', NS, NA],
  },
  {
    code: 'LFSP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Labour force status',
    categories: LFSP_CATS,
    coarse: coarsen(LFSP_CATS, [
      ['Employed', [LFSP_CATS[0]!, LFSP_CATS[1]!, LFSP_CATS[2]!, LFSP_CATS[3]!]],
      ['Unemployed', [LFSP_CATS[4]!, LFSP_CATS[5]!]],
      ['Not in the labour force', ['Not in the labour force']],
      [NS, [NS]],
      [NA, [NA]],
    ]),
  },
  {
    code: 'HRSP',
    dataset: 'persons',
    measurement: 'ordinal',
    description: 'Hours worked (all jobs, week before Census night)',
    categories: HRSP_CATS,
    // Coarsened with LFSP: any split of the hours would give coarse LFSP's "Employed" back as
    // full-time (35 hours and over), part-time or away from work (none).
    coarse: coarsenByRuns(HRSP_CATS, [
      ['Employed, hours withheld', 0],
      [NA, 9],
    ]),
  },
  {
    code: 'OCCP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Occupation (ANZSCO major group)',
    categories: OCCP_CATS,
    coarse: coarsenByRuns(OCCP_CATS, [
      ['Managers and Professionals', 0],
      ['Technicians, Trades, Community and Personal Service Workers', 2],
      ['Clerical, Administrative and Sales Workers', 4],
      ['Machinery Operators, Drivers and Labourers', 6],
      ['Inadequately described/Not stated', 8],
      [NA, 9],
    ]),
  },
  {
    code: 'INDP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Industry of employment (ANZSIC division)',
    categories: INDP_CATS,
    coarse: coarsen(INDP_CATS, [
      ['Primary industries and utilities', [INDP_CATS[0]!, INDP_CATS[1]!, INDP_CATS[3]!]],
      ['Manufacturing and construction', [INDP_CATS[2]!, INDP_CATS[4]!]],
      ['Trade, transport and hospitality', [INDP_CATS[5]!, INDP_CATS[6]!, INDP_CATS[7]!, INDP_CATS[8]!]],
      ['Business and financial services', [INDP_CATS[9]!, INDP_CATS[10]!, INDP_CATS[11]!, INDP_CATS[12]!, INDP_CATS[13]!]],
      ['Public, education, health and other services', [INDP_CATS[14]!, INDP_CATS[15]!, INDP_CATS[16]!, INDP_CATS[17]!, INDP_CATS[18]!]],
      ['Inadequately described/Not stated', [INDP_CATS[19]!]],
      [NA, [NA]],
    ]),
  },
  {
    code: 'MTWP',
    dataset: 'persons',
    measurement: 'nominal',
    description: 'Method of travel to work',
    categories: MTWP_CATS,
    coarse: coarsen(MTWP_CATS, [
      ['Public transport', ['Train', 'Bus', 'Ferry', 'Tram/light rail']],
      ['Private vehicle', ['Taxi/ride-share service', 'Car, as driver', 'Car, as passenger', 'Truck', 'Motorbike/scooter']],
      ['Active or other', ['Bicycle', 'Other', 'Walked only', 'Two or more methods']],
      ['Worked at home', ['Worked at home']],
      ['Did not go to work', ['Did not go to work']],
      [NS, [NS]],
      [NA, [NA]],
    ]),
  },
];
