import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { AreaLevel } from '../core/dataset.ts';
import { generateDemoInputs } from '../demo/generate.ts';
import { SHIPPED_DEMO_INPUTS, unpackInto } from '../demo/shipped-inputs.ts';
import { BuildAborted, buildImplicate, buildRelease } from './build-release.ts';
import { builtImplicates, firstLevelRoot, newestRelease, poolsRoot } from '../adapters/pools/release-dirs.ts';
import { DEMO_SEED, DEMO_VERSION } from './releases.ts';
import { firstLevelOf, firstLevelVersion, levelWords } from './staged-start.ts';

/** Real ABS inputs `spq serve --inputs DIR` builds its first release from, instead of the demo's. */
export interface ReleaseInputs {
  readonly inputsDir: string;
  readonly levels: readonly AreaLevel[];
  /** Size the areas to this estimated resident population (spq build --population). */
  readonly population?: { readonly file: string; readonly year?: number };
}

/** The version of a release `spq serve --inputs` builds. */
export const CENSUS_VERSION = 'census-2021.1';

/**
 * The release `spq serve` loads: config.poolDir when set, else the newest release in the data
 * directory; on a fresh data directory the pools are built first: from `inputs` when given (real
 * ABS DataPack files), else from generated demo inputs (a minute or less), so the service runs
 * with nothing else installed.
 */
export async function ensureDemoRelease(config: Config, log: (line: string) => void, inputs?: ReleaseInputs): Promise<string> {
  if (config.poolDir) return config.poolDir;
  const existing = await newestRelease(config.dataDir);
  if (existing) return existing;
  if (inputs) return firstCensusRelease(config, log, inputs);
  const inputsDir = join(config.dataDir, 'demo-inputs');
  if (!existsSync(join(inputsDir, 'README.txt'))) {
    if (existsSync(SHIPPED_DEMO_INPUTS)) {
      // The same files the generator writes for DEMO_SEED (checked by test/demo/shipped-inputs.test.ts), in a fraction of the time.
      log(`no pool release in ${poolsRoot(config.dataDir)}: unpacking the demo census inputs into ${inputsDir}`);
      unpackInto(readFileSync(SHIPPED_DEMO_INPUTS), inputsDir);
    } else {
      log(`no pool release in ${poolsRoot(config.dataDir)}: generating demo census inputs in ${inputsDir}`);
      await generateDemoInputs({ outDir: inputsDir, scale: 'demo', seed: DEMO_SEED });
    }
  }
  log('building the demo pools (once; later starts reuse them)');
  return buildFirstRelease(config, log, { inputsDir, levels: ['sal'], version: DEMO_VERSION });
}

/** The version of the release `spq serve --inputs` builds from these inputs. */
export const censusVersionOf = (inputs: ReleaseInputs): string => (inputs.population?.year ? `census-2021-erp${inputs.population.year}.1` : CENSUS_VERSION);

/**
 * A data directory with no complete release: one level alone is built first (staged-start.ts:
 * the complete release follows in the background once the service listens), or the whole
 * release when one level is asked for. A first level's release from an earlier start is served as it is.
 */
async function firstCensusRelease(config: Config, log: (line: string) => void, inputs: ReleaseInputs): Promise<string> {
  const version = censusVersionOf(inputs);
  const sized = inputs.population ? `, sized to the estimated resident population in ${inputs.population.file}` : '';
  const first = firstLevelOf(inputs.levels);
  if (first === undefined) {
    log(`no pool release in ${poolsRoot(config.dataDir)}: building ${inputs.levels.join(', ')} pools from ${inputs.inputsDir}${sized} (once; later starts reuse them)`);
    return buildFirstRelease(config, log, { ...inputs, version });
  }
  const firstVersion = firstLevelVersion(version, first);
  const built = join(firstLevelRoot(config.dataDir), firstVersion);
  if (existsSync(join(built, 'manifest.json'))) {
    log(`no complete pool release in ${poolsRoot(config.dataDir)}: serving the ${levelWords([first])} an earlier start built while the rest is built again`);
    return built;
  }
  log(`no pool release in ${poolsRoot(config.dataDir)}: building ${levelWords([first])} from ${inputs.inputsDir}${sized} first, served as soon as written; then ${levelWords(inputs.levels)} in the background (once; later starts reuse them)`);
  return buildFirstRelease(config, log, { ...inputs, levels: [first], version: firstVersion }, firstLevelRoot(config.dataDir));
}

/** Builds the release into the data directory (or `into`), logging every quarter of the areas and the areas left out. */
async function buildFirstRelease(config: Config, log: (line: string) => void, what: ReleaseInputs & { readonly version: string }, into = poolsRoot(config.dataDir)): Promise<string> {
  let lastShown = 0;
  const summary = await buildRelease({
    inputsDir: what.inputsDir,
    poolsDir: into,
    version: what.version,
    seed: DEMO_SEED,
    levels: what.levels,
    ...(what.population ? { population: what.population } : {}),
    smallSuburbThreshold: config.smallSuburbThreshold,
    onProgress: (phase, done, total) => {
      const percent = Math.floor((done / Math.max(1, total)) * 100);
      if (phase === 'synthesize' && percent >= lastShown + 25) {
        lastShown = percent;
        log(`  synthesized ${done}/${total} areas`);
      }
    },
  });
  log(`pools ${summary.version} (fitted to ${summary.fitted_to} tables${summary.population ? `, sized to the ABS estimated resident population of 30 June ${summary.population.year}` : ''}): ${summary.suburbs} areas, ${summary.persons} persons in ${summary.seconds.toFixed(1)} s`);
  for (const failed of summary.areas_failed) log(`  not fitted, left out: ${failed.area}: ${failed.reason}`);
  return summary.dir;
}

/**
 * Completes the demo release served from the data directory to config.demoImplicates
 * implicates, after the service listens: one at a time on one worker thread (requests keep the
 * main thread), each renamed into place when complete and served from then on. A start on a data
 * directory whose demo lacks some (an earlier stop cut a build short) builds the missing ones.
 * Any other release is left as built. Resolves when done or when `signal` stops it.
 */
export async function completeDemoImplicates(config: Config, releaseDir: string, log: (line: string) => void, signal: AbortSignal): Promise<void> {
  if (releaseDir !== join(poolsRoot(config.dataDir), DEMO_VERSION)) return;
  const inputsDir = join(config.dataDir, 'demo-inputs');
  const missing = Array.from({ length: Math.max(0, config.demoImplicates - 1) }, (_, i) => i + 2).filter((k) => !builtImplicates(releaseDir).includes(k));
  if (missing.length === 0) return;
  if (!existsSync(join(inputsDir, 'README.txt'))) {
    log(`demo implicates ${missing.join(', ')} not built: the demo inputs are not in ${inputsDir}`);
    return;
  }
  log(`building demo implicates ${missing.join(', ')} in the background (served as each completes)`);
  for (const k of missing) {
    if (signal.aborted) return;
    try {
      const built = await buildImplicate({ inputsDir, version: DEMO_VERSION, seed: DEMO_SEED, levels: ['sal'], smallSuburbThreshold: config.smallSuburbThreshold, threads: 1, signal }, releaseDir, k);
      log(`demo implicate ${k} ready (synthesis seed ${built.seed}, ${built.seconds.toFixed(1)} s)`);
    } catch (error) {
      if (error instanceof BuildAborted) return;
      throw error;
    }
  }
}
