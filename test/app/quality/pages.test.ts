/**
 * The quality pages recomputed from the release and its inputs (issue 44): on the demo release
 * as `npm start` builds it, a sample of pages (suburbs, a small suburb served coarsened, a
 * postcode, a state) is recomputed by another road — the records read from pools.duckdb and
 * tabulated as the build tabulates them (tabulate()), the published figures summed from the
 * census tables loaded from the inputs, the noise and fit from report.json — and every plotted
 * number (the model's, the figures table's and the SVG's bar lengths) must equal them.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPoolRelease } from '../../../src/adapters/pools/release.ts';
import { areaQuality, releaseQuality, type AreaQualityModel } from '../../../src/app/quality/pages.ts';
import { loadCensusInputs } from '../../../src/census-input/load-inputs.ts';
import type { DatasetType, GeographyLevel } from '../../../src/core/dataset.ts';
import { areaQualityBody, releaseQualityBody } from '../../../src/http/web/quality/pages.ts';
import type { PoolRelease } from '../../../src/ports/pool-release.ts';
import type { CensusInputs } from '../../../src/synthesis/census/inputs.ts';
import type { Population } from '../../../src/synthesis/census/population.ts';
import { barsOf, chartUniverse, chartVariables, QUALITY_CHARTS, type QualityChart } from '../../../src/synthesis/census/quality-charts.ts';
import { tableById } from '../../../src/synthesis/census/tables.ts';
import { tabulate } from '../../../src/synthesis/census/tabulate.ts';
import { variableByCode } from '../../../src/synthesis/census/variables.ts';
import { buildDemoRelease, type DemoRelease } from '../../support/demo-release.ts';
import { writeReportHtml } from '../../../src/cli/report-html.ts';

let demo: DemoRelease;
let pools: PoolRelease;
let inputs: CensusInputs;
let db: DuckDBConnection;
let report: { perSuburb: { salCode: string; inputs: { tableId: string; srmse?: number; floor?: number }[] }[] };

beforeAll(async () => {
  demo = await buildDemoRelease();
  pools = await openPoolRelease(demo.releaseDir);
  const loaded = await loadCensusInputs(demo.inputsDir, undefined, { level: 'sal' });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.error));
  inputs = loaded.value;
  db = await (await DuckDBInstance.create(join(demo.releaseDir, 'pools.duckdb'), { access_mode: 'READ_ONLY' })).connect();
  report = demo.summary.report as unknown as typeof report;
}, 600_000);
afterAll(async () => {
  db?.closeSync();
  await pools?.close();
  await demo?.remove();
});

/** The areas' records of a dataset from pools.duckdb, as a Population of that dataset alone (single-year age from AGEP's lower bound). */
async function recordsFromDuckDb(dataset: DatasetType, codes: readonly string[], salCodes: readonly string[]): Promise<Population> {
  const columns = dataset === 'persons' ? [...new Set([...codes.filter((c) => c !== 'AGE5P'), 'AGEP'])] : [...codes];
  const reader = await db.runAndReadAll(`SELECT ${columns.map((c) => `"${c}"::VARCHAR`).join(', ')}, count(*)::INTEGER FROM ${dataset} WHERE suburb_code IN (${salCodes.map((c) => `'${c}'`).join(', ')}) GROUP BY ALL`);
  const rows = reader.getRowsJS().flatMap((r) => Array.from({ length: Number(r[columns.length]) }, () => r.slice(0, columns.length).map(String)));
  const variables = Object.fromEntries(columns.map((code, k) => [code, Uint8Array.from(rows, (r) => variableByCode(code).categories.indexOf(r[k]!))]));
  const empty = { count: 0, variables: {} };
  const n = rows.length;
  if (dataset === 'persons') {
    const age = Uint8Array.from(rows, (r) => Number.parseInt(r[columns.indexOf('AGEP')]!, 10));
    return { persons: { count: n, age, dwelling: new Uint32Array(n), family: new Int32Array(n).fill(-1), variables }, families: { ...empty, dwelling: new Uint32Array(0) }, dwellings: empty };
  }
  const none = { count: 0, age: new Uint8Array(0), dwelling: new Uint32Array(0), family: new Int32Array(0), variables: {} };
  return dataset === 'families' ? { persons: none, families: { count: n, dwelling: new Uint32Array(n), variables }, dwellings: empty } : { persons: none, families: { ...empty, dwelling: new Uint32Array(0) }, dwellings: { count: n, variables } };
}

/** A chart's bars over the areas, by the other road: records tabulated, published cells summed from the inputs, noise from report.json. */
async function expected(chart: QualityChart, salCodes: readonly string[]) {
  const table = tableById(chart.tableId);
  const records = tabulate(await recordsFromDuckDb(chartUniverse(chart), chartVariables(chart), salCodes), table);
  const published = salCodes.map((code) => inputs.tables.get(chart.tableId)!.get(code)!);
  const noise2 = salCodes.map((code) => {
    const floor = report.perSuburb.find((f) => f.salCode === code)!.inputs.find((t) => t.tableId === chart.tableId)!.floor!;
    const cells = [...published[salCodes.indexOf(code)]!].filter((v) => !Number.isNaN(v));
    return (floor * (cells.reduce((a, b) => a + b, 0) / cells.length)) ** 2;
  });
  return barsOf(chart).map((bar) => ({
    label: bar.label,
    records: bar.cells.reduce((s, i) => s + records[i]!, 0),
    published: published.reduce((s, cells) => s + bar.cells.reduce((t, i) => t + cells[i]!, 0), 0),
    noise: Math.sqrt(noise2.reduce((a, b) => a + b, 0) * bar.cells.length),
  }));
}

async function page(level: GeographyLevel, id: string): Promise<AreaQualityModel> {
  const r = await areaQuality({ pools }, level, id);
  if (!r.ok) throw new Error(r.error.detail);
  return r.value;
}

const close = (a: number | null, b: number, tolerance: number) => a !== null && Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b));

/** The figures table's row of a bar in a chart's section of the rendered page: its records and census columns. */
const rowOf = (body: string, label: string): string[] | undefined => {
  const at = body.indexOf(`<th scope="row">${label.replace(/&/g, '&amp;').replace(/'/g, '&#39;')}</th>`);
  if (at < 0) return undefined;
  const row = body.slice(at, body.indexOf('</tr>', at));
  return [...row.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => m[1]!);
};

const num = (s: string | undefined) => Number((s ?? '').replace(/,/g, ''));

describe('quality pages recomputed from the demo release and its inputs', () => {
  it('suburbs and a postcode of several suburbs: every bar of every chart, the noise and the fit per table equal the other road; the page shows those numbers', async () => {
    const suburbs = pools.search({ query: 'a', level: 'suburb', limit: 50 }).results.filter((s) => !s.smallSuburb);
    // A postcode of several suburbs, none small (so none served coarsened): its page sums them.
    const postcode = [...new Set(suburbs.flatMap((s) => s.postcodes ?? []))].map((p) => pools.resolve('postcode', p)).find((r) => r.ok && r.value.suburbs.length > 1 && r.value.suburbs.every((s) => !s.smallSuburb));
    expect(postcode?.ok).toBe(true);
    const sample: [GeographyLevel, string][] = [['suburb', suburbs[0]!.suburbId], ['suburb', suburbs[suburbs.length - 1]!.suburbId], ['postcode', postcode!.ok ? postcode!.value.canonical : '']];
    for (const [level, id] of sample) {
      const m = await page(level, id);
      const codes = m.areas.map((a) => a.salCode);
      expect(m.coarsened, `${level} ${id}`).toEqual([]);
      if (level === 'postcode') expect(m.areas.length).toBeGreaterThan(1);
      const body = areaQualityBody(m).text;
      for (const chart of m.charts) {
        const want = await expected(chart.chart, codes);
        expect(chart.view, `${id} ${chart.chart.id}`).toBe('fine');
        expect(chart.bars.map((b) => b.label)).toEqual(want.map((w) => w.label));
        chart.bars.forEach((bar, i) => {
          const where = `${level} ${id} ${chart.chart.id} ${bar.label}`;
          expect(bar.records, where).toBe(want[i]!.records);
          expect(close(bar.published, want[i]!.published, 0.001), `${where}: published ${bar.published} vs ${want[i]!.published}`).toBe(true);
          expect(close(bar.noise, want[i]!.noise, 0.002), `${where}: noise ${bar.noise} vs ${want[i]!.noise}`).toBe(true);
          if (chart.chart.split) {
            // The pyramid's table: a row per age, each sex's records and census side by side.
            const section = body.slice(body.indexOf('id="chart-age-sex-h"'), body.indexOf('</section>', body.indexOf('id="chart-age-sex-h"')));
            const [sex, age] = bar.label.split(', ') as [string, string];
            const row = rowOf(section, age);
            const at = sex === 'Male' ? 0 : 2;
            expect(num(row?.[at]), where).toBe(want[i]!.records);
            expect(Math.abs(num(row?.[at + 1]) - want[i]!.published) <= 0.51, where).toBe(true);
          } else {
            const section = body.slice(body.indexOf(`id="chart-${chart.chart.id}-h"`), body.indexOf('</section>', body.indexOf(`id="chart-${chart.chart.id}-h"`)));
            const row = rowOf(section, bar.label);
            expect(num(row?.[0]), where).toBe(want[i]!.records);
            expect(Math.abs(num(row?.[1]) - want[i]!.published) <= 0.51, where).toBe(true);
          }
        });
        if (!chart.chart.split) expectBarLengths(body, chart.chart.id, want.map((w) => w.records));
      }
      // Fit per table: a suburb's own scores; over several areas, their median.
      for (const fit of m.fits) {
        const scores = codes.map((c) => report.perSuburb.find((f) => f.salCode === c)!.inputs.find((t) => t.tableId === fit.tableId)!.srmse!).sort((a, b) => a - b);
        const mid = scores.length >> 1;
        const median = scores.length % 2 ? scores[mid]! : (scores[mid - 1]! + scores[mid]!) / 2;
        expect(close(fit.srmse, median, 0.001), `${id} ${fit.tableId}: ${fit.srmse} vs ${median}`).toBe(true);
      }
      expect(m.fits).toHaveLength(26);
    }
  }, 300_000);

  it('a state (suburbs served fine and coarsened): its published bars are its suburbs\' cells summed (folded into coarse categories where any is coarsened), its pyramid holds all its persons', async () => {
    const state = pools.resolve('state', pools.search({ query: 'a', level: 'suburb', limit: 1 }).results[0]!.state);
    if (!state.ok) throw new Error('no state');
    const m = await page('state', state.value.canonical);
    const codes = m.areas.map((a) => a.salCode);
    expect(m.smallAreas).toBeGreaterThan(0);
    for (const chart of m.charts) {
      const v = variableByCode(chart.chart.variable);
      const table = tableById(chart.chart.tableId);
      const sums = new Map<string, number>();
      table.cells.forEach((cell, i) => {
        const fine = chart.chart.variable === 'AGE5P' ? Math.min(Math.floor(cell.age![0] / 5), 20) : cell.where[chart.chart.variable]![0]!;
        const sex = chart.chart.split ? `${variableByCode(chart.chart.split).categories[cell.where[chart.chart.split]![0]!]}, ` : '';
        const label = chart.view === 'coarse' ? `${sex}${v.coarse!.categories[v.coarse!.fromFine[fine]!]}` : barsOf(chart.chart).find((b) => b.cells.includes(i))!.label;
        sums.set(label, (sums.get(label) ?? 0) + codes.reduce((s, code) => s + inputs.tables.get(chart.chart.tableId)!.get(code)![i]!, 0));
      });
      expect(new Set(chart.bars.map((b) => b.label)), chart.chart.id).toEqual(new Set(sums.keys()));
      chart.bars.forEach((b) => expect(close(b.published, sums.get(b.label)!, 0.001), `${chart.chart.id} ${b.label}: ${b.published} vs ${sums.get(b.label)}`).toBe(true));
    }
    expect(m.charts.find((c) => c.chart.id === 'age-sex')!.view).toBe('coarse');
    expect(m.charts.find((c) => c.chart.id === 'age-sex')!.bars.reduce((n, b) => n + b.records, 0)).toBe(m.persons);
  }, 120_000);

  it('a small suburb served coarsened: its coarse bars hold the published cells folded into the coarse categories, and as many records as the pools', async () => {
    const small = pools.search({ query: 'e', level: 'suburb', limit: 50 }).results.find((s) => s.smallSuburb)!;
    const m = await page('suburb', small.suburbId);
    expect(m.smallAreas).toBe(1);
    expect(m.coarsened.map((c) => c.code)).toContain('INCP');
    const income = m.charts.find((c) => c.chart.id === 'personal-income')!;
    expect(income.view).toBe('coarse');
    const v = variableByCode('INCP');
    const cells = inputs.tables.get('G17')!.get(small.salCode)!;
    const folded = new Map<string, number>();
    tableById('G17').cells.forEach((cell, i) => {
      const label = v.coarse!.categories[v.coarse!.fromFine[cell.where['INCP']![0]!]!]!;
      folded.set(label, (folded.get(label) ?? 0) + cells[i]!);
    });
    expect(income.bars.map((b) => [b.label, b.published])).toEqual([...folded].map(([label, n]) => [label, n]));
    const persons15 = await db.runAndReadAll(`SELECT count(*)::INTEGER FROM persons WHERE suburb_code = '${small.salCode}' AND "AGE5P"::VARCHAR NOT IN ('0-14 years', '0-4 years', '5-9 years', '10-14 years')`);
    expect(income.bars.reduce((n, b) => n + b.records, 0)).toBe(Number(persons15.getRowsJS()[0]![0]));
    expect(m.charts.find((c) => c.chart.id === 'age-sex')!.bars.reduce((n, b) => n + b.records, 0)).toBe(small.pools.persons);
    expect(areaQualityBody(m).text).toContain('Shown in coarse categories');
  }, 120_000);

  it("the release's page: fit by level, table and size band are the medians of report.json's per-area scores", async () => {
    const r = await releaseQuality({ pools });
    if (!r.ok) throw new Error(r.error.detail);
    const m = r.value;
    expect(m.areasByLevel).toEqual([{ level: 'sal', areas: demo.summary.suburbs, small: expect.any(Number) }]);
    const g04 = m.fitRows.filter((row) => row.tableId === 'G04');
    expect(g04.map((row) => row.band)).toEqual(['<500', '500-5000', '>=5000']);
    const catalog = new Map(pools.quality!.areas().map((a) => [a.code, a.persons]));
    for (const row of g04) {
      const inBand = report.perSuburb.filter((f) => {
        const n = catalog.get(f.salCode)!;
        return row.band === '<500' ? n < 500 : row.band === '500-5000' ? n >= 500 && n < 5000 : n >= 5000;
      });
      const scores = inBand.map((f) => f.inputs.find((t) => t.tableId === 'G04')!.srmse!).sort((a, b) => a - b);
      const mid = scores.length >> 1;
      expect(row.areas).toBe(scores.length);
      expect(close(row.srmse, scores.length % 2 ? scores[mid]! : (scores[mid - 1]! + scores[mid]!) / 2, 0.001)).toBe(true);
    }
    const body = releaseQualityBody(m).text;
    expect(body).toContain('release-fit-svg');
    expect(body).toContain('Family and household links');
    expect(body).toContain(`${demo.summary.report.structuralViolations.toLocaleString('en-AU')} records break a structural rule`);
  }, 120_000);
});

describe('report.html', () => {
  it("is the release's page, readable offline: the stylesheet inline, no script, nothing it loads from elsewhere", async () => {
    const path = await writeReportHtml(demo.releaseDir);
    expect(path).toBe(join(demo.releaseDir, 'report.html'));
    const text = await readFile(path, 'utf8');
    expect(text).toContain(`<title>Release ${pools.version}: fit to the census · spq quality</title>`);
    expect(text).toContain('<style>');
    expect(text).toContain('<svg id="release-fit-svg"');
    expect(text).not.toMatch(/<script|<link |\ssrc=|href="\//);
    // Written after the manifest: the release still opens (its files as the manifest says).
    const reopened = await openPoolRelease(demo.releaseDir, { verify: 'full' });
    await reopened.close();
  }, 120_000);
});

/** The SVG's records bars of a chart are as long as the records (relative to the longest). */
function expectBarLengths(body: string, chartId: string, records: readonly number[]): void {
  const start = body.indexOf(`<svg id="chart-${chartId}-svg"`);
  const svg = body.slice(start, body.indexOf('</svg>', start));
  const widths = [...svg.matchAll(/<rect class="records" x="[^"]*" y="[^"]*" width="([^"]*)"/g)].map((m) => Number(m[1]));
  expect(widths).toHaveLength(records.length);
  const longest = records.indexOf(Math.max(...records));
  records.forEach((r, i) => expect(Math.abs(widths[i]! - (widths[longest]! * r) / records[longest]!), `${chartId} bar ${i}`).toBeLessThanOrEqual(0.15));
}
