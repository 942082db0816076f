import type { TableVocabulary } from '../vocabulary.ts';

/** Family and dwelling tables: G29, G31–G42, G57–G59 (and what G12, G30, G47, G48 allow). */
export const HOUSEHOLD_VOCABULARIES: readonly TableVocabulary[] = [];
