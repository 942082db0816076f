import type { TableVocabulary } from '../vocabulary.ts';

/** Demographic person tables: G01, G04–G07, G09, G13, G14, G27 (G08 ancestry: no spq variable). */
export const PERSON_VOCABULARIES: readonly TableVocabulary[] = [];
