import { Kind, Type, TypeRegistry, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { ERROR_CATALOGUE, type ErrorCode } from '../core/errors.ts';

/**
 * A string enum that appears in OpenAPI as `{type: string, enum: […]}` (TypeBox's Union of
 * Literals renders as an anyOf of consts, which reads badly in the reference). The custom kind
 * lets TypeBox's compiler validate it.
 */
TypeRegistry.Set<{ enum: readonly string[] }>('StringEnum', (schema, value) => typeof value === 'string' && schema.enum.includes(value));

export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, [Kind]: 'StringEnum', type: 'string', enum: [...values] });
}

export const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

/** The general error body: {"error": code, "detail": text}. */
export const ErrorBody = Type.Object(
  {
    error: StringEnum(Object.keys(ERROR_CATALOGUE) as ErrorCode[], {
      description: `Error code from the closed catalogue: ${Object.entries(ERROR_CATALOGUE)
        .map(([code, { status, summary }]) => `${code} (${status}): ${summary}`)
        .join('; ')}`,
    }),
    detail: Type.String({ description: 'Human-readable reason and what to do next' }),
  },
  { description: 'Error', additionalProperties: true },
);

export const UnauthorizedBody = Type.Object(
  { error: Type.Literal('unauthorized'), message: Type.String() },
  { description: 'Missing or invalid API key' },
);

export const InsufficientCreditsBody = Type.Object(
  {
    detail: Type.String({ description: 'States the credits required and available' }),
    credits_remaining: Type.Integer(),
  },
  { description: 'Not enough credits; no error field (as the v1 contract shows it)' },
);

export const RateLimitedBody = Type.Object(
  {
    error: Type.Literal('rate_limited'),
    detail: Type.String(),
    retry_after_seconds: Type.Integer({ minimum: 1 }),
  },
  { description: 'Request rate exceeded; the Retry-After header gives the same seconds' },
);

export const InternalErrorBody = Type.Object(
  {
    error: Type.Literal('internal_error'),
    detail: Type.String(),
    request_id: Type.String({ description: 'Quote it when reporting the problem' }),
  },
  { description: 'Server error; retry with exponential backoff' },
);

/** Responses every authenticated operation can give besides its own. */
export function authenticatedErrors(): Record<number, TSchema> {
  return {
    400: ErrorBody,
    401: UnauthorizedBody,
    429: RateLimitedBody,
    500: InternalErrorBody,
  };
}

export const bearerSecurity = [{ bearerAuth: [] as string[] }];

/** Extension: the estimated resident population a release's areas were sized to (absent: sized to the 2021 Census counts). */
export const PopulationEstimateInfo = Type.Object(
  {
    year: Type.Integer({ description: 'The year of the estimate (30 June)' }),
    source: Type.String({ description: 'The estimate\'s file and layout, as the operator built the release from it' }),
    breakdown: StringEnum(['totals', 'age_sex'] as const, { description: '"totals": each area sized to its total, ages and sexes are the census\'s; "age_sex": fitted to the estimate by five-year age group and sex as well (SA2s)' }),
    status: Type.Optional(StringEnum(['preliminary', 'revised'] as const, { description: 'As the ABS marks the year\'s estimate' })),
  },
  { description: 'Extension: the ABS estimated resident population the pools were sized to: every area\'s census tables scaled to its estimate (whole households), the census\'s structure kept' },
);
