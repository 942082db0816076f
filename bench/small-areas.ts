/**
 * Small areas against their published tables (docs/synthesis.md, "Small areas"): for a build's
 * report.json and the inputs it was built from, each (area, table) pair's SRMSE beside the
 * perturbation floor — the best any whole-record table of the same size could score against the
 * published cells (equal shift of every cell to the records' total, then rounded: the nearest
 * integer table in squared distance) — and how far the published cells fall short of the total.
 *
 * Usage: node bin/run-ts.js bench/small-areas.ts --inputs DIR --report OUT/<version>/report.json
 *        [--level poa] [--worst 30] [--json FILE]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadCensusInputs } from '../src/census-input/load-inputs.ts';
import type { AreaLevel } from '../src/synthesis/census/inputs.ts';
import { nearestIntegers } from '../src/synthesis/synthesizer/integerise.ts';
import { quantile, sizeBand, SIZE_BANDS, srmse, type SizeBand } from '../src/synthesis/quality/metrics.ts';
import type { BuildReport } from '../src/synthesis/pipeline/report.ts';

const { values } = parseArgs({
  options: {
    inputs: { type: 'string' },
    report: { type: 'string' },
    level: { type: 'string', default: 'poa' },
    worst: { type: 'string', default: '30' },
    json: { type: 'string' },
  },
});
if (!values.inputs || !values.report) throw new Error('--inputs and --report are required');
const report = JSON.parse(readFileSync(values.report, 'utf8')) as BuildReport;
const loaded = await loadCensusInputs(values.inputs, undefined, { level: values.level as AreaLevel });
if (!loaded.ok) throw new Error(loaded.error.map((e) => e.message).join('\n'));
const inputs = loaded.value;

/** The best SRMSE a table of whole records adding up to `total` can reach against `published`. */
export function perturbationFloor(published: ArrayLike<number>, total: number): number | undefined {
  const open = new Uint8Array(published.length).fill(1);
  return srmse(nearestIntegers(published, Math.max(0, Math.round(total)), { open }), published);
}

interface Pair {
  area: string;
  persons: number;
  band: SizeBand;
  table: string;
  srmse: number;
  floor: number | undefined;
  cellSum: number;
  syntheticTotal: number;
  publishedTotal: number | undefined;
}
const pairs: Pair[] = [];
for (const fit of report.perSuburb) {
  for (const t of fit.inputs) {
    if (t.srmse === undefined || t.srmse === null) continue;
    const cells = inputs.tables.get(t.tableId)?.get(fit.salCode);
    if (!cells) continue;
    const published = cells.filter((v) => !Number.isNaN(v));
    pairs.push({
      area: fit.suburbId,
      persons: fit.persons,
      band: sizeBand(fit.persons),
      table: t.tableId,
      srmse: t.srmse,
      floor: perturbationFloor(published, t.syntheticTotal),
      cellSum: t.targetTotal,
      syntheticTotal: t.syntheticTotal,
      publishedTotal: inputs.totals.get(t.tableId)?.get(fit.salCode),
    });
  }
}

const fmt = (v: number | undefined) => (v === undefined ? '—' : v.toFixed(3));
const dist = (list: readonly Pair[], pick: (p: Pair) => number | undefined) => {
  const v = list.flatMap((p) => { const x = pick(p); return x === undefined ? [] : [x]; });
  return `${fmt(quantile(v, 0.5))}/${fmt(quantile(v, 0.95))}`.padEnd(14);
};
console.log(`pairs ${pairs.length}; SRMSE median/p95 ${dist(pairs, (p) => p.srmse)} floor ${dist(pairs, (p) => p.floor)}`);
for (const band of SIZE_BANDS) {
  const list = pairs.filter((p) => p.band === band);
  console.log(`${band.padEnd(9)} (${String(list.length).padStart(5)} pairs) SRMSE ${dist(list, (p) => p.srmse)} floor ${dist(list, (p) => p.floor)}`);
}
console.log('\nper table, SRMSE median/p95 | floor median/p95, by band:');
console.log(`table   ${SIZE_BANDS.map((b) => `${b.padEnd(14)}${'floor'.padEnd(15)}`).join('')}`);
for (const table of [...new Set(pairs.map((p) => p.table))].sort()) {
  console.log(`${table.padEnd(8)}${SIZE_BANDS.map((b) => { const l = pairs.filter((p) => p.table === table && p.band === b); return `${dist(l, (p) => p.srmse)}${dist(l, (p) => p.floor)} `; }).join('')}`);
}
// What lies above each band's p95: which tables, and how much of it is floor.
console.log('\nabove each band\'s p95 (pairs by table; how many have a floor above the p95 themselves):');
for (const band of SIZE_BANDS) {
  const list = pairs.filter((p) => p.band === band);
  const p95 = quantile(list.map((p) => p.srmse), 0.95) ?? 0;
  const above = list.filter((p) => p.srmse > p95);
  const byTable = new Map<string, [number, number]>();
  for (const p of above) { const c = byTable.get(p.table) ?? [0, 0]; c[0]++; if ((p.floor ?? 0) > p95) c[1]++; byTable.set(p.table, c); }
  console.log(`${band}: p95 ${p95.toFixed(3)}, ${above.length} pairs above: ${[...byTable].sort((a, b) => b[1][0] - a[1][0]).map(([t, [n, f]]) => `${t} ${n} (${f})`).join(', ')}`);
}
const worst = [...pairs].sort((a, b) => b.srmse - a.srmse).slice(0, Number(values.worst));
console.log('\nworst pairs: area persons table SRMSE floor cellSum syntheticTotal publishedTotal');
for (const p of worst) console.log(`${p.area} ${p.persons} ${p.table} ${fmt(p.srmse)} ${fmt(p.floor)} ${p.cellSum} ${p.syntheticTotal} ${p.publishedTotal ?? '—'}`);
if (values.json) writeFileSync(values.json, JSON.stringify(pairs));
