/**
 * Realism of the demo build beyond table fit (issue 10, item 5): implausible combinations,
 * couples and mothers, Cramér's V of pairs no input table links, Indigenous languages in remote
 * suburbs, and the share of each validation cross-tab's error of independence the records
 * remove — synthetic records against the hidden truth, next to an *oracle*: a second,
 * independent draw of the truth model (what a synthesizer that knew the model could reach).
 * Pooled over all suburbs of the demo and by size band (src/synthesis/quality/realism.ts).
 *
 * Generates the demo inputs in a child process (`spq demo-inputs`, as bench/synthesis.ts does),
 * loads them, and reruns the build's synthesis of every suburb inline exactly as
 * src/synthesis/pipeline/run-job.ts does (published tables, parent-area tables, totals, small-suburb
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
import { loadCensusInputs } from '../src/census-input/load-inputs.ts';
import { loadTruth } from '../src/demo/truth-files.ts';
import { publishedPersons, tablesOf, totalsOf } from '../src/synthesis/pipeline/area-inputs.ts';
import { suburbSeed } from '../src/synthesis/pipeline/seeds.ts';
import { sumTablesByParent } from '../src/synthesis/pipeline/parent-targets.ts';
import { loadConfig } from '../src/config.ts';
import { formatInputError } from '../src/synthesis/census/inputs.ts';
import { VALIDATION_TABLES } from '../src/synthesis/census/tables.ts';
import { tabulate } from '../src/synthesis/census/tabulate.ts';
import { createRealismAccumulator } from '../src/synthesis/quality/realism.ts';
import { renderRealism } from '../src/synthesis/quality/realism-render.ts';
import { createRng } from '../src/synthesis/synthesizer/rng.ts';
import { synthesizeSuburb } from '../src/synthesis/synthesizer/synthesize.ts';
import { buildDemoGeography } from '../src/demo/geography.ts';
import { drawOracle, drawTruth } from '../src/demo/generate.ts';
import { createTruthModel } from '../src/demo/truth-params.ts';

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
  if (!loaded.ok) throw new Error(loaded.error.map(formatInputError).join('\n'));
  const inputs = loaded.value;
  const truthFiles = await loadTruth(inputsDir);
  if (!truthFiles.ok) throw new Error(formatInputError(truthFiles.error));
  const parents = sumTablesByParent(inputs.suburbs, inputs.tables);
  const where = new Map(inputs.suburbs.map((s) => [s.salCode, s]));
  const threshold = loadConfig().smallSuburbThreshold;

  const acc = createRealismAccumulator();
  const base = createRng(seed);
  const demo = buildDemoGeography('demo', seed, limit).suburbs;
  // The model of the same geography as the inputs': the truth redrawn is the truth they were written from.
  const model = createTruthModel(demo);
  log(`synthesizing ${demo.length} suburbs, drawing their truth and oracle (${seconds()} s)`);
  for (const suburb of demo) {
    const geography = where.get(suburb.salCode);
    if (!geography) throw new Error(`${suburb.salCode} is not in the inputs: --seed or --suburbs differ from theirs`);
    const truth = drawTruth(base, suburb, model);
    // The inputs were generated from this very draw: its validation cross-tabs are the truth files.
    for (const spec of VALIDATION_TABLES) {
      const mine = tabulate(truth, spec);
      const file = truthFiles.value.get(spec.id)?.get(suburb.salCode);
      if (!file || file.some((x, i) => x !== mine[i])) throw new Error(`${suburb.salCode}: redrawn truth differs from the inputs' ${spec.id}`);
    }
    const oracle = drawOracle(base, suburb, model);
    // The build's synthesis (src/synthesis/pipeline/run-job.ts), kept in fine categories.
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
    const header = `realism of the demo build (seed ${seed}): ${summary.all.suburbs} suburbs, ${summary.all.persons.toLocaleString('en-AU')} synthetic persons, ${seconds()} s`;
    process.stdout.write(`${[header, ...renderRealism(summary)].join('\n')}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
