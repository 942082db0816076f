/**
 * Measures the demo's hidden truth against the real tables it is calibrated to (the figures in
 * docs/inputs.md, "Hidden truth"): draws the truth exactly as `spq demo-inputs` does and prints
 * a markdown table of Australia's real shares, the states' real shares weighted by the demo's
 * persons per state (what the state-by-state calibration aims at), and the demo's.
 *   node bin/run-ts.js scripts/demo-calibration-report.ts [demo|national] [every-nth-suburb] [seed]
 * The national scale takes minutes; every 10th suburb gives the same shares to a few tenths.
 */
import { ABS_CODE_OF_STATE } from '../src/census-names.ts';
import { createRng } from '../src/synthesis/synthesizer/rng.ts';
import type { Population } from '../src/synthesis/census/population.ts';
import { drawTruth } from '../src/demo/generate.ts';
import { buildDemoGeography } from '../src/demo/geography.ts';
import { RealTables, type CalibrationArea } from '../src/demo/real-tables.ts';
import { demoShares, realShares, reweightedByState, type NationalShares } from '../src/demo/shares.ts';
import { createTruthModel } from '../src/demo/truth-params.ts';
import { readRealTables } from './gen-demo-calibration.ts';

const scale = process.argv[2] === 'national' ? 'national' : 'demo';
const every = Number(process.argv[3] ?? 1);
const seed = Number(process.argv[4] ?? 2021);

const suburbs = buildDemoGeography(scale, seed).suburbs;
const model = createTruthModel(suburbs);
const base = createRng(seed);
const pops: Population[] = [];
const byState = new Map<CalibrationArea, number>();
let teens = 0;
let teenPartners = 0;
for (const suburb of suburbs) {
  if (suburb.index % every !== 0) continue;
  const pop = drawTruth(base, suburb, model);
  pops.push(pop);
  const area = ABS_CODE_OF_STATE[suburb.state] as CalibrationArea;
  byState.set(area, (byState.get(area) ?? 0) + pop.persons.count);
  for (let p = 0; p < pop.persons.count; p++) {
    if (pop.persons.age[p]! < 15 || pop.persons.age[p]! > 19) continue;
    teens++;
    if (pop.persons.variables.RLHP![p]! <= 1) teenPartners++;
  }
}

const values = Object.fromEntries([...readRealTables()].map(([area, byTable]) => [area, Object.fromEntries(byTable)]));
const aus = realShares(new RealTables(values, 'AUS'));
const weighted = realShares(reweightedByState(values, byState));
const demo = demoShares(pops);

const pct = (x: number) => (100 * x).toFixed(1);
const dollars = (x: number) => `$${x.toFixed(0)}`;
const lines = [
  `Demo truth (${scale}, seed ${seed}${every > 1 ? `, every ${every}th suburb` : ''}): ${pops.reduce((s, p) => s + p.persons.count, 0).toLocaleString('en-AU')} persons`,
  '',
  '| figure | real, Australia | real, at the demo\'s state mix | demo |',
  '|---|---|---|---|',
];
const row = (name: string, f: (s: NationalShares) => string) => lines.push(`| ${name} | ${f(aus)} | ${f(weighted)} | ${f(demo)} |`);
const BANDS = ['0-14', '15-24', '25-34', '35-44', '45-54', '55-64', '65-74', '75-84', '85+'];
const ADULT = ['15-19', '20-24', '25-34', '35-44', '45-54', '55-64', '65-74', '75-84', '85+'];
const ROLES = ['married', 'de facto', 'lone parent', 'child <15', 'dependent student', 'non-dependent child', 'other related', 'unrelated', 'group member', 'lone person'];
row('aged 65+ (G27, private dwellings)', (s) => `${pct(s.aged65)}%`);
row('age bands 0-14 / 15-24 / … / 85+', (s) => s.ageBands.map(pct).join(' / '));
row('partners among 15-24', (s) => `${pct(s.partners15to24)}%`);
lines.push(`| partners among 15-19 | not published (G05: ${pct(aus.marital[0]![4]!)}% married) | | ${pct(teenPartners / teens)}% |`);
for (let b = 1; b < BANDS.length; b++) row(`roles ${BANDS[b]}: ${ROLES.filter((_, r) => aus.roles[b]![r]! > 0.005).join(' / ')}`, (s) => s.roles[b]!.filter((_, r) => aus.roles[b]![r]! > 0.005).map(pct).join(' / '));
for (let b = 0; b < ADULT.length; b++) row(`median weekly income ${ADULT[b]}, men / women`, (s) => s.medianIncome[b]!.map(dollars).join(' / '));
for (let b = 0; b < ADULT.length; b++) row(`employed ${ADULT[b]}, men / women`, (s) => s.employed[b]!.map(pct).join(' / '));
for (let b = 0; b < ADULT.length; b++) row(`married / never married ${ADULT[b]}`, (s) => `${pct(s.marital[b]![4]!)} / ${pct(s.marital[b]![0]!)}`);
row('lone-person / group households', (s) => `${pct(s.lone)} / ${pct(s.group)}`);
row('households of 1 / 2 / 3 / 4 / 5 / 6+', (s) => s.householdSize.map(pct).join(' / '));
row('families: couple no children / with <15 / without <15 / one parent with <15 / without / other', (s) => s.familyTypes.map(pct).join(' / '));
console.log(lines.join('\n'));
