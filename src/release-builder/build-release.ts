import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { AreaLevel, InputError, SuburbGeography } from '../synthesis/census/inputs.ts';
import { AREA_LEVELS, PACK_LEVEL, formatInputError } from '../synthesis/census/inputs.ts';
import { indexInputs } from '../census-input/file-index.ts';
import { mainSa2Of } from '../census-input/area-sa2.ts';
import { variablesOf } from '../synthesis/census/variables.ts';
import { DATASET_TYPES, type FittedTo } from '../core/dataset.ts';
import { loadCensusInputs } from '../census-input/load-inputs.ts';
import { loadPerturbationFloor, loadRealismReference, loadTruth } from '../demo/truth-files.ts';
import { createPoolReleaseWriter } from '../adapters/pools/writer.ts';
import { RELEASE_FILES } from '../adapters/pools/catalog.ts';
import { implicateDir, implicatesRoot } from '../adapters/pools/release-dirs.ts';
import { areaJob, type SuburbJob } from '../synthesis/pipeline/area-job.ts';
import { prepareLevel, withBorrowing, withBorrowingBy, type LevelInputs } from '../synthesis/pipeline/level.ts';
import type { BandStrengths, StrengthFigures, StrengthRequest } from '../synthesis/pipeline/borrowing.ts';
import { createTaskPool, type TaskPool } from './task-pool.ts';
import { derivedTablesOf, fitFiguresOf, levelFigures, releaseReport, type FitFigures, type LevelFitFigures } from '../synthesis/pipeline/release-report.ts';
import { renderReport } from '../synthesis/pipeline/render-report.ts';
import type { BuildReport } from '../synthesis/pipeline/report.ts';
import { implicateSeed } from '../synthesis/pipeline/seeds.ts';
import { createAreaTally, pooledTally, tallyArea, type AreaTally } from '../synthesis/pipeline/tally.ts';
import { runJobsInOrder, type PoolStatistics } from './worker-pool.ts';
import { startPhaseClock, synthesisPhase, type BuildPhases, type PhaseFigures } from './phase-clock.ts';
import { qualityAreaOf, qualityFileOf } from './quality.ts';
import { QUALITY_FILE, type QualityArea } from '../adapters/pools/quality-file.ts';
import { loadSizing, sizeLevelInputs, type PreparedPopulation } from './population-sizing.ts';
import { populationFigures, renderPopulationFigures, type LevelSizing, type PopulationFigures } from '../synthesis/pipeline/population.ts';
import type { PopulationEstimate } from '../synthesis/census/population-estimate.ts';
import type { PopulationBasis } from '../core/provenance.ts';
import { STATE_BY_ABS_CODE } from '../census-names.ts';
import type { PoolReleaseWriter } from '../adapters/pools/writer.ts';
import type { SuburbEntry } from '../adapters/pools/catalog.ts';

export interface BuildOptions {
  readonly inputsDir: string;
  /** Root of the pool releases; this release goes to <poolsDir>/<version>. */
  readonly poolsDir: string;
  readonly version: string;
  readonly seed: number;
  readonly smallSuburbThreshold: number;
  /**
   * The levels whose pools the release holds, each fitted to its own DataPack tables (default
   * ["sal"]): suburbs from the SAL pack and the ASGS files, postal areas from the POA pack, LGAs
   * from the LGA pack.
   */
  readonly levels?: readonly AreaLevel[];
  /**
   * Accept DataPack headers the ABS 2021 metadata does not list for their part file (skipped)
   * and read the specs' columns from whichever part holds them. Not needed for a real 2021
   * DataPack, whose every column the metadata lists (the unread ones are skipped anyway); for a
   * release whose layout changed. Off by default, so an unexpected header stops the build.
   */
  readonly allowUnknownHeaders?: boolean;
  /** Worker threads for synthesis (0: inline on the main thread). Default: one per core. */
  readonly threads?: number;
  /**
   * Independent syntheses of every pool the release holds (default 1): implicate 1 in the release
   * directory, implicate k in <release>/implicates/<k>, each from the same inputs with its own seed
   * (implicateSeed), so that draws from different implicates carry the synthesis's uncertainty.
   */
  readonly implicates?: number;
  /**
   * Size every area to an estimated resident population (src/census-input/population-estimates.ts
   * reads the file; src/synthesis/pipeline/population.ts scales each area's tables): the file and
   * the year (needed when the file holds several).
   */
  readonly population?: { readonly file: string; readonly year?: number };
  /** Also write pools.duckdb, the records' copy for SQL inspection (default false: serving never reads it). */
  readonly sqlCopy?: boolean;
  /** Stops the build between areas (what is half written is removed); the build then rejects with BuildAborted. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (phase: 'load' | 'synthesize' | 'write', done: number, total: number) => void;
}

export interface BuildSummary extends FitFigures {
  readonly version: string;
  /**
   * Per level, table and size band: how strongly small or unreliable areas borrow from their
   * parent (k), chosen on held-out published subtotals, with the held-out RMSE at k, without
   * borrowing and at the default (synthesis/pipeline/borrowing.ts).
   */
  readonly borrowing_strength: StrengthFigures;
  /** What the inputs held and how they were linked (match rates, levels or areas the pack lacks), one line each. */
  readonly input_notes: readonly string[];
  /** Areas of a level's geography not built because of the inputs, each with its reason. */
  readonly areas_left_out: readonly { readonly area: string; readonly reason: string }[];
  readonly dir: string;
  readonly checksum: string;
  /** "census" for real ABS inputs, "demo" for the generated ones. */
  readonly fitted_to: FittedTo;
  readonly levels: readonly AreaLevel[];
  /** Areas (suburbs, SA2s, postal areas, LGAs) in the release, per level. */
  readonly areas: Readonly<Partial<Record<AreaLevel, number>>>;
  /** How the members of a family or home resemble each other: every link against independence, its target and its reference (quality/resemblance.ts). */
  readonly family_links: BuildReport['realism']['all']['synthetic']['resemblance'];
  /** The fit figures of each level's areas alone (the overall ones pool every level's). */
  readonly by_level: LevelFitFigures;
  readonly suburbs: number;
  readonly variables: Readonly<Record<string, number>>;
  readonly seconds: number;
  readonly peak_rss_mb: number;
  /** Wall and main-thread CPU time per phase, and the synthesis workers' CPU and busy share (implicate 1's synthesis and write). */
  readonly phases: BuildPhases;
  readonly report: BuildReport;
  readonly summaryText: string;
  /** The estimated resident population the areas were sized to, and each level's and state's persons against it (absent: the census counts). */
  readonly population?: PopulationFigures;
  /** Every implicate the build wrote (the first is this summary's own), with its seed and fit. */
  readonly implicates: readonly ImplicateSummary[];
}

export interface ImplicateSummary {
  readonly implicate: number;
  readonly seed: number;
  readonly dir: string;
  readonly checksum: string;
  readonly persons: number;
  readonly srmse_median: number | null;
  readonly seconds: number;
}

/** A build stopped by its signal (a server shutting down while it completes the demo's implicates). */
export class BuildAborted extends Error {
  constructor() {
    super('build stopped');
  }
}

const defaultThreads = (): number => Math.max(1, availableParallelism());

/** A build that cannot start because of its inputs; one line per problem, each naming file, row and column. */
export class BuildInputError extends Error {
  constructor(readonly problems: readonly InputError[]) {
    super(problems.length === 1 ? formatInputError(problems[0]!) : `${problems.length} problems:\n${problems.map((p) => `  ${formatInputError(p)}`).join('\n')}`);
  }
}

/**
 * Inputs → synthesizer → pool release and build report; with `implicates: M`, M independent
 * syntheses, the first in the release directory, the others in <release>/implicates/<k>.
 */
export async function buildRelease(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const dir = join(options.poolsDir, options.version);
  await rm(dir, { recursive: true, force: true });
  const loading = startPhaseClock();
  const prepared = await prepareBuild(options);
  const load = loading.elapsed();
  const count = options.implicates ?? 1;
  const first = await synthesizeInto(options, prepared, dir, 1, count === 1);
  const implicates: ImplicateSummary[] = [implicateSummary(first, 1, options.seed)];
  for (let k = 2; k <= count; k++) implicates.push(await buildImplicate(options, dir, k, prepared, k === count));
  // seconds: the whole build, inputs and every implicate.
  return { ...first, phases: { ...first.phases, load }, implicates, seconds: (performance.now() - started) / 1000, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) };
}

/**
 * Implicate k (≥ 2) of the release in `releaseDir`: synthesized into a scratch directory beside
 * it and renamed into <release>/implicates/<k> when complete, so a server never sees half of one
 * and two builders of the same implicate do not mix (the second finds it there and drops its own).
 */
export async function buildImplicate(options: Omit<BuildOptions, 'poolsDir' | 'implicates'>, releaseDir: string, k: number, prepared?: PreparedBuild, lastUse = prepared === undefined): Promise<ImplicateSummary> {
  if (!Number.isInteger(k) || k < 2) throw new Error(`implicate ${k}: extra implicates are numbered from 2`);
  const target = implicateDir(releaseDir, k);
  const scratch = join(implicatesRoot(releaseDir), `.building-${k}-${process.pid}-${Date.now()}`);
  await mkdir(implicatesRoot(releaseDir), { recursive: true });
  try {
    const built = await synthesizeInto(options, prepared ?? (await prepareBuild(options)), scratch, k, lastUse);
    try {
      await rename(scratch, target);
    } catch (error) {
      if (!existsSync(join(target, RELEASE_FILES.manifest))) throw error;
    }
    return { ...implicateSummary(built, k, options.seed), dir: target };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const implicateSummary = (s: Omit<BuildSummary, 'implicates'>, k: number, buildSeed: number): ImplicateSummary => ({
  implicate: k,
  seed: implicateSeed(buildSeed, k),
  dir: s.dir,
  checksum: s.checksum,
  persons: s.persons,
  srmse_median: s.srmse_median,
  seconds: s.seconds,
});

/** The inputs loaded and checked once, for every implicate of a build. */
export interface PreparedBuild {
  readonly levels: readonly AreaLevel[];
  readonly loadedLevels: readonly LevelInputs[];
  readonly truth: Loaded<typeof loadTruth>;
  readonly reference: Loaded<typeof loadRealismReference>;
  readonly floor: Loaded<typeof loadPerturbationFloor>;
  /** Lines about the inputs as a whole (a level asked for whose pack is not there). */
  readonly notes: readonly string[];
  /** The estimated resident population the areas were sized to, and each level's sizes (absent: the census counts). */
  readonly population?: PreparedPopulation;
}

type Loaded<F extends (...args: never[]) => Promise<unknown>> = Extract<Awaited<ReturnType<F>>, { ok: true }> extends { value: infer T } ? T : never;

async function prepareBuild(options: Pick<BuildOptions, 'inputsDir' | 'levels' | 'allowUnknownHeaders' | 'onProgress' | 'smallSuburbThreshold' | 'population' | 'threads'>): Promise<PreparedBuild> {
  const progress = options.onProgress ?? (() => {});
  const levels = orderLevels(options.levels ?? ['sal']);
  const problems: InputError[] = [];
  const loadedLevels: LevelInputs[] = [];
  const notes: string[] = [];
  const index = await indexInputs(options.inputsDir);
  const sized = options.population ? await loadSizing(options.population, index) : undefined;
  if (sized && !sized.ok) throw new BuildInputError(sized.error);
  const sizing = sized?.value;
  const sizes = new Map<AreaLevel, LevelSizing>();
  const absent = levels.filter((level) => !index.dataPack.has(PACK_LEVEL[level]));
  // A pack holding only some of the levels asked for: the others are built, each absent one is a line of the report.
  if (absent.length > 0 && absent.length < levels.length)
    for (const level of absent) notes.push(`${level}: the inputs hold no ${PACK_LEVEL[level]} DataPack files (2021Census_<part>_AUST_${PACK_LEVEL[level]}.csv): this level is not built`);
  // Each level's borrowing strengths are chosen on worker threads while the next level loads.
  const strengths = startStrengthChoice(options.threads ?? defaultThreads(), options.smallSuburbThreshold);
  const choosing: Promise<LevelInputs>[] = [];
  try {
    for (const level of loadOrder(absent.length < levels.length ? levels.filter((l) => !absent.includes(l)) : levels)) {
      const loaded = await loadCensusInputs(options.inputsDir, (done, total) => progress('load', done, total), {
        level,
        allowUnknownHeaders: options.allowUnknownHeaders ?? false,
      });
      if (!loaded.ok) problems.push(...loaded.error);
      else if (!sizing) choosing.push(settledLater(strengths.choose(prepareLevel(loaded.value))));
      else {
        const sized = sizeLevelInputs(loaded.value, sizing);
        problems.push(...sized.problems);
        sizes.set(level, sized.sizing);
        choosing.push(settledLater(strengths.choose(prepareLevel(sized.inputs))));
      }
    }
    // Settled before any throw, so that no choice is left running on a closed pool.
    const chosen = await Promise.allSettled(choosing);
    if (problems.length > 0) throw new BuildInputError(problems);
    for (const c of chosen) {
      if (c.status === 'rejected') throw c.reason;
      loadedLevels.push(c.value);
    }
    loadedLevels.sort((a, b) => AREA_LEVELS.indexOf(a.inputs.level) - AREA_LEVELS.indexOf(b.inputs.level));
  } finally {
    await strengths.close();
  }
  const truthLoaded = await loadTruth(options.inputsDir);
  if (!truthLoaded.ok) throw new BuildInputError([truthLoaded.error]);
  const truth = truthLoaded.value;
  const referenceLoaded = await loadRealismReference(options.inputsDir);
  if (!referenceLoaded.ok) throw new BuildInputError([referenceLoaded.error]);
  const floorLoaded = await loadPerturbationFloor(options.inputsDir);
  if (!floorLoaded.ok) throw new BuildInputError([floorLoaded.error]);
  const population = sizing ? { estimate: sizing.estimate, byLevel: sizes, notes: sizing.notes } : undefined;
  return { levels: loadedLevels.map((l) => l.inputs.level), loadedLevels, truth, reference: referenceLoaded.value, floor: floorLoaded.value, notes, ...(population ? { population } : {}) };
}

/** A promise whose failure is looked at later (Promise.allSettled), not an unhandled rejection meanwhile. */
function settledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** Areas of a level from which its strengths are chosen on worker threads: below, starting the threads costs more than they save. */
const STRENGTH_THREADS_FROM_AREAS = 300;

/** Chooses each level's borrowing strengths: table by table on `threads` worker threads (started at the first large level), or inline. */
function startStrengthChoice(threads: number, smallThreshold: number): { choose(level: LevelInputs): Promise<LevelInputs>; close(): Promise<void> } {
  let pool: TaskPool<StrengthRequest, BandStrengths | undefined> | undefined;
  return {
    async choose(level) {
      if (threads <= 0 || level.inputs.suburbs.length < STRENGTH_THREADS_FROM_AREAS) return withBorrowing(level, smallThreshold);
      const workers = (pool ??= createTaskPool(threads, 'strength-worker'));
      return withBorrowingBy((task) => workers.run(() => ({ tableId: task.tableId, areas: task.areas(), ...(task.significance !== undefined ? { significance: task.significance } : {}) })), level, smallThreshold);
    },
    close: async () => pool?.close(),
  };
}

/** One synthesis of every area (implicate k, with its own seed) written as a complete release into `dir`. */
async function synthesizeInto(options: Omit<BuildOptions, 'poolsDir' | 'implicates'>, prepared: PreparedBuild, dir: string, k: number, lastUse: boolean): Promise<Omit<BuildSummary, 'implicates'>> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => {});
  const seed = implicateSeed(options.seed, k);
  const variables = Object.fromEntries(DATASET_TYPES.map((d) => [d, variablesOf(d)])) as ReleaseVariables;
  // Demo inputs carry their hidden truth (truth/); real ABS inputs have none.
  const fittedTo: FittedTo = prepared.truth.size > 0 ? 'demo' : 'census';
  const population = prepared.population ? populationBasisOf(prepared.population.estimate) : undefined;
  const writer = await createPoolReleaseWriter({ dir, version: options.version, variables, fittedTo, synthesis: { implicate: k, seed: String(seed) }, sqlCopy: options.sqlCopy ?? false, ...(population ? { population } : {}) });
  try {
    const quality = new Map<string, QualityArea>();
    const synthesizing = startPhaseClock();
    const { tally, pool } = await synthesizeAreas(options, prepared, seed, writer, quality);
    const synthesize = synthesisPhase(synthesizing.elapsed(), pool);
    if (lastUse) releaseAreaTables(prepared);
    const writing = startPhaseClock();
    const population = prepared.population ? populationFiguresOf(prepared, prepared.population, tally) : undefined;
    const report = { ...releaseReport(options.version, prepared, tally), ...(population ? { population } : {}) };
    const summaryText = renderReport(report, (performance.now() - started) / 1000) + (population ? renderPopulationFigures(population) : '');
    progress('write', 0, 1);
    const qualityFile = qualityFileOf(options.version, prepared.loadedLevels, quality);
    const { checksum } = await writer.finish(report, summaryText, [{ name: QUALITY_FILE, data: JSON.stringify(qualityFile) }]);
    progress('write', 1, 1);
    const phases = { load: NO_PHASE, synthesize, write: writing.elapsed() };
    return buildSummaryOf({ version: options.version, dir, checksum, fittedTo, started, summaryText, phases }, prepared, tally, report, variables);
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/**
 * Empties the areas' tables and their parents' once the last synthesis that needs them is done:
 * the report, the quality file and the summary read the levels' notes, codes and strengths only.
 * Nationally the tables are over a gigabyte of the heap, and the report is built beside them:
 * the four-level build reached 4.6 GB and spent 146 s of main-thread CPU (mostly collecting
 * garbage near the heap's limit) writing the release.
 */
function releaseAreaTables(prepared: PreparedBuild): void {
  for (const level of prepared.loadedLevels) {
    const { inputs } = level;
    for (const map of [inputs.tables, inputs.aggregates, level.published.lga, level.published.state, level.lgaTables, level.stateTables]) (map as Map<unknown, unknown>).clear();
  }
}

/** An implicate's summary before the build adds its load phase (the inputs are loaded once for every implicate). */
const NO_PHASE: PhaseFigures = { seconds: 0, main_cpu_seconds: 0 };

type ReleaseVariables = Record<(typeof DATASET_TYPES)[number], ReturnType<typeof variablesOf>>;

/**
 * Every area of every level synthesized (on worker threads) and appended to the release in
 * release order; an area that cannot be fitted is listed, and a build where none could fails.
 */
async function synthesizeAreas(options: Omit<BuildOptions, 'poolsDir' | 'implicates'>, prepared: PreparedBuild, seed: number, writer: PoolReleaseWriter, quality: Map<string, QualityArea>): Promise<{ tally: AreaTally; pool: PoolStatistics }> {
  const progress = options.onProgress ?? (() => {});
  const { loadedLevels, truth } = prepared;
  const tally = createAreaTally(loadedLevels.map((level) => level.inputs.level));
  const areas = loadedLevels.flatMap((level) => orderForRelease(level.inputs.suburbs).map((suburb) => ({ suburb, level, into: tally.byLevel.get(level.inputs.level)! })));
  const jobs = function* (): Generator<SuburbJob> {
    for (const [index, { suburb, level, into }] of areas.entries()) {
      if (options.signal?.aborted) throw new BuildAborted();
      const { job, estimated, structural } = areaJob(level, suburb, index, { seed, smallSuburbThreshold: options.smallSuburbThreshold }, truth);
      into.notPublished.estimated += estimated;
      into.notPublished.structural += structural;
      yield job;
    }
  };
  let written = 0;
  const pool = await runJobsInOrder(jobs(), options.threads ?? defaultThreads(), async (outcome) => {
    // Checked here too: the jobs are read well ahead (every one, for a small build), so the generator's check may be long past.
    if (options.signal?.aborted) throw new BuildAborted();
    const { suburb, level, into } = areas[outcome.index]!;
    progress('synthesize', outcome.index + 1, areas.length);
    if ('failure' in outcome) {
      into.failed.push({ area: `${suburb.suburbId} (${suburb.salCode})`, reason: outcome.failure });
      return;
    }
    tallyArea(into, tally.realism, level, suburb, outcome);
    quality.set(suburb.salCode, qualityAreaOf(level, suburb.salCode, outcome.inputs));
    await writer.append({ suburb: { ...suburbEntryOf(suburb, outcome.small), ...sizeOf(prepared, level.inputs.level, suburb.salCode) }, population: outcome.population, coarsened: outcome.coarsened });
    written++;
  }, { weight: (job) => job.persons });
  const { failed } = pooledTally(tally);
  if (written === 0) throw new BuildInputError([{ file: options.inputsDir, message: `no area could be fitted (${failed.length} failed: ${failed.slice(0, 3).map((f) => `${f.area}: ${f.reason}`).join('; ')})` }]);
  return { tally, pool };
}

/** The area's census count and estimated population, where the build was sized to an estimate. */
function sizeOf(prepared: PreparedBuild, level: AreaLevel, code: string): Pick<SuburbEntry, 'censusPersons' | 'estimatedPersons'> {
  const size = prepared.population?.byLevel.get(level)?.sizes.get(code);
  return size ? { censusPersons: size.census, estimatedPersons: Math.round(size.estimate) } : {};
}

/** The estimate as the release's catalog names it. */
const populationBasisOf = (e: PopulationEstimate): PopulationBasis => ({ year: e.year, source: e.source, breakdown: e.breakdown, ...(e.status ? { status: e.status } : {}) });

/** Each level's persons against its areas' estimates and its states' (pipeline/population.ts). */
function populationFiguresOf(prepared: PreparedBuild, population: PreparedPopulation, tally: AreaTally): PopulationFigures {
  const levels = new Map(
    prepared.loadedLevels.flatMap((l) => {
      const sizing = population.byLevel.get(l.inputs.level);
      const fits = tally.byLevel.get(l.inputs.level)?.fits ?? [];
      return sizing ? [[l.inputs.level, { sizing, fits, stateOf: new Map(l.inputs.suburbs.map((s) => [s.salCode, s.state as string])) }] as const] : [];
    }),
  );
  const notes = [...population.notes, ...[...population.byLevel.values()].flatMap((s) => s.notes)];
  return populationFigures(population.estimate, levels, (sa2) => STATE_BY_ABS_CODE[sa2.slice(0, 1)], [...new Set(notes)]);
}

/** The area as the release's catalog lists it. */
function suburbEntryOf(suburb: SuburbGeography, small: boolean): SuburbEntry {
  return {
    level: suburb.level,
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
    ...sa2Of(suburb),
    ...(suburb.largestSuburbs && suburb.largestSuburbs.length > 0 ? { largestSuburbs: suburb.largestSuburbs } : {}),
  };
}

/** The SA2 the area's records are placed in (code and ABS name), where the correspondences place one (mainSa2Of). */
function sa2Of(area: SuburbGeography): Pick<SuburbEntry, 'sa2' | 'sa2Code'> {
  const sa2 = mainSa2Of(area);
  return sa2 ? { sa2: sa2.name, sa2Code: sa2.code } : {};
}

/** The build summary's figures from the report (what `spq build` prints and the CLI's JSON holds). */
function buildSummaryOf(
  release: { readonly version: string; readonly dir: string; readonly checksum: string; readonly fittedTo: FittedTo; readonly started: number; readonly summaryText: string; readonly phases: BuildPhases },
  prepared: PreparedBuild,
  tally: AreaTally,
  report: BuildReport,
  variables: ReleaseVariables,
): Omit<BuildSummary, 'implicates'> {
  const { levels, floor } = prepared;
  return {
    version: release.version,
    dir: release.dir,
    checksum: release.checksum,
    fitted_to: release.fittedTo,
    levels,
    areas: Object.fromEntries(levels.map((level) => [level, tally.byLevel.get(level)?.fits.length ?? 0])),
    suburbs: report.suburbs,
    variables: Object.fromEntries(DATASET_TYPES.map((d) => [d, variables[d].length])),
    ...fitFiguresOf(report, pooledTally(tally)),
    borrowing_strength: report.borrowingStrength ?? {},
    ...(floor ? { floor_srmse_median: floor.median, floor_srmse_p95: floor.p95 } : {}),
    family_links: report.realism.all.synthetic.resemblance,
    input_notes: report.inputNotes,
    areas_left_out: report.areasLeftOut,
    by_level: levelFigures(release.version, tally, derivedTablesOf(prepared.loadedLevels)),
    seconds: (performance.now() - release.started) / 1000,
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    phases: release.phases,
    report,
    ...(report.population ? { population: report.population } : {}),
    summaryText: release.summaryText,
  };
}

/** The requested levels, each once, finest first (the release lays them out in that order). */
function orderLevels(levels: readonly AreaLevel[]): AreaLevel[] {
  return AREA_LEVELS.filter((level) => levels.includes(level));
}

/**
 * The order levels are loaded in: suburbs last. Their load is by far the longest (their tables
 * are taken from their parents, own cells first), so the other levels' borrowing strengths are
 * chosen on the worker threads meanwhile. The release keeps the levels' order (orderLevels).
 */
function loadOrder(levels: readonly AreaLevel[]): AreaLevel[] {
  return [...levels.filter((l) => l !== 'sal'), ...levels.filter((l) => l === 'sal')];
}

/** Suburbs in catalog order: by state, then identifier, so a release's row ranges are stable. */
function orderForRelease(suburbs: readonly SuburbGeography[]): SuburbGeography[] {
  return [...suburbs].sort((a, b) => (a.state === b.state ? a.suburbId.localeCompare(b.suburbId, 'en') : a.state.localeCompare(b.state, 'en')));
}
