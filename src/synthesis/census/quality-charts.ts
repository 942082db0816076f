/**
 * The quality pages' charts as census vocabulary: which census table each chart sets the records
 * beside, and which of the table's published cells make each bar. A bar is a union of cells (all
 * the cells of one category of the chart's variable, e.g. G17's "$400-$499" over every age and
 * sex), so the records' bar is what tabulate() would give summed over the same cells — counted
 * here from the served columns (labels, AGE5P for ages), as the records are released, fine or
 * coarsened. Pure: no I/O; the builder stores each area's published bars (publishedBars), the
 * service counts the records' (syntheticBars) and the page sets them side by side.
 */
import type { DatasetType } from '../../census-names.ts';
import type { CellSpec, TableSpec } from './table-spec.ts';
import { tableById } from './tables.ts';
import { variableByCode } from './variables.ts';

export interface QualityChart {
  /** The chart's id in page anchors and in quality.json. */
  readonly id: string;
  readonly title: string;
  /** The input table the records are set beside. */
  readonly tableId: string;
  /** The variable along the chart's axis (AGE5P: the cells' age ranges in five-year bands). */
  readonly variable: string;
  /** A second variable splitting each category (the pyramid's sexes). */
  readonly split?: string;
  /** What a bar counts, in words. */
  readonly unit: string;
}

/** The charts of an area's page, in page order. */
export const QUALITY_CHARTS: readonly QualityChart[] = [
  { id: 'age-sex', title: 'Age and sex', tableId: 'G04', variable: 'AGE5P', split: 'SEXP', unit: 'persons' },
  { id: 'household-size', title: 'Household size', tableId: 'G35', variable: 'NPRD', unit: 'households' },
  { id: 'household-composition', title: 'Household composition', tableId: 'G42', variable: 'HHCD', unit: 'households' },
  { id: 'family-type', title: 'Family type', tableId: 'G29', variable: 'FMCF', unit: 'families' },
  { id: 'tenure', title: 'Tenure', tableId: 'G37', variable: 'TEND', unit: 'households' },
  { id: 'household-income', title: 'Weekly household income', tableId: 'G33', variable: 'HIND', unit: 'households' },
  { id: 'personal-income', title: 'Weekly personal income', tableId: 'G17', variable: 'INCP', unit: 'persons aged 15 and over' },
];

/** The age variable the records carry (five-year bands; single years are not released above 79). */
const AGE_VARIABLE = 'AGE5P';
const AGE_BANDS = 21;
const bandOfYear = (year: number): number => Math.min(Math.floor(year / 5), AGE_BANDS - 1);

/** Cells of a bar that differ only by age, as one condition: their `where` and the AGE5P bands their ages make. */
interface CellGroup {
  readonly where: Readonly<Record<string, readonly number[]>>;
  /** Fine AGE5P categories; absent where the cells have no age condition. */
  readonly ageBands?: readonly number[];
}

export interface Bar {
  readonly label: string;
  /** The split variable's category (the pyramid's sex), where the chart has one. */
  readonly split?: number;
  /** The chart variable's fine categories the bar counts. */
  readonly fine: readonly number[];
  /** The table cells (indices into its cells) the bar sums. */
  readonly cells: readonly number[];
  readonly groups: readonly CellGroup[];
}

const BARS = new Map<string, readonly Bar[]>();

/** The chart's bars, fine, in the variable's category order. */
export function barsOf(chart: QualityChart): readonly Bar[] {
  let bars = BARS.get(chart.id);
  if (!bars) BARS.set(chart.id, (bars = makeBars(chart, tableById(chart.tableId))));
  return bars;
}

function makeBars(chart: QualityChart, table: TableSpec): Bar[] {
  const byKey = new Map<string, { fine: number[]; split?: number; cells: number[] }>();
  table.cells.forEach((cell, index) => {
    const fine = fineOfCell(chart, cell);
    const split = chart.split === undefined ? undefined : single(cell.where[chart.split], `${table.id} ${cell.header}: ${chart.split}`);
    const key = `${split ?? ''}|${fine.join(',')}`;
    const bar = byKey.get(key) ?? { fine, ...(split !== undefined ? { split } : {}), cells: [] };
    bar.cells.push(index);
    byKey.set(key, bar);
  });
  const variable = variableByCode(chart.variable);
  const splitLabels = chart.split === undefined ? [] : variableByCode(chart.split).categories;
  // In the variable's category order (G35 lists family households' sizes before lone persons'), the split within.
  const ordered = [...byKey.values()].sort((a, b) => a.fine[0]! - b.fine[0]! || (a.split ?? 0) - (b.split ?? 0));
  return ordered.map((bar) => ({
    label: `${bar.split !== undefined ? `${splitLabels[bar.split]}, ` : ''}${rangeLabel(bar.fine.map((i) => variable.categories[i]!))}`,
    ...(bar.split !== undefined ? { split: bar.split } : {}),
    fine: bar.fine,
    cells: bar.cells,
    groups: groupsOf(bar.cells.map((i) => table.cells[i]!)),
  }));
}

/** The chart variable's fine categories a cell counts: its age's five-year band, or its condition on the variable. */
function fineOfCell(chart: QualityChart, cell: CellSpec): number[] {
  if (chart.variable === AGE_VARIABLE) {
    if (!cell.age) throw new Error(`${chart.tableId} ${cell.header}: no age range for ${chart.id}`);
    const band = bandOfYear(cell.age[0]);
    if (bandOfYear(Math.min(cell.age[1], 115)) !== band) throw new Error(`${chart.tableId} ${cell.header}: age ${cell.age.join('-')} spans bands`);
    return [band];
  }
  const allowed = cell.where[chart.variable];
  if (!allowed || allowed.length === 0) throw new Error(`${chart.tableId} ${cell.header}: no condition on ${chart.variable}`);
  return [...allowed].sort((a, b) => a - b);
}

function single(allowed: readonly number[] | undefined, what: string): number {
  if (!allowed || allowed.length !== 1) throw new Error(`${what}: not one category`);
  return allowed[0]!;
}

/** "Six persons" … "Eight or more persons" → "Six persons to Eight or more persons". */
const rangeLabel = (labels: readonly string[]): string => (labels.length === 1 ? labels[0]! : `${labels[0]} to ${labels[labels.length - 1]}`);

/** The cells grouped by their condition, each group's ages (single years and ranges) as the AGE5P bands they cover. */
function groupsOf(cells: readonly CellSpec[]): CellGroup[] {
  const byWhere = new Map<string, { where: CellSpec['where']; years: Set<number> | undefined }>();
  for (const cell of cells) {
    const key = JSON.stringify(Object.entries(cell.where).sort(([a], [b]) => a.localeCompare(b)));
    const group = byWhere.get(key) ?? { where: cell.where, years: cell.age ? new Set<number>() : undefined };
    if (cell.age && group.years) for (let y = cell.age[0]; y <= Math.min(cell.age[1], 115); y++) group.years.add(y);
    byWhere.set(key, group);
  }
  return [...byWhere.values()].map(({ where, years }) => (years ? { where, ageBands: bandsCovered(years) } : { where }));
}

/** The five-year bands whose every year is in `years` (the tables' age groups are unions of them). */
function bandsCovered(years: ReadonlySet<number>): number[] {
  const bands: number[] = [];
  for (let b = 0; b < AGE_BANDS; b++) {
    const last = b === AGE_BANDS - 1 ? 115 : b * 5 + 4;
    let all = true;
    for (let y = b * 5; y <= last; y++) if (!years.has(y)) all = false;
    if (all) bands.push(b);
  }
  return bands;
}

/** An area's published bars: the sum of each bar's cells, null where one of them is not published (NaN). */
export function publishedBars(chart: QualityChart, cells: ArrayLike<number>): (number | null)[] {
  return barsOf(chart).map((bar) => {
    let sum = 0;
    for (const i of bar.cells) {
      const v = cells[i]!;
      if (Number.isNaN(v)) return null;
      sum += v;
    }
    return sum;
  });
}

/** The dataset whose records a chart counts. */
export const chartUniverse = (chart: QualityChart): DatasetType => tableById(chart.tableId).universe;

/** The variables the records' bars are counted from (what the service reads of an area's records). */
export function chartVariables(chart: QualityChart): string[] {
  const codes = new Set<string>([chart.variable, ...(chart.split ? [chart.split] : [])]);
  for (const bar of barsOf(chart)) for (const group of bar.groups) {
    for (const code of Object.keys(group.where)) codes.add(code);
    if (group.ageBands) codes.add(AGE_VARIABLE);
  }
  return [...codes];
}

/** A bar of a chart whose variable an area serves coarsened: the fine bars of one coarse category (and split). */
export interface CoarseBar {
  readonly label: string;
  readonly split?: number;
  readonly coarse: number;
  /** Indices into barsOf(chart). */
  readonly fineBars: readonly number[];
}

const COARSE_BARS = new Map<string, readonly CoarseBar[]>();

/** The chart's bars in the variable's coarse categories (undefined where it has none). */
export function coarseBarsOf(chart: QualityChart): readonly CoarseBar[] | undefined {
  const coarse = variableByCode(chart.variable).coarse;
  if (!coarse) return undefined;
  let bars = COARSE_BARS.get(chart.id);
  if (!bars) {
    const byKey = new Map<string, { split?: number; coarse: number; fineBars: number[] }>();
    barsOf(chart).forEach((bar, i) => {
      const c = coarse.fromFine[bar.fine[0]!]!;
      const key = `${bar.split ?? ''}|${c}`;
      const entry = byKey.get(key) ?? { ...(bar.split !== undefined ? { split: bar.split } : {}), coarse: c, fineBars: [] };
      entry.fineBars.push(i);
      byKey.set(key, entry);
    });
    const splitLabels = chart.split === undefined ? [] : variableByCode(chart.split).categories;
    bars = [...byKey.values()].map((b) => ({ ...b, label: `${b.split !== undefined ? `${splitLabels[b.split]}, ` : ''}${coarse.categories[b.coarse]}` }));
    COARSE_BARS.set(chart.id, bars);
  }
  return bars;
}

/** Fine bars' values summed into the coarse bars (null where one of them is null). */
export function toCoarse(chart: QualityChart, fine: readonly (number | null)[]): (number | null)[] {
  const bars = coarseBarsOf(chart);
  if (!bars) throw new Error(`${chart.variable} has no coarse categories`);
  return bars.map((bar) => bar.fineBars.reduce<number | null>((sum, i) => (sum === null || fine[i] === null || fine[i] === undefined ? null : sum + fine[i]!), 0));
}

/** One area's records as served: per variable the column's label index per record (the release's ENUM labels). */
export interface ServedRecords {
  readonly count: number;
  readonly columns: Readonly<Record<string, ArrayLike<number>>>;
  /** Per variable, the column's labels (columnLabels: fine categories, then coarse-only labels). */
  readonly labels: Readonly<Record<string, readonly string[]>>;
}

/** A record's value of one variable: a fine category, or a coarse one where the area serves the variable coarsened. */
type Value = { readonly fine: number } | { readonly coarse: number };

/** The records' bars: fine, or coarse where the area serves the chart's variable coarsened (`coarsened`: the area's coarsened codes). */
export function syntheticBars(chart: QualityChart, records: ServedRecords, coarsened: ReadonlySet<string>): { readonly view: 'fine' | 'coarse'; readonly values: number[] } {
  const codes = chartVariables(chart);
  const tuples = countTuples(codes, records);
  const view = coarsened.has(chart.variable) && coarseBarsOf(chart) ? 'coarse' : 'fine';
  const values = new Array<number>(view === 'fine' ? barsOf(chart).length : coarseBarsOf(chart)!.length).fill(0);
  for (const [key, n] of tuples) {
    const tuple = decode(key, codes, records.labels, coarsened);
    const bar = view === 'fine' ? fineBarOf(chart, tuple) : coarseBarOf(chart, tuple);
    if (bar >= 0) values[bar]! += n;
  }
  return { view, values };
}

/**
 * How many records hold each combination of the variables' label indices, keyed by the indices in
 * base 256 (the first variable most significant). Counted in a dense array over the labels' joint
 * (a few thousand cells), so a state's millions of records cost one pass of array increments.
 */
function countTuples(codes: readonly string[], records: ServedRecords): Map<number, number> {
  const columns = codes.map((code) => {
    const column = records.columns[code];
    if (!column) throw new Error(`records have no ${code} column`);
    return column;
  });
  const sizes = codes.map((code) => Math.max(1, records.labels[code]?.length ?? 256));
  const counts = new Float64Array(sizes.reduce((a, b) => a * b, 1));
  for (let r = 0; r < records.count; r++) {
    let at = 0;
    for (let k = 0; k < columns.length; k++) at = at * sizes[k]! + columns[k]![r]!;
    counts[at]! += 1;
  }
  const tuples = new Map<number, number>();
  counts.forEach((n, at) => {
    if (n === 0) return;
    let key = 0;
    let scale = 1;
    for (let k = columns.length - 1; k >= 0; k--) {
      key += (at % sizes[k]!) * scale;
      at = Math.floor(at / sizes[k]!);
      scale *= 256;
    }
    tuples.set(key, n);
  });
  return tuples;
}

function decode(key: number, codes: readonly string[], labels: ServedRecords['labels'], coarsened: ReadonlySet<string>): ReadonlyMap<string, Value> {
  const out = new Map<string, Value>();
  for (let k = codes.length - 1; k >= 0; k--) {
    const code = codes[k]!;
    const label = labels[code]?.[key % 256];
    key = Math.floor(key / 256);
    const v = variableByCode(code);
    const coarse = coarsened.has(code) && v.coarse ? v.coarse.categories.indexOf(label ?? '') : -1;
    if (coarse >= 0) out.set(code, { coarse });
    else out.set(code, { fine: v.categories.indexOf(label ?? '') });
  }
  return out;
}

/** Whether a value meets a condition on fine categories (a coarse value: when one of the allowed categories folds into it). */
function meets(code: string, value: Value | undefined, allowed: readonly number[]): boolean {
  if (!value) return false;
  if ('fine' in value) return allowed.includes(value.fine);
  const fromFine = variableByCode(code).coarse!.fromFine;
  return allowed.some((a) => fromFine[a] === value.coarse);
}

function inGroup(group: CellGroup, tuple: ReadonlyMap<string, Value>, skip?: string): boolean {
  for (const [code, allowed] of Object.entries(group.where)) if (code !== skip && !meets(code, tuple.get(code), allowed)) return false;
  return group.ageBands === undefined || meets(AGE_VARIABLE, tuple.get(AGE_VARIABLE), group.ageBands);
}

function splitMeets(chart: QualityChart, split: number | undefined, tuple: ReadonlyMap<string, Value>): boolean {
  return chart.split === undefined || split === undefined || meets(chart.split, tuple.get(chart.split), [split]);
}

function fineBarOf(chart: QualityChart, tuple: ReadonlyMap<string, Value>): number {
  return barsOf(chart).findIndex((bar) => splitMeets(chart, bar.split, tuple) && meets(chart.variable, tuple.get(chart.variable), bar.fine) && bar.groups.some((g) => inGroup(g, tuple, chart.variable === AGE_VARIABLE ? undefined : chart.variable)));
}

function coarseBarOf(chart: QualityChart, tuple: ReadonlyMap<string, Value>): number {
  const fine = barsOf(chart);
  return coarseBarsOf(chart)!.findIndex(
    (bar) => splitMeets(chart, bar.split, tuple) && bar.fineBars.some((i) => meets(chart.variable, tuple.get(chart.variable), fine[i]!.fine) && fine[i]!.groups.some((g) => inGroup(g, tuple, chart.variable === AGE_VARIABLE ? undefined : chart.variable))),
  );
}
