import { searchGeography, searchLevelBuilding } from '../../../app/geography.ts';
import { sendError } from '../../errors.ts';
import { authenticatedErrors, bearerSecurity, ErrorBody } from '../../../wire/common.ts';
import { SearchQuery, SearchResult } from '../../../wire/geography.ts';
import { strictIntegers } from '../../strict-integers.ts';
import type { Api, AppDeps, ReplyOf, RequestOf } from '../../types.ts';

export const schema = {
  operationId: 'searchGeography',
  summary: 'Find suburbs',
  description: 'Case- and accent-insensitive partial match; names that start with the term rank first. level chooses what the term matches; results are always suburbs.',
  tags: ['geography'],
  security: bearerSecurity,
  querystring: SearchQuery,
  response: { 200: SearchResult, 422: { ...ErrorBody, description: 'The search term holds a control character (NUL, ESC, …)' }, 503: { ...ErrorBody, description: 'The geography level asked for is still being built on this server (a first start on real census inputs serves its first level meanwhile; GET /readyz lists it under building); retry after Retry-After seconds' }, ...authenticatedErrors() },
} as const;

export const handler = (deps: AppDeps) => async (request: RequestOf<typeof schema>, reply: ReplyOf<typeof schema>) => {
  // A level still being built would find nothing: say so instead of an empty answer.
  const building = searchLevelBuilding(deps, request.query.level);
  if (building) return sendError(reply, building);
  return reply.code(200).send(searchGeography(deps, request.query));
};

export function registerSearch(app: Api, deps: AppDeps): void {
  app.get('/geography/search', { schema, preValidation: strictIntegers({ limit: 50 }) }, handler(deps));
}
