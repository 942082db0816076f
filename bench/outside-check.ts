/**
 * Checked from outside (issue 28's goal "real tables outside the inputs agree with suburbs and
 * SA2s pulled whole through the API"): a real `spq serve` over a built census release, whole areas
 * pulled through the API (POST /query/execute, n_observations = the area's persons pool, csv), the
 * records tabulated here, and the figures compared with the ABS's published figures of tables
 * that are **not build inputs** at that level, read from the full DataPack (../shared/abs):
 *   - SA2s and postal areas: G07 (Indigenous status by age by sex): persons (Tot_Tot_P) and the
 *     median age from its five-year groups; G43 (selected labour force characteristics): the
 *     unemployment rate and labour force participation.
 *   - suburbs: G20B (count of long-term health conditions by age, persons): persons (P_Tot_Tot)
 *     and the median age from its ten-year groups; G43 likewise.
 * Household size and household income are published only in G02 (medians and averages), which
 * the DataPack copy here lacks; every other table that carries them is a build input.
 * The median age is interpolated the same way on both sides (each group's people spread evenly
 * over its years, the synthetic five-year groups put into the real table's groups), so the method
 * cancels. Nothing is tuned to these tables: the bench reads them only to compare.
 *
 * Areas: up to --areas per level of 100 persons or more, spread evenly over the size range (sorted by
 * persons pool).
 *
 * Usage: node bin/run-ts.js bench/outside-check.ts --release DIR [--levels sa2,suburb,postcode] [--areas 30]
 *          [--pack "…/2021 Census GCP All Geographies for AUS"] [--data /tmp/spq-outside-check] [--json FILE]
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { openAccountStore } from '../src/adapters/db/open-store.ts';
import { parseCsvLine } from '../src/census-input/csv.ts';
import { byYear, medianAge } from './age-histogram.ts';
import { benchAccount, machineLine, median } from './lib.ts';
import { serverEnv, startServer, stopServer } from './server.ts';

const { values } = parseArgs({
  options: {
    release: { type: 'string' },
    levels: { type: 'string', default: 'sa2,suburb,postcode' },
    areas: { type: 'string', default: '30' },
    pack: { type: 'string', default: join(import.meta.dirname, '../../shared/abs/2021-gcp/datapack/2021 Census GCP All Geographies for AUS') },
    data: { type: 'string', default: '/tmp/spq-outside-check' },
    json: { type: 'string' },
  },
});
if (!values.release) throw new Error('--release DIR (a census release, e.g. data/census/pools/census-2021.1)');
const say = (line: string) => process.stderr.write(`${line}\n`);
const release = resolve(values.release);

/** Per API level: the catalog level of its areas, the DataPack level, the age table (its groups' and total's headers) and the selection an area is asked by. */
const LEVELS = {
  sa2: { catalog: 'sa2', pack: 'SA2', ageTable: 'G07', group: /^A_(\d+)_(?:(\d+)_y|y_ov)_Tot_P$/, total: 'Tot_Tot_P', code: (c: string) => c, select: (a: Area) => a.salCode },
  postcode: { catalog: 'poa', pack: 'POA', ageTable: 'G07', group: /^A_(\d+)_(?:(\d+)_y|y_ov)_Tot_P$/, total: 'Tot_Tot_P', code: (c: string) => `POA${c.replace(/^POA/, '')}`, select: (a: Area) => a.postcode },
  suburb: { catalog: 'sal', pack: 'SAL', ageTable: 'G20B', group: /^P_Tot_(\d+)_(?:(\d+)|over)$/, total: 'P_Tot_Tot', code: (c: string) => c, select: (a: Area) => a.suburbId },
} as const;
type ApiLevel = keyof typeof LEVELS;

interface Area {
  readonly level: string;
  readonly salCode: string;
  readonly suburbId: string;
  readonly postcode: string;
  readonly smallSuburb: boolean;
  readonly pools: { readonly persons: number };
}

/** A label "20-24 years" or "100 years and over" as its years. */
function yearsOf(label: string): { lo: number; hi: number } | undefined {
  const range = /^(\d+)-(\d+) years$/.exec(label);
  if (range) return { lo: Number(range[1]), hi: Number(range[2]) };
  const open = /^(\d+) years and over$/.exec(label);
  return open ? { lo: Number(open[1]), hi: Math.min(109, Number(open[1]) + 19) } : undefined;
}

/** The real table's groups put onto the synthetic records: the same spreading on both sides, so the method cancels. */
function regroup(years: Float64Array, groups: readonly { lo: number; hi: number }[]): Float64Array {
  return byYear(groups.map((g) => ({ ...g, n: years.slice(g.lo, g.hi + 1).reduce((a, b) => a + b, 0) })));
}

interface Figures {
  readonly persons: number;
  readonly medianAge: number;
  readonly unemployment: number;
  readonly participation: number;
}

/** One DataPack file's rows by area code, as numbers by header. */
async function packRows(level: string, part: string): Promise<Map<string, Map<string, number>>> {
  const [header, ...rows] = (await readFile(join(values.pack!, level, 'AUS', `2021Census_${part}_AUST_${level}.csv`), 'utf8')).trimEnd().split(/\r?\n/);
  const names = parseCsvLine(header!);
  return new Map(rows.map((r) => {
    const cells = parseCsvLine(r);
    return [cells[0]!, new Map(names.map((n, i) => [n, Number(cells[i])]))];
  }));
}

/** The published figures of an area from the tables that are not its level's inputs. */
function realFigures(spec: (typeof LEVELS)[ApiLevel], ages: Map<string, number>, g43: Map<string, number>): Figures & { groups: { lo: number; hi: number }[] } {
  const groups: { lo: number; hi: number; n: number }[] = [];
  for (const [h, n] of ages) {
    const m = spec.group.exec(h);
    if (m) groups.push({ lo: Number(m[1]), hi: m[2] ? Number(m[2]) : Math.min(109, Number(m[1]) + 19), n });
  }
  const lf = g43.get('lfs_Tot_LF_P')!;
  return {
    persons: ages.get(spec.total)!,
    medianAge: medianAge(byYear(groups)),
    unemployment: (100 * g43.get('lfs_Unmplyed_lookng_for_wrk_P')!) / lf,
    participation: (100 * lf) / (lf + g43.get('lfs_N_the_labour_force_P')!),
    groups,
  };
}

/** The records of one whole area, from a csv the API wrote: persons, age by year (real groups), labour force. */
function syntheticFigures(csv: string, groups: readonly { lo: number; hi: number }[]): Figures {
  const [header, ...rows] = csv.trimEnd().split(/\r?\n/);
  const at = (name: string) => parseCsvLine(header!).indexOf(name);
  const [age, ageCoarse, lfs, lfsCoarse] = [at('AGE5P'), at('AGE5P_coarse'), at('LFSP'), at('LFSP_coarse')];
  const years = new Float64Array(110);
  let employed = 0;
  let unemployed = 0;
  let notInForce = 0;
  for (const row of rows) {
    const cells = parseCsvLine(row);
    const span = yearsOf(cells[age] || cells[ageCoarse] || '');
    if (span) for (let y = span.lo; y <= span.hi; y++) years[y]! += 1 / (span.hi - span.lo + 1);
    const status = cells[lfs] || cells[lfsCoarse] || '';
    if (status.startsWith('Employed')) employed++;
    else if (status.startsWith('Unemployed')) unemployed++;
    else if (status === 'Not in the labour force') notInForce++;
  }
  const lf = employed + unemployed;
  return { persons: rows.length, medianAge: medianAge(regroup(years, groups)), unemployment: (100 * unemployed) / lf, participation: (100 * lf) / (lf + notInForce) };
}

/** Up to n areas spread evenly over the size range. */
function spread<T extends Area>(areas: readonly T[], n: number): T[] {
  const sorted = [...areas].sort((a, b) => a.pools.persons - b.pools.persons);
  if (sorted.length <= n) return sorted;
  return Array.from({ length: n }, (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (n - 1))]!);
}

const quantile = (xs: readonly number[], q: number) => {
  const s = [...xs].filter(Number.isFinite).sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

async function main(): Promise<void> {
  say(`machine: ${machineLine()}`);
  const catalog = JSON.parse(await readFile(join(release, 'catalog.json'), 'utf8')) as { suburbs: Area[] };
  const dataDir = resolve(values.data!);
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const config = loadConfig(serverEnv(release, dataDir));
  const store = await openAccountStore(config);
  const { apiKey } = await benchAccount(store, config.serverSecret!, 100_000_000);
  await store.close();
  const server = await startServer(release, dataDir);
  const call = async (body: unknown) => {
    const response = await fetch(`${server.url}/query/execute`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
    return (await response.json()) as { download_url: string };
  };
  const out: Record<string, unknown> = {};
  const lines: string[] = [];
  try {
    for (const level of values.levels!.split(',') as ApiLevel[]) {
      const spec = LEVELS[level];
      if (!spec) throw new Error(`--levels: one of ${Object.keys(LEVELS).join(', ')}`);
      const [ages, g43] = await Promise.all([packRows(spec.pack, spec.ageTable), packRows(spec.pack, 'G43')]);
      // Areas of 100 persons or more: below that the published cells are mostly perturbation (an SA2 of 3 people has every G07 age cell 0).
      const held = catalog.suburbs.filter((a) => a.level === spec.catalog && a.pools.persons >= 100);
      const rows: { area: string; persons: number; real: Figures; synthetic: Figures }[] = [];
      for (const area of spread(held, Number(values.areas))) {
        const code = spec.code(area.salCode);
        const real = realFigures(spec, ages.get(code)!, g43.get(code)!);
        const result = await call({ geography_level: level, geography_selections: [spec.select(area)], dataset_type: 'persons', n_observations: area.pools.persons, output_format: 'csv' });
        const synthetic = syntheticFigures(await (await fetch(result.download_url)).text(), real.groups);
        rows.push({ area: `${area.suburbId} (${area.salCode})`, persons: area.pools.persons, real, synthetic });
        say(`${level} ${area.suburbId}: persons ${synthetic.persons} / ${real.persons}, median age ${synthetic.medianAge.toFixed(1)} / ${real.medianAge.toFixed(1)}, unemployment ${synthetic.unemployment.toFixed(1)} / ${real.unemployment.toFixed(1)}%, participation ${synthetic.participation.toFixed(1)} / ${real.participation.toFixed(1)}%`);
      }
      const diffs = {
        persons: rows.map((r) => (100 * Math.abs(r.synthetic.persons - r.real.persons)) / Math.max(1, r.real.persons)),
        medianAge: rows.map((r) => Math.abs(r.synthetic.medianAge - r.real.medianAge)),
        unemployment: rows.map((r) => Math.abs(r.synthetic.unemployment - r.real.unemployment)),
        participation: rows.map((r) => Math.abs(r.synthetic.participation - r.real.participation)),
      };
      const big = rows.map((r, i) => ({ r, i })).filter(({ r }) => r.real.persons >= 1000).map(({ i }) => i);
      const of = (xs: number[], idx: number[]) => idx.map((i) => xs[i]!);
      const figure = (name: string, xs: number[], unit: string) =>
        `| ${level} | ${name} | ${rows.length} | ${median(xs.filter(Number.isFinite)).toFixed(2)}${unit} | ${quantile(xs, 0.9).toFixed(2)}${unit} | ${big.length ? median(of(xs, big).filter(Number.isFinite)).toFixed(2) + unit : '—'} |`;
      lines.push(
        figure('persons, |difference| / published', diffs.persons, '%'),
        figure(`median age (${spec.ageTable}), |difference|`, diffs.medianAge, ' y'),
        figure('unemployment rate (G43), |difference|', diffs.unemployment, ' pp'),
        figure('participation rate (G43), |difference|', diffs.participation, ' pp'),
      );
      out[level] = { areas: rows.length, areas_1000_plus: big.length, rows };
    }
  } finally {
    await stopServer(server);
  }
  const table = ['| level | figure | areas | median | p90 | median, areas ≥ 1,000 persons |', '|---|---|---|---|---|---|', ...lines, `end: ${machineLine()}`].join('\n');
  process.stdout.write(`${table}\n`);
  if (values.json) await writeFile(values.json, JSON.stringify(out, null, 1));
}

await main();
