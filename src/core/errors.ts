/**
 * The closed catalogue of API error codes: one row per line of the contract's error table
 * (docs/spec/interface-v1.md, "Errors"), plus the statuses docs/spec/decisions.md adds (403 and 410 on download
 * links, 409 on an idempotency key still in flight). Every error the HTTP layer sends comes
 * from here.
 */
export const ERROR_CATALOGUE = {
  bad_request: { status: 400, summary: 'Malformed body or missing required fields' },
  unauthorized: { status: 401, summary: 'Missing or invalid API key' },
  insufficient_credits: { status: 402, summary: 'Not enough credits for the query' },
  forbidden: { status: 403, summary: 'The download link was altered or its signature does not match' },
  not_found: { status: 404, summary: 'Geography or query id not found' },
  conflict: { status: 409, summary: 'The same Idempotency-Key is still being executed' },
  gone: { status: 410, summary: 'The download link has expired; run the query again for a new file' },
  validation_error: { status: 422, summary: 'Valid JSON but a logically invalid query' },
  rate_limited: { status: 429, summary: 'Request rate exceeded' },
  internal_error: { status: 500, summary: 'Server error; retry with exponential backoff' },
  service_unavailable: { status: 503, summary: 'The service is starting or shutting down, its database is out of reach, or it stalled while running the query (nothing charged); retry shortly' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** An expected failure, carried as a value from the core and the adapters up to the HTTP layer. */
export interface AppError {
  readonly code: ErrorCode;
  /** Human-readable, safe to show a client: says what went wrong and what to do next. */
  readonly detail: string;
  /** Extra body fields the contract names for some codes (credits_remaining, retry_after_seconds, …). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export const appError = (code: ErrorCode, detail: string, extra?: Record<string, unknown>): AppError =>
  extra === undefined ? { code, detail } : { code, detail, extra };

export const statusOf = (code: ErrorCode): number => ERROR_CATALOGUE[code].status;
