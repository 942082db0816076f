import { appError, type AppError } from '../core/errors.ts';
import { err, ok, type Result } from '../core/result.ts';
import type { Implicate } from '../ports/pool-release.ts';
import type { UseCaseDeps } from './deps.ts';

/** What a query without `implicate` draws from: the release's first synthesis, as before implicates. */
export const DEFAULT_IMPLICATE = 1;

/**
 * The implicate a query names (1 when it names none), ready to sample; a validation error that
 * lists the implicates the release holds when it does not hold that one (yet).
 */
export async function implicateFor(deps: Pick<UseCaseDeps, 'pools' | 'implicates'>, requested: number | undefined): Promise<Result<Implicate, AppError>> {
  const k = requested ?? DEFAULT_IMPLICATE;
  const found = deps.implicates !== undefined ? await deps.implicates.open(k) : k === DEFAULT_IMPLICATE ? { number: k, synthesisSeed: undefined, pools: deps.pools } : undefined;
  if (found !== undefined) return ok(found);
  const held = deps.implicates?.available() ?? [DEFAULT_IMPLICATE];
  return err(
    appError(
      'validation_error',
      `implicate ${k} is not in pool release ${deps.pools.version}: it holds ${held.length === 1 ? 'implicate' : 'implicates'} ${held.join(', ')}. A release being completed gains implicates as they are built (the demo builds its extra ones after the service starts); ask for one of those.`,
    ),
  );
}

const MAX_SEED = (1n << 64n) - 1n;

/** A seed the client named (decimal digits or a safe JSON integer, as the schema allows), or a validation error past 2^64 − 1. */
export function requestedSeed(seed: string | number): Result<bigint, AppError> {
  const value = BigInt(seed);
  if (value > MAX_SEED) return err(appError('validation_error', `seed must be below 2^64 (at most ${MAX_SEED}), got ${seed}.`));
  return ok(value);
}
