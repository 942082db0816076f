/**
 * Realism of the demo build beyond table fit (issue 10): implausible combinations, couples,
 * Cramér's V of pairs no input table links, and the share of each validation cross-tab's
 * structure recovered beyond independence — synthetic records against the hidden truth, with a
 * second independent draw of the truth model (the *oracle*) as the best any synthesizer could
 * do. Pooled over all suburbs of the demo and by size band.
 *
 * The synthesis is the build's (src/build/suburb-job.ts) on the published tables of each
 * suburb, without the parent-area smoothing of small suburbs.
 *
 * Usage: node bin/run-ts.js bench/realism.ts [--seed 1] [--suburbs N] [--json FILE]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Population } from '../src/core/census/population.ts';
import { VALIDATION_CODES, VALIDATION_TABLES } from '../src/core/census/tables.ts';
import { tabulate } from '../src/core/census/tabulate.ts';
import { variableByCode } from '../src/core/census/variables.ts';
import { sizeBand, SIZE_BANDS, type SizeBand } from '../src/core/quality/metrics.ts';
import {
  absoluteError,
  countCouples,
  cramersV,
  crossTab,
  errorRemoved,
  IMPLAUSIBLE_CHECKS,
  independence,
  type CoupleFigures,
  type Rate,
} from '../src/core/quality/realism.ts';
import { createRng } from '../src/core/synthesis/rng.ts';
import { synthesizeSuburb } from '../src/core/synthesis/synthesize.ts';
import { suburbSeed } from '../src/build/build-release.ts';
import { demoTruthInputTables } from '../src/demo/generate.ts';
import { buildDemoGeography } from '../src/demo/geography.ts';
import { drawSuburbPopulation } from '../src/demo/truth-model.ts';

const { values: args } = parseArgs({ options: { seed: { type: 'string', default: '1' }, suburbs: { type: 'string' }, json: { type: 'string' } } });
const seed = Number(args.seed);
const limit = args.suburbs ? Number(args.suburbs) : undefined;

type Who = 'synthetic' | 'truth' | 'oracle';
const WHO: readonly Who[] = ['synthetic', 'truth', 'oracle'];
const PAIRS: readonly (readonly [string, string])[] = [
  ['RELP', 'BPLP'],
  ['OCCP', 'HEAP'],
  ['INGP', 'LANP'],
];

interface Tally {
  implausible: Record<string, Rate>;
  couples: CoupleFigures;
  pairs: Record<string, Float64Array>;
  indigenousLanguageRemote: Rate;
  /** Per validation table: Σ|x − truth| and Σ|independence(x) − truth|. */
  recovery: Record<string, { error: number; independence: number }>;
}
const emptyTally = (): Tally => ({
  implausible: Object.fromEntries(IMPLAUSIBLE_CHECKS.map((c) => [c.name, { numerator: 0, denominator: 0 }])),
  couples: { gapSum: 0, opposite: 0, sameSex: 0 },
  pairs: Object.fromEntries(PAIRS.map(([a, b]) => [`${a}×${b}`, new Float64Array(variableByCode(a).categories.length * variableByCode(b).categories.length)])),
  indigenousLanguageRemote: { numerator: 0, denominator: 0 },
  recovery: Object.fromEntries(VALIDATION_TABLES.map((t) => [t.id, { error: 0, independence: 0 }])),
});
const tallies = new Map<string, Tally>(); // `${who}|${band}` and `${who}|all`
const tally = (who: Who, band: SizeBand | 'all') => {
  const key = `${who}|${band}`;
  let t = tallies.get(key);
  if (!t) tallies.set(key, (t = emptyTally()));
  return t;
};

const indigenous = new Set(['Aboriginal', 'Torres Strait Islander', 'Both Aboriginal and Torres Strait Islander'].map((l) => variableByCode('INGP').categories.indexOf(l)));
const indigenousLanguage = variableByCode('LANP').categories.indexOf('Australian Indigenous languages');

function add(t: Tally, pop: Population, remote: boolean, truthTables: ReadonlyMap<string, Float64Array> | undefined): void {
  for (const check of IMPLAUSIBLE_CHECKS) check.count(pop, t.implausible[check.name]!);
  countCouples(pop, t.couples);
  for (const [a, b] of PAIRS) {
    const table = crossTab(pop, a, b);
    const into = t.pairs[`${a}×${b}`]!;
    for (let i = 0; i < table.length; i++) into[i]! += table[i]!;
  }
  if (remote) {
    const { INGP, LANP } = pop.persons.variables;
    for (let p = 0; p < pop.persons.count; p++) {
      if (!indigenous.has(INGP![p]!)) continue;
      t.indigenousLanguageRemote.denominator++;
      if (LANP![p] === indigenousLanguage) t.indigenousLanguageRemote.numerator++;
    }
  }
  if (truthTables) {
    for (const spec of VALIDATION_TABLES) {
      const own = tabulate(pop, spec);
      const truth = truthTables.get(spec.id)!;
      const sizes = VALIDATION_CODES[spec.id]!.map((code) => variableByCode(code).categories.length);
      t.recovery[spec.id]!.error += absoluteError(own, truth);
      t.recovery[spec.id]!.independence += absoluteError(independence(own, sizes), truth);
    }
  }
}

const started = performance.now();
const geography = buildDemoGeography('demo', seed, limit).suburbs;
const base = createRng(seed);
let done = 0;
for (const suburb of demoTruthInputTables({ scale: 'demo', seed, ...(limit ? { suburbs: limit } : {}) })) {
  const where = geography[done]!;
  const truth = drawSuburbPopulation(where, base.fork(1000 + where.index));
  const oracle = drawSuburbPopulation(where, base.fork(900_000 + where.index));
  const { population } = synthesizeSuburb(
    { salCode: suburb.salCode, tables: suburb.published },
    { seed: suburbSeed(seed, suburb.salCode), smallSuburb: false, dwellingLocation: where.remoteness },
  );
  const truthTables = new Map(VALIDATION_TABLES.map((spec) => [spec.id, tabulate(truth, spec)]));
  const band = sizeBand(truth.persons.count);
  const remote = where.remoteness >= 3;
  const pops: Record<Who, Population> = { synthetic: population, truth, oracle };
  for (const who of WHO) for (const b of [band, 'all'] as const) add(tally(who, b), pops[who], remote, who === 'truth' ? undefined : truthTables);
  done++;
  if (done % 50 === 0) process.stderr.write(`realism: ${done} suburbs (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
}

const pct = (r: Rate) => (r.denominator ? `${((100 * r.numerator) / r.denominator).toFixed(2)}%` : '—');
const rows: Record<string, unknown>[] = [];
const line = (cells: readonly string[]) => console.log(`| ${cells.join(' | ')} |`);
const S = tally('synthetic', 'all');
const T = tally('truth', 'all');
const O = tally('oracle', 'all');
console.log(`\nrealism of the demo (seed ${seed}, ${done} suburbs, ${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
line(['figure', 'synthetic', 'truth', 'oracle']);
line(['---', '---', '---', '---']);
for (const check of IMPLAUSIBLE_CHECKS) {
  line([check.description, pct(S.implausible[check.name]!), pct(T.implausible[check.name]!), pct(O.implausible[check.name]!)]);
  rows.push({ figure: check.name, synthetic: S.implausible[check.name], truth: T.implausible[check.name], oracle: O.implausible[check.name] });
}
const gap = (c: CoupleFigures) => (c.opposite ? (c.gapSum / c.opposite).toFixed(2) : '—');
const sameSex = (c: CoupleFigures) => `${((100 * c.sameSex) / Math.max(1, c.sameSex + c.opposite)).toFixed(2)}%`;
line(['mean man − woman age gap (years), opposite-sex couples', gap(S.couples), gap(T.couples), gap(O.couples)]);
line(['same-sex couples among couples', sameSex(S.couples), sameSex(T.couples), sameSex(O.couples)]);
rows.push({ figure: 'couples', synthetic: S.couples, truth: T.couples, oracle: O.couples });
for (const [a, b] of PAIRS) {
  const key = `${a}×${b}`;
  const vOf = (t: Tally) => cramersV(t.pairs[key]!, variableByCode(a).categories, variableByCode(b).categories);
  line([`Cramér's V ${key}`, vOf(S).toFixed(3), vOf(T).toFixed(3), vOf(O).toFixed(3)]);
  rows.push({ figure: `cramersV ${key}`, synthetic: vOf(S), truth: vOf(T), oracle: vOf(O) });
}
line(['Indigenous persons speaking an Indigenous language, remote suburbs', pct(S.indigenousLanguageRemote), pct(T.indigenousLanguageRemote), pct(O.indigenousLanguageRemote)]);
rows.push({ figure: 'indigenous-language-remote', synthetic: S.indigenousLanguageRemote, truth: T.indigenousLanguageRemote, oracle: O.indigenousLanguageRemote });

console.log('\nshare of the independence error removed, against the truth (1 = its joint structure; oracle = a second draw of the truth model)\n');
line(['cross-tab', ...SIZE_BANDS.map((b) => `synthetic ${b}`), 'synthetic all', 'oracle all']);
line(['---', ...SIZE_BANDS.map(() => '---'), '---', '---']);
const share = (t: Tally, id: string) => errorRemoved(t.recovery[id]!.error, t.recovery[id]!.independence);
const fmt = (x: number | undefined) => (x === undefined ? '—' : `${(100 * x).toFixed(0)}%`);
for (const spec of VALIDATION_TABLES) {
  line([spec.id, ...SIZE_BANDS.map((b) => fmt(share(tally('synthetic', b), spec.id))), fmt(share(S, spec.id)), fmt(share(O, spec.id))]);
  rows.push({ figure: `recovery ${spec.id}`, synthetic: share(S, spec.id), oracle: share(O, spec.id), byBand: Object.fromEntries(SIZE_BANDS.map((b) => [b, share(tally('synthetic', b), spec.id)])) });
}
if (args.json) writeFileSync(args.json, JSON.stringify({ seed, suburbs: done, rows }, null, 2));
