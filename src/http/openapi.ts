import { ERROR_CATALOGUE } from '../core/errors.ts';
import type { SwaggerTransformObject } from '@fastify/swagger';
import { withComponents } from './openapi-components.ts';

const errorTable = Object.entries(ERROR_CATALOGUE)
  .map(([code, e]) => `| ${e.status} | ${code} | ${e.summary} |`)
  .join('\n');

/**
 * The OpenAPI 3.1 document's frame; the paths come from the route schemas. The one server is
 * relative ("/": the server that serves the document), so the document is the same wherever it
 * is served and the committed copy can be compared.
 */
export function openApiOptions() {
  return {
    // Named schemas and response headers, for code generators (openapi-components.ts).
    transformObject: ((document: { openapiObject?: unknown }) => withComponents(document.openapiObject as Record<string, unknown>)) as SwaggerTransformObject,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'spq: Synthetic Population Query API',
        version: '1.0.0',
        contact: { name: 'The operator of this spq server (its account area, /console, says how to reach them)' },
        license: { name: 'Proprietary (UNLICENSED): the service and its records are not open data', identifier: 'LicenseRef-spq-proprietary' },
        description: [
          'Credit-metered API for synthetic Australian persons, families and dwellings (interface v1).',
          '',
          '## Authentication',
          '',
          'Authenticate every call except downloads and health checks with `Authorization: Bearer <API_KEY>`. Never put a key in a URL or body: such a request is refused with 400.',
          '',
          'Authenticated responses carry `RateLimit` and `RateLimit-Policy` headers (IETF draft); every response carries `X-Request-Id`.',
          '',
          '## Errors',
          '',
          'An error answers with its status and a JSON body whose `error` is one of these codes and whose `detail` says what to do next (a 401 carries `message` instead of `detail`; a 402 carries `detail` and `credits_remaining` without `error`, as the v1 contract shows it).',
          '',
          '| status | error | meaning |',
          '|---|---|---|',
          errorTable,
        ].join('\n'),
      },
      servers: [{ url: '/', description: 'The spq server that serves this document (spq serve)' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http' as const, scheme: 'bearer', description: 'An API key: spq_live_… (or spq_test_… for the sandbox)' },
        },
      },
      tags: [
        { name: 'query', description: 'Preview, execute and history' },
        { name: 'account', description: 'Credits and tier' },
        { name: 'geography', description: 'Geography search and variables' },
        { name: 'downloads', description: 'Signed result-file links' },
        { name: 'operations', description: 'Health checks' },
      ],
    },
  };
}
