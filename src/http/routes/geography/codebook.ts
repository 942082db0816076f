import { releaseCodebook } from '../../../app/geography.ts';
import { authenticatedErrors, bearerSecurity } from '../../../wire/common.ts';
import { CodebookQuery, CodebookResult } from '../../../wire/geography.ts';
import type { Api, AppDeps, ReplyOf, RequestOf } from '../../types.ts';

export const schema = {
  operationId: 'getCodebook',
  summary: 'The codebook of the pool release (extension)',
  description:
    'Every variable of every dataset (or of dataset_type): its label, measurement, categories in ABS order, missing-value codes and coarse categories, as every file\'s dictionary gives them. Free of credits.',
  tags: ['geography'],
  security: bearerSecurity,
  querystring: CodebookQuery,
  response: { 200: CodebookResult, ...authenticatedErrors() },
} as const;

export const handler = (deps: AppDeps) => async (request: RequestOf<typeof schema>, reply: ReplyOf<typeof schema>) =>
  reply.code(200).send(releaseCodebook(deps, request.query.dataset_type));

export function registerCodebook(app: Api, deps: AppDeps): void {
  app.get('/codebook', { schema }, handler(deps));
}
