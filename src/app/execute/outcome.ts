/**
 * The answer to a completed execute: its download link (and the dictionary's, for a format with
 * one beside the file), the balance after the charge, the metadata echo; rebuilt from the stored
 * query for an idempotent replay.
 */
import type { QueryRecord } from '../../ports/account-store.ts';
import type { ExecuteResult } from '../../wire/query.ts';
import type { UseCaseDeps } from '../deps.ts';
import { dictionaryFileKey, dictionaryFileName, downloadNameOf, hasDictionaryLink, householdFileKey } from '../format.ts';
import type { ExecuteMetadata, ExecutePlan } from './plan.ts';

/** A completed execute, as the published schema defines it (src/wire). */
export type ExecuteOutcome = ExecuteResult;

/** The metadata echo in its wire form (the one copy of the selections the response needs). */
const wireMetadata = (m: ExecuteMetadata): ExecuteResult['metadata'] => ({ ...m, geography_selections: [...m.geography_selections] });

/** Rebuilds the execution result of a stored query (idempotent replay). */
export async function outcomeOf(deps: Pick<UseCaseDeps, 'files' | 'accounts' | 'clock'>, q: QueryRecord): Promise<ExecuteOutcome> {
  const metadata = q.metadata as unknown as ExecuteMetadata;
  const balance = await deps.accounts.credits(q.accountId, deps.clock.now());
  return {
    query_id: q.queryId,
    status: 'completed',
    credit_cost: q.creditCost,
    credits_remaining: balance.creditsRemaining,
    download_url: await deps.files.downloadUrl(q.fileKey ?? '', downloadNameOf(q.queryId, q.datasetType, q.fileKey, metadata.output_format, metadata.test_data === true), q.downloadExpires),
    download_expires: q.downloadExpires.toISOString(),
    metadata: wireMetadata(metadata),
    ...(hasDictionaryLink(metadata.output_format, q.fileKey === householdFileKey(q.queryId)) ? await dictionaryLink(deps, q.queryId, q.datasetType, q.downloadExpires, metadata.test_data === true) : {}),
  };
}

async function dictionaryLink(deps: Pick<UseCaseDeps, 'files'>, queryId: string, dataset: QueryRecord['datasetType'], expires: Date, testData: boolean) {
  return { dictionary_url: await deps.files.downloadUrl(dictionaryFileKey(queryId), dictionaryFileName(queryId, dataset, testData), expires) };
}

/** The response: download link (and the csv dictionary's), the balance after the charge, the metadata echo. */
export async function completedOutcome(deps: UseCaseDeps, plan: ExecutePlan, creditsRemaining: number): Promise<ExecuteOutcome> {
  const { queryId, query: q, fileKey, expires, sandbox } = plan;
  const downloadUrl = await deps.files.downloadUrl(fileKey, downloadNameOf(queryId, q.dataset_type, fileKey, q.output_format, sandbox), expires);
  return {
    query_id: queryId,
    status: 'completed',
    credit_cost: plan.creditCost,
    credits_remaining: creditsRemaining,
    download_url: downloadUrl,
    download_expires: expires.toISOString(),
    metadata: wireMetadata(plan.metadata),
    ...(hasDictionaryLink(q.output_format, plan.household) ? await dictionaryLink(deps, queryId, q.dataset_type, expires, sandbox) : {}),
  };
}
