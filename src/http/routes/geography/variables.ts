import { areaVariables } from '../../../app/geography.ts';
import { authenticatedErrors, bearerSecurity, ErrorBody } from '../../../wire/common.ts';
import { VariablesParams, VariablesQuery, VariablesResult } from '../../../wire/geography.ts';
import { sendError } from '../../errors.ts';
import type { Api, AppDeps, ReplyOf, RequestOf } from '../../types.ts';

export const schema = {
  operationId: 'listVariables',
  summary: 'Variables of an area’s dataset (a free codebook)',
  description:
    'n_categories is per suburb: a small suburb may have coarser variables to protect confidentiality. Extension: any area a query can select (level=… says which kind; without it a suburb, else a postcode, SA2, LGA, state or Australia), and each variable\'s categories in order and missing-value codes, free of credits.',
  tags: ['geography'],
  security: bearerSecurity,
  params: VariablesParams,
  querystring: VariablesQuery,
  response: { 200: VariablesResult, 404: ErrorBody, 503: { ...ErrorBody, description: 'The geography level asked for is still being built on this server (a first start on real census inputs serves its first level meanwhile; GET /readyz lists it under building); retry after Retry-After seconds' }, ...authenticatedErrors() },
} as const;

export const handler = (deps: AppDeps) => async (request: RequestOf<typeof schema>, reply: ReplyOf<typeof schema>) => {
  const outcome = areaVariables(deps, { id: request.params.suburb_id, dataset: request.query.dataset_type, level: request.query.level });
  if (!outcome.ok) return sendError(reply, outcome.error);
  return reply.code(200).send(outcome.value);
};

export function registerVariables(app: Api, deps: AppDeps): void {
  app.get('/geography/:suburb_id/variables', { schema }, handler(deps));
}
