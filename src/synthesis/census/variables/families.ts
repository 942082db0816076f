/** The families data set's variables, in file column order (the catalogue: ../variables.ts). */
import { coarsenByRuns, NA, type VariableDef } from './define.ts';
import { INCOME_HOUSEHOLD_COARSE, INCOME_WEEKLY_HOUSEHOLD } from './household-income.ts';

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

export const FAMILY_VARIABLES: readonly VariableDef[] = [
  { code: 'FMCF', dataset: 'families', measurement: 'nominal', description: 'Family composition', categories: FMCF_CATS },
  {
    code: 'CDCF',
    dataset: 'families',
    measurement: 'ordinal',
    description: 'Count of dependent children in family',
    categories: COUNT_OF('dependent child', 'dependent children', 'No dependent children'),
  },
  {
    code: 'CACF',
    dataset: 'families',
    measurement: 'ordinal',
    description: 'Count of all children in family',
    categories: COUNT_OF('child in family', 'children in family', 'No children in family'),
  },
  {
    code: 'NPRF',
    dataset: 'families',
    measurement: 'ordinal',
    description: 'Number of persons in family',
    categories: ['Two persons', 'Three persons', 'Four persons', 'Five persons', 'Six persons', 'Seven persons', 'Eight or more persons'],
  },
  {
    code: 'FINF',
    dataset: 'families',
    measurement: 'ordinal',
    description: 'Total family income (weekly)',
    categories: INCOME_WEEKLY_HOUSEHOLD,
    coarse: coarsenByRuns(INCOME_WEEKLY_HOUSEHOLD, INCOME_HOUSEHOLD_COARSE),
  },
  {
    code: 'LFSF',
    dataset: 'families',
    measurement: 'nominal',
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
    measurement: 'nominal',
    description: 'Same-sex couple indicator',
    categories: ['Opposite-sex couple', 'Male same-sex couple', 'Female same-sex couple', NA],
  },
  { code: 'FBLF', dataset: 'families', measurement: 'nominal', description: 'Family blending', categories: FBLF_CATS },
  {
    code: 'FMHD',
    dataset: 'families',
    measurement: 'ordinal',
    description: 'Family household type (number of families in the household)',
    categories: ['One family household', 'Two family household', 'Three or more family household'],
  },
  {
    code: 'AGFRF',
    dataset: 'families',
    measurement: 'ordinal',
    description: 'Age of family reference person',
    categories: ['15-24 years', '25-34 years', '35-44 years', '45-54 years', '55-64 years', '65-74 years', '75-84 years', '85 years and over'],
  },
];
