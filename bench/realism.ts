/**
 * Realism of the demo build beyond table fit (issue 10, item 5): implausible combinations,
 * couples and mothers, Cramér's V of pairs no input table links, Indigenous languages in remote
 * suburbs, and the share of each validation cross-tab's error of independence the records
 * remove — synthetic records against the hidden truth, next to an *oracle*: a second,
 * independent draw of the truth model (what a synthesizer that knew the model could reach).
 * Pooled over all suburbs of the demo and by size band (src/core/quality/realism.ts).
 *
 * Generates the demo inputs in a child process (`spq demo-inputs`, as bench/synthesis.ts does),
 * loads them, and reruns the build's synthesis of every suburb inline exactly as
 * src/build/suburb-job.ts does (published tables, parent-area tables, totals, small-suburb
 * flag, remoteness), in fine categories, before the coarsening of small suburbs for serving.
 * The truth is redrawn with the generator's own stream (checked against the inputs' truth
 * files); the oracle with another stream.
 *
 * Usage: node bin/run-ts.js bench/realism.ts [--seed 1] [--suburbs N] [--inputs DIR] [--json]
 * --inputs reuses inputs written by `spq demo-inputs --out DIR --seed N` (same --seed and
 * --suburbs). --json prints the pooled figures as JSON instead of the tables.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCensusInputs, loadTruth } from '../src/adapters/abs/load-inputs.ts';
import { publishedPersons, suburbSeed, tablesOf, totalsOf } from '../src/build/build-release.ts';
import { sumTablesByParent } from '../src/build/parent-targets.ts';
import { loadConfig } from '../src/config.ts';
import { formatInputError } from '../src/core/census/inputs.ts';
import { VALIDATION_TABLES } from '../src/core/census/tables.ts';
import { tabulate } from '../src/core/census/tabulate.ts';
import { SIZE_BANDS } from '../src/core/quality/metrics.ts';
import {
  createRealismAccumulator,
  IMPLAUSIBLE_CHECKS,
  REALISM_PAIRS,
  type ErrorRemoved,
  type GroupFigures,
  type RateFigure,
  type SourceFigures,
} from '../src/core/quality/realism.ts';
import { createRng } from '../src/core/synthesis/rng.ts';
import { synthesizeSuburb } from '../src/core/synthesis/synthesize.ts';
import { buildDemoGeography } from '../src/demo/geography.ts';
import { drawSuburbPopulation } from '../src/demo/truth-model.ts';

const { values: args } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    suburbs: { type: 'string' },
    inputs: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const seed = Number(args.seed);
if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`--seed must be a non-negative integer, got ${args.seed}`);
const limit = args.suburbs !== undefined ? Number(args.suburbs) : undefined;
if (limit !== undefined && !(Number.isSafeInteger(limit) && limit > 0)) throw new Error(`--suburbs must be a positive integer, got ${args.suburbs}`);

/** The generator's truth stream is fork(1000 + index) (src/demo/generate.ts); the oracle's is this far away. */
const ORACLE_STREAM = 7_000_000;

const log = (line: string) => process.stderr.write(`${line}\n`);
const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(0);

const work = mkdtempSync(join(tmpdir(), 'spq-bench-realism-'));
try {
  const inputsDir = args.inputs ?? join(work, 'inputs');
  if (!args.inputs) {
    log(`generating demo inputs (seed ${seed}) in ${inputsDir}`);
    const repo = resolve(import.meta.dirname, '..');
    const child = spawnSync(
      process.execPath,
      [join(repo, 'bin/spq.js'), 'demo-inputs', '--out', inputsDir, '--scale', 'demo', '--seed', String(seed), ...(limit ? ['--suburbs', String(limit)] : [])],
      { stdio: ['ignore', 'ignore', 'ignore'] },
    );
    if (child.status !== 0) throw new Error(`spq demo-inputs failed with status ${child.status}`);
  }
  const loaded = await loadCensusInputs(inputsDir);
  if (!loaded.ok) throw new Error(formatInputError(loaded.error));
  const inputs = loaded.value;
  const truthFiles = await loadTruth(inputsDir);
  if (!truthFiles.ok) throw new Error(formatInputError(truthFiles.error));
  const parents = sumTablesByParent(inputs.suburbs, inputs.tables);
  const where = new Map(inputs.suburbs.map((s) => [s.salCode, s]));
  const threshold = loadConfig().smallSuburbThreshold;

  const acc = createRealismAccumulator();
  const base = createRng(seed);
  const demo = buildDemoGeography('demo', seed, limit).suburbs;
  log(`synthesizing ${demo.length} suburbs, drawing their truth and oracle (${seconds()} s)`);
  for (const suburb of demo) {
    const geography = where.get(suburb.salCode);
    if (!geography) throw new Error(`${suburb.salCode} is not in the inputs: --seed or --suburbs differ from theirs`);
    const truth = drawSuburbPopulation(suburb, base.fork(1000 + suburb.index));
    // The inputs were generated from this very draw: its validation cross-tabs are the truth files.
    for (const spec of VALIDATION_TABLES) {
      const mine = tabulate(truth, spec);
      const file = truthFiles.value.get(spec.id)?.get(suburb.salCode);
      if (!file || file.some((x, i) => x !== mine[i])) throw new Error(`${suburb.salCode}: redrawn truth differs from the inputs' ${spec.id}`);
    }
    const oracle = drawSuburbPopulation(suburb, base.fork(ORACLE_STREAM + suburb.index));
    // The build's synthesis (src/build/suburb-job.ts), kept in fine categories.
    const { population: synthetic } = synthesizeSuburb(
      {
        salCode: suburb.salCode,
        tables: tablesOf(inputs, suburb.salCode),
        parent: { lga: parents.byLga.get(geography.lgaCode) ?? new Map(), state: parents.byState.get(geography.state) ?? new Map() },
      },
      {
        seed: suburbSeed(seed, suburb.salCode),
        smallSuburb: publishedPersons(inputs, suburb.salCode) < threshold,
        totals: totalsOf(inputs, suburb.salCode),
        dwellingLocation: geography.remoteness,
      },
    );
    acc.add({ synthetic, truth, oracle });
    if ((suburb.index + 1) % 50 === 0) log(`  ${suburb.index + 1} suburbs (${seconds()} s)`);
  }
  const summary = acc.summary();

  if (args.json) {
    process.stdout.write(`${JSON.stringify({ seed, suburbs: demo.length, seconds: Number(seconds()), ...summary }, (_k, v) => (v === undefined ? null : v), 1)}\n`);
  } else {
    printTables(summary.all, summary.byBand);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

function printTables(all: GroupFigures, byBand: Readonly<Record<(typeof SIZE_BANDS)[number], GroupFigures>>): void {
  const out: string[] = [];
  const line = (cells: readonly string[]) => out.push(`| ${cells.join(' | ')} |`);
  const header = (first: string, rest: readonly string[]) => {
    line([first, ...rest]);
    line(['---', ...rest.map(() => '---:')]);
  };
  const pct = (x: number | undefined, digits = 2) => (x === undefined ? '—' : `${(100 * x).toFixed(digits)}%`);
  const num = (x: number | undefined, digits = 2) => (x === undefined ? '—' : x.toFixed(digits));
  const bandHeads = SIZE_BANDS.map((b) => `${b} (${byBand[b].suburbs})`);
  /** One figure: all suburbs synthetic / truth / oracle, then synthetic / truth per band. */
  const row = (label: string, of: (s: SourceFigures) => string) =>
    line([label, of(all.synthetic), of(all.truth), all.oracle ? of(all.oracle) : '—', ...SIZE_BANDS.map((b) => `${of(byBand[b].synthetic)} / ${of(byBand[b].truth)}`)]);

  out.push(`realism of the demo build (seed ${seed}): ${all.suburbs} suburbs, ${all.persons.toLocaleString('en-AU')} synthetic persons, ${seconds()} s`);
  out.push('synthetic = the build\'s synthesis; truth = the hidden truth; oracle = a second draw of the truth model; per band: synthetic / truth\n');
  header('implausible combination (numerator/denominator, synthetic)', ['synthetic', 'truth', 'oracle', ...bandHeads]);
  for (const check of IMPLAUSIBLE_CHECKS) {
    const r = (s: SourceFigures) => s.implausible[check.name]!;
    const syn = r(all.synthetic);
    row(`${check.name} (${syn.numerator}/${syn.denominator})`, (s) => pct(r(s).rate));
  }
  out.push('');
  header('figure', ['synthetic', 'truth', 'oracle', ...bandHeads]);
  row('couples: mean man − woman age gap (years)', (s) => num(s.couples.meanAgeGap));
  row('couples: same-sex share', (s) => pct(s.couples.sameSexShare));
  row("mothers: min age at eldest child's birth", (s) => num(s.mothers.min, 0));
  row("mothers: p5 age at eldest child's birth", (s) => num(s.mothers.p5, 1));
  row("mothers: median age at eldest child's birth", (s) => num(s.mothers.median, 1));
  for (const pair of REALISM_PAIRS) row(`Cramér's V ${pair.name}`, (s) => num(s.cramersV[pair.name], 3));
  const lang = (r: RateFigure) => pct(r.rate, 1);
  row(`Indigenous persons speaking an Indigenous language, remote (${all.synthetic.indigenousLanguage.denominator} synthetic)`, (s) => lang(s.indigenousLanguage));
  out.push('');
  out.push('share of the independence error removed against the truth (1 − Σ|x − truth| / Σ|independence(x) − truth|), synthetic / oracle');
  header('cross-tab', ['all cells', ...bandHeads, 'stated categories', ...bandHeads.map((b) => `stated ${b}`), 'pooled', 'pooled, stated', ...bandHeads.map((b) => `pooled ${b}`)]);
  const share = (e: ErrorRemoved) => `${pct(e.synthetic, 0)} / ${pct(e.oracle, 0)}`;
  for (const spec of VALIDATION_TABLES) {
    const of = (g: GroupFigures) => g.errorRemoved[spec.id]!;
    const pooled = (g: GroupFigures, stated = false) => {
      const x = stated ? of(g).pooledStated : of(g).pooled;
      return x ? share(x) : '—';
    };
    line([
      spec.id,
      share(of(all).cells),
      ...SIZE_BANDS.map((b) => share(of(byBand[b]).cells)),
      share(of(all).stated),
      ...SIZE_BANDS.map((b) => share(of(byBand[b]).stated)),
      pooled(all),
      pooled(all, true),
      ...SIZE_BANDS.map((b) => pooled(byBand[b])),
    ]);
  }
  process.stdout.write(`${out.join('\n')}\n`);
}
