/**
 * A first `spq serve --inputs` of several levels, in two stages, so a newcomer is served in well
 * under a minute: the level ready soonest is built alone and served as soon as it is written;
 * then the complete release (every level asked for, the very build a plain `spq build` of those
 * levels makes) is built in the background on a thread of its own and served in its place.
 *
 * The first level's release lives under <dataDir>/pools/.first-level/, where newestRelease never
 * looks (it reads <dataDir>/pools/<version>/manifest.json only), so a later start serves the
 * complete release as soon as there is one, and removes the first level's then. A stop during the
 * background build leaves no half release (buildRelease removes it); the next start serves the
 * first level again at once and builds the complete release afresh.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Config } from '../config.ts';
import { QUERY_LEVEL_OF_AREA, type AreaLevel, type GeographyLevel } from '../core/dataset.ts';
import { firstLevelRoot, isFirstLevelRelease, poolsRoot } from '../adapters/pools/release-dirs.ts';
import { BuildAborted } from './build-release.ts';
import { buildReleaseOnThread } from './release-thread.ts';

/**
 * The level built first, the one ready soonest (measured on census/2021-gcp, TAS + ACT + NT sized to
 * 2023, at load 5–7: postal areas 49 s of CPU, 174 areas; SA2s 53 s, 301 areas; suburbs more, 1,200
 * areas): every level holds the same persons, so the fewest, largest areas cost least.
 */
const FIRST_LEVEL_ORDER: readonly AreaLevel[] = ['poa', 'lga', 'sa2', 'sal'];

const LEVEL_WORDS: Readonly<Record<AreaLevel, string>> = { sal: 'suburbs', sa2: 'SA2s', poa: 'postal areas', lga: 'LGAs' };

/** "suburbs, SA2s and postal areas". */
export const levelWords = (levels: readonly AreaLevel[]): string => {
  const words = levels.map((l) => LEVEL_WORDS[l]);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
};


/** The level to serve first when several are asked for (undefined for one level: it is built as before). */
export function firstLevelOf(levels: readonly AreaLevel[]): AreaLevel | undefined {
  if (levels.length < 2) return undefined;
  return FIRST_LEVEL_ORDER.find((l) => levels.includes(l));
}

/** The first level's release version: the complete one's, marked, since its records are not the complete release's. */
export const firstLevelVersion = (version: string, level: AreaLevel): string => `${version}-${level}-first`;

/** What the background build needs: the complete release's inputs, exactly as `spq build` is given them. */
export interface CompleteBuild {
  readonly inputsDir: string;
  readonly levels: readonly AreaLevel[];
  readonly version: string;
  readonly seed: number;
  readonly population?: { readonly file: string; readonly year?: number };
}

/** What the server does for the background build: show what is building, serve the result, and report. */
export interface BackgroundHooks {
  readonly log: (line: string) => void;
  readonly signal: AbortSignal;
  /** The query levels still building and an estimate of the seconds left (undefined: none). */
  readonly building: (status: { readonly levels: readonly GeographyLevel[]; readonly secondsLeft: () => number } | undefined) => void;
  /** Serve the complete release in `dir` from now on. */
  readonly serve: (dir: string) => Promise<void>;
}

/**
 * After the service listens: when it serves a first level's release, builds the complete one on a
 * thread of its own and switches to it; when it serves a complete release, removes a first level's
 * left from an earlier start. Resolves when done, when stopped, or (logged) when the build fails:
 * the first level serves on in both of those cases.
 */
export async function completeInBackground(config: Config, servedDir: string, what: CompleteBuild, hooks: BackgroundHooks): Promise<void> {
  const first = firstLevelOf(what.levels);
  if (first === undefined) return;
  if (!isFirstLevelRelease(config.dataDir, servedDir)) {
    if (existsSync(firstLevelRoot(config.dataDir))) await rm(firstLevelRoot(config.dataDir), { recursive: true, force: true });
    return;
  }
  const rest = what.levels.filter((l) => l !== first);
  const estimate = timeLeft();
  hooks.building({ levels: rest.map((l) => QUERY_LEVEL_OF_AREA[l]), secondsLeft: estimate.secondsLeft });
  hooks.log(`serving ${LEVEL_WORDS[first]} now; ${levelWords(rest)} building in the background (GET /readyz says which levels serve)`);
  try {
    const summary = await buildReleaseOnThread(
      { inputsDir: what.inputsDir, poolsDir: poolsRoot(config.dataDir), version: what.version, seed: what.seed, levels: what.levels, smallSuburbThreshold: config.smallSuburbThreshold, ...(what.population ? { population: what.population } : {}) },
      { signal: hooks.signal, onProgress: estimate.progress },
    );
    await hooks.serve(summary.dir);
    hooks.building(undefined);
    hooks.log(`ready with every level: ${levelWords(what.levels)} (pool release ${summary.version}: ${summary.suburbs} areas, ${summary.persons} persons, built in the background in ${summary.seconds.toFixed(1)} s)`);
    for (const failed of summary.areas_failed) hooks.log(`  not fitted, left out: ${failed.area}: ${failed.reason}`);
  } catch (error) {
    hooks.building(undefined);
    if (error instanceof BuildAborted) hooks.log(`stopped building ${levelWords(rest)}: the next start serves ${LEVEL_WORDS[first]} at once and builds them again`);
    else hooks.log(`building ${levelWords(rest)} failed; serving ${LEVEL_WORDS[first]} only: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const FIRST_GUESS_SECONDS = 60;

/**
 * The background build's seconds left, from its progress: the share of areas synthesized so far
 * against the time taken (the write after it is short beside it); a minute until the first
 * areas are done (loading three levels of census/2021-gcp took 55–80 s at load 7–8, so a
 * countdown from the start would tell clients to come back too soon).
 */
function timeLeft(): { readonly progress: (phase: 'load' | 'synthesize' | 'write', done: number, total: number) => void; readonly secondsLeft: () => number } {
  let synthesizing: number | undefined;
  let share = 0;
  return {
    progress(phase, done, total) {
      if (phase !== 'synthesize') return;
      synthesizing ??= performance.now();
      share = total > 0 ? done / total : 0;
    },
    secondsLeft() {
      const now = performance.now();
      if (synthesizing === undefined || share < 0.05) return FIRST_GUESS_SECONDS;
      return Math.min(600, Math.max(5, ((now - synthesizing) / 1000) * ((1 - share) / share) + 5));
    },
  };
}
