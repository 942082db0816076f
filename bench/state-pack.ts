/**
 * One state's rows of a level of the national DataPack, written as a state pack beside the
 * pack's STE and AUS files: the inputs of a one-state real-census build (bench/real-census.ts,
 * bench/table-misses.ts).
 */
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { realLgas, realPostcodes, realSa2s, realSals } from '../src/census-input/asgs-reference.ts';
import { parseDataPackFileName } from '../src/census-input/file-names.ts';

export const LEVEL_REFERENCE = { poa: realPostcodes, sa2: realSa2s, lga: realLgas, sal: realSals } as const;
export type BenchLevel = keyof typeof LEVEL_REFERENCE;

/**
 * Writes `state`'s rows of `level` from the national `pack` into `dir` (created), with links to its
 * STE and AUS files. A suburb (`sal`) pack also gets the state's SA2 and POA rows (the suburbs'
 * parents) and a link to the ABS 2016 correspondences (`correspondences`, needed for `sal`).
 */
export function writeStatePack(pack: string, level: BenchLevel, state: string, dir: string, correspondences?: string): void {
  if (level === 'sal') {
    if (!correspondences) throw new Error('a suburb pack needs the ABS 2016 correspondences');
    writeLevelRows(pack, 'sa2', state, dir);
    writeLevelRows(pack, 'poa', state, dir);
    symlinkSync(correspondences, join(dir, 'correspondences'));
  }
  writeLevelRows(pack, level, state, dir);
  for (const parent of ['STE', 'AUS']) symlinkSync(join(pack, parent), join(dir, parent));
}

function writeLevelRows(pack: string, level: BenchLevel, state: string, dir: string): void {
  const LEVEL = level.toUpperCase();
  mkdirSync(join(dir, LEVEL), { recursive: true });
  const stateOf = new Map(LEVEL_REFERENCE[level]().map((a) => [a.code, a.state]));
  const levelDir = join(pack, LEVEL, 'AUS');
  for (const name of readdirSync(levelDir)) {
    const parsed = parseDataPackFileName(name);
    if (!parsed) continue;
    const [header, ...rows] = readFileSync(join(levelDir, name), 'utf8').trimEnd().split(/\r?\n/);
    const kept = rows.filter((row) => stateOf.get(row.slice(0, row.indexOf(','))) === state);
    if (kept.length === 0) throw new Error(`no ${LEVEL} rows of ${state} in ${name}`);
    writeFileSync(join(dir, LEVEL, `2021Census_${parsed.part}_${state}_${LEVEL}.csv`), [header, ...kept].join('\n') + '\n');
  }
}
