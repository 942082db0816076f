/**
 * The quality pages' arithmetic, pure: an area's (or several areas') records' bars beside the
 * published ones with the census's noise as a band, fit per table against the floor, and the
 * release's fit by level, table and size band. Every figure is computed here from the release's
 * records and quality.json, so a test recomputes a page from the pools and the inputs.
 */
import { barsOf, coarseBarsOf, toCoarse, type QualityChart } from '../../synthesis/census/quality-charts.ts';
import { sizeBand, SIZE_BANDS, type SizeBand } from '../../synthesis/census/size-bands.ts';
import type { AreaLevel } from '../../core/dataset.ts';
import type { QualityArea } from '../../ports/release-quality.ts';

/** One bar of a chart: the records' count, the published figure (null where not published) and the census's noise about it (±, counts). */
export interface BarFigures {
  readonly label: string;
  readonly split?: number;
  readonly records: number;
  readonly published: number | null;
  readonly noise: number | null;
}

/** One area's contribution to a chart: its records' bars (fine or coarse) and what quality.json holds of it. */
export interface AreaChartPart {
  readonly records: { readonly view: 'fine' | 'coarse'; readonly values: readonly number[] };
  /** The area's published bars (fine); undefined where quality.json lacks them. */
  readonly published: readonly (number | null)[] | undefined;
  /** The census's noise per published cell of the chart's table; undefined where not measured. */
  readonly noisePerCell: number | undefined;
}

/**
 * The chart over one or more areas: the records' bars summed, the published bars summed (null
 * where any area's is not published or absent), noise added in quadrature over the bar's cells
 * and the areas; coarse categories for all when any area serves the variable coarsened.
 */
export function chartFigures(chart: QualityChart, parts: readonly AreaChartPart[]): { readonly view: 'fine' | 'coarse'; readonly bars: BarFigures[] } {
  const view = parts.some((p) => p.records.view === 'coarse') ? 'coarse' : 'fine';
  const fine = barsOf(chart);
  const bars = view === 'fine' ? fine.map((b) => ({ label: b.label, split: b.split, cells: b.cells.length })) : coarseBarsOf(chart)!.map((b) => ({ label: b.label, split: b.split, cells: b.fineBars.reduce((n, i) => n + fine[i]!.cells.length, 0) }));
  const records = new Array<number>(bars.length).fill(0);
  let published: (number | null)[] | null = new Array<number | null>(bars.length).fill(0);
  let variance: number | null = 0;
  for (const part of parts) {
    const values = part.records.view === view ? part.records.values : toCoarse(chart, part.records.values).map((v) => v ?? 0);
    values.forEach((v, i) => (records[i]! += v));
    const own = part.published === undefined ? undefined : view === 'fine' ? part.published : toCoarse(chart, part.published);
    published = own === undefined || published === null ? null : published.map((sum, i) => (sum === null || own[i] === null || own[i] === undefined ? null : sum + own[i]!));
    variance = part.noisePerCell === undefined || variance === null ? null : variance + part.noisePerCell ** 2;
  }
  return {
    view,
    bars: bars.map((bar, i) => ({
      label: bar.label,
      ...(bar.split !== undefined ? { split: bar.split } : {}),
      records: records[i]!,
      published: published === null ? null : published[i]!,
      noise: variance === null ? null : Math.sqrt(variance * bar.cells),
    })),
  };
}

/** The median of some numbers (null for none). */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface TableFitFigures {
  readonly tableId: string;
  /** The records' SRMSE against the table (an area's own; over several areas, the median). */
  readonly srmse: number | null;
  /** The census's own noise floor on the table, likewise. */
  readonly floor: number | null;
  /** Areas whose score counts. */
  readonly areas: number;
}

/** Fit per input table over the areas (one area: its own scores), in the tables' order. */
export function tableFits(tableIds: readonly string[], areas: readonly QualityArea[]): TableFitFigures[] {
  return tableIds.map((tableId) => {
    const pairs = areas.flatMap((a) => (a.f[tableId] ? [a.f[tableId]] : []));
    const scores = pairs.flatMap(([s]) => (s === null ? [] : [s]));
    return { tableId, srmse: median(scores), floor: median(pairs.flatMap(([, f]) => (f === null ? [] : [f]))), areas: scores.length };
  });
}

export interface LevelFitRow {
  readonly level: AreaLevel;
  readonly tableId: string;
  readonly band: SizeBand;
  readonly srmse: number | null;
  readonly floor: number | null;
  readonly areas: number;
}

/** The release's fit by level, table and size band: medians over the areas of each. */
export function releaseFitRows(tableIds: readonly string[], areas: readonly { readonly level: AreaLevel; readonly persons: number; readonly figures: QualityArea | undefined }[]): LevelFitRow[] {
  const levels = [...new Set(areas.map((a) => a.level))];
  return levels.flatMap((level) =>
    tableIds.flatMap((tableId) =>
      SIZE_BANDS.flatMap((band) => {
        const of = areas.filter((a) => a.level === level && sizeBand(a.persons) === band && a.figures !== undefined).map((a) => a.figures!);
        const [fit] = tableFits([tableId], of);
        return fit!.areas === 0 ? [] : [{ level, tableId, band, srmse: fit!.srmse, floor: fit!.floor, areas: fit!.areas }];
      }),
    ),
  );
}
