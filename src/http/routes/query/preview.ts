import { QUERY_BODY_LIMIT } from '../../body-limits.ts';
import { previewQuery } from '../../../app/preview.ts';
import { DEFAULT_MEMO_BOUNDS, PreviewMemo } from '../../../app/preview-memo.ts';
import { authenticatedErrors, bearerSecurity, ErrorBody } from '../../../wire/common.ts';
import { PreviewInvalid, PreviewResult, QueryRequest } from '../../../wire/query.ts';
import { principalOf } from '../../plugins/authenticate.ts';
import { appErrorOf, sendError } from '../../errors.ts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Api, AppDeps, ReplyOf, RequestOf } from '../../types.ts';

export const schema = {
  operationId: 'previewQuery',
  summary: 'Check and price a query',
  description: 'Reports the credit cost and feasibility of a query. Spends no credits and generates nothing.',
  tags: ['query'],
  security: bearerSecurity,
  body: QueryRequest,
  response: { 200: PreviewResult, 422: PreviewInvalid, 503: { ...ErrorBody, description: 'The geography level asked for is still being built on this server (a first start on real census inputs serves its first level meanwhile; GET /readyz lists it under building); retry after Retry-After seconds' }, ...authenticatedErrors() },
} as const;

/**
 * The preview route's handler. Previews of one query come back as one shared object while the
 * release and the caller's standing allow (PreviewMemo): its JSON is kept beside it, so a query
 * asked again is answered without checking, pricing or serializing it again (only that shared,
 * frozen answer is kept; one with the caller's own warnings is made and serialized afresh).
 */
export const handler = (deps: AppDeps) => {
  const memo = new PreviewMemo(deps.config, { ...DEFAULT_MEMO_BOUNDS, now: () => deps.clock.now().getTime() });
  const serialized = new WeakMap<object, string>();
  return async (request: RequestOf<typeof schema>, reply: ReplyOf<typeof schema>) => {
    const principal = principalOf(request);
    // The balance read during authentication (same request) serves the insufficient-balance warning.
    const outcome = await previewQuery(deps, { accountId: principal.accountId, creditsRemaining: principal.credits.creditsRemaining, sandbox: principal.sandbox }, request.body, memo);
    if (outcome.ok && Object.isFrozen(outcome.value)) {
      // The shared answer: serialized by the route's own schema once, then sent as those bytes.
      let json = serialized.get(outcome.value);
      if (json === undefined) serialized.set(outcome.value, (json = reply.code(200).serialize(outcome.value) as string));
      return (reply as FastifyReply).code(200).type(JSON_TYPE).send(json);
    }
    if (outcome.ok) return reply.code(200).send(outcome.value);
    // The preview's own 422 shape (docs/spec/interface-v1.md, "Invalid-query preview result").
    if (outcome.error.code === 'validation_error') return reply.code(422).send({ valid: false, detail: outcome.error.detail, geography_matches: [] });
    return sendError(reply, outcome.error);
  };
};

/** What Fastify sets for a JSON body it serializes itself. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** An invalid query refused before the handler (a control character in its text) gets the preview's 422 shape too. */
function previewErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const meaning = appErrorOf(error, request);
  if (meaning.code === 'validation_error') return reply.code(422).send({ valid: false, detail: meaning.detail, geography_matches: [] });
  return sendError(reply, meaning);
}

export function registerPreview(app: Api, deps: AppDeps): void {
  app.post('/query/preview', { schema, bodyLimit: QUERY_BODY_LIMIT, errorHandler: previewErrors }, handler(deps));
}
