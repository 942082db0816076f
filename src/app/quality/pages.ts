/**
 * The quality pages' use cases: an area's page (its records beside the census tables it was fitted
 * to, its fit per table against the census's noise floor) and the release's page (fit by level,
 * table and size band, structural violations, areas left out, family links against their
 * published sources). Free of credits; figures from the release itself (PoolRelease.quality), the
 * arithmetic in figures.ts.
 */
import type { AreaLevel, DatasetType, FittedTo, GeographyLevel } from '../../core/dataset.ts';
import { appError, type AppError } from '../../core/errors.ts';
import { err, ok, type Result } from '../../core/result.ts';
import type { SuburbInfo } from '../../ports/pool-release.ts';
import type { QualityArea, QualityFile, ReleaseQuality, ReleaseReportView } from '../../ports/release-quality.ts';
import { barsOf, chartUniverse, chartVariables, QUALITY_CHARTS, syntheticBars, type QualityChart } from '../../synthesis/census/quality-charts.ts';
import { INPUT_TABLES } from '../../synthesis/census/tables.ts';
import type { UseCaseDeps } from '../deps.ts';
import { chartFigures, releaseFitRows, tableFits, type BarFigures, type LevelFitRow, type TableFitFigures } from './figures.ts';

export interface ReleaseFacts {
  readonly version: string;
  readonly checksum: string;
  readonly fittedTo: FittedTo;
  readonly builtAt: Date;
  /** Whether the release holds quality.json (releases built before it show their records alone). */
  readonly hasQualityFile: boolean;
}

export interface ChartModel {
  readonly chart: QualityChart;
  readonly tableDescription: string;
  readonly view: 'fine' | 'coarse';
  readonly bars: readonly BarFigures[];
  /** Whether the table is the areas' own (else taken from parents: a suburb's SA2s and postcodes). */
  readonly own: boolean;
}

export interface AreaQualityModel {
  readonly release: ReleaseFacts;
  readonly level: GeographyLevel;
  readonly canonical: string;
  /** The areas with pools the selection is made of (one for a suburb or an area fitted to its own tables). */
  readonly areas: readonly SuburbInfo[];
  readonly persons: number;
  readonly families: number;
  readonly dwellings: number;
  readonly smallAreas: number;
  /** Variables served coarsened in at least one of the areas, with how many. */
  readonly coarsened: readonly { readonly code: string; readonly areas: number }[];
  readonly charts: readonly ChartModel[];
  readonly fits: readonly (TableFitFigures & { readonly description: string; readonly own: boolean })[];
  /** Tables taken from parents rather than the areas' own. */
  readonly derivedTables: readonly string[];
}

const INPUT_TABLE_IDS = INPUT_TABLES.map((t) => t.id);
const describe = (tableId: string): string => INPUT_TABLES.find((t) => t.id === tableId)?.description ?? tableId;

export { qualityPath } from './path.ts';

function qualityOf(deps: Pick<UseCaseDeps, 'pools'>): Result<ReleaseQuality, AppError> {
  return deps.pools.quality ? ok(deps.pools.quality) : err(appError('not_found', 'This pool release has no quality figures.'));
}

async function releaseFacts(deps: Pick<UseCaseDeps, 'pools'>, quality: ReleaseQuality, file: QualityFile | undefined): Promise<ReleaseFacts> {
  return { version: deps.pools.version, checksum: deps.pools.checksum, fittedTo: deps.pools.fittedTo, builtAt: await quality.builtAt(), hasQualityFile: file !== undefined };
}

/** An area's page: `id` as a query's geography_selections names it at `level`. */
export async function areaQuality(deps: Pick<UseCaseDeps, 'pools'>, level: GeographyLevel, id: string): Promise<Result<AreaQualityModel, AppError>> {
  const source = qualityOf(deps);
  if (!source.ok) return source;
  const quality = source.value;
  const resolved = deps.pools.resolve(level, id);
  if (!resolved.ok) return err(appError('not_found', `No ${level} "${id}" in this pool release.${resolved.error.kind === 'unknown' && resolved.error.suggestions.length > 0 ? ` Did you mean ${resolved.error.suggestions.map((s) => `"${s}"`).join(', ')}?` : ''}`));
  const areas = resolved.value.suburbs;
  const file = await quality.file();
  // Published bars written for other charts (a release built by another version of spq) are not set beside these.
  const usable = file !== undefined && QUALITY_CHARTS.every((c) => file.charts[c.id] === barsOf(c).length) ? file : undefined;
  const derived = new Set(areas.flatMap((a) => file?.levels[a.level]?.derivedTables ?? []));
  const figuresOf = (a: SuburbInfo): QualityArea | undefined => usable?.areas[a.salCode];
  // A chart whose variables the release does not serve (a release of another catalogue) is left out.
  const served = (chart: QualityChart) => {
    const codes = new Set(deps.pools.codebook(chartUniverse(chart)).map((v) => v.code));
    return chartVariables(chart).every((code) => codes.has(code));
  };
  const charts = await chartModels(quality, areas, figuresOf, derived, QUALITY_CHARTS.filter(served));
  const coarsened = new Map<string, number>();
  for (const a of areas) for (const code of quality.coarsened(a)) coarsened.set(code, (coarsened.get(code) ?? 0) + 1);
  const scored = areas.flatMap((a) => (figuresOf(a) ? [figuresOf(a)!] : []));
  return ok({
    release: await releaseFacts(deps, quality, file),
    level,
    canonical: resolved.value.canonical,
    areas,
    persons: areas.reduce((n, a) => n + a.pools.persons, 0),
    families: areas.reduce((n, a) => n + a.pools.families, 0),
    dwellings: areas.reduce((n, a) => n + a.pools.dwellings, 0),
    smallAreas: areas.filter((a) => a.smallSuburb).length,
    coarsened: [...coarsened].sort(([a], [b]) => a.localeCompare(b)).map(([code, n]) => ({ code, areas: n })),
    charts,
    fits: scored.length === 0 ? [] : tableFits(INPUT_TABLE_IDS, scored).map((f) => ({ ...f, description: describe(f.tableId), own: !derived.has(f.tableId) })),
    derivedTables: [...derived].sort(),
  });
}

/** Each chart over the areas: their records read once per dataset, with the published bars and noise quality.json holds. */
async function chartModels(quality: ReleaseQuality, areas: readonly SuburbInfo[], figuresOf: (a: SuburbInfo) => QualityArea | undefined, derived: ReadonlySet<string>, shown: readonly QualityChart[]): Promise<ChartModel[]> {
  const parts = new Map<string, Parameters<typeof chartFigures>[1][number][]>(shown.map((c) => [c.id, []]));
  const byDataset = new Map<DatasetType, QualityChart[]>();
  for (const chart of shown) byDataset.set(chartUniverse(chart), [...(byDataset.get(chartUniverse(chart)) ?? []), chart]);
  for (const area of areas) {
    const coarsened = new Set(quality.coarsened(area));
    const figures = figuresOf(area);
    for (const [dataset, charts] of byDataset) {
      const records = await quality.records(area, dataset, [...new Set(charts.flatMap(chartVariables))]);
      for (const chart of charts) {
        const s = figures?.s[chart.tableId];
        parts.get(chart.id)!.push({ records: syntheticBars(chart, records, coarsened), published: figures?.p[chart.id], noisePerCell: s });
      }
    }
  }
  return shown.map((chart) => ({ chart, tableDescription: describe(chart.tableId), ...chartFigures(chart, parts.get(chart.id)!), own: !derived.has(chart.tableId) }));
}

export interface ReleaseQualityModel {
  readonly release: ReleaseFacts;
  readonly areasByLevel: readonly { readonly level: AreaLevel; readonly areas: number; readonly small: number }[];
  readonly fitRows: readonly LevelFitRow[];
  readonly tableDescriptions: Readonly<Record<string, string>>;
  readonly report: ReleaseReportView | undefined;
}

/** The release's page: public, the same as report.html beside report.txt. */
export async function releaseQuality(deps: Pick<UseCaseDeps, 'pools'>): Promise<Result<ReleaseQualityModel, AppError>> {
  const source = qualityOf(deps);
  if (!source.ok) return source;
  const quality = source.value;
  const [file, report] = await Promise.all([quality.file(), quality.report()]);
  const areas = quality.areas();
  const levels = [...new Set(areas.map((a) => a.level))];
  return ok({
    release: await releaseFacts(deps, quality, file),
    areasByLevel: levels.map((level) => ({ level, areas: areas.filter((a) => a.level === level).length, small: areas.filter((a) => a.level === level && a.small).length })),
    fitRows: file ? releaseFitRows(INPUT_TABLE_IDS, areas.map((a) => ({ level: a.level, persons: a.persons, figures: file.areas[a.code] }))) : [],
    tableDescriptions: Object.fromEntries(INPUT_TABLES.map((t) => [t.id, t.description])),
    report,
  });
}
