import { rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { CensusInputs, SuburbGeography } from '../core/census/inputs.ts';
import { formatInputError } from '../core/census/inputs.ts';
import { VALIDATION_TABLES } from '../core/census/tables.ts';
import { variablesOf } from '../core/census/variables.ts';
import { DATASET_TYPES } from '../core/dataset.ts';
import { loadCensusInputs, loadRealismReference, loadTruth } from '../adapters/abs/load-inputs.ts';
import { sizeBand } from '../core/quality/metrics.ts';
import { createRealismAccumulator, withReference } from '../core/quality/realism.ts';
import { createPoolReleaseWriter } from '../adapters/pools/writer.ts';
import { sumTablesByParent } from './parent-targets.ts';
import { renderReport, summariseReport, type BuildReport, type SuburbFit } from './report.ts';
import type { SuburbJob } from './suburb-job.ts';
import { runJobsInOrder } from './worker-pool.ts';

export interface BuildOptions {
  readonly inputsDir: string;
  /** Root of the pool releases; this release goes to <poolsDir>/<version>. */
  readonly poolsDir: string;
  readonly version: string;
  readonly seed: number;
  readonly smallSuburbThreshold: number;
  /**
   * Accept DataPack headers the ABS 2021 metadata does not list for their part file (skipped)
   * and read the specs' columns from whichever part holds them. Not needed for a real 2021
   * DataPack, whose every column the metadata lists (the unread ones are skipped anyway); for a
   * release whose layout changed. Off by default, so an unexpected header stops the build.
   */
  readonly allowUnknownHeaders?: boolean;
  /** Worker threads for synthesis (0: inline on the main thread). Default: one per core. */
  readonly threads?: number;
  readonly onProgress?: (phase: 'load' | 'synthesize' | 'write', done: number, total: number) => void;
}

export interface BuildSummary {
  readonly version: string;
  readonly dir: string;
  readonly checksum: string;
  readonly suburbs: number;
  readonly persons: number;
  readonly families: number;
  readonly dwellings: number;
  readonly variables: Readonly<Record<string, number>>;
  readonly srmse_median: number | null;
  readonly srmse_p95: number | null;
  readonly truth_srmse_median: number | null;
  readonly structural_violations: number;
  readonly totals_mismatched: number;
  readonly seconds: number;
  readonly peak_rss_mb: number;
  readonly report: BuildReport;
  readonly summaryText: string;
}

const defaultThreads = (): number => Math.max(1, availableParallelism());

/** A build that cannot start or finish because of its inputs; the message names file, row and column. */
export class BuildInputError extends Error {}

/** Per-suburb seed: the build seed mixed with the SAL code (FNV-1a), so one suburb's records don't depend on another's. */
export function suburbSeed(buildSeed: number, salCode: string): number {
  let hash = 0x811c9dc5 ^ (buildSeed >>> 0);
  for (let i = 0; i < salCode.length; i++) hash = Math.imul(hash ^ salCode.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Persons the census publishes for the suburb (G01 total), the figure the small-suburb rule is about. */
export function publishedPersons(inputs: CensusInputs, salCode: string): number {
  return inputs.totals.get('G01')?.get(salCode) ?? inputs.totals.get('G04')?.get(salCode) ?? 0;
}

export function totalsOf(inputs: CensusInputs, salCode: string): Map<string, number> {
  const totals = new Map<string, number>();
  for (const [tableId, bySuburb] of inputs.totals) {
    const total = bySuburb.get(salCode);
    if (total !== undefined) totals.set(tableId, total);
  }
  return totals;
}

export function tablesOf(inputs: CensusInputs, salCode: string): Map<string, Float64Array> {
  const tables = new Map<string, Float64Array>();
  for (const [tableId, bySuburb] of inputs.tables) {
    const cells = bySuburb.get(salCode);
    if (cells) tables.set(tableId, cells);
  }
  return tables;
}

/** Inputs → synthesizer → pool release and build report. */
export async function buildRelease(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => {});
  const loaded = await loadCensusInputs(options.inputsDir, (done, total) => progress('load', done, total), {
    allowUnknownHeaders: options.allowUnknownHeaders ?? false,
  });
  if (!loaded.ok) throw new BuildInputError(formatInputError(loaded.error));
  const inputs = loaded.value;
  const truthLoaded = await loadTruth(options.inputsDir);
  if (!truthLoaded.ok) throw new BuildInputError(formatInputError(truthLoaded.error));
  const truth = truthLoaded.value;
  const referenceLoaded = await loadRealismReference(options.inputsDir);
  if (!referenceLoaded.ok) throw new BuildInputError(formatInputError(referenceLoaded.error));
  const realism = createRealismAccumulator();

  const parents = sumTablesByParent(inputs.suburbs, inputs.tables);
  const dir = join(options.poolsDir, options.version);
  await rm(dir, { recursive: true, force: true });
  const variables = Object.fromEntries(DATASET_TYPES.map((d) => [d, variablesOf(d)])) as Record<(typeof DATASET_TYPES)[number], ReturnType<typeof variablesOf>>;
  const writer = await createPoolReleaseWriter({ dir, version: options.version, variables });

  const fits: SuburbFit[] = [];
  const totalsMismatched: string[] = [];
  const suburbs = orderForRelease(inputs.suburbs);
  const jobs = function* (): Generator<SuburbJob> {
    for (const [index, suburb] of suburbs.entries()) {
      yield {
        index,
        salCode: suburb.salCode,
        seed: suburbSeed(options.seed, suburb.salCode),
        small: publishedPersons(inputs, suburb.salCode) < options.smallSuburbThreshold,
        remoteness: suburb.remoteness,
        tables: [...tablesOf(inputs, suburb.salCode)],
        totals: [...totalsOf(inputs, suburb.salCode)],
        lgaTables: [...(parents.byLga.get(suburb.lgaCode) ?? [])],
        stateTables: [...(parents.byState.get(suburb.state) ?? [])],
        truth: VALIDATION_TABLES.flatMap((table) => {
          const cells = truth.get(table.id)?.get(suburb.salCode);
          return cells ? [[table.id, cells] as const] : [];
        }),
      };
    }
  };
  try {
    await runJobsInOrder(jobs(), options.threads ?? defaultThreads(), async (outcome) => {
      const suburb = suburbs[outcome.index]!;
      const { population, small } = outcome;
      if (totalMissed(inputs, suburb.salCode, population.persons.count, population.dwellings.count)) totalsMismatched.push(suburb.suburbId);
      realism.addTally(outcome.realism, sizeBand(outcome.realism.persons));
      fits.push({
        salCode: suburb.salCode,
        suburbId: suburb.suburbId,
        persons: population.persons.count,
        families: population.families.count,
        dwellings: population.dwellings.count,
        small,
        inputs: outcome.inputs,
        truth: outcome.truth,
        structuralViolations: Object.values(outcome.violationsByRule).reduce((sum, n) => sum + n, 0),
        violationsByRule: outcome.violationsByRule,
        diagnostics: outcome.diagnostics,
      });
      await writer.append({
        suburb: {
          salCode: suburb.salCode,
          suburbId: suburb.suburbId,
          name: suburb.name,
          state: suburb.state,
          postcode: suburb.postcode,
          lga: suburb.lgaName,
          lgaCode: suburb.lgaCode,
          gccsa: suburb.gccsa,
          smallSuburb: small,
          postcodes: suburb.postcodes.map((p) => p.code),
          lgas: suburb.lgas.map((l) => ({ code: l.code, name: l.name })),
        },
        population,
        coarsened: outcome.coarsened,
      });
      progress('synthesize', outcome.index + 1, suburbs.length);
    });

    const reference = referenceLoaded.value;
    const realismSummary = reference ? withReference(realism.summary(), reference) : realism.summary();
    const report = summariseReport(options.version, fits, totalsMismatched, realismSummary);
    const seconds = (performance.now() - started) / 1000;
    const summaryText = renderReport(report, seconds);
    progress('write', 0, 1);
    const { checksum } = await writer.finish(report, summaryText);
    progress('write', 1, 1);
    return {
      version: options.version,
      dir,
      checksum,
      suburbs: report.suburbs,
      persons: report.persons,
      families: report.families,
      dwellings: report.dwellings,
      variables: Object.fromEntries(DATASET_TYPES.map((d) => [d, variables[d].length])),
      srmse_median: report.inputs.overall.median,
      srmse_p95: report.inputs.overall.p95,
      truth_srmse_median: report.truth?.overall.median ?? null,
      structural_violations: report.structuralViolations,
      totals_mismatched: totalsMismatched.length,
      seconds: (performance.now() - started) / 1000,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      report,
      summaryText,
    };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** Suburbs in catalog order: by state, then identifier, so a release's row ranges are stable. */
function orderForRelease(suburbs: readonly SuburbGeography[]): SuburbGeography[] {
  return [...suburbs].sort((a, b) => (a.state === b.state ? a.suburbId.localeCompare(b.suburbId, 'en') : a.state.localeCompare(b.state, 'en')));
}

/** Person total against G01's Tot_P_P; occupied private dwellings against G35's total. */
function totalMissed(inputs: CensusInputs, salCode: string, persons: number, dwellings: number): boolean {
  const publishedPersonsTotal = inputs.totals.get('G01')?.get(salCode);
  const publishedDwellings = inputs.totals.get('G35')?.get(salCode);
  return (publishedPersonsTotal !== undefined && publishedPersonsTotal !== persons) || (publishedDwellings !== undefined && publishedDwellings !== dwellings);
}
