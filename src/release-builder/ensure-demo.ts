import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { generateDemoInputs } from '../demo/generate.ts';
import { buildRelease } from './build-release.ts';
import { newestRelease, poolsRoot } from '../adapters/pools/release-dirs.ts';
import { DEMO_SEED, DEMO_VERSION } from './releases.ts';
import type { AreaLevel } from '../core/dataset.ts';

async function buildFromInputs(config: Config, log: (line: string) => void, { inputsDir, levels }: ReleaseInputs): Promise<string> {
  log(`no pool release in ${poolsRoot(config.dataDir)}: building ${levels.join(', ')} pools from ${inputsDir} (once; later starts reuse them)`);
  let lastShown = 0;
  const summary = await buildRelease({
    inputsDir,
    poolsDir: poolsRoot(config.dataDir),
    version: CENSUS_VERSION,
    seed: DEMO_SEED,
    levels,
    smallSuburbThreshold: config.smallSuburbThreshold,
    onProgress: (phase, done, total) => {
      const percent = Math.floor((done / Math.max(1, total)) * 100);
      if (phase === 'synthesize' && percent >= lastShown + 25) {
        lastShown = percent;
        log(`  synthesized ${done}/${total} areas`);
      }
    },
  });
  log(`pools ${summary.version} (${summary.fitted_to}): ${summary.suburbs} areas, ${summary.persons} persons in ${summary.seconds.toFixed(1)} s`);
  for (const failed of summary.areas_failed) log(`  not fitted, left out: ${failed.area}: ${failed.reason}`);
  return summary.dir;
}

/** Real ABS inputs `spq serve --inputs DIR` builds its first release from, instead of the demo's. */
export interface ReleaseInputs {
  readonly inputsDir: string;
  readonly levels: readonly AreaLevel[];
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
  if (inputs) return buildFromInputs(config, log, inputs);
  const inputsDir = join(config.dataDir, 'demo-inputs');
  if (!existsSync(join(inputsDir, 'README.txt'))) {
    log(`no pool release in ${poolsRoot(config.dataDir)}: generating demo census inputs in ${inputsDir}`);
    await generateDemoInputs({ outDir: inputsDir, scale: 'demo', seed: DEMO_SEED });
  }
  log('building the demo pools (once; later starts reuse them)');
  let lastShown = 0;
  const summary = await buildRelease({
    inputsDir,
    poolsDir: poolsRoot(config.dataDir),
    version: DEMO_VERSION,
    seed: DEMO_SEED,
    smallSuburbThreshold: config.smallSuburbThreshold,
    onProgress: (phase, done, total) => {
      const percent = Math.floor((done / Math.max(1, total)) * 100);
      if (phase === 'synthesize' && percent >= lastShown + 25) {
        lastShown = percent;
        log(`  synthesized ${done}/${total} suburbs`);
      }
    },
  });
  log(`demo pools ${summary.version}: ${summary.suburbs} suburbs, ${summary.persons} persons in ${summary.seconds.toFixed(1)} s`);
  return summary.dir;
}
