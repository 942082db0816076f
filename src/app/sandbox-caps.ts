import { durationInWords } from '../core/duration.ts';
import { appError, type AppError } from '../core/errors.ts';
import { householdRecords } from '../core/pricing.ts';
import type { PoolRelease, SampledPart } from '../ports/pool-release.ts';
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

/**
 * A household draw counted as delivered: its dwellings with every family and person in them. The
 * preview's figure is the selection's average household; a draw of larger ones than average is
 * refused rather than delivered over the cap.
 */
export function sandboxDeliveryRefusal(limits: UseCaseDeps['config']['sandbox'], pools: Pick<PoolRelease, 'members'>, parts: readonly SampledPart[]): AppError | undefined {
  const perSelection = parts.map((p) => p.rows.length + pools.members('families', p.rows).length + pools.members('persons', p.rows).length);
  const largest = Math.max(0, ...perSelection);
  const total = perSelection.reduce((a, b) => a + b, 0);
  const cap = largest > limits.recordsPerSelection ? `${limits.recordsPerSelection} records per selection` : total > limits.recordsPerQuery ? `${limits.recordsPerQuery} records per query` : undefined;
  if (cap === undefined) return undefined;
  const delivered = largest > limits.recordsPerSelection ? largest : total;
  return appError(
    'validation_error',
    `Sandbox (spq_test_) keys get at most ${cap} (a household sample counts its dwellings, families and persons); the dwellings drawn hold larger households than average, so this query would deliver ${delivered} records. Ask for fewer dwellings, or use a live key.`,
  );
}

/** Counts one sandbox execute of the account; the refusal when the day's are used up. */
export async function sandboxExecuteRefusal(deps: Pick<UseCaseDeps, 'limiter' | 'clock' | 'config'>, accountId: string): Promise<AppError | undefined> {
  const perDay = deps.config.sandbox.queriesPerDay;
  const decision = await deps.limiter.hit(`sandbox:${accountId}`, [{ name: 'sandbox-day', limit: perDay, windowSeconds: 86_400 }], deps.clock.now().getTime());
  if (decision.allowed) return undefined;
  const seconds = Math.max(1, decision.resetSeconds);
  return appError('rate_limited', `Sandbox (spq_test_) keys run at most ${perDay} queries per account in 24 hours. Retry after ${durationInWords(seconds)}, or use a live key.`, { retry_after_seconds: seconds });
}
