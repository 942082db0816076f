import { stat } from 'node:fs/promises';
import { ReadyResult } from '../../../wire/health.ts';
import type { Api, AppDeps, ReplyOf, RequestOf } from '../../types.ts';

export const schema = {
  operationId: 'getReadiness',
  security: [],
  summary: 'Readiness: database, rate limiter, pool release and file I/O usable, not shutting down',
  description: "Answers 200 when this instance can serve queries (database, rate limiter and pool release usable, file I/O not starved, not draining), 503 otherwise: for a load balancer's readiness probe. Needs no key. `levels` lists the geography levels served now and `building` those still being built in the background (200 as soon as one level serves).",
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

/**
 * Whether Node's shared thread pool answers: a stat of the data directory goes through the same
 * four threads as every file read and write of executes and downloads, so one that does not come
 * back within `withinMs` means those are starved (the event loop, which /healthz measures, may be idle).
 */
function ioPoolAnswers(dir: string, withinMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), withinMs);
    stat(dir).then(
      () => resolve(true),
      () => resolve(true), // an answer, even "not there", is what is measured
    ).finally(() => clearTimeout(timer));
  });
}

export const handler = (deps: AppDeps) => async (_request: RequestOf<typeof schema>, reply: ReplyOf<typeof schema>) => {
  const [database, rateLimiter, poolRelease, ioPool] = await Promise.all([
    safely(() => deps.accounts.healthy()),
    safely(() => deps.limiter.healthy()),
    safely(() => deps.pools.search({ query: 'a', level: 'suburb', limit: 1 }).total >= 0),
    ioPoolAnswers(deps.config.dataDir, deps.config.readyIoMs),
  ]);
  // Ready as soon as one level serves: the levels still building are named, not waited for.
  const building = deps.pools.building;
  const ready = database && rateLimiter && poolRelease && ioPool && !deps.drain.draining;
  return reply.code(ready ? 200 : 503).send({
    status: ready ? 'ready' : 'not_ready',
    checks: { database, rate_limiter: rateLimiter, pool_release: poolRelease, io_pool: ioPool },
    version: deps.pools.version,
    checksum: deps.pools.checksum,
    levels: [...deps.pools.levels],
    building: [...(building?.levels ?? [])],
    ...(building ? { building_seconds_left: building.retryAfterSeconds } : {}),
  });
};

export function registerReadyz(app: Api, deps: AppDeps): void {
  app.get('/readyz', { schema }, handler(deps));
}
