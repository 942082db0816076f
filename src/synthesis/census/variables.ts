import type { DatasetType } from './datasets.ts';

/**
 * The catalogue of served variables: ABS 2021 Census Dictionary mnemonics as codes, category
 * labels in ABS order ("Not stated" / "Not applicable" last). Where a GCP DataPack table groups
 * categories more coarsely than the dictionary (G17 folds negative and nil income together,
 * G37 folds rent-free and life tenure into "Other tenure type", …), the categories follow the
 * table, so that every input-table cell is a conjunction of category sets (docs/inputs.md lists
 * each such choice). Category indices are stored in Uint8Array columns, so fewer than 256.
 */
export interface VariableDef {
  readonly code: string;
  readonly dataset: DatasetType;
  readonly description: string;
  readonly categories: readonly string[];
  /** For small suburbs (confidentiality): coarser categories and the map fine index → coarse index. */
  readonly coarse?: { readonly categories: readonly string[]; readonly fromFine: readonly number[] };
}

const NS = 'Not stated';
const NA = 'Not applicable';

/** Builds the coarse map from groups of fine labels; every fine label must appear in exactly one group. */
function coarsen(fine: readonly string[], groups: readonly (readonly [string, readonly string[]])[]) {
  const fromFine = fine.map((label) => {
    const at = groups.findIndex(([, members]) => members.includes(label));
    if (at < 0) throw new Error(`coarsening misses category "${label}"`);
    return at;
  });
  return { categories: groups.map(([name]) => name), fromFine };
}

/** Coarse groups of consecutive fine categories given by their first fine index. */
function coarsenByRuns(fine: readonly string[], runs: readonly (readonly [string, number])[]) {
  const fromFine = fine.map((_, i) => {
    let group = 0;
    for (let g = 0; g < runs.length; g++) if (i >= runs[g]![1]) group = g;
    return group;
  });
  return { categories: runs.map(([name]) => name), fromFine };
}

const HIED_CATS = [
  'Negative/Nil income',
  '$1-$299',
  '$300-$499',
  '$500-$649',
  '$650-$799',
  '$800-$999',
  '$1,000-$1,249',
  '$1,250-$1,749',
  '$1,750-$2,499',
  '$2,500 or more',
  'Partial income stated',
  'All incomes not stated',
  NA,
];

// ---------------------------------------------------------------- persons
const AGE5P_CATS = [
  ...Array.from({ length: 20 }, (_, i) => `${i * 5}-${i * 5 + 4} years`),
  '100 years and over',
];

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

const HSCP_CATS = [
  'Year 12 or equivalent',
  'Year 11 or equivalent',
  'Year 10 or equivalent',
  'Year 9 or equivalent',
  'Year 8 or below',
  'Did not go to school',
  NS,
  NA,
];

const HEAP_CATS = [
  'Postgraduate Degree Level',
  'Graduate Diploma and Graduate Certificate Level',
  'Bachelor Degree Level',
  'Advanced Diploma and Diploma Level',
  'Certificate Level',
  'Secondary Education - Years 10 and above',
  'Secondary Education - Years 9 and below',
  'No educational attainment',
  'Level of education inadequately described',
  NS,
  NA,
];

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

// ---------------------------------------------------------------- families
const INCOME_WEEKLY_HOUSEHOLD = [
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
  '$2,000-$2,499',
  '$2,500-$2,999',
  '$3,000-$3,499',
  '$3,500-$3,999',
  '$4,000 or more',
  'Partial income stated',
  'All incomes not stated',
  NA,
];
const INCOME_HOUSEHOLD_COARSE: readonly (readonly [string, number])[] = [
  ['Negative/Nil income', 0],
  ['$1-$649', 1],
  ['$650-$1,249', 6],
  ['$1,250-$1,999', 9],
  ['$2,000-$2,999', 12],
  ['$3,000-$3,999', 14],
  ['$4,000 or more', 16],
  ['Partial income stated', 17],
  ['All incomes not stated', 18],
  [NA, 19],
];

const FMCF_CATS = [
  'Couple family without children',
  'Couple family with children under 15',
  'Couple family with no children under 15',
  'One parent family with children under 15',
  'One parent family with no children under 15',
  'Other family',
];

const COUNT_OF = (noun: string, plural: string, none: string) => [
  none,
  `One ${noun}`,
  `Two ${plural}`,
  `Three ${plural}`,
  `Four ${plural}`,
  `Five ${plural}`,
  `Six or more ${plural}`,
];

const LFSF_CATS = [
  'Couple family: Both employed, worked full-time',
  'Couple family: One employed full-time, other part-time',
  'Couple family: Both employed, worked part-time or away from work',
  'Couple family: One employed, other not employed',
  'Couple family: Neither employed',
  'Couple family: Labour force status not stated (one or both)',
  'One parent family: Parent employed, worked full-time',
  'One parent family: Parent employed, worked part-time or away from work',
  'One parent family: Parent not employed',
  'One parent family: Labour force status not stated',
  NA,
];

const FBLF_CATS = [
  'Intact family with no other children present',
  'Step family with no other children present',
  'Blended family with no other children present',
  'Intact family with other children present',
  'Step family with other children present',
  'Blended family with other children present',
  'Other couple family with other children only',
  NA,
];

// ---------------------------------------------------------------- dwellings
const STRD_CATS = [
  'Separate house',
  'Semi-detached, row or terrace house, townhouse etc. with one storey',
  'Semi-detached, row or terrace house, townhouse etc. with two or more storeys',
  'Flat or apartment in a one or two storey block',
  'Flat or apartment in a three storey block',
  'Flat or apartment in a four to eight storey block',
  'Flat or apartment in a nine or more storey block',
  'Flat or apartment attached to a house',
  'Other dwelling (caravan, cabin, houseboat, improvised home, attached to a shop or office)',
  NS,
  NA,
];

const RNTRD_CATS = [
  '$1-$74',
  '$75-$99',
  '$100-$149',
  '$150-$199',
  '$200-$224',
  '$225-$274',
  '$275-$349',
  '$350-$449',
  '$450-$549',
  '$550-$649',
  '$650-$749',
  '$750-$849',
  '$850-$949',
  '$950 and over',
  NS,
  NA,
];

const MRERD_CATS = [
  '$0-$299',
  '$300-$449',
  '$450-$599',
  '$600-$799',
  '$800-$999',
  '$1,000-$1,399',
  '$1,400-$1,799',
  '$1,800-$2,399',
  '$2,400-$2,999',
  '$3,000-$3,999',
  '$4,000 and over',
  NS,
  NA,
];

const HCFMD_CATS = [
  'One family household: Couple family without children',
  'One family household: Couple family with children',
  'One family household: One parent family',
  'One family household: Other family',
  'Multiple family household: Couple family without children',
  'Multiple family household: Couple family with children',
  'Multiple family household: One parent family',
  'Multiple family household: Other family',
  'Lone person household',
  'Group household',
  NA,
];

export const VARIABLES: readonly VariableDef[] = [
  // persons, in file column order
  {
    code: 'AGE5P',
    dataset: 'persons',
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
  { code: 'SEXP', dataset: 'persons', description: 'Sex', categories: ['Male', 'Female'] },
  {
    code: 'RLHP',
    dataset: 'persons',
    description: 'Relationship in household',
    categories: RLHP_CATS,
    // Not coarsened: age (0-14), attendance, marital status and the household's type give every
    // category back (docs/synthesis.md, "Coarsening").
  },
  {
    code: 'MSTP',
    dataset: 'persons',
    description: 'Registered marital status',
    categories: ['Never married', 'Widowed', 'Divorced', 'Separated', 'Married', NA],
  },
  {
    code: 'MDCP',
    dataset: 'persons',
    description: 'Social marital status',
    categories: ['Married in a registered marriage', 'Married in a de facto marriage', 'Not married', NA],
  },
  {
    code: 'INGP',
    dataset: 'persons',
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
    description: 'Australian citizenship',
    categories: ['Australian citizen', 'Not an Australian citizen', NS],
  },
  {
    code: 'LANP',
    dataset: 'persons',
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
    description: 'Proficiency in spoken English',
    categories: ['Very well', 'Well', 'Not well', 'Not at all', NS, NA],
  },
  {
    code: 'RELP',
    dataset: 'persons',
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
    description: 'Highest year of school completed',
    categories: HSCP_CATS,
    // Coarsened with HEAP, whose coarse "Secondary Education or below" Year 9 or 10 would split.
    coarse: coarsenByRuns(HSCP_CATS, [
      ['Year 12 or equivalent', 0],
      ['Year 11 or below', 1],
      [NS, 6],
      [NA, 7],
    ]),
  },
  {
    code: 'HEAP',
    dataset: 'persons',
    description: 'Level of highest educational attainment',
    categories: HEAP_CATS,
    coarse: coarsenByRuns(HEAP_CATS, [
      ['Bachelor Degree Level and above', 0],
      ['Advanced Diploma, Diploma or Certificate Level', 3],
      ['Secondary Education or below', 5],
      ['Level of education inadequately described', 8],
      [NS, 9],
      [NA, 10],
    ]),
  },
  {
    code: 'INCP',
    dataset: 'persons',
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
    description: 'Core activity need for assistance',
    categories: ['Has need for assistance with core activities', 'Does not have need for assistance with core activities', NS],
  },
  {
    code: 'LTHP',
    dataset: 'persons',
    description: 'Long-term health condition (count of selected conditions)',
    categories: ['No long-term health condition', 'One condition', 'Two conditions', 'Three or more conditions', NS],
  },
  {
    code: 'UAI5P',
    dataset: 'persons',
    description: 'Unpaid assistance to a person with a disability, health condition or due to old age',
    categories: ['Provided unpaid assistance', 'No unpaid assistance provided', NS, NA],
  },
  {
    code: 'VOLWP',
    dataset: 'persons',
    description: 'Voluntary work for an organisation or group',
    categories: ['Volunteer', 'Not a volunteer', NS, NA],
  },
  {
    code: 'LFSP',
    dataset: 'persons',
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

  // families
  { code: 'FMCF', dataset: 'families', description: 'Family composition', categories: FMCF_CATS },
  {
    code: 'CDCF',
    dataset: 'families',
    description: 'Count of dependent children in family',
    categories: COUNT_OF('dependent child', 'dependent children', 'No dependent children'),
  },
  {
    code: 'CACF',
    dataset: 'families',
    description: 'Count of all children in family',
    categories: COUNT_OF('child in family', 'children in family', 'No children in family'),
  },
  {
    code: 'NPRF',
    dataset: 'families',
    description: 'Number of persons in family',
    categories: ['Two persons', 'Three persons', 'Four persons', 'Five persons', 'Six persons', 'Seven persons', 'Eight or more persons'],
  },
  {
    code: 'FINF',
    dataset: 'families',
    description: 'Total family income (weekly)',
    categories: INCOME_WEEKLY_HOUSEHOLD,
    coarse: coarsenByRuns(INCOME_WEEKLY_HOUSEHOLD, INCOME_HOUSEHOLD_COARSE),
  },
  {
    code: 'LFSF',
    dataset: 'families',
    description: 'Labour force status of parent(s) or partners in family',
    categories: LFSF_CATS,
    coarse: coarsenByRuns(LFSF_CATS, [
      ['Couple family: At least one employed', 0],
      ['Couple family: Neither employed', 4],
      ['Couple family: Labour force status not stated (one or both)', 5],
      ['One parent family: Parent employed', 6],
      ['One parent family: Parent not employed', 8],
      ['One parent family: Labour force status not stated', 9],
      [NA, 10],
    ]),
  },
  {
    code: 'SSCF',
    dataset: 'families',
    description: 'Same-sex couple indicator',
    categories: ['Opposite-sex couple', 'Male same-sex couple', 'Female same-sex couple', NA],
  },
  { code: 'FBLF', dataset: 'families', description: 'Family blending', categories: FBLF_CATS },
  {
    code: 'FMHD',
    dataset: 'families',
    description: 'Family household type (number of families in the household)',
    categories: ['One family household', 'Two family household', 'Three or more family household'],
  },
  {
    code: 'AGFRF',
    dataset: 'families',
    description: 'Age of family reference person',
    categories: ['15-24 years', '25-34 years', '35-44 years', '45-54 years', '55-64 years', '65-74 years', '75-84 years', '85 years and over'],
  },

  // dwellings
  {
    // ABS DWTD, in the two kinds spq writes: the occupied private dwellings every household
    // table counts (G33-G42), and one record per area holding the residents G27 does not count:
    // those of non-private dwellings (hospitals, aged care, prisons, hotels, staff quarters,
    // colleges) and of households the ABS could not classify (mostly no form received: the
    // ABS imputes the persons, G35 counts no household), which the GCP tables do not tell apart.
    // Every other dwelling variable but DLOD is "Not applicable" there (docs/synthesis.md, "Populations").
    code: 'DWTD',
    dataset: 'dwellings',
    description: 'Dwelling type',
    categories: ['Occupied private dwelling', 'Non-private dwelling or non-classifiable household'],
  },
  {
    code: 'STRD',
    dataset: 'dwellings',
    description: 'Dwelling structure',
    categories: STRD_CATS,
    coarse: coarsenByRuns(STRD_CATS, [
      ['Separate house', 0],
      ['Semi-detached, row or terrace house, townhouse etc.', 1],
      ['Flat or apartment', 3],
      ['Other dwelling', 8],
      [NS, 9],
      [NA, 10],
    ]),
  },
  {
    code: 'TEND',
    dataset: 'dwellings',
    description: 'Tenure type',
    categories: ['Owned outright', 'Owned with a mortgage', 'Rented', 'Other tenure type', NS, NA],
  },
  {
    code: 'LLDD',
    dataset: 'dwellings',
    description: 'Landlord type',
    categories: [
      'Real estate agent',
      'State or territory housing authority',
      'Community housing provider',
      'Person not in same household',
      'Other landlord type',
      'Landlord type not stated',
      NA,
    ],
  },
  {
    code: 'BEDRD',
    dataset: 'dwellings',
    description: 'Number of bedrooms in private dwelling',
    categories: ['None (includes studios)', 'One bedroom', 'Two bedrooms', 'Three bedrooms', 'Four bedrooms', 'Five bedrooms', 'Six or more bedrooms', NS, NA],
  },
  {
    code: 'VEHRD',
    dataset: 'dwellings',
    description: 'Number of motor vehicles',
    categories: ['No motor vehicles', 'One motor vehicle', 'Two motor vehicles', 'Three motor vehicles', 'Four or more motor vehicles', NS, NA],
  },
  {
    code: 'NPRD',
    dataset: 'dwellings',
    description: 'Number of persons usually resident in dwelling',
    categories: ['One person', 'Two persons', 'Three persons', 'Four persons', 'Five persons', 'Six persons', 'Seven persons', 'Eight or more persons', NA],
  },
  {
    code: 'HHCD',
    dataset: 'dwellings',
    description: 'Household composition',
    categories: ['Family household', 'Lone person household', 'Group household', NA],
  },
  {
    code: 'HCFMD',
    dataset: 'dwellings',
    description: 'Family household composition (primary family type)',
    // Not coarsened: the families file's FMCF and the household's size give the fine type back.
    categories: HCFMD_CATS,
  },
  {
    code: 'HIND',
    dataset: 'dwellings',
    description: 'Total household income (weekly)',
    categories: INCOME_WEEKLY_HOUSEHOLD,
    coarse: coarsenByRuns(INCOME_WEEKLY_HOUSEHOLD, INCOME_HOUSEHOLD_COARSE),
  },
  {
    code: 'HIED',
    dataset: 'dwellings',
    description: 'Equivalised total household income (weekly) ranges',
    categories: HIED_CATS,
    // Coarsened with HIND: with the household's size, equivalised bands would split HIND's
    // coarse bands again, so a small suburb's HIED says only whether incomes were stated.
    coarse: coarsenByRuns(HIED_CATS, [
      ['Incomes stated', 0],
      ['Partial income stated', 10],
      ['All incomes not stated', 11],
      [NA, 12],
    ]),
  },
  {
    code: 'RNTRD',
    dataset: 'dwellings',
    description: 'Rent (weekly) ranges',
    categories: RNTRD_CATS,
    coarse: coarsenByRuns(RNTRD_CATS, [
      ['$1-$199', 0],
      ['$200-$349', 4],
      ['$350-$549', 7],
      ['$550 and over', 9],
      [NS, 14],
      [NA, 15],
    ]),
  },
  {
    code: 'MRERD',
    dataset: 'dwellings',
    description: 'Mortgage repayments (monthly) ranges',
    categories: MRERD_CATS,
    coarse: coarsenByRuns(MRERD_CATS, [
      ['$0-$999', 0],
      ['$1,000-$1,799', 5],
      ['$1,800-$2,999', 7],
      ['$3,000 and over', 9],
      [NS, 11],
      [NA, 12],
    ]),
  },
  {
    code: 'NFMD',
    dataset: 'dwellings',
    description: 'Number of families in household',
    categories: ['No families', 'One family', 'Two families', 'Three or more families', NA],
  },
  {
    code: 'DLOD',
    dataset: 'dwellings',
    description: 'Dwelling location (remoteness area of the suburb; not allocated for postal-area and LGA pools, which straddle remoteness areas)',
    categories: ['Major Cities of Australia', 'Inner Regional Australia', 'Outer Regional Australia', 'Remote Australia', 'Very Remote Australia', 'Not allocated'],
  },
];

const BY_CODE = new Map(VARIABLES.map((v) => [v.code, v]));

export function variablesOf(dataset: DatasetType): readonly VariableDef[] {
  return VARIABLES.filter((v) => v.dataset === dataset);
}

/** Unknown codes are programming errors (codes come from this catalogue), hence a throw. */
export function variableByCode(code: string): VariableDef {
  const v = BY_CODE.get(code);
  if (!v) throw new Error(`unknown variable code ${code}`);
  return v;
}

/** Labels a pool column must be able to hold: fine categories then coarse ones not already present. */
export function columnLabels(v: VariableDef): readonly string[] {
  if (!v.coarse) return v.categories;
  const seen = new Set(v.categories);
  return [...v.categories, ...v.coarse.categories.filter((c) => !seen.has(c))];
}

/** Index of a category label within a variable (throws: labels come from this catalogue). */
export function categoryIndex(code: string, label: string): number {
  const i = variableByCode(code).categories.indexOf(label);
  if (i < 0) throw new Error(`variable ${code} has no category "${label}"`);
  return i;
}
