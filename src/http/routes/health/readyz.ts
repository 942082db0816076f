import { ReadyResult } from '../../../wire/health.ts';
import type { Api, AppDeps, ReplyOf, RequestOf } from '../../types.ts';

export const schema = {
  operationId: 'getReadiness',
  security: [],
  summary: 'Readiness: database, rate limiter and pool release usable, not shutting down',
  description: "Answers 200 when this instance can serve queries (database, rate limiter and pool release usable, not draining), 503 otherwise: for a load balancer's readiness probe. Needs no key.",
  tags: ['operations'],
  response: { 200: ReadyResult, 503: ReadyResult },
} as const;

/** A check that throws counts as failed: readiness must answer, not 500. */
const safely = async (check: () => Promise<boolean> | boolean): Promise<boolean> => {
  try {
    return await check();
  } catch {
    return false;
  }
};

export const handler = (deps: AppDeps) => async (_request: RequestOf<typeof schema>, reply: ReplyOf<typeof schema>) => {
  const [database, rateLimiter, poolRelease] = await Promise.all([
    safely(() => deps.accounts.healthy()),
    safely(() => deps.limiter.healthy()),
    safely(() => deps.pools.search({ query: 'a', level: 'suburb', limit: 1 }).total >= 0),
  ]);
  const ready = database && rateLimiter && poolRelease && !deps.drain.draining;
  return reply.code(ready ? 200 : 503).send({
    status: ready ? 'ready' : 'not_ready',
    checks: { database, rate_limiter: rateLimiter, pool_release: poolRelease },
    version: deps.pools.version,
    checksum: deps.pools.checksum,
  });
};

export function registerReadyz(app: Api, deps: AppDeps): void {
  app.get('/readyz', { schema }, handler(deps));
}
