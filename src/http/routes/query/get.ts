import { getQuery } from '../../../app/history.ts';
import { authenticatedErrors, bearerSecurity, ErrorBody } from '../../../wire/common.ts';
import { HistoryItem, QueryIdParams } from '../../../wire/history.ts';
import { principalOf } from '../../plugins/authenticate.ts';
import { sendError } from '../../errors.ts';
import type { Api, AppDeps, ReplyOf, RequestOf } from '../../types.ts';

export const schema = {
  operationId: 'getQuery',
  summary: 'One executed query (extension)',
  description: 'The history item of one query. 404 for an id that does not exist or belongs to another account.',
  tags: ['query'],
  security: bearerSecurity,
  params: QueryIdParams,
  response: { 200: HistoryItem, 404: ErrorBody, ...authenticatedErrors() },
} as const;

export const handler = (deps: AppDeps) => async (request: RequestOf<typeof schema>, reply: ReplyOf<typeof schema>) => {
  const outcome = await getQuery(deps, principalOf(request).accountId, request.params.query_id);
  if (!outcome.ok) return sendError(reply, outcome.error);
  return reply.code(200).header('cache-control', 'no-store').send(outcome.value);
};

export function registerGetQuery(app: Api, deps: AppDeps): void {
  app.get('/query/:query_id', { schema }, handler(deps));
}
