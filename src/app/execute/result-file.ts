/**
 * An execute's file: written to scratch space in the requested format (a zip of three files for a
 * household sample) with what it says of itself, then stored under the query's keys with its
 * companion; discarded after a failure.
 */
import { COMPANION_FILES, HOUSEHOLD_FILE, OUTPUT_FORMAT_SPECS } from '../../core/formats.ts';
import { citationOf, populationBasisText } from '../../core/provenance.ts';
import type { ExportResult, SampledPart } from '../../ports/pool-release.ts';
import type { UseCaseDeps } from '../deps.ts';
import { dictionaryFileKey, resultFileName } from '../format.ts';
import type { ExecutePlan } from './plan.ts';

/** What a sandbox key's file says of itself, before the citation. */
export const TEST_DATA_NOTICE = 'TEST DATA from a sandbox (spq_test_) key: capped and not charged; not for analysis.';

/** Scratch files written so far, for the cleanup after a failure. */
export interface ScratchFiles {
  tmpPath?: string;
  dictionaryPath?: string;
}

/** A result file written to scratch space, not yet stored. */
export interface WrittenFile {
  readonly path: string;
  readonly exported: ExportResult;
}

/** Writes the sampled records to a scratch file in the requested format (a zip of three files for household). */
export async function writeResultFile(deps: UseCaseDeps, plan: ExecutePlan, parts: readonly SampledPart[], scratch: ScratchFiles): Promise<WrittenFile> {
  const { pools, query: q, queryId } = plan;
  const tmpPath = await deps.scratch.file(plan.fileKey);
  scratch.tmpPath = tmpPath;
  const metadata = fileMetadata(deps, plan);
  const exported = plan.household
    ? // The dwellings drawn, then every family and person of them: one file per dataset, in one zip.
      await pools.exportBundle({
        files: (['dwellings', 'families', 'persons'] as const).map((dataset) => ({
          name: resultFileName(queryId, dataset, q.output_format),
          dataset,
          parts: dataset === 'dwellings' ? parts : parts.map((p) => ({ selection: p.selection, rows: pools.members(dataset, p.rows) })),
        })),
        format: q.output_format,
        includeGeography: q.include_geography,
        metadata,
        destPath: tmpPath,
      })
    : await pools.export({
        dataset: q.dataset_type,
        parts,
        format: q.output_format,
        includeGeography: q.include_geography,
        ...(q.linked_records ? { linkedRecords: q.linked_records } : {}),
        metadata,
        destPath: tmpPath,
      });
  if (exported.dictionaryPath !== undefined) scratch.dictionaryPath = exported.dictionaryPath;
  return { path: tmpPath, exported };
}

/** What the file says of itself (parquet key-value metadata, the csv dictionary, the xlsx About sheet). */
function fileMetadata(deps: Pick<UseCaseDeps, 'pools'>, plan: ExecutePlan): Record<string, string> {
  const { metadata, query: q, sandbox } = plan;
  return {
    query_id: plan.queryId,
    version: metadata.version,
    seed: metadata.seed,
    implicate: String(metadata.implicate),
    ...(metadata.synthesis_seed !== undefined ? { synthesis_seed: metadata.synthesis_seed } : {}),
    generated_at: metadata.generated_at,
    dataset_type: q.dataset_type,
    geography_level: q.geography_level,
    geography_selections: JSON.stringify(q.geography_selections),
    n_observations: String(q.n_observations),
    include_geography: q.include_geography,
    ...(q.linked_records ? { linked_records: q.linked_records } : {}),
    fitted_to: deps.pools.fittedTo,
    ...(deps.pools.population ? { population_estimate: populationBasisText(deps.pools.population) } : {}),
    citation: sandbox ? `${TEST_DATA_NOTICE} ${citationOf(deps.pools.fittedTo, deps.pools.population)}` : citationOf(deps.pools.fittedTo, deps.pools.population),
    ...(sandbox ? { test_data: 'true' } : {}),
  };
}

/** Stores the dictionary (when the format has one) and the result file under their keys. */
export async function storeResultFiles(deps: UseCaseDeps, plan: ExecutePlan, { path, exported }: WrittenFile): Promise<void> {
  if (exported.dictionaryPath !== undefined) await deps.files.put(dictionaryFileKey(plan.queryId), exported.dictionaryPath, COMPANION_FILES.dictionary.contentType);
  await deps.files.put(plan.fileKey, path, plan.household ? HOUSEHOLD_FILE.contentType : OUTPUT_FORMAT_SPECS[plan.query.output_format].contentType);
}

/** Best effort: the scratch files and whatever was already stored under the query's keys. */
export async function discardFiles(deps: UseCaseDeps, plan: ExecutePlan, scratch: ScratchFiles): Promise<void> {
  if (scratch.tmpPath !== undefined) await deps.scratch.remove(scratch.tmpPath).catch(() => undefined);
  if (scratch.dictionaryPath !== undefined) await deps.scratch.remove(scratch.dictionaryPath).catch(() => undefined);
  await deps.files.delete(plan.fileKey).catch(() => undefined);
  await deps.files.delete(dictionaryFileKey(plan.queryId)).catch(() => undefined);
}
