import { QUERY_BODY_LIMIT } from '../../body-limits.ts';
import { appError } from '../../../core/errors.ts';
import { KEY_PREFIXES } from '../../../core/keys.ts';
import { executeQuery } from '../../../app/execute.ts';
import { authenticatedErrors, bearerSecurity, ErrorBody, InsufficientCreditsBody } from '../../../wire/common.ts';
import { ExecuteResult, IdempotencyHeaders, QueryRequest } from '../../../wire/query.ts';
import { principalOf } from '../../plugins/authenticate.ts';
import { sendError } from '../../errors.ts';
import type { Api, AppDeps, ReplyOf, RequestOf } from '../../types.ts';

/** The route's schema; the link lifetime in its description is the deployment's (SPQ_DOWNLOAD_TTL_DAYS). */
export const schemaFor = (downloadTtlDays: number) => ({
  operationId: 'executeQuery',
  summary: 'Run a query',
  description: `Deducts credits, draws a new sample without replacement from each selection’s pool and returns a signed download URL valid ${downloadTtlDays} day${downloadTtlDays === 1 ? '' : 's'}. Either the file is ready and the credits are charged, or nothing is charged.`,
  tags: ['query'],
  security: bearerSecurity,
  headers: IdempotencyHeaders,
  body: QueryRequest,
  response: {
    200: ExecuteResult,
    402: InsufficientCreditsBody,
    409: { ...ErrorBody, description: 'The same Idempotency-Key is still running' },
    422: { ...ErrorBody, description: 'Logically invalid query, or an Idempotency-Key reused with another body' },
    503: { ...ErrorBody, description: 'The server is shutting down, or stalled while running the query (which was then cancelled and not charged), or the geography level asked for is still being built on this server (GET /readyz lists it under building); nothing charged, retry after Retry-After seconds' },
    ...authenticatedErrors(),
  },
}) as const;

type Schema = ReturnType<typeof schemaFor>;

export const handler = (deps: AppDeps) => async (request: RequestOf<Schema>, reply: ReplyOf<Schema>) => {
  const principal = principalOf(request);
  const idempotencyKey = request.headers['idempotency-key'];
  // Anywhere in it ("Bearer spq_live_…" pasted whole too): a key must never be stored as an idempotency key.
  if (idempotencyKey !== undefined && Object.values(KEY_PREFIXES).some((prefix) => idempotencyKey.toLowerCase().includes(prefix))) {
    return sendError(reply, appError('bad_request', 'This Idempotency-Key looks like an API key. Send the key only in the Authorization header, revoke it if it was exposed, and use a random value (a UUID) as the Idempotency-Key.'));
  }
  if (!deps.drain.enter()) return sendError(reply, appError('service_unavailable', 'The server is shutting down; retry in a few seconds (another instance may answer).'));
  try {
    const outcome = await executeQuery(deps, request.log, {
      accountId: principal.accountId,
      query: request.body,
      idempotencyKey: request.headers['idempotency-key'],
      requestId: String(request.id),
      sandbox: principal.sandbox,
      keyId: principal.keyId,
    });
    if (!outcome.ok) return sendError(reply, outcome.error);
    const v = outcome.value;
    // The body carries signed links: no cache may keep them.
    return reply.code(200).header('cache-control', 'no-store').send(v);
  } finally {
    deps.summaries?.forget(principal.accountId); // the balance changed (or may have)
    deps.drain.leave();
  }
};

export function registerExecute(app: Api, deps: AppDeps): void {
  app.post('/query/execute', { schema: schemaFor(deps.config.downloadTtlDays), bodyLimit: QUERY_BODY_LIMIT }, handler(deps));
}
