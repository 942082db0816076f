/** The dwellings data set's variables, in file column order (the catalogue: ../variables.ts). */
import { coarsenByRuns, NA, NS, type VariableDef } from './define.ts';
import { INCOME_HOUSEHOLD_COARSE, INCOME_WEEKLY_HOUSEHOLD } from './household-income.ts';

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

export const DWELLING_VARIABLES: readonly VariableDef[] = [
  {
    // ABS DWTD, in the two kinds spq writes: the occupied private dwellings every household
    // table counts (G33-G42), and one record per area holding the residents G27 does not count:
    // those of non-private dwellings (hospitals, aged care, prisons, hotels, staff quarters,
    // colleges) and of households the ABS could not classify (mostly no form received: the
    // ABS imputes the persons, G35 counts no household), which the GCP tables do not tell apart.
    // Every other dwelling variable but DLOD is "Not applicable" there (docs/synthesis.md, "Populations").
    code: 'DWTD',
    dataset: 'dwellings',
    measurement: 'nominal',
    description: 'Dwelling type',
    categories: ['Occupied private dwelling', 'Non-private dwelling or non-classifiable household'],
  },
  {
    code: 'STRD',
    dataset: 'dwellings',
    measurement: 'nominal',
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
    measurement: 'nominal',
    description: 'Tenure type',
    categories: ['Owned outright', 'Owned with a mortgage', 'Rented', 'Other tenure type', NS, NA],
  },
  {
    code: 'LLDD',
    dataset: 'dwellings',
    measurement: 'nominal',
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
    measurement: 'ordinal',
    description: 'Number of bedrooms in private dwelling',
    categories: ['None (includes studios)', 'One bedroom', 'Two bedrooms', 'Three bedrooms', 'Four bedrooms', 'Five bedrooms', 'Six or more bedrooms', NS, NA],
  },
  {
    code: 'VEHRD',
    dataset: 'dwellings',
    measurement: 'ordinal',
    description: 'Number of motor vehicles',
    categories: ['No motor vehicles', 'One motor vehicle', 'Two motor vehicles', 'Three motor vehicles', 'Four or more motor vehicles', NS, NA],
  },
  {
    code: 'NPRD',
    dataset: 'dwellings',
    measurement: 'ordinal',
    description: 'Number of persons usually resident in dwelling',
    categories: ['One person', 'Two persons', 'Three persons', 'Four persons', 'Five persons', 'Six persons', 'Seven persons', 'Eight or more persons', NA],
  },
  {
    code: 'HHCD',
    dataset: 'dwellings',
    measurement: 'nominal',
    description: 'Household composition',
    categories: ['Family household', 'Lone person household', 'Group household', NA],
  },
  {
    code: 'HCFMD',
    dataset: 'dwellings',
    measurement: 'nominal',
    description: 'Family household composition (primary family type)',
    // Not coarsened: the families file's FMCF and the household's size give the fine type back.
    categories: HCFMD_CATS,
  },
  {
    code: 'HIND',
    dataset: 'dwellings',
    measurement: 'ordinal',
    description: 'Total household income (weekly)',
    categories: INCOME_WEEKLY_HOUSEHOLD,
    coarse: coarsenByRuns(INCOME_WEEKLY_HOUSEHOLD, INCOME_HOUSEHOLD_COARSE),
  },
  {
    code: 'HIED',
    dataset: 'dwellings',
    measurement: 'ordinal',
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
    measurement: 'ordinal',
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
    measurement: 'ordinal',
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
    measurement: 'ordinal',
    description: 'Number of families in household',
    categories: ['No families', 'One family', 'Two families', 'Three or more families', NA],
  },
  {
    code: 'DLOD',
    dataset: 'dwellings',
    measurement: 'ordinal',
    description: 'Dwelling location (remoteness area of the suburb; not allocated for postal-area and LGA pools, which straddle remoteness areas)',
    categories: ['Major Cities of Australia', 'Inner Regional Australia', 'Outer Regional Australia', 'Remote Australia', 'Very Remote Australia', 'Not allocated'],
  },
];
