import type { DatasetType, OutputFormat } from '../core/dataset.ts';
import { hasDictionaryBeside } from '../core/formats.ts';
import { appError, type AppError } from '../core/errors.ts';
import { isId } from '../core/keys.ts';
import { err, ok, type Result } from '../core/result.ts';
import type { QueryRecord } from '../ports/account-store.ts';
import type { HistoryItem, HistoryResult } from '../wire/history.ts';
import { QUERY_DEFAULTS } from '../wire/query.ts';
import type { ExecuteMetadata } from './execute/plan.ts';
import type { UseCaseDeps } from './deps.ts';
import { dictionaryFileKey, dictionaryFileName, downloadNameOf, formatOfFileName } from './format.ts';

/** One history entry and the page, as the published schemas define them (src/wire). */
export type { HistoryItem } from '../wire/history.ts';
export type HistoryOutcome = HistoryResult;

type Deps = Pick<UseCaseDeps, 'accounts' | 'files' | 'clock'>;

/** A link is expired once its time has passed or the sweeper has deleted the file. */
async function historyItem(deps: Deps, q: QueryRecord, now: Date): Promise<HistoryItem> {
  const format: OutputFormat = formatOfFileName(q.fileKey ?? '') ?? 'parquet';
  const testData = q.metadata['test_data'] === true;
  const provenance = provenanceOf(q.metadata);
  return {
    query_id: q.queryId,
    executed_at: q.executedAt.toISOString(),
    dataset_type: q.datasetType,
    geography_selections: [...q.geographySelections],
    n_observations: q.nObservations,
    credit_cost: q.creditCost,
    download_url: await deps.files.downloadUrl(q.fileKey ?? '', downloadNameOf(q.queryId, q.datasetType, q.fileKey, format, testData), q.downloadExpires),
    download_expired: q.fileDeletedAt !== null || now.getTime() >= q.downloadExpires.getTime(),
    ...(hasDictionaryBeside(format)
      ? { dictionary_url: await deps.files.downloadUrl(dictionaryFileKey(q.queryId), dictionaryFileName(q.queryId, q.datasetType, testData), q.downloadExpires) }
      : {}),
    // The sandbox mark travels with the query wherever it is listed, not only in the execute response.
    ...(testData ? { test_data: true as const } : {}),
    ...provenance,
    ...requestOf(q.metadata, { dataset_type: q.datasetType, geography_selections: [...q.geographySelections], n_observations: q.nObservations, ...provenance }),
  };
}

/**
 * The request as it ran, from the execute's metadata echo (every field, defaults filled in, and the
 * seed and implicate that reproduce the draw); absent for a record whose echo lacks the level.
 */
function requestOf(metadata: Readonly<Record<string, unknown>>, item: Pick<HistoryItem, 'dataset_type' | 'geography_selections' | 'n_observations' | 'seed' | 'implicate'>) {
  const { geography_level: level, output_format: format, include_geography: geography, linked_records: linked } = metadata as Partial<ExecuteMetadata>;
  if (level === undefined || format === undefined || geography === undefined) return {};
  const request: NonNullable<HistoryItem['request']> = {
    geography_level: level,
    geography_selections: [...item.geography_selections],
    dataset_type: item.dataset_type,
    n_observations: item.n_observations,
    output_format: format,
    include_geography: geography,
    linked_records: linked ?? QUERY_DEFAULTS.linked_records,
    ...(item.seed !== undefined ? { seed: item.seed } : {}),
    ...(item.implicate !== undefined ? { implicate: item.implicate } : {}),
  };
  return { geography_level: level, output_format: format, include_geography: geography, linked_records: request.linked_records, request };
}

/** How the records were drawn, from the execute's metadata echo: what reproduces the file. */
function provenanceOf(metadata: Readonly<Record<string, unknown>>): Pick<HistoryItem, 'seed' | 'implicate' | 'version' | 'fitted_to'> {
  const { seed, implicate, version, fitted_to: fittedTo } = metadata;
  return {
    ...(typeof seed === 'string' ? { seed } : {}),
    // Queries run before implicates drew from the release itself: implicate 1.
    ...(typeof seed === 'string' ? { implicate: typeof implicate === 'number' ? implicate : 1 } : {}),
    ...(typeof version === 'string' ? { version } : {}),
    ...(fittedTo === 'census' || fittedTo === 'demo' ? { fitted_to: fittedTo } : {}),
  };
}

/** Newest first; a page past the end is empty with the true pagination (docs/spec/decisions.md, "History"). */
export async function queryHistory(
  deps: Deps,
  accountId: string,
  input: { page: number; perPage: number; datasetType?: DatasetType | undefined },
): Promise<HistoryOutcome> {
  const now = deps.clock.now();
  const page = await deps.accounts.history({
    accountId,
    page: input.page,
    perPage: input.perPage,
    ...(input.datasetType !== undefined ? { datasetType: input.datasetType } : {}),
  });
  return {
    queries: await Promise.all(page.items.map((q) => historyItem(deps, q, now))),
    pagination: {
      page: input.page,
      per_page: input.perPage,
      total_pages: Math.ceil(page.total / input.perPage),
      total_queries: page.total,
    },
  };
}

/** Extension GET /query/{query_id}: 404 alike for an unknown id and another account's (never reveal which). */
export async function getQuery(deps: Deps, accountId: string, queryId: string): Promise<Result<HistoryItem, AppError>> {
  const notFound = appError('not_found', `No query "${queryId}" in this account's history.`);
  if (!isId('qry', queryId)) return err(notFound);
  const q = await deps.accounts.getQuery(accountId, queryId);
  if (q === undefined || q.status !== 'completed') return err(notFound);
  return ok(await historyItem(deps, q, deps.clock.now()));
}

/** A query's page in the account area: its history entry, what it asked for and how it was drawn. */
export interface QueryDetail {
  readonly item: HistoryItem;
  /** The metadata echo of its execute: the normalised request, seed, implicate, version, test_data. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The API key that ran it; null when the account area's builder did. */
  readonly keyId: string | null;
}

export async function queryDetail(deps: Deps, accountId: string, queryId: string): Promise<Result<QueryDetail, AppError>> {
  const notFound = appError('not_found', `No query “${queryId}” in your account.`);
  if (!isId('qry', queryId)) return err(notFound);
  const q = await deps.accounts.getQuery(accountId, queryId);
  if (q === undefined || q.status !== 'completed') return err(notFound);
  return ok({ item: await historyItem(deps, q, deps.clock.now()), metadata: q.metadata, keyId: q.keyId ?? null });
}
