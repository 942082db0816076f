import type { TableVocabulary } from '../vocabulary.ts';
import { PERSON_VOCABULARIES } from './persons.ts';
import { WORK_VOCABULARIES } from './education-work.ts';
import { HOUSEHOLD_VOCABULARIES } from './families-dwellings.ts';
import { OTHER_VOCABULARIES } from './other.ts';

/** Table id → vocabulary, for every GCP table whose long headers spq can read (some only in part). */
export const GCP_VOCABULARIES: ReadonlyMap<string, TableVocabulary> = new Map(
  [...PERSON_VOCABULARIES, ...WORK_VOCABULARIES, ...HOUSEHOLD_VOCABULARIES, ...OTHER_VOCABULARIES].map((v) => [v.table, v]),
);
