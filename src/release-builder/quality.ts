/**
 * The build's side of the quality pages: each fitted area's published bars, the census's noise
 * per cell and its fit per table, gathered as the areas are written (quality.json,
 * adapters/pools/quality-file.ts).
 */
import type { AreaLevel } from '../core/dataset.ts';
import type { QualityArea, QualityFile } from '../adapters/pools/quality-file.ts';
import { barsOf, publishedBars, QUALITY_CHARTS } from '../synthesis/census/quality-charts.ts';
import type { LevelInputs } from '../synthesis/pipeline/level.ts';
import type { TableFit } from '../synthesis/pipeline/compare.ts';

const round1 = (v: number): number => Math.round(v * 10) / 10;
const sig4 = (v: number | undefined): number | null => (v === undefined || !Number.isFinite(v) ? null : Number(v.toPrecision(4)));

/** One area's figures for quality.json, from its level's published cells and its fit. */
export function qualityAreaOf(level: LevelInputs, salCode: string, fits: readonly TableFit[]): QualityArea {
  const p: Record<string, (number | null)[]> = {};
  const s: Record<string, number> = {};
  const fitOf = new Map(fits.map((f) => [f.tableId, f]));
  for (const chart of QUALITY_CHARTS) {
    const cells = level.inputs.tables.get(chart.tableId)?.get(salCode);
    if (!cells) continue;
    p[chart.id] = publishedBars(chart, cells).map((v) => (v === null ? null : round1(v)));
    const floor = fitOf.get(chart.tableId)?.floor;
    const published = [...cells].filter((v) => !Number.isNaN(v));
    if (floor !== undefined && Number.isFinite(floor) && published.length > 0) s[chart.tableId] = Number((floor * (published.reduce((a, b) => a + b, 0) / published.length)).toPrecision(4));
  }
  const f = Object.fromEntries(fits.map((fit) => [fit.tableId, [sig4(fit.srmse), sig4(fit.floor)] as const]));
  return { p, s, f };
}

/** The file, once every area is in. */
export function qualityFileOf(version: string, levels: readonly LevelInputs[], areas: ReadonlyMap<string, QualityArea>): QualityFile {
  return {
    format: 1,
    version,
    charts: Object.fromEntries(QUALITY_CHARTS.map((c) => [c.id, barsOf(c).length])),
    levels: Object.fromEntries(levels.map((l) => [l.inputs.level, { derivedTables: [...(l.inputs.derivedTables ?? [])].sort() }])) as Partial<Record<AreaLevel, { derivedTables: string[] }>>,
    areas: Object.fromEntries(areas),
  };
}
