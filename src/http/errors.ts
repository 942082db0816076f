import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { appError, statusOf, type AppError } from '../core/errors.ts';
import { StoreUnavailableError } from '../ports/account-store.ts';

export interface RenderedError {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The one place an AppError becomes an HTTP response, in the shapes docs/spec/interface-v1.md shows:
 * {"error", "detail"} in general; 401 with "message"; 402 with "detail" and
 * "credits_remaining" and no "error"; 429 with "retry_after_seconds" and Retry-After;
 * 500 with the request id and nothing internal.
 */
export function renderError(error: AppError, requestId: string): RenderedError {
  const status = statusOf(error.code);
  switch (error.code) {
    case 'unauthorized':
      return { status, body: { error: error.code, message: error.detail }, headers: { 'www-authenticate': 'Bearer' } };
    case 'insufficient_credits':
      return { status, body: { detail: error.detail, credits_remaining: Number(error.extra?.credits_remaining ?? 0) }, headers: {} };
    case 'rate_limited': {
      const seconds = Math.max(1, Number(error.extra?.retry_after_seconds ?? 1));
      return { status, body: { error: error.code, detail: error.detail, retry_after_seconds: seconds }, headers: { 'retry-after': String(seconds) } };
    }
    case 'internal_error':
      return { status, body: { error: error.code, detail: error.detail, request_id: requestId }, headers: {} };
    case 'service_unavailable':
      // 5 s unless the failure knows its own wait (the password threads' queue says how long).
      return { status, body: { error: error.code, detail: error.detail }, headers: { 'retry-after': String(Math.max(1, Number(error.extra?.retry_after_seconds ?? 5))) } };
    default:
      return { status, body: { error: error.code, detail: error.detail, ...error.extra }, headers: {} };
  }
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  const rendered = renderError(error, String(reply.request.id));
  return reply.code(rendered.status).headers(rendered.headers).send(rendered.body);
}

export const internalError = (requestId: string): AppError =>
  appError('internal_error', `Something went wrong on our side. Retry with exponential backoff; if it persists, quote request id ${requestId}.`);

/**
 * What an error thrown out of a route means to the client: schema validation and body parsing
 * are bad_request with a clear detail; a store out of reach is 503 (retry shortly); anything
 * else unexpected is logged in full and becomes a 500 with only the request id. The API answers
 * it as JSON (handleError), the account area as a page.
 */
export function appErrorOf(error: FastifyError, request: FastifyRequest): AppError {
  if (error.validation) return appError('bad_request', error.message);
  const status = error.statusCode ?? 500;
  if (status === 404) return appError('not_found', error.message);
  if (status === 413) return appError('bad_request', 'The request body is too large.');
  if (status === 422) return appError('validation_error', error.message);
  if (status === 415) return appError('bad_request', `${error.message}. Send the body as application/json.`);
  if (status >= 400 && status < 500) return appError('bad_request', error.message);
  if ((error as unknown) instanceof StoreUnavailableError) {
    request.log.error({ err: error }, 'database out of reach');
    return appError('service_unavailable', 'The database is out of reach for a moment. Retry in a few seconds; a retried execute with the same Idempotency-Key is never charged twice.');
  }
  request.log.error({ err: error }, 'unhandled error');
  return internalError(String(request.id));
}

export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, appErrorOf(error, request));
}

export function handleNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // The path is not repeated: a mistyped download link would put its signature in the body.
  return sendError(reply, appError('not_found', `No route answers ${request.method} at this path; see /docs for the API reference.`));
}
