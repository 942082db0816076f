import { appError, type AppError } from '../core/errors.ts';
import { householdRecords } from '../core/pricing.ts';
import type { PoolRelease } from '../ports/pool-release.ts';
import type { UseCaseDeps } from './deps.ts';
import type { ValidatedQuery } from './query-validation.ts';

/**
 * The caps on sandbox (spq_test_) executes, which are free: records delivered per selection and
 * per query (SPQ_SANDBOX_RECORDS_PER_SELECTION / _PER_QUERY), counted as delivered, so a household
 * sample counts its dwellings with every family and person in them, not only its n; and executes
 * per account in any 24 hours (SPQ_SANDBOX_QUERIES_PER_DAY, in the shared limiter).
 */
export function sandboxRecordsRefusal(limits: UseCaseDeps['config']['sandbox'], pools: Pick<PoolRelease, 'poolSize'>, v: ValidatedQuery): AppError | undefined {
  const n = v.query.n_observations;
  const household = v.query.linked_records === 'household';
  const perSelection = v.selections.map((s) =>
    household ? householdRecords(n, [{ dwellings: pools.poolSize(s, 'dwellings'), families: pools.poolSize(s, 'families'), persons: pools.poolSize(s, 'persons') }]) : n,
  );
  const largest = Math.max(...perSelection);
  const counted = household ? ' (a household sample counts its dwellings, families and persons)' : '';
  if (largest > limits.recordsPerSelection) {
    return appError(
      'validation_error',
      `Sandbox (spq_test_) keys get at most ${limits.recordsPerSelection} records per selection${counted}; this query would deliver ${largest}. Ask for fewer, or use a live key.`,
    );
  }
  if (v.totalRows > limits.recordsPerQuery) {
    return appError('validation_error', `Sandbox (spq_test_) keys get at most ${limits.recordsPerQuery} records per query${counted}; this query would deliver ${v.totalRows}. Use fewer selections or records, or a live key.`);
  }
  return undefined;
}

/** Counts one sandbox execute of the account; the refusal when the day's are used up. */
export async function sandboxExecuteRefusal(deps: Pick<UseCaseDeps, 'limiter' | 'clock' | 'config'>, accountId: string): Promise<AppError | undefined> {
  const perDay = deps.config.sandbox.queriesPerDay;
  const decision = await deps.limiter.hit(`sandbox:${accountId}`, [{ name: 'sandbox-day', limit: perDay, windowSeconds: 86_400 }], deps.clock.now().getTime());
  if (decision.allowed) return undefined;
  const seconds = Math.max(1, decision.resetSeconds);
  return appError('rate_limited', `Sandbox (spq_test_) keys run at most ${perDay} queries per account in 24 hours. Retry after ${seconds} seconds, or use a live key.`, { retry_after_seconds: seconds });
}
