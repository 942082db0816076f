import { cats, type TableVocabulary } from '../vocabulary.ts';

/**
 * Tables whose own variable spq does not carry (ancestry, long-term health conditions,
 * children ever born): only whom they count is known, so their totals by sex and age are
 * defined and the rest is for the demo's made-up fill.
 */
export const OTHER_VOCABULARIES: readonly TableVocabulary[] = [
  // G08 counts responses (up to two ancestries a person) as well as persons: only its persons total would be exact.
  { table: 'G08', universe: 'persons', phrases: [] },
  { table: 'G19', universe: 'persons', phrases: [] },
  { table: 'G28', universe: 'persons', where: { SEXP: cats('SEXP', 'Female') }, ages: [15, 115], phrases: [] },
];
