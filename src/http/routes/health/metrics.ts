import { createHash, timingSafeEqual } from 'node:crypto';
import { appError } from '../../../core/errors.ts';
import { plainAddress } from '../../../config.ts';
import { handleNotFound, sendError } from '../../errors.ts';
import type { HttpMetrics } from '../../metrics.ts';
import type { Api, AppDeps } from '../../types.ts';

// Compared as digests: equal lengths whatever was sent, so the comparison leaks nothing about the token's length.
const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Whether the Authorization header carries the metrics token (always true when no token is configured). */
export function metricsAuthorized(token: string | undefined, authorization: string | undefined): boolean {
  if (token === undefined) return true;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/** Whether a request's client was named by a proxy (the client is not the connection's own address). */
const throughProxy = (client: string, connection: string | undefined): boolean => connection === undefined || client !== (plainAddress(connection) ?? connection);

/**
 * GET /metrics in the Prometheus text format, for the scraper and not for clients: hidden from
 * the OpenAPI document. Without SPQ_METRICS_TOKEN, open to direct connections only (not through a
 * trusted proxy); with it, a bearer token (docs/deploy.md).
 */
export function registerMetrics(app: Api, deps: AppDeps, metrics: HttpMetrics): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    // Without a token, only a scraper that connects to the instance itself is answered: a request
    // through a trusted proxy (the public balancer) names a client other than its peer, and gets
    // what any unknown path gets.
    if (deps.config.metricsToken === undefined && throughProxy(request.clientAddress, request.socket.remoteAddress)) return handleNotFound(request, reply);
    if (!metricsAuthorized(deps.config.metricsToken, request.headers.authorization)) {
      return sendError(reply, appError('unauthorized', 'GET /metrics needs "Authorization: Bearer <SPQ_METRICS_TOKEN>".'));
    }
    const body = await metrics.registry.metrics();
    return reply.code(200).header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(body);
  });
}
