import type { TableVocabulary } from '../vocabulary.ts';

/** Education, income, assistance and work: G15–G18, G20, G23, G25, G46, G49, G52–G56, G60–G62. */
export const WORK_VOCABULARIES: readonly TableVocabulary[] = [];
