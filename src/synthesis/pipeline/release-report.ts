/**
 * A release's report and fit figures from its tally: the report over every level's areas, and the
 * figures (`spq build --json`) for the release and for each level alone.
 */
import type { AreaLevel } from '../census/inputs.ts';
import type { SizeBand } from '../quality/metrics.ts';
import { createRealismAccumulator, withReference, type RealismSummary } from '../quality/realism.ts';
import { strengthFigures, type StrengthFigures } from './borrowing.ts';
import type { LevelInputs } from './level.ts';
import { summariseReport, type BuildReport } from './report.ts';
import { pooledTally, type AreaTally, type LevelTally } from './tally.ts';

type BandFigures = { readonly median: number | null; readonly p95: number | null; readonly pairs: number };

/** The fit figures of a build, for the whole release and for each level's areas alone. */
export interface FitFigures {
  readonly persons: number;
  readonly families: number;
  readonly dwellings: number;
  readonly srmse_median: number | null;
  readonly srmse_p95: number | null;
  readonly srmse_by_table: Readonly<Record<string, { readonly median: number | null; readonly p95: number | null }>>;
  readonly srmse_by_band: Readonly<Record<'<500' | '500-4999' | '5000+', BandFigures>>;
  /** The census's own noise floor (quality/floor.ts) over the same pairs, by size band and by table. */
  readonly floor_srmse_by_band: Readonly<Record<'<500' | '500-4999' | '5000+', BandFigures>>;
  readonly floor_srmse_by_table: Readonly<Record<string, { readonly median: number | null; readonly p95: number | null }>>;
  readonly truth_srmse_median: number | null;
  /** Demo builds: the hidden truth itself scored against the tables it was published as (the perturbation floor). */
  readonly floor_srmse_median?: number | null;
  readonly floor_srmse_p95?: number | null;
  /** Where some tables were taken from parents (suburbs): the fit to the areas' own tables. */
  readonly own_tables: {
    readonly srmse_median: number | null;
    readonly srmse_p95: number | null;
    readonly pairs: number;
    /** By size band, beside the census's noise floor over the same pairs. */
    readonly by_band?: Readonly<Record<string, { readonly median: number | null; readonly p95: number | null; readonly pairs: number; readonly floor_median: number | null; readonly floor_p95: number | null }>>;
  } | null;
  /** SRMSE over the areas' own published cells: own tables whole and the own cells of tables partly taken from parents (census/own-cells.ts); per table too. */
  readonly own_cells?: { readonly srmse_median: number | null; readonly srmse_p95: number | null; readonly pairs: number; readonly by_table: Readonly<Record<string, { readonly median: number | null; readonly p95: number | null }>> } | null;
  /** SRMSE over the cells taken from parents (derived from their shares, or bound to own figures of another table): targets, not published figures of the area. */
  readonly derived_targets?: { readonly srmse_median: number | null; readonly srmse_p95: number | null; readonly pairs: number } | null;
  /** Areas that could not be fitted, by name with the reason; they are not in the release. */
  readonly areas_failed: readonly { readonly area: string; readonly reason: string }[];
  /** Unpublished (`..`) cells: estimated from a parent area that publishes them, and structural zeros (published at no level). */
  readonly cells_not_published: { readonly estimated: number; readonly structural: number };
  readonly structural_violations: number;
  readonly totals_mismatched: number;
}

/** Each level's fit figures alone, with its areas. */
export type LevelFitFigures = Readonly<Partial<Record<AreaLevel, FitFigures & { readonly areas: number }>>>;

/** What the builder loaded beside the areas' fits: the levels, notes on the inputs, and the demo's reference figures. */
export interface ReleaseInputs {
  readonly loadedLevels: readonly LevelInputs[];
  /** Lines about the inputs as a whole (a level asked for whose pack is not there). */
  readonly notes: readonly string[];
  /** Demo inputs: the truth's and an oracle's realism figures, set beside the records'. */
  readonly reference: RealismSummary | undefined;
  /** Demo inputs: the hidden truth scored against the tables it was published as. */
  readonly floor: { readonly median: number | null; readonly p95: number | null } | undefined;
}

/** Each level's borrowing strengths, as the build's JSON and report give them. */
const borrowingOf = (levels: readonly LevelInputs[]): StrengthFigures =>
  strengthFigures(new Map(levels.flatMap((l) => (l.borrowing ? [[l.inputs.level, l.borrowing] as const] : []))));

/** Per area code, the tables its level took from parents rather than its own (suburbs built from SAL part files). */
export function derivedTablesOf(levels: readonly LevelInputs[]): (code: string) => ReadonlySet<string> | undefined {
  const derived = new Map(levels.flatMap((l) => (l.inputs.derivedTables ? l.inputs.suburbs.map((s) => [s.salCode, l.inputs.derivedTables!] as const) : [])));
  return (code) => derived.get(code);
}

/** The report of a release: every level's areas pooled, with the inputs' notes and the demo's reference figures. */
export function releaseReport(version: string, release: ReleaseInputs, tally: AreaTally): BuildReport {
  const { reference, floor, loadedLevels } = release;
  const realismSummary = reference ? withReference(tally.realism.summary(), reference) : tally.realism.summary();
  const all = pooledTally(tally);
  return summariseReport(version, all.fits, all.totalsMismatched, realismSummary, {
    areasFailed: all.failed,
    cellsNotPublished: all.notPublished,
    inputNotes: [...release.notes, ...loadedLevels.flatMap((l) => (l.inputs.notes ?? []).map((n) => `${l.inputs.level}: ${n}`))],
    areasLeftOut: loadedLevels.flatMap((l) => l.inputs.leftOut ?? []),
    derivedTables: derivedTablesOf(loadedLevels),
    borrowingStrength: borrowingOf(loadedLevels),
    ...(floor ? { floor } : {}),
  });
}

/** The fit figures of a report over some areas (the release's, or one level's) and their tally. */
export function fitFiguresOf(report: BuildReport, tally: LevelTally): FitFigures {
  const byTable = Object.fromEntries(report.tables.filter((t) => t.kind === 'input').map((t) => [t.tableId, { median: t.srmse.median, p95: t.srmse.p95 }]));
  const band = (b: SizeBand, of: BuildReport['inputs'] = report.inputs) => {
    const d = of.bySizeBand[b];
    return { median: d.median, p95: d.p95, pairs: d.pairs };
  };
  const floorByTable = Object.fromEntries(report.tables.flatMap((t) => (t.kind === 'input' && t.floor ? [[t.tableId, { median: t.floor.median, p95: t.floor.p95 }]] : [])));
  return {
    persons: report.persons,
    families: report.families,
    dwellings: report.dwellings,
    srmse_median: report.inputs.overall.median,
    srmse_p95: report.inputs.overall.p95,
    srmse_by_table: byTable,
    srmse_by_band: { '<500': band('<500'), '500-4999': band('500-5000'), '5000+': band('>=5000') },
    floor_srmse_by_band: { '<500': band('<500', report.noiseFloor), '500-4999': band('500-5000', report.noiseFloor), '5000+': band('>=5000', report.noiseFloor) },
    floor_srmse_by_table: floorByTable,
    truth_srmse_median: report.truth?.overall.median ?? null,
    structural_violations: report.structuralViolations,
    totals_mismatched: tally.totalsMismatched.length,
    areas_failed: tally.failed,
    cells_not_published: tally.notPublished,
    own_tables: report.ownTables ? { srmse_median: report.ownTables.median, srmse_p95: report.ownTables.p95, pairs: report.ownTables.pairs, ...ownBands(report) } : null,
    own_cells: report.ownCells
      ? { srmse_median: report.ownCells.overall.median, srmse_p95: report.ownCells.overall.p95, pairs: report.ownCells.overall.pairs, by_table: Object.fromEntries(Object.entries(report.ownCells.byTable).map(([id, d]) => [id, { median: d.median, p95: d.p95 }])) }
      : null,
    derived_targets: report.derivedTargets ? { srmse_median: report.derivedTargets.median, srmse_p95: report.derivedTargets.p95, pairs: report.derivedTargets.pairs } : null,
  };
}

const BAND_NAMES: Readonly<Record<SizeBand, string>> = { '<500': '<500', '500-5000': '500-4999', '>=5000': '5000+' };

function ownBands(report: BuildReport) {
  if (!report.ownTablesByBand) return {};
  const entries = Object.entries(report.ownTablesByBand) as [SizeBand, { fit: { median: number | null; p95: number | null; pairs: number }; floor: { median: number | null; p95: number | null } }][];
  return { by_band: Object.fromEntries(entries.map(([b, d]) => [BAND_NAMES[b], { median: d.fit.median, p95: d.fit.p95, pairs: d.fit.pairs, floor_median: d.floor.median, floor_p95: d.floor.p95 }])) };
}

/** Each level's figures alone, from a report over its areas only (the realism figures stay the release's). */
export function levelFigures(version: string, tally: AreaTally, derivedTables: (code: string) => ReadonlySet<string> | undefined): LevelFitFigures {
  const noRealism = createRealismAccumulator().summary();
  return Object.fromEntries(
    [...tally.byLevel].map(([level, t]) => {
      const report = summariseReport(version, t.fits, t.totalsMismatched, noRealism, { areasFailed: t.failed, cellsNotPublished: t.notPublished, derivedTables });
      return [level, { areas: t.fits.length, ...fitFiguresOf(report, t) }];
    }),
  );
}
