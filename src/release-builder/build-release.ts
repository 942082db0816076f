import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { AreaLevel, CensusInputs, InputError, SuburbGeography } from '../synthesis/census/inputs.ts';
import { AREA_LEVELS, PACK_LEVEL, formatInputError } from '../synthesis/census/inputs.ts';
import { indexInputs } from '../census-input/file-index.ts';
import { realSa2s } from '../census-input/asgs-reference.ts';
import { fillNotPublished, hasUnpublished } from '../synthesis/census/published.ts';
import { findSamePeople, type SamePeople } from '../synthesis/census/same-people.ts';
import { INPUT_TABLES, VALIDATION_TABLES } from '../synthesis/census/tables.ts';
import { categoryIndex, variablesOf } from '../synthesis/census/variables.ts';
import type { Population } from '../synthesis/census/population.ts';
import { DATASET_TYPES, type FittedTo } from '../core/dataset.ts';
import { loadCensusInputs } from '../census-input/load-inputs.ts';
import { loadPerturbationFloor, loadRealismReference, loadTruth } from '../demo/truth-files.ts';
import { sizeBand, type SizeBand } from '../synthesis/quality/metrics.ts';
import { createRealismAccumulator, withReference } from '../synthesis/quality/realism.ts';
import type { ResemblanceFigures } from '../synthesis/quality/resemblance.ts';
import { createPoolReleaseWriter } from '../adapters/pools/writer.ts';
import { RELEASE_FILES } from '../adapters/pools/catalog.ts';
import { implicateDir, implicatesRoot } from '../adapters/pools/release-dirs.ts';
import { sumTablesByParent } from './parent-targets.ts';
import { areaStrengths, levelStrengths, strengthFigures, type LevelStrengths, type StrengthFigures } from './borrowing.ts';
import { renderReport, summariseReport, type BuildReport, type SuburbFit } from './report.ts';
import type { SuburbJob } from './suburb-job.ts';
import { runJobsInOrder } from './worker-pool.ts';
import type { PoolReleaseWriter } from '../adapters/pools/writer.ts';
import type { SuburbEntry } from '../adapters/pools/catalog.ts';
import type { SuburbOutcome } from './suburb-job.ts';

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
  /** Stops the build between areas (what is half written is removed); the build then rejects with BuildAborted. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (phase: 'load' | 'synthesize' | 'write', done: number, total: number) => void;
}

/** The fit figures of a build, for the whole release and for each level's areas alone. */
export interface FitFigures {
  readonly persons: number;
  readonly families: number;
  readonly dwellings: number;
  readonly srmse_median: number | null;
  readonly srmse_p95: number | null;
  readonly srmse_by_table: Readonly<Record<string, { readonly median: number | null; readonly p95: number | null }>>;
  readonly srmse_by_band: Readonly<Record<'<500' | '500-4999' | '5000+', { readonly median: number | null; readonly p95: number | null; readonly pairs: number }>>;
  /** The census's own noise floor (quality/floor.ts) over the same pairs, by size band and by table. */
  readonly floor_srmse_by_band: Readonly<Record<'<500' | '500-4999' | '5000+', { readonly median: number | null; readonly p95: number | null; readonly pairs: number }>>;
  readonly floor_srmse_by_table: Readonly<Record<string, { readonly median: number | null; readonly p95: number | null }>>;
  readonly truth_srmse_median: number | null;
  /** Demo builds: the hidden truth itself scored against the tables it was published as (the perturbation floor). */
  readonly floor_srmse_median?: number | null;
  readonly floor_srmse_p95?: number | null;
  /** Where some tables were taken from parents (suburbs): the fit to the areas' own tables. */
  readonly own_tables: { readonly srmse_median: number | null; readonly srmse_p95: number | null; readonly pairs: number } | null;
  /** Areas that could not be fitted, by name with the reason; they are not in the release. */
  readonly areas_failed: readonly { readonly area: string; readonly reason: string }[];
  /** Unpublished (`..`) cells: estimated from a parent area that publishes them, and structural zeros (published at no level). */
  readonly cells_not_published: { readonly estimated: number; readonly structural: number };
  readonly structural_violations: number;
  readonly totals_mismatched: number;
}

export interface BuildSummary extends FitFigures {
  readonly version: string;
  /**
   * Per level, table and size band: how strongly small or unreliable areas borrow from their
   * parent (k), chosen on held-out published subtotals, with the held-out RMSE at k, without
   * borrowing and at the default (borrowing.ts).
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
  readonly family_links: ResemblanceFigures;
  /** The fit figures of each level's areas alone (the overall ones pool every level's). */
  readonly by_level: Readonly<Partial<Record<AreaLevel, FitFigures & { readonly areas: number }>>>;
  readonly suburbs: number;
  readonly variables: Readonly<Record<string, number>>;
  readonly seconds: number;
  readonly peak_rss_mb: number;
  readonly report: BuildReport;
  readonly summaryText: string;
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

/**
 * Implicate k's synthesis seed: the build seed for k = 1 (a one-implicate release is what it was),
 * else the build seed mixed with k (FNV-1a), so each implicate is an independent synthesis.
 */
export function implicateSeed(buildSeed: number, k: number): number {
  if (k === 1) return buildSeed;
  let hash = 0x811c9dc5 ^ (buildSeed >>> 0);
  for (const c of `implicate ${k}`) hash = Math.imul(hash ^ c.charCodeAt(0), 0x01000193);
  return hash >>> 0;
}

const defaultThreads = (): number => Math.max(1, availableParallelism());

/** A build that cannot start because of its inputs; one line per problem, each naming file, row and column. */
export class BuildInputError extends Error {
  constructor(readonly problems: readonly InputError[]) {
    super(problems.length === 1 ? formatInputError(problems[0]!) : `${problems.length} problems:\n${problems.map((p) => `  ${formatInputError(p)}`).join('\n')}`);
  }
}

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

/** The area's published totals and subtotals per table (spec otherCells order). */
export function aggregatesOf(inputs: CensusInputs, salCode: string): Map<string, Float64Array> {
  const aggregates = new Map<string, Float64Array>();
  for (const [tableId, byArea] of inputs.aggregates) {
    const values = byArea.get(salCode);
    if (values) aggregates.set(tableId, values);
  }
  return aggregates;
}

export function tablesOf(inputs: CensusInputs, salCode: string): Map<string, Float64Array> {
  const tables = new Map<string, Float64Array>();
  for (const [tableId, bySuburb] of inputs.tables) {
    const cells = bySuburb.get(salCode);
    if (cells) tables.set(tableId, cells);
  }
  return tables;
}

type Tables = ReadonlyMap<string, Float64Array>;

/** One level's inputs and the parents its areas borrow from, as published (NaN where not) and filled. */
export interface LevelInputs {
  readonly inputs: CensusInputs;
  readonly published: { readonly lga: ReadonlyMap<string, Tables>; readonly state: ReadonlyMap<string, Tables>; readonly australia: Tables | undefined };
  /** The parents with their own unpublished cells resolved: what small areas are smoothed toward. */
  readonly lgaTables: ReadonlyMap<string, Tables>;
  readonly stateTables: ReadonlyMap<string, Tables>;
  /** Figures of different tables that count the same people in this level's data. */
  readonly samePeople: SamePeople;
  /** How strongly the level's areas borrow from their parents, per table and size band (borrowing.ts); absent: the default everywhere. */
  readonly borrowing?: LevelStrengths;
}

/**
 * The parents an area borrows from: its LGA (suburbs only: the suburbs' tables summed), its
 * state and Australia (as published when the inputs have the STE and AUS files, else summed),
 * each with its own unpublished cells estimated from the next parent up.
 */
export function prepareLevel(inputs: CensusInputs): LevelInputs {
  // A sum over areas is NaN in a cell any of them leaves unpublished: unpublished for the parent too.
  const summed = sumTablesByParent(inputs.suburbs, inputs.tables);
  const australia = inputs.parents.australia;
  const state = new Map<string, Tables>([...summed.byState].map(([s, tables]) => [s, inputs.parents.states.get(s) ?? tables]));
  const lga = inputs.level === 'sal' ? summed.byLga : new Map<string, Tables>();
  const fillAll = (tables: Tables, above: (tableId: string) => (Float64Array | undefined)[]) =>
    new Map([...tables].map(([id, cells]) => [id, fillNotPublished(cells, above(id)).cells]));
  const stateTables = new Map([...state].map(([s, tables]) => [s, fillAll(tables, (id) => [australia?.get(id)])]));
  const stateOfLga = new Map(inputs.suburbs.map((s) => [s.lgaCode, s.state]));
  const lgaTables = new Map([...lga].map(([code, tables]) => [code, fillAll(tables, (id) => [state.get(stateOfLga.get(code)!)?.get(id), australia?.get(id)])]));
  const samePeople = findSamePeople(INPUT_TABLES, inputs.tables, inputs.aggregates, inputs.suburbs.map((s) => s.salCode));
  return { inputs, published: { lga, state, australia }, lgaTables, stateTables, samePeople };
}

/**
 * One area's synthesis job: its tables with unpublished cells resolved from its parents as
 * published (and how many were estimated, and how many are structural zeros), its published
 * totals and subtotals, the level's same-people figures and the parents' tables it borrows from.
 */
export function areaJob(
  level: LevelInputs,
  suburb: SuburbGeography,
  index: number,
  options: Pick<BuildOptions, 'seed' | 'smallSuburbThreshold'>,
  truth: ReadonlyMap<string, ReadonlyMap<string, Float64Array>> = new Map(),
): { readonly job: SuburbJob; readonly estimated: number; readonly structural: number } {
  const { inputs } = level;
  const lga = level.lgaTables.get(suburb.lgaCode);
  const state = level.stateTables.get(suburb.state);
  const parents = [level.published.lga.get(suburb.lgaCode), level.published.state.get(suburb.state), level.published.australia];
  const tables: [string, Float64Array][] = [];
  const published: [string, Float64Array][] = [];
  let estimated = 0;
  let structural = 0;
  for (const [tableId, cells] of tablesOf(inputs, suburb.salCode)) {
    if (!hasUnpublished(cells)) {
      tables.push([tableId, cells]);
      continue;
    }
    const filled = fillNotPublished(cells, parents.map((p) => p?.get(tableId)));
    estimated += filled.estimated;
    structural += filled.structural;
    tables.push([tableId, filled.cells]);
    published.push([tableId, cells]);
  }
  const job: SuburbJob = {
    index,
    salCode: suburb.salCode,
    seed: suburbSeed(options.seed, suburb.salCode),
    small: publishedPersons(inputs, suburb.salCode) < options.smallSuburbThreshold,
    remoteness: suburb.remoteness,
    tables,
    published,
    totals: [...totalsOf(inputs, suburb.salCode)],
    aggregates: [...aggregatesOf(inputs, suburb.salCode)],
    samePeople: level.samePeople,
    lgaTables: [...(lga ?? [])],
    stateTables: [...(state ?? [])],
    ...(level.borrowing ? { borrowing: areaStrengths(level.borrowing, publishedPersons(inputs, suburb.salCode)) } : {}),
    truth: VALIDATION_TABLES.flatMap((table) => {
      const cells = truth.get(table.id)?.get(suburb.salCode);
      return cells ? [[table.id, cells] as const] : [];
    }),
  };
  return { job, estimated, structural };
}

/**
 * Inputs → synthesizer → pool release and build report; with `implicates: M`, M independent
 * syntheses, the first in the release directory, the others in <release>/implicates/<k>.
 */
export async function buildRelease(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const dir = join(options.poolsDir, options.version);
  await rm(dir, { recursive: true, force: true });
  const prepared = await prepareBuild(options);
  const first = await synthesizeInto(options, prepared, dir, 1);
  const implicates: ImplicateSummary[] = [implicateSummary(first, 1, options.seed)];
  for (let k = 2; k <= (options.implicates ?? 1); k++) implicates.push(await buildImplicate(options, dir, k, prepared));
  // seconds: the whole build, inputs and every implicate.
  return { ...first, implicates, seconds: (performance.now() - started) / 1000, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) };
}

/**
 * Implicate k (≥ 2) of the release in `releaseDir`: synthesized into a scratch directory beside
 * it and renamed into <release>/implicates/<k> when complete, so a server never sees half of one
 * and two builders of the same implicate do not mix (the second finds it there and drops its own).
 */
export async function buildImplicate(options: Omit<BuildOptions, 'poolsDir' | 'implicates'>, releaseDir: string, k: number, prepared?: PreparedBuild): Promise<ImplicateSummary> {
  if (!Number.isInteger(k) || k < 2) throw new Error(`implicate ${k}: extra implicates are numbered from 2`);
  const target = implicateDir(releaseDir, k);
  const scratch = join(implicatesRoot(releaseDir), `.building-${k}-${process.pid}-${Date.now()}`);
  await mkdir(implicatesRoot(releaseDir), { recursive: true });
  try {
    const built = await synthesizeInto(options, prepared ?? (await prepareBuild(options)), scratch, k);
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
}

type Loaded<F extends (...args: never[]) => Promise<unknown>> = Extract<Awaited<ReturnType<F>>, { ok: true }> extends { value: infer T } ? T : never;

async function prepareBuild(options: Pick<BuildOptions, 'inputsDir' | 'levels' | 'allowUnknownHeaders' | 'onProgress' | 'smallSuburbThreshold'>): Promise<PreparedBuild> {
  const progress = options.onProgress ?? (() => {});
  const levels = orderLevels(options.levels ?? ['sal']);
  const problems: InputError[] = [];
  const loadedLevels: LevelInputs[] = [];
  const notes: string[] = [];
  const index = await indexInputs(options.inputsDir);
  const absent = levels.filter((level) => !index.dataPack.has(PACK_LEVEL[level]));
  // A pack holding only some of the levels asked for: the others are built, each absent one is a line of the report.
  if (absent.length > 0 && absent.length < levels.length)
    for (const level of absent) notes.push(`${level}: the inputs hold no ${PACK_LEVEL[level]} DataPack files (2021Census_<part>_AUST_${PACK_LEVEL[level]}.csv): this level is not built`);
  for (const level of absent.length < levels.length ? levels.filter((l) => !absent.includes(l)) : levels) {
    const loaded = await loadCensusInputs(options.inputsDir, (done, total) => progress('load', done, total), {
      level,
      allowUnknownHeaders: options.allowUnknownHeaders ?? false,
    });
    if (loaded.ok) loadedLevels.push(withBorrowing(prepareLevel(loaded.value), options.smallSuburbThreshold));
    else problems.push(...loaded.error);
  }
  if (problems.length > 0) throw new BuildInputError(problems);
  const truthLoaded = await loadTruth(options.inputsDir);
  if (!truthLoaded.ok) throw new BuildInputError([truthLoaded.error]);
  const truth = truthLoaded.value;
  const referenceLoaded = await loadRealismReference(options.inputsDir);
  if (!referenceLoaded.ok) throw new BuildInputError([referenceLoaded.error]);
  const floorLoaded = await loadPerturbationFloor(options.inputsDir);
  if (!floorLoaded.ok) throw new BuildInputError([floorLoaded.error]);
  return { levels: loadedLevels.map((l) => l.inputs.level), loadedLevels, truth, reference: referenceLoaded.value, floor: floorLoaded.value, notes };
}

/** The level with its borrowing strengths chosen on its own published subtotals (borrowing.ts). */
export function withBorrowing(level: LevelInputs, smallThreshold: number, significance?: number): LevelInputs {
  const borrowing = levelStrengths(level.inputs, level, (code) => publishedPersons(level.inputs, code), smallThreshold, significance);
  return { ...level, borrowing };
}

/** Each level's borrowing strengths, as the build's JSON and report give them. */
const borrowingOf = (prepared: PreparedBuild): StrengthFigures =>
  strengthFigures(new Map(prepared.loadedLevels.flatMap((l) => (l.borrowing ? [[l.inputs.level, l.borrowing] as const] : []))));

/** One synthesis of every area (implicate k, with its own seed) written as a complete release into `dir`. */
async function synthesizeInto(options: Omit<BuildOptions, 'poolsDir' | 'implicates'>, prepared: PreparedBuild, dir: string, k: number): Promise<Omit<BuildSummary, 'implicates'>> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => {});
  const seed = implicateSeed(options.seed, k);
  const variables = Object.fromEntries(DATASET_TYPES.map((d) => [d, variablesOf(d)])) as ReleaseVariables;
  // Demo inputs carry their hidden truth (truth/); real ABS inputs have none.
  const fittedTo: FittedTo = prepared.truth.size > 0 ? 'demo' : 'census';
  const writer = await createPoolReleaseWriter({ dir, version: options.version, variables, fittedTo, synthesis: { implicate: k, seed: String(seed) } });
  try {
    const tally = await synthesizeAreas(options, prepared, seed, writer);
    const report = releaseReport(options.version, prepared, tally);
    const summaryText = renderReport(report, (performance.now() - started) / 1000);
    progress('write', 0, 1);
    const { checksum } = await writer.finish(report, summaryText);
    progress('write', 1, 1);
    return buildSummaryOf({ version: options.version, dir, checksum, fittedTo, started, summaryText }, prepared, tally, report, variables);
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

type ReleaseVariables = Record<(typeof DATASET_TYPES)[number], ReturnType<typeof variablesOf>>;

/** What the synthesis of one level's areas gathered for the report and the summary. */
interface LevelTally {
  readonly fits: SuburbFit[];
  readonly totalsMismatched: string[];
  readonly failed: { area: string; reason: string }[];
  readonly notPublished: { estimated: number; structural: number };
}

/** What the synthesis of every area gathered: each level's tally, and the realism of all. */
interface AreaTally {
  readonly byLevel: ReadonlyMap<AreaLevel, LevelTally>;
  readonly realism: ReturnType<typeof createRealismAccumulator>;
}

const emptyLevelTally = (): LevelTally => ({ fits: [], totalsMismatched: [], failed: [], notPublished: { estimated: 0, structural: 0 } });

/** Every level's tally in one (release order: the levels' order). */
function pooledTally(tally: AreaTally): LevelTally {
  const levels = [...tally.byLevel.values()];
  return {
    fits: levels.flatMap((l) => l.fits),
    totalsMismatched: levels.flatMap((l) => l.totalsMismatched),
    failed: levels.flatMap((l) => l.failed),
    notPublished: { estimated: levels.reduce((n, l) => n + l.notPublished.estimated, 0), structural: levels.reduce((n, l) => n + l.notPublished.structural, 0) },
  };
}

/**
 * Every area of every level synthesized (on worker threads) and appended to the release in
 * release order; an area that cannot be fitted is listed, and a build where none could fails.
 */
async function synthesizeAreas(options: Omit<BuildOptions, 'poolsDir' | 'implicates'>, prepared: PreparedBuild, seed: number, writer: PoolReleaseWriter): Promise<AreaTally> {
  const progress = options.onProgress ?? (() => {});
  const { loadedLevels, truth } = prepared;
  const byLevel = new Map(loadedLevels.map((level) => [level.inputs.level, emptyLevelTally()]));
  const tally: AreaTally = { byLevel, realism: createRealismAccumulator() };
  const areas = loadedLevels.flatMap((level) => orderForRelease(level.inputs.suburbs).map((suburb) => ({ suburb, level, into: byLevel.get(level.inputs.level)! })));
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
  await runJobsInOrder(jobs(), options.threads ?? defaultThreads(), async (outcome) => {
    const { suburb, level, into } = areas[outcome.index]!;
    progress('synthesize', outcome.index + 1, areas.length);
    if ('failure' in outcome) {
      into.failed.push({ area: `${suburb.suburbId} (${suburb.salCode})`, reason: outcome.failure });
      return;
    }
    tallyArea(into, tally.realism, level, suburb, outcome);
    await writer.append({ suburb: suburbEntryOf(suburb, outcome.small), population: outcome.population, coarsened: outcome.coarsened });
    written++;
  }, jobPersons);
  const { failed } = pooledTally(tally);
  if (written === 0) throw new BuildInputError([{ file: options.inputsDir, message: `no area could be fitted (${failed.length} failed: ${failed.slice(0, 3).map((f) => `${f.area}: ${f.reason}`).join('; ')})` }]);
  return tally;
}

/** A job's published persons (G01, else G04): what its synthesis time grows with, to run the largest first. */
const jobPersons = (job: SuburbJob): number => job.totals.find(([id]) => id === 'G01')?.[1] ?? job.totals.find(([id]) => id === 'G04')?.[1] ?? 0;

/** One fitted area's figures for the report: totals missed, realism tallies, its fit. */
function tallyArea(tally: LevelTally, realism: AreaTally['realism'], level: LevelInputs, suburb: SuburbGeography, outcome: SuburbOutcome): void {
  const { population, small } = outcome;
  if (totalMissed(level.inputs, suburb.salCode, population.persons.count, occupiedPrivateDwellings(population))) tally.totalsMismatched.push(suburb.suburbId);
  realism.addTally(outcome.realism, sizeBand(outcome.realism.persons));
  tally.fits.push({
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
    ...(suburb.sa2s?.[0] ? { sa2: sa2NameOf(suburb.sa2s[0].code) } : {}),
    ...(suburb.largestSuburbs && suburb.largestSuburbs.length > 0 ? { largestSuburbs: suburb.largestSuburbs } : {}),
  };
}

let sa2Names: Map<string, string> | undefined;
/** An SA2's name as the ABS writes it (2021 descriptors); its code where 2021 has no SA2 of that code. */
const sa2NameOf = (code: string): string => (sa2Names ??= new Map(realSa2s().map((a) => [a.code, a.absName]))).get(code) ?? code;

function releaseReport(version: string, prepared: PreparedBuild, tally: AreaTally): BuildReport {
  const { reference, floor } = prepared;
  const realismSummary = reference ? withReference(tally.realism.summary(), reference) : tally.realism.summary();
  const all = pooledTally(tally);
  return summariseReport(version, all.fits, all.totalsMismatched, realismSummary, {
    areasFailed: all.failed,
    cellsNotPublished: all.notPublished,
    inputNotes: [...prepared.notes, ...prepared.loadedLevels.flatMap((l) => (l.inputs.notes ?? []).map((n) => `${l.inputs.level}: ${n}`))],
    areasLeftOut: prepared.loadedLevels.flatMap((l) => l.inputs.leftOut ?? []),
    derivedTables: derivedTablesOf(prepared),
    borrowingStrength: borrowingOf(prepared),
    ...(floor ? { floor } : {}),
  });
}

/** The fit figures of a report over some areas (the release's, or one level's) and their tally. */
function fitFiguresOf(report: BuildReport, tally: LevelTally): FitFigures {
  const byTable = Object.fromEntries(report.tables.filter((t) => t.kind === 'input').map((t) => [t.tableId, { median: t.srmse.median, p95: t.srmse.p95 }]));
  const band = (b: SizeBand, of: BuildReport['inputs'] = report.inputs) => {
    const d = of.bySizeBand[b];
    return { median: d.median, p95: d.p95, pairs: d.pairs };
  };
  const floorByTable = Object.fromEntries(report.tables.flatMap((t) => (t.kind === 'input' && t.floor ? [[t.tableId, { median: t.floor.median, p95: t.floor.p95 }]] : [])));
  return {
    persons: report.persons,
    families: report.families,
    dwellings: report.dwellings,
    srmse_median: report.inputs.overall.median,
    srmse_p95: report.inputs.overall.p95,
    srmse_by_table: byTable,
    srmse_by_band: { '<500': band('<500'), '500-4999': band('500-5000'), '5000+': band('>=5000') },
    floor_srmse_by_band: { '<500': band('<500', report.noiseFloor), '500-4999': band('500-5000', report.noiseFloor), '5000+': band('>=5000', report.noiseFloor) },
    floor_srmse_by_table: floorByTable,
    truth_srmse_median: report.truth?.overall.median ?? null,
    structural_violations: report.structuralViolations,
    totals_mismatched: tally.totalsMismatched.length,
    areas_failed: tally.failed,
    cells_not_published: tally.notPublished,
    own_tables: report.ownTables ? { srmse_median: report.ownTables.median, srmse_p95: report.ownTables.p95, pairs: report.ownTables.pairs } : null,
  };
}

/** Per area code, the tables its level took from parents rather than its own (suburbs built from SAL part files). */
function derivedTablesOf(prepared: PreparedBuild): (code: string) => ReadonlySet<string> | undefined {
  const derived = new Map(prepared.loadedLevels.flatMap((l) => (l.inputs.derivedTables ? l.inputs.suburbs.map((s) => [s.salCode, l.inputs.derivedTables!] as const) : [])));
  return (code) => derived.get(code);
}

/** Each level's figures alone, from a report over its areas only (the realism figures stay the release's). */
function levelFigures(version: string, tally: AreaTally, derivedTables: (code: string) => ReadonlySet<string> | undefined): BuildSummary['by_level'] {
  const noRealism = createRealismAccumulator().summary();
  return Object.fromEntries(
    [...tally.byLevel].map(([level, t]) => {
      const report = summariseReport(version, t.fits, t.totalsMismatched, noRealism, { areasFailed: t.failed, cellsNotPublished: t.notPublished, derivedTables });
      return [level, { areas: t.fits.length, ...fitFiguresOf(report, t) }];
    }),
  );
}

/** The build summary's figures from the report (what `spq build` prints and the CLI's JSON holds). */
function buildSummaryOf(
  release: { readonly version: string; readonly dir: string; readonly checksum: string; readonly fittedTo: FittedTo; readonly started: number; readonly summaryText: string },
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
    by_level: levelFigures(release.version, tally, derivedTablesOf(prepared)),
    seconds: (performance.now() - release.started) / 1000,
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    report,
    summaryText: release.summaryText,
  };
}

/** The requested levels, each once, finest first (the release lays them out in that order). */
function orderLevels(levels: readonly AreaLevel[]): AreaLevel[] {
  return AREA_LEVELS.filter((level) => levels.includes(level));
}

/** Suburbs in catalog order: by state, then identifier, so a release's row ranges are stable. */
function orderForRelease(suburbs: readonly SuburbGeography[]): SuburbGeography[] {
  return [...suburbs].sort((a, b) => (a.state === b.state ? a.suburbId.localeCompare(b.suburbId, 'en') : a.state.localeCompare(b.state, 'en')));
}

/** Dwelling records that are occupied private dwellings (the area's non-private dwelling is not one). */
function occupiedPrivateDwellings(population: Population): number {
  const dwtd = population.dwellings.variables['DWTD'];
  if (!dwtd) return population.dwellings.count;
  const occupied = categoryIndex('DWTD', 'Occupied private dwelling');
  let n = 0;
  for (const k of dwtd) if (k === occupied) n++;
  return n;
}

/** Person total against G01's Tot_P_P; occupied private dwellings against G35's total. */
function totalMissed(inputs: CensusInputs, salCode: string, persons: number, dwellings: number): boolean {
  const publishedPersonsTotal = inputs.totals.get('G01')?.get(salCode);
  const publishedDwellings = inputs.totals.get('G35')?.get(salCode);
  return (publishedPersonsTotal !== undefined && publishedPersonsTotal !== persons) || (publishedDwellings !== undefined && publishedDwellings !== dwellings);
}
