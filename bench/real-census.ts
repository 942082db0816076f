/**
 * A real-census build against the goals of issue 20 (docs/synthesis.md, "Real census"): the same
 * build as `spq build --inputs DIR --levels poa --json`, on the real ABS 2021 "All Geographies for
 * AUS" DataPack (../shared/abs), for Australia or one state, in a child process so that the peak
 * RSS is the build's own. Prints the goal table: SRMSE median and p95 over all (area, table)
 * pairs, by persons band, G27 (relationship in household), areas whose persons or dwellings miss
 * the census totals, structural violations, areas that could not be fitted, seconds, peak RSS.
 *
 * Usage: node bin/run-ts.js bench/real-census.ts [--state TAS|NSW|…|all] [--level poa|sa2|lga|sal]
 *        [--pack DIR] [--correspondences DIR (the ABS 2016 correspondences, for sal)] [--json FILE] [--keep]
 * All Australia (2,641 postal areas, 25.4 M persons) takes about 7 minutes on this 2-core machine.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LEVEL_REFERENCE, writeStatePack, type BenchLevel } from './state-pack.ts';
import { renderStrengths, type StrengthFigures } from '../src/synthesis/pipeline/borrowing.ts';
import type { LevelFitFigures } from '../src/synthesis/pipeline/release-report.ts';

const { values } = parseArgs({
  options: {
    state: { type: 'string', default: 'all' },
    level: { type: 'string', default: 'poa' },
    pack: { type: 'string', default: fileURLToPath(new URL('../../shared/abs/2021-gcp/datapack/2021 Census GCP All Geographies for AUS/', import.meta.url)) },
    correspondences: { type: 'string' },
    json: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const level = values.level as BenchLevel;
if (!(level in LEVEL_REFERENCE)) throw new Error(`--level must be poa, sa2, lga or sal, got ${values.level}`);
const state = values.state!.toUpperCase();
const pack = resolve(values.pack!);
const work = mkdtempSync(join(tmpdir(), 'spq-real-census-'));
const log = (line: string) => process.stderr.write(`${line}\n`);

/** The inputs: the whole pack, or one state's rows of the level as a state pack beside the STE and AUS files. */
function inputsDir(): string {
  if (state === 'ALL') return pack;
  const dir = join(work, 'inputs');
  const correspondences = resolve(values.correspondences ?? join(pack, '..', '..', '..', 'asgs-2016-correspondences'));
  writeStatePack(pack, level, state, dir, correspondences);
  return dir;
}

const inputs = inputsDir();
log(`building ${level} pools of ${state === 'ALL' ? 'Australia' : state} from ${inputs}`);
// The release build, as an operator runs it (dist/, compiled first).
const root = join(import.meta.dirname, '..');
if (spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' }).status !== 0) throw new Error('the build of dist/ failed');
const built = spawnSync(process.execPath, [join(root, 'bin', 'spq.js'), 'build', '--inputs', inputs, '--out', join(work, 'pools'), '--levels', level, '--json'], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
  maxBuffer: 1 << 28,
});
if (built.status !== 0) throw new Error(`spq build exited ${built.status}`);
const summary = JSON.parse(built.stdout) as {
  areas: Record<string, number>;
  persons: number;
  seconds: number;
  peak_rss_mb: number;
  srmse_median: number;
  srmse_p95: number;
  srmse_by_table: Record<string, { median: number; p95: number }>;
  srmse_by_band: Record<string, { median: number | null; p95: number | null; pairs: number }>;
  floor_srmse_by_band: Record<string, { median: number | null; p95: number | null; pairs: number }>;
  floor_srmse_by_table: Record<string, { median: number | null; p95: number | null }>;
  structural_violations: number;
  totals_mismatched: number;
  areas_failed: { area: string; reason: string }[];
  cells_not_published: { estimated: number; structural: number };
  borrowing_strength: StrengthFigures;
  by_level: LevelFitFigures;
};

const f = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(4));
const rows: [string, string, string][] = [
  ['SRMSE median, all input tables', f(summary.srmse_median), level === 'sa2' ? '≤ 0.012' : '≤ 0.02'],
  ['median, areas ≥ 5,000 persons', f(summary.srmse_by_band['5000+']?.median), '≤ 0.005'],
  ['p95, areas of 500–4,999 persons', f(summary.srmse_by_band['500-4999']?.p95), '≤ 0.3'],
  ['p95, areas under 500 persons', f(summary.srmse_by_band['<500']?.p95), '≤ 1.0'],
  ['G27 (relationship in household) median', f(summary.srmse_by_table['G27']?.median), '≤ 0.10'],
  ['areas whose persons or dwellings miss the census total', String(summary.totals_mismatched), '0'],
  ['structural violations', String(summary.structural_violations), '0'],
  ['areas not fitted', String(summary.areas_failed.length), '0'],
  ['build time, peak memory', `${summary.seconds.toFixed(0)} s, ${summary.peak_rss_mb} MB`, 'national ≤ 600 s, ≤ 8 GiB'],
];
process.stdout.write(`${level} build of ${state === 'ALL' ? 'Australia' : state}: ${summary.areas[level]} areas, ${summary.persons.toLocaleString('en-AU')} persons\n`);
process.stdout.write(`| figure | measured | goal |\n|---|---|---|\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`);
process.stdout.write(`per table (median / p95): ${Object.entries(summary.srmse_by_table).map(([t, d]) => `${t} ${f(d.median)}/${f(d.p95)}`).join(', ')}\n`);
const ratio = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null || !(b > 0) ? '—' : `${(a / b).toFixed(2)}×`);
process.stdout.write(`census noise floor by band (median / p95; fit / floor, goal ≤ 1.5×): ${Object.entries(summary.floor_srmse_by_band)
  .map(([b, d]) => `${b} ${f(d.median)}/${f(d.p95)} (${ratio(summary.srmse_by_band[b]?.median, d.median)}, ${ratio(summary.srmse_by_band[b]?.p95, d.p95)})`)
  .join(', ')}\n`);
process.stdout.write(`census noise floor per table (median / p95): ${Object.entries(summary.floor_srmse_by_table).map(([t, d]) => `${t} ${f(d.median)}/${f(d.p95)}`).join(', ')}\n`);
process.stdout.write(`${renderStrengths(summary.borrowing_strength).join('\n')}\n`);
const mine = summary.by_level[level as keyof LevelFitFigures];
if (mine?.own_tables) {
  process.stdout.write(`own tables (not taken from parents): median ${f(mine.own_tables.srmse_median)}, p95 ${f(mine.own_tables.srmse_p95)}, ${mine.own_tables.pairs} pairs; by band (fit / floor, median): ${Object.entries(mine.own_tables.by_band ?? {})
    .map(([b, d]) => `${b} ${f(d.median)} / ${f(d.floor_median)} (${d.pairs})`)
    .join(', ')}\n`);
}
if (mine?.own_cells) process.stdout.write(`own published cells: median ${f(mine.own_cells.srmse_median)}, p95 ${f(mine.own_cells.srmse_p95)}, ${mine.own_cells.pairs} pairs; per table ${Object.entries(mine.own_cells.by_table).map(([t, d]) => `${t} ${f(d.median)}`).join(', ')}\n`);
if (mine?.derived_targets) process.stdout.write(`cells taken from parents (targets): median ${f(mine.derived_targets.srmse_median)}, p95 ${f(mine.derived_targets.srmse_p95)}, ${mine.derived_targets.pairs} pairs\n`);
for (const failed of summary.areas_failed) process.stdout.write(`not fitted: ${failed.area}: ${failed.reason}\n`);
if (values.json) writeFileSync(values.json, `${JSON.stringify({ state, level, ...summary }, null, 2)}\n`);
if (!values.keep) rmSync(work, { recursive: true, force: true });
else log(`kept ${work}`);
