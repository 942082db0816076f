import { suburbVariables } from '../../../app/geography.ts';
import { authenticatedErrors, bearerSecurity, ErrorBody } from '../../../wire/common.ts';
import { VariablesParams, VariablesQuery, VariablesResult } from '../../../wire/geography.ts';
import { sendError } from '../../errors.ts';
import type { Api, AppDeps, ReplyOf, RequestOf } from '../../types.ts';

export const schema = {
  operationId: 'listVariables',
  summary: 'Variables of a suburb’s dataset',
  description: 'n_categories is per suburb: a small suburb may have coarser variables to protect confidentiality.',
  tags: ['geography'],
  security: bearerSecurity,
  params: VariablesParams,
  querystring: VariablesQuery,
  response: { 200: VariablesResult, 404: ErrorBody, ...authenticatedErrors() },
} as const;

export const handler = (deps: AppDeps) => async (request: RequestOf<typeof schema>, reply: ReplyOf<typeof schema>) => {
  const outcome = suburbVariables(deps, request.params.suburb_id, request.query.dataset_type);
  if (!outcome.ok) return sendError(reply, outcome.error);
  return reply.code(200).send(outcome.value);
};

export function registerVariables(app: Api, deps: AppDeps): void {
  app.get('/geography/:suburb_id/variables', { schema }, handler(deps));
}
