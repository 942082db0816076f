/**
 * Where chosen tables miss, cell by cell, on real areas: one state's areas of a level are
 * synthesized in this process (as `spq build` does each area, runSuburbJob) and, per table, the
 * median SRMSE over the areas of a size band is printed with the cells whose squared error
 * weighs most (summed over those areas: synthetic − published, and the share of the table's
 * squared error). A tool for diagnosis (docs/synthesis.md, "Summary tables fitted jointly"),
 * not a goal figure: the goal figures come from bench/real-census.ts.
 *
 * Usage: node bin/run-ts.js bench/table-misses.ts [--state TAS] [--level sa2] [--min 5000]
 *        [--tables G32,G33,G40,G54,G27] [--areas N] [--cells 12] [--why] [--json FILE]
 * --why adds why households' incomes are partial (members away, members not stated) and how far
 * the tables' totals and subtotals are from the sums of their published cells.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadCensusInputs } from '../src/census-input/load-inputs.ts';
import { areaJob } from '../src/synthesis/pipeline/area-job.ts';
import { publishedPersons } from '../src/synthesis/pipeline/area-inputs.ts';
import { prepareLevel } from '../src/synthesis/pipeline/level.ts';
import { runSuburbJob } from '../src/synthesis/pipeline/run-job.ts';
import { INPUT_TABLES } from '../src/synthesis/census/tables.ts';
import { cellInside } from '../src/synthesis/census/gcp/table.ts';
import { tabulate, tabulateCells } from '../src/synthesis/census/tabulate.ts';
import { variableByCode } from '../src/synthesis/census/variables.ts';
import { benchOptions, median } from './lib.ts';
import { LEVEL_REFERENCE, writeStatePack, type BenchLevel } from './state-pack.ts';

const values = benchOptions({
  state: 'TAS',
  level: 'sa2',
  min: 5000,
  max: 1e9,
  tables: 'G32,G33,G40,G54,G27',
  areas: 1000,
  cells: 12,
  seed: 1,
  json: null,
  why: false,
  pack: fileURLToPath(new URL('../../shared/abs/2021-gcp/datapack/2021 Census GCP All Geographies for AUS/', import.meta.url)),
});
const level = values.level as BenchLevel;
if (!(level in LEVEL_REFERENCE)) throw new Error(`--level must be poa, sa2 or lga, got ${values.level}`);
const state = values.state.toUpperCase();

/** One state's rows of the level beside the STE and AUS files, cached in tmp. */
function inputsDir(): string {
  const dir = join(tmpdir(), `spq-table-misses-${state}-${level}`);
  if (!existsSync(join(dir, 'done'))) {
    rmSync(dir, { recursive: true, force: true });
    writeStatePack(resolve(values.pack), level, state, dir);
    writeFileSync(join(dir, 'done'), '');
  }
  return dir;
}

const loaded = await loadCensusInputs(inputsDir(), () => {}, { level, allowUnknownHeaders: false });
if (!loaded.ok) throw new Error(JSON.stringify(loaded.error).slice(0, 500));
const prepared = prepareLevel(loaded.value);
const min = values.min;
const max = values.max;
const chosen = values.tables.split(',');
const areas = loaded.value.suburbs
  .filter((s) => {
    const n = publishedPersons(loaded.value, s.salCode);
    return n >= min && n < max;
  })
  .slice(0, values.areas);
const why: Record<string, number> = {};
function partialWhy(pop: import('../src/synthesis/census/population.ts').Population): void {
  const rlhp = pop.persons.variables.RLHP!;
  const incp = pop.persons.variables.INCP!;
  const hind = pop.dwellings.variables.HIND!;
  const rl = variableByCode('RLHP').categories;
  const inc = variableByCode('INCP').categories;
  const hl = variableByCode('HIND').categories;
  const D = pop.dwellings.count;
  const absent = new Int32Array(D);
  const ns = new Int32Array(D);
  const adults = new Int32Array(D);
  const fam = new Uint8Array(D);
  for (let i = 0; i < pop.persons.count; i++) {
    const d = pop.persons.dwelling[i]!;
    if (pop.persons.age[i]! < 15) continue;
    const r = rl[rlhp[i]!]!;
    if (r.startsWith('Visitor') || r === 'Not applicable') { absent[d]!++; continue; }
    adults[d]!++;
    if (inc[incp[i]!] === 'Not stated') ns[d]!++;
    if (pop.persons.family[i]! >= 0) fam[d] = 1;
  }
  for (let d = 0; d < D; d++) {
    const h = hl[hind[d]!]!;
    if (!/partial|not stated/i.test(h)) continue;
    const key = `${fam[d] ? 'fam' : 'nonfam'} ${h.slice(0, 12)} absent${Math.min(absent[d]!, 2)} ns${Math.min(ns[d]!, 3)}/${Math.min(adults[d]!, 4)}`;
    why[key] = (why[key] ?? 0) + 1;
  }
}
const aggMiss = new Map<string, { abs: number; n: number; published: number }>();
function aggregateMisses(pop: import('../src/synthesis/census/population.ts').Population, table: (typeof INPUT_TABLES)[number], target: Float64Array): void {
  const syn = tabulateCells(pop, table.universe, table.otherCells, table.population.members);
  table.otherCells.forEach((box, k) => {
    let sum = 0;
    table.cells.forEach((cell, i) => { if (cellInside(cell, box) && Number.isFinite(target[i]!)) sum += target[i]!; });
    const key = `${table.id} ${table.otherHeaders[k]}`;
    const m = aggMiss.get(key) ?? { abs: 0, n: 0, published: 0 };
    m.abs += Math.abs(syn[k]! - sum);
    m.n++;
    m.published += sum;
    aggMiss.set(key, m);
  });
}
const srmseOf = new Map<string, number[]>();
const cellStats = new Map<string, { diff: Float64Array; sq: Float64Array; pub: Float64Array }>();
const started = performance.now();
let violations = 0;
for (const [index, suburb] of areas.entries()) {
  const { job } = areaJob(prepared, suburb, index, { seed: values.seed, smallSuburbThreshold: 100 });
  const outcome = runSuburbJob(job);
  violations += Object.values(outcome.violationsByRule).reduce((a, b) => a + b, 0);
  if (values.why) partialWhy(outcome.population);
  for (const fit of outcome.inputs) if (fit.srmse !== undefined) (srmseOf.get(fit.tableId) ?? srmseOf.set(fit.tableId, []).get(fit.tableId)!).push(fit.srmse);
  // The cells, scored as the build scores them (the population is coarsened only when small: --min keeps those out).
  const published = new Map(job.published);
  const tables = new Map(job.tables);
  for (const id of chosen) {
    const table = INPUT_TABLES.find((t) => t.id === id)!;
    const target = published.get(id) ?? tables.get(id);
    if (!target) continue;
    const syn = tabulate(outcome.population, table);
    let stats = cellStats.get(id);
    if (!stats) cellStats.set(id, (stats = { diff: new Float64Array(syn.length), sq: new Float64Array(syn.length), pub: new Float64Array(syn.length) }));
    if (values.why) aggregateMisses(outcome.population, table, target);
    for (let c = 0; c < syn.length; c++) {
      if (Number.isNaN(target[c]!)) continue;
      const d = syn[c]! - target[c]!;
      stats.diff[c]! += d;
      stats.sq[c]! += d * d;
      stats.pub[c]! += target[c]!;
    }
  }
}
if (values.why)
  for (const [key, m] of [...aggMiss].sort((a, b) => b[1].abs - a[1].abs).slice(0, 30))
    process.stdout.write(`aggregate ${key}: mean |synthetic − Σ published cells| ${(m.abs / m.n).toFixed(1)} of ${(m.published / m.n).toFixed(0)}\n`);
if (values.why) process.stdout.write(`partial/all-not-stated households by reason: ${JSON.stringify(why)}\n`);
const medians = Object.fromEntries([...srmseOf].map(([id, xs]) => [id, xs.length > 0 ? median(xs) : NaN]));
const all = [...srmseOf.values()].flat();
process.stdout.write(`${state} ${level}: ${areas.length} areas with ${min}–${max} persons, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
process.stdout.write(`all tables median ${median(all).toFixed(4)}, structural violations ${violations}\n`);
process.stdout.write(`per table: ${Object.entries(medians).map(([id, m]) => `${id} ${m.toFixed(4)}`).join(', ')}\n`);
for (const id of chosen) {
  const stats = cellStats.get(id);
  if (!stats) continue;
  const table = INPUT_TABLES.find((t) => t.id === id)!;
  const total = stats.sq.reduce((a, b) => a + b, 0);
  const order = [...stats.sq.keys()].sort((a, b) => stats.sq[b]! - stats.sq[a]!).slice(0, values.cells);
  process.stdout.write(`\n${id} (${table.description}): median ${medians[id]?.toFixed(4)}\n`);
  for (const c of order)
    process.stdout.write(`  ${table.cells[c]!.header.padEnd(40)} published ${stats.pub[c]!.toFixed(0).padStart(7)}  synthetic−published ${stats.diff[c]!.toFixed(0).padStart(6)}  share of sq. error ${((100 * stats.sq[c]!) / total).toFixed(1)}%\n`);
}
if (values.json) writeFileSync(values.json, `${JSON.stringify({ state, level, areas: areas.length, min, medians, overall: median(all) }, null, 2)}\n`);
