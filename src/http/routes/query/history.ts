import { queryHistory } from '../../../app/history.ts';
import { authenticatedErrors, bearerSecurity } from '../../../wire/common.ts';
import { HistoryQuery, HistoryResult } from '../../../wire/history.ts';
import { principalOf } from '../../plugins/authenticate.ts';
import { strictIntegers } from '../../strict-integers.ts';
import type { Api, AppDeps, ReplyOf, RequestOf } from '../../types.ts';

export const schema = {
  operationId: 'listQueries',
  summary: 'List executed queries',
  description: 'Newest first. A page past the end returns an empty list with the true pagination.',
  tags: ['query'],
  security: bearerSecurity,
  querystring: HistoryQuery,
  response: { 200: HistoryResult, ...authenticatedErrors() },
} as const;

export const handler = (deps: AppDeps) => async (request: RequestOf<typeof schema>, reply: ReplyOf<typeof schema>) => {
  const q = request.query;
  const outcome = await queryHistory(deps, principalOf(request).accountId, { page: q.page ?? 1, perPage: q.per_page ?? 20, datasetType: q.dataset_type });
  return reply.code(200).header('cache-control', 'no-store').send(outcome);
};

export function registerHistory(app: Api, deps: AppDeps): void {
  // A page past the end is fine (an empty list); one past a million is a typo.
  app.get('/query/history', { schema, preValidation: strictIntegers({ page: 1_000_000, per_page: 100 }) }, handler(deps));
}
