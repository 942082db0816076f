/**
 * Writes census/2021-gcp/<LEVEL>/: the real 2021 GCP DataPack rows of every area of a few small
 * states (Tasmania, the ACT, the Northern Territory) at each level spq ships, for the part files
 * spq reads, as the ABS names state packs (`2021Census_G01_TAS_POA.csv`, `…_TAS_SA2.csv`,
 * `…_TAS_SAL.csv`). An area goes with the state its reference row names: an SA2 or a suburb with
 * its code's first digit, a postal area that crosses states with the first state the ABS names
 * ("2611 crosses ACT/NSW" → ACT), as the loader places it. A part file the full pack lacks (the
 * SAL pack holds 40 of them) is skipped. With SAL it also writes census/2021-gcp/correspondences/:
 * the rows of those states of the ABS 2016 correspondences a suburb build reads
 * (scripts/extract-correspondences.ts). Another level is one more entry in LEVELS.
 *   node bin/run-ts.js scripts/extract-real-areas.ts [path/to/"2021 Census GCP All Geographies for AUS"] [POA,SA2,SAL]
 *     [path/to/asgs-2016-correspondences (default ../shared/abs/asgs-2016-correspondences beside the checkout)]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realPostcodes, realSa2s, realSals, type RealArea } from '../src/census-input/asgs-reference.ts';
import { INPUT_TABLES } from '../src/synthesis/census/tables.ts';
import { salPartsRead } from '../src/census-input/load-sal.ts';
import { SHIPPED_STATES, writeCorrespondenceSubsets } from './extract-correspondences.ts';

/** The levels shipped, by the ABS's name for them in file names, with where their areas' states come from. */
const LEVELS: Readonly<Record<string, () => readonly RealArea[]>> = { POA: realPostcodes, SA2: realSa2s, SAL: realSals };
const pack = process.argv[2] || fileURLToPath(new URL('../../shared/abs/2021-gcp/datapack/2021 Census GCP All Geographies for AUS/', import.meta.url));
const levels = process.argv[3]?.split(',') ?? Object.keys(LEVELS);
const parts = [...new Set(INPUT_TABLES.flatMap((t) => t.files))];
/** At SAL also the part files of tables no input reads to bind the suburbs' tables taken from parents (issue 39). */
const partsOf = (level: string) => (level === 'SAL' ? salPartsRead() : parts);

for (const level of levels) {
  const areas = LEVELS[level];
  if (!areas) throw new Error(`no level ${level}: one of ${Object.keys(LEVELS).join(', ')}`);
  const out = fileURLToPath(new URL(`../census/2021-gcp/${level}/`, import.meta.url));
  mkdirSync(out, { recursive: true });
  const stateOf = new Map(areas().map((a) => [a.code, a.state]));
  let bytes = 0;
  let files = 0;
  for (const part of partsOf(level)) {
    const source = join(pack, level, 'AUS', `2021Census_${part}_AUST_${level}.csv`);
    if (!existsSync(source)) continue;
    const [header, ...rows] = readFileSync(source, 'utf8').trimEnd().split(/\r?\n/);
    for (const state of SHIPPED_STATES) {
      // The key is the first field; DataPack rows hold no quoted commas before it.
      const kept = rows.filter((row) => stateOf.get(row.slice(0, row.indexOf(','))) === state);
      const text = [header, ...kept].join('\n') + '\n';
      writeFileSync(join(out, `2021Census_${part}_${state}_${level}.csv`), text);
      bytes += text.length;
      files++;
    }
  }
  console.log(`wrote ${files} files (${(bytes / 1e6).toFixed(1)} MB) to ${out}`);
}
if (levels.includes('SAL')) await writeCorrespondenceSubsets(process.argv[4] || undefined);
