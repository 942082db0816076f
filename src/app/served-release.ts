import type { GeographyLevel } from '../core/dataset.ts';
import { appError, type AppError } from '../core/errors.ts';
import type { ResolveFailure } from '../ports/pool-release.ts';
import type { UseCaseDeps } from './deps.ts';

/**
 * The deps with the release serving at this moment fixed in place of a switchable one (a server
 * that serves its first level while the rest is built switches releases once): a query samples
 * and writes its rows from the one release it started with, whatever switches meanwhile.
 */
export function withServedRelease<D extends Pick<UseCaseDeps, 'pools' | 'implicates'>>(deps: D): D {
  const now = deps.pools.current?.();
  if (now === undefined) return deps;
  return { ...deps, pools: now.pools, implicates: now.implicates };
}

/**
 * A level the server is still building (it serves the others meanwhile): 503, as for a service
 * starting (the catalogue's service_unavailable), with the build's estimate as Retry-After.
 */
export function levelStillBuilding(level: GeographyLevel, failure: ResolveFailure): AppError | undefined {
  if (failure.kind !== 'unavailable' || failure.building === undefined) return undefined;
  const seconds = failure.building.retryAfterSeconds;
  return appError(
    'service_unavailable',
    `geography_level "${level}" is still being built on this server, which serves ${failure.held.map((l) => `"${l}"`).join(', ')} meanwhile; it will be served in about ${seconds} s. Retry after the Retry-After seconds (nothing was charged).`,
    { retry_after_seconds: seconds },
  );
}
