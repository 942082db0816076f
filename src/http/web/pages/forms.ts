import { DATASET_TYPES, GEOGRAPHY_LEVELS, INCLUDE_GEOGRAPHY, LINKED_RECORDS, OUTPUT_FORMATS } from '../../../core/dataset.ts';
import type { QueryInput } from '../../../app/query-validation.ts';
import { splitPlaces } from '../../../app/web/builder.ts';

/** A form body as the urlencoded parser gives it: every field a string. */
export type FormBody = Readonly<Record<string, string | undefined>>;

const oneOf = <T extends string>(values: readonly T[], value: string | undefined, fallback: T): T => (values.includes(value as T) ? (value as T) : fallback);

/** Plain digits only, as the API's integers are: Number() would take "1e2", "0x10" and " 7 ". */
const wholeNumber = (text: string | undefined, maxDigits: number): number | undefined => {
  const digits = (text ?? '').trim();
  return new RegExp(`^\\d{1,${maxDigits}}$`).test(digits) ? Number(digits) : undefined;
};

/** The query builder's fields, as a query request (the use case validates it like the API's). */
export function queryFromForm(form: FormBody): QueryInput {
  const level = oneOf(GEOGRAPHY_LEVELS, form.geography_level, 'suburb');
  const selections = level === 'australia' ? ['Australia'] : splitPlaces(form.geography ?? '');
  const n = wholeNumber(form.n_observations, 15);
  // A query page's "same records again" sends the seed and implicate it was drawn with.
  const seed = /^\d{1,20}$/.test(form.seed ?? '') ? form.seed : undefined;
  const implicate = wholeNumber(form.implicate, 6);
  return {
    geography_level: level,
    geography_selections: selections,
    dataset_type: oneOf(DATASET_TYPES, form.dataset_type, 'persons'),
    n_observations: n !== undefined && Number.isSafeInteger(n) ? n : -1,
    output_format: oneOf(OUTPUT_FORMATS, form.output_format, 'csv'),
    include_geography: oneOf(INCLUDE_GEOGRAPHY, form.include_geography, 'none'),
    linked_records: oneOf(LINKED_RECORDS, form.linked_records, 'none'),
    ...(seed !== undefined ? { seed } : {}),
    ...(implicate !== undefined && implicate >= 1 ? { implicate } : {}),
  };
}

/** The builder's test-mode switch: a sandbox query (test data, capped, nothing charged), as a spq_test_ key runs. */
export const testMode = (form: FormBody): boolean => form.test_mode === 'yes';
