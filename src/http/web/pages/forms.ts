import { DATASET_TYPES, GEOGRAPHY_LEVELS, INCLUDE_GEOGRAPHY, LINKED_RECORDS, OUTPUT_FORMATS } from '../../../core/dataset.ts';
import type { QueryInput } from '../../../app/query-validation.ts';

/** A form body as the urlencoded parser gives it: every field a string. */
export type FormBody = Readonly<Record<string, string | undefined>>;

const oneOf = <T extends string>(values: readonly T[], value: string | undefined, fallback: T): T => (values.includes(value as T) ? (value as T) : fallback);

/** The query builder's fields, as a query request (the use case validates it like the API's). */
export function queryFromForm(form: FormBody): QueryInput {
  const level = oneOf(GEOGRAPHY_LEVELS, form.geography_level, 'suburb');
  const selections = level === 'australia' ? ['Australia'] : (form.geography ?? '').split(/[;\n]|,(?![^()]*\))/).map((s) => s.trim()).filter((s) => s.length > 0);
  // Plain digits only, as the API's integers are: Number() would take "1e2", "0x10" and " 7 ".
  const digits = (form.n_observations ?? '').trim();
  const n = /^\d{1,15}$/.test(digits) ? Number(digits) : Number.NaN;
  return {
    geography_level: level,
    geography_selections: selections,
    dataset_type: oneOf(DATASET_TYPES, form.dataset_type, 'persons'),
    n_observations: Number.isSafeInteger(n) ? n : -1,
    output_format: oneOf(OUTPUT_FORMATS, form.output_format, 'csv'),
    include_geography: oneOf(INCLUDE_GEOGRAPHY, form.include_geography, 'none'),
    linked_records: oneOf(LINKED_RECORDS, form.linked_records, 'none'),
  };
}
