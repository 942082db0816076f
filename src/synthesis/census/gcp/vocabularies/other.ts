import { cats, type TableVocabulary } from '../vocabulary.ts';

/**
 * Tables whose own variable spq does not carry (ancestry, long-term health conditions by type,
 * children ever born, unpaid domestic work and child care, usual address 1 and 5 years ago): only
 * whom they count is known, so their totals by sex and age are defined and the rest is for the
 * demo's made-up fill. A suburb's part files of these bind its ages (issue 39).
 */
export const OTHER_VOCABULARIES: readonly TableVocabulary[] = [
  // G08 counts responses (up to two ancestries a person) as well as persons: only its persons total would be exact.
  { table: 'G08', universe: 'persons', phrases: [] },
  {
    // Rows are conditions (multi-response), then "No long-term health conditions", "Not stated" and
    // the persons totals. Only "Not stated" is one LTHP category (the same persons as G20's, equal at
    // AUS); "No long-term health conditions" excludes persons with only "any other" condition, whom
    // LTHP's "No long-term health condition" (none of the selected ones, as G20) holds.
    table: 'G19',
    universe: 'persons',
    phrases: [
      ['Total_males', {}],
      ['Total_females', {}],
      ['Total_persons', {}],
      ['Not_stated', { LTHP: cats('LTHP', 'Not stated') }],
    ],
  },
  // Unpaid domestic work and unpaid child care: every person aged 15 and over, "not stated" included.
  { table: 'G24', universe: 'persons', ages: [15, 115], phrases: [] },
  { table: 'G26', universe: 'persons', ages: [15, 115], phrases: [] },
  { table: 'G28', universe: 'persons', where: { SEXP: cats('SEXP', 'Female') }, ages: [15, 115], phrases: [] },
  // Usual address 1 (5) years ago: every person aged 1 (5) and over, "not stated" included (G44's
  // total is G04's persons less those aged 0; G45's less those 0–4).
  { table: 'G44', universe: 'persons', ages: [1, 115], phrases: [] },
  { table: 'G45', universe: 'persons', ages: [5, 115], phrases: [] },
];
