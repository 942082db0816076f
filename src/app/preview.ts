import { appError, type AppError } from '../core/errors.ts';
import { err, ok, type Result } from '../core/result.ts';
import type { PreviewResult } from '../wire/query.ts';
import type { UseCaseDeps } from './deps.ts';
import { withServedRelease } from './served-release.ts';
import { implicateFor, requestedSeed } from './implicates.ts';
import type { PreviewMemo, PricedQuery } from './preview-memo.ts';
import { validateQuery, type QueryInput, type ValidatedQuery } from './query-validation.ts';
import { sandboxRecordsRefusal } from './sandbox-caps.ts';

/** A valid preview, as the published schema defines it (src/wire). */
export type PreviewOutcome = PreviewResult;

/**
 * Checks and prices a query; spends nothing, generates nothing (docs/spec/decisions.md, "Preview"). With a
 * memo, a query asked before of the same release is not checked again; a live key whose balance
 * pays for it then gets the very object it got before (frozen; the preview route keeps its JSON).
 */
export async function previewQuery(
  served: Pick<UseCaseDeps, 'pools' | 'implicates' | 'accounts' | 'config' | 'clock'>,
  account: { readonly accountId: string; readonly creditsRemaining?: number; readonly sandbox?: boolean },
  input: QueryInput,
  memo?: PreviewMemo,
): Promise<Result<PreviewOutcome, AppError>> {
  const deps = withServedRelease(served);
  const chosen = await implicateFor(deps, input.implicate);
  if (!chosen.ok) return chosen;
  if (input.seed !== undefined) {
    const seed = requestedSeed(input.seed);
    if (!seed.ok) return seed;
  }
  const pools = chosen.value.pools;
  const priced: PricedQuery = memo?.priced(pools, input) ?? { validated: validateQuery(pools, deps.config, input) };
  if (!priced.validated.ok) return priced.validated;
  const v = priced.validated.value;
  const overCap = account.sandbox ? sandboxRecordsRefusal(deps.config.sandbox, pools, v) : undefined;
  if (overCap) return err(overCap);
  const available = account.creditsRemaining ?? (await deps.accounts.credits(account.accountId, deps.clock.now())).creditsRemaining;
  if (!account.sandbox && available >= v.creditCost) return ok((priced.paidPreview ??= Object.freeze(previewOf(v, v.creditCost, releaseWarnings(v)))));
  const creditCost = account.sandbox ? 0 : v.creditCost;
  const warnings: string[] = [];
  if (account.sandbox) {
    warnings.push(`Sandbox (spq_test_) key: nothing is charged (a live key would pay ${v.creditCost} credits) and the file is marked as test data.`);
  }
  warnings.push(...releaseWarnings(v));
  if (available < creditCost) {
    warnings.push(
      `This query needs ${creditCost} credits and the account has ${available} available; execute will be refused (402) until credits are added.`,
    );
  }
  return ok(previewOf(v, creditCost, warnings));
}

/** What the release says about the query, whoever asks: shared suburbs, small suburbs. */
function releaseWarnings(v: ValidatedQuery): string[] {
  const warnings: string[] = [];
  for (const o of v.overlaps) {
    warnings.push(
      `"${v.selections[o.index]!.canonical}" shares ${o.sharedSuburbs} suburb(s) with ${o.with.map((w) => `"${w}"`).join(', ')}: a record is drawn once in the file, for the first selection that draws it (the selection column says which).`,
    );
  }
  for (const m of v.matches) {
    if (m.small_suburb_flag) {
      warnings.push(
        `${m.suburb_id} is a small suburb (small_suburb_flag = true): its pool of ${m.pool_size} records rests on few real residents, so some variables are coarsened and estimates from it are uncertain.`,
      );
    }
  }
  return warnings;
}

const previewOf = (v: ValidatedQuery, creditCost: number, warnings: string[]): PreviewOutcome => ({
  valid: true,
  n_observations: v.query.n_observations,
  credit_cost: creditCost,
  pool_available: v.poolAvailable,
  geography_matches: [...v.matches],
  warnings,
});
