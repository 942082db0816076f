/**
 * Suburbs checked on their own published figures (issue 39): a built release's suburb pools read
 * straight from its column files, each suburb of `--min` persons or more of `--state` set beside
 * the real SAL tables of the full DataPack:
 *   - median age, two ways, each interpolated alike on both sides (the records' single years put
 *     into the real table's groups, every group spread evenly over its years, so the method
 *     cancels):
 *       · **G20B** (long-term health conditions by age: persons in ten-year groups) — not a build
 *         input: held out;
 *       · **G04B + G20B**: G04B's single years from 55 (a build input at SAL: not held out) and
 *         G20B's groups under 55 — the nearest to the real single-year median the SAL pack
 *         allows (it has no G04A and no G02);
 *   - mean household size, persons usually resident per occupied private dwelling (G35, a build
 *     input; six or more counted as six on both sides);
 *   - median household income band among households stating it (G33, a build input).
 * Counts how many suburbs are within 2 years of median age, 0.2 persons of household size and
 * one band of household income.
 *
 * Usage: node bin/run-ts.js bench/suburb-ages.ts --release DIR (a release: catalog.json, columns/)
 *          [--state TAS] [--min 1000] [--pack "…/2021 Census GCP All Geographies for AUS"] [--json FILE] [--list]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseCsvLine } from '../src/census-input/csv.ts';
import { byYear, medianAge } from './age-histogram.ts';

const { values } = parseArgs({
  options: {
    release: { type: 'string' },
    state: { type: 'string', default: 'TAS' },
    min: { type: 'string', default: '1000' },
    pack: { type: 'string', default: join(import.meta.dirname, '../../shared/abs/2021-gcp/datapack/2021 Census GCP All Geographies for AUS') },
    json: { type: 'string' },
    list: { type: 'boolean' },
  },
});
if (!values.release) throw new Error('--release DIR (a built release: catalog.json and columns/)');
const release = resolve(values.release);
const min = Number(values.min);

interface Suburb {
  readonly salCode: string;
  readonly suburbId: string;
  readonly state: string;
  readonly offsets: { readonly persons: number; readonly dwellings: number };
  readonly pools: { readonly persons: number; readonly dwellings: number };
}
const catalog = JSON.parse(readFileSync(join(release, 'catalog.json'), 'utf8')) as { suburbs: (Suburb & { level?: string })[]; variables: { persons: { code: string; categories: string[] }[] } };
const column = (dataset: string, name: string) => new Uint8Array(readFileSync(join(release, 'columns', dataset, `${name}.bin`)));
const AGEP = column('persons', 'AGEP');
const DWTD = column('dwellings', 'DWTD');
const NPRD = column('dwellings', 'NPRD');
const HIND = column('dwellings', 'HIND');
const ageLabels = catalog.variables.persons.find((v) => v.code === 'AGEP')!.categories;
/** AGEP's category → its years (single years to 79, then five-year groups, 100 and over as 100–109). */
const ageYears = ageLabels.map((label) => {
  const m = /^(\d+)(?:-(\d+))? years/.exec(label)!;
  const lo = Number(m[1]);
  return { lo, hi: m[2] ? Number(m[2]) : /and over/.test(label) ? 109 : lo };
});

/** One DataPack SAL file's rows by code, as numbers by header. */
function packRows(part: string): Map<string, Map<string, number>> {
  const [header, ...rows] = readFileSync(join(values.pack!, 'SAL', 'AUS', `2021Census_${part}_AUST_SAL.csv`), 'utf8').trimEnd().split(/\r?\n/);
  const names = parseCsvLine(header!);
  return new Map(rows.map((r) => {
    const cells = parseCsvLine(r);
    return [cells[0]!, new Map(names.map((n, i) => [n, Number(cells[i])]))];
  }));
}

type Group = { lo: number; hi: number };
const regroup = (years: Float64Array, groups: readonly Group[]) => byYear(groups.map((g) => ({ ...g, n: years.slice(g.lo, g.hi + 1).reduce((a, b) => a + b, 0) })));

const G20_GROUPS: Group[] = [[0, 14], [15, 24], [25, 34], [35, 44], [45, 54], [55, 64], [65, 74], [75, 84], [85, 109]].map(([lo, hi]) => ({ lo: lo!, hi: hi! }));
const G20_HEADERS = ['P_Tot_0_14', 'P_Tot_15_24', 'P_Tot_25_34', 'P_Tot_35_44', 'P_Tot_45_54', 'P_Tot_55_64', 'P_Tot_65_74', 'P_Tot_75_84', 'P_Tot_85_over'];
/** G04B's groups from 55: single years to 79, five-year groups to 100 and over. */
const G04B_GROUPS: (Group & { header: string })[] = [
  ...Array.from({ length: 25 }, (_, i) => ({ lo: 55 + i, hi: 55 + i, header: `Age_yr_${55 + i}_P` })),
  ...[80, 85, 90, 95].map((lo) => ({ lo, hi: lo + 4, header: `Age_yr_${lo}_${lo + 4}_P` })),
  { lo: 100, hi: 109, header: 'Age_yr_100_yr_over_P' },
];
const MIXED_GROUPS: Group[] = [...G20_GROUPS.slice(0, 5), ...G04B_GROUPS];
const INCOME_BANDS = ['Negative_Nil_income_Tot', 'HI_1_149_Tot', 'HI_150_299_Tot', 'HI_300_399_Tot', 'HI_400_499_Tot', 'HI_500_649_Tot', 'HI_650_799_Tot', 'HI_800_999_Tot', 'HI_1000_1249_Tot', 'HI_1250_1499_Tot', 'HI_1500_1749_Tot', 'HI_1750_1999_Tot', 'HI_2000_2499_Tot', 'HI_2500_2999_Tot', 'HI_3000_3499_Tot', 'HI_3500_3999_Tot', 'HI_4000_more_Tot'];

/** The band holding the middle household of counts by band (its index, fractional within the band). */
function medianBand(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    if (below + counts[i]! >= total / 2) return i + (total / 2 - below) / Math.max(counts[i]!, 1e-12);
    below += counts[i]!;
  }
  return Number.NaN;
}

const g20 = packRows('G20B');
const g04 = packRows('G04B');
const g35 = packRows('G35');
const g33 = packRows('G33');

interface Row {
  suburb: string;
  code: string;
  persons: number;
  medianG20: { synthetic: number; real: number };
  medianG04G20: { synthetic: number; real: number };
  householdSize: { synthetic: number; real: number };
  incomeBand: { synthetic: number; real: number };
}
const rows: Row[] = [];
for (const s of catalog.suburbs) {
  if ((s.level ?? 'sal') !== 'sal' || s.state !== values.state!.toUpperCase() || s.pools.persons < min) continue;
  const real20 = g20.get(s.salCode);
  const real04 = g04.get(s.salCode);
  if (!real20 || !real04) continue;
  const years = new Float64Array(110);
  for (let r = s.offsets.persons; r < s.offsets.persons + s.pools.persons; r++) {
    const g = ageYears[AGEP[r]!];
    if (g) for (let y = g.lo; y <= g.hi; y++) years[y]! += 1 / (g.hi - g.lo + 1);
  }
  const realG20 = byYear(G20_GROUPS.map((g, i) => ({ ...g, n: real20.get(G20_HEADERS[i]!)! })));
  const realMixed = byYear([...G20_GROUPS.slice(0, 5).map((g, i) => ({ ...g, n: real20.get(G20_HEADERS[i]!)! })), ...G04B_GROUPS.map((g) => ({ ...g, n: real04.get(g.header)! }))]);
  let persons = 0;
  let households = 0;
  const income = new Array<number>(INCOME_BANDS.length).fill(0);
  for (let r = s.offsets.dwellings; r < s.offsets.dwellings + s.pools.dwellings; r++) {
    if (DWTD[r] !== 0 || NPRD[r]! > 7) continue;
    households++;
    persons += Math.min(6, NPRD[r]! + 1);
    if (HIND[r]! < INCOME_BANDS.length) income[HIND[r]!]! += 1;
  }
  const real35 = g35.get(s.salCode)!;
  const sizes = [1, 2, 3, 4, 5].map((k) => k * real35.get(`Num_Psns_UR_${k}_Total`)!);
  const realSize = (sizes.reduce((a, b) => a + b, 0) + 6 * real35.get('Num_Psns_UR_6mo_Total')!) / real35.get('Total_Total')!;
  const real33 = g33.get(s.salCode)!;
  rows.push({
    suburb: s.suburbId,
    code: s.salCode,
    persons: s.pools.persons,
    medianG20: { synthetic: medianAge(regroup(years, G20_GROUPS)), real: medianAge(realG20) },
    medianG04G20: { synthetic: medianAge(regroup(years, MIXED_GROUPS)), real: medianAge(realMixed) },
    householdSize: { synthetic: persons / households, real: realSize },
    incomeBand: { synthetic: medianBand(income), real: medianBand(INCOME_BANDS.map((h) => real33.get(h)!)) },
  });
}

const within = (pick: (r: Row) => { synthetic: number; real: number }, limit: number) => rows.filter((r) => Math.abs(pick(r).synthetic - pick(r).real) <= limit).length;
const medianAbs = (pick: (r: Row) => { synthetic: number; real: number }) => {
  const xs = rows.map((r) => Math.abs(pick(r).synthetic - pick(r).real)).sort((a, b) => a - b);
  return xs.length ? (xs[(xs.length - 1) >> 1]! + xs[xs.length >> 1]!) / 2 : Number.NaN;
};
const summary = {
  release,
  state: values.state,
  min_persons: min,
  suburbs: rows.length,
  median_age_g20b_held_out: { within_2_years: within((r) => r.medianG20, 2), median_abs_difference: medianAbs((r) => r.medianG20) },
  median_age_g04b_g20b: { within_2_years: within((r) => r.medianG04G20, 2), median_abs_difference: medianAbs((r) => r.medianG04G20) },
  household_size_g35_input: { within_0_2: within((r) => r.householdSize, 0.2), median_abs_difference: medianAbs((r) => r.householdSize) },
  household_income_band_g33_input: { within_1_band: within((r) => r.incomeBand, 1), median_abs_difference: medianAbs((r) => r.incomeBand) },
};
const f = (v: number) => v.toFixed(1);
if (values.list) for (const r of rows) process.stdout.write(`${r.suburb} (${r.persons}): median age G20B ${f(r.medianG20.synthetic)} / ${f(r.medianG20.real)}, G04B+G20B ${f(r.medianG04G20.synthetic)} / ${f(r.medianG04G20.real)}, household size ${r.householdSize.synthetic.toFixed(2)} / ${r.householdSize.real.toFixed(2)}, income band ${r.incomeBand.synthetic.toFixed(2)} / ${r.incomeBand.real.toFixed(2)}\n`);
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
if (values.json) writeFileSync(values.json, `${JSON.stringify({ ...summary, rows }, null, 2)}\n`);
