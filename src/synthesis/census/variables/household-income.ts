/**
 * Weekly household income ranges (ABS HIND / FINF in GCP G29/G33 groupings): a family's income
 * (FINF) and its dwelling's household income (HIND) use the same ranges and coarsening.
 */
import { NA } from './define.ts';

export const INCOME_WEEKLY_HOUSEHOLD = [
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
export const INCOME_HOUSEHOLD_COARSE: readonly (readonly [string, number])[] = [
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
