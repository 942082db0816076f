import { quantile, sizeBand, SIZE_BANDS, srmse, totalAbsoluteError, type SizeBand } from '../synthesis/quality/metrics.ts';
import { INPUT_TABLES } from '../synthesis/census/tables.ts';
import { GCP_PART_HEADERS } from '../synthesis/census/gcp/layout.generated.ts';
import type { RealismSummary } from '../synthesis/quality/realism.ts';
import { renderRealism } from '../synthesis/quality/realism-render.ts';
import { renderStrengths, type StrengthFigures } from './borrowing.ts';

/** Which real DataPack columns a build reads, per input table. */
export interface TableColumnsRead {
  readonly tableId: string;
  readonly parts: readonly string[];
  /** Columns the part files have (the ABS metadata's count). */
  readonly columns: number;
  /** Columns fitted cell by cell. */
  readonly fitted: readonly string[];
  /** Totals and subtotals read but not fitted (anchors, remainders). */
  readonly readOnly: readonly string[];
}

/** The real columns every input table's spec reads (src/synthesis/census/tables.ts), against the part files' own. */
export function columnsRead(): TableColumnsRead[] {
  return INPUT_TABLES.map((spec) => ({
    tableId: spec.id,
    parts: spec.files,
    columns: spec.files.reduce((n, part) => n + (GCP_PART_HEADERS[part]?.length ?? 0), 0),
    fitted: spec.cells.map((c) => c.header),
    readOnly: spec.otherHeaders,
  }));
}

/** "G46: 36 of 360 columns read (G46A, G46B): 16 fitted, 20 totals". */
export const columnsReadLine = (t: TableColumnsRead): string =>
  `${t.tableId}: ${t.fitted.length + t.readOnly.length} of ${t.columns} columns read (${t.parts.join(', ')}): ${t.fitted.length} fitted, ${t.readOnly.length} totals`;

/** One (suburb, table) comparison of synthetic counts with a target. */
export interface TableFit {
  readonly tableId: string;
  readonly srmse: number | undefined;
  readonly totalAbsoluteError: number;
  readonly targetTotal: number;
  readonly syntheticTotal: number;
  /** The census's own noise floor for this table in this area (quality/floor.ts), where its subtotals tell. */
  readonly floor?: number;
}

export interface SuburbFit {
  readonly salCode: string;
  readonly suburbId: string;
  readonly persons: number;
  readonly families: number;
  readonly dwellings: number;
  readonly small: boolean;
  /** Against the input tables (as published: perturbed, not additive). */
  readonly inputs: readonly TableFit[];
  /** Against the hidden truth on cross-tabulations that were not inputs (demo inputs only). */
  readonly truth: readonly TableFit[];
  readonly structuralViolations: number;
  readonly violationsByRule: Readonly<Record<string, number>>;
  readonly diagnostics: Readonly<Record<string, number>>;
}

export function compareTable(tableId: string, synthetic: Float64Array, publishedTarget: Float64Array, floor?: number): TableFit {
  // Unpublished cells (NaN) are no census figure: the fit is scored on the published ones.
  const keep = publishedTarget.map((v) => (Number.isNaN(v) ? 0 : 1));
  const target = keep.every((k) => k === 1) ? publishedTarget : publishedTarget.filter((_, i) => keep[i] === 1);
  if (target !== publishedTarget) synthetic = synthetic.filter((_, i) => keep[i] === 1);
  let targetTotal = 0;
  let syntheticTotal = 0;
  for (let i = 0; i < target.length; i++) {
    targetTotal += target[i]!;
    syntheticTotal += synthetic[i]!;
  }
  return {
    tableId,
    srmse: srmse(synthetic, target),
    totalAbsoluteError: totalAbsoluteError(synthetic, target),
    targetTotal,
    syntheticTotal,
    ...(floor !== undefined ? { floor } : {}),
  };
}

export interface Distribution {
  readonly pairs: number;
  readonly median: number | null;
  readonly p95: number | null;
}

const distribution = (values: readonly number[]): Distribution => ({
  pairs: values.length,
  median: quantile(values, 0.5) ?? null,
  p95: quantile(values, 0.95) ?? null,
});

const scores = (fits: readonly TableFit[]) => fits.flatMap((fit) => (fit.srmse === undefined ? [] : [fit.srmse]));
const floors = (fits: readonly TableFit[]) => fits.flatMap((fit) => (fit.floor === undefined ? [] : [fit.floor]));

export interface BuildReport {
  readonly version: string;
  readonly suburbs: number;
  readonly persons: number;
  readonly families: number;
  readonly dwellings: number;
  readonly structuralViolations: number;
  readonly violationsByRule: Readonly<Record<string, number>>;
  /** SRMSE over all (suburb, input table) pairs, overall and by suburb size band. */
  readonly inputs: { readonly overall: Distribution; readonly bySizeBand: Readonly<Record<SizeBand, Distribution>> };
  /**
   * The census's own noise floor over the same (area, input table) pairs, from each table's
   * published subtotals against its published cells (quality/floor.ts): what a population
   * matching the true counts would score. Real and demo inputs alike.
   */
  readonly noiseFloor: { readonly overall: Distribution; readonly bySizeBand: Readonly<Record<SizeBand, Distribution>> };
  readonly truth: { readonly overall: Distribution; readonly bySizeBand: Readonly<Record<SizeBand, Distribution>> } | null;
  /** Per table: SRMSE distribution over suburbs and the summed total absolute error. */
  readonly tables: readonly {
    readonly tableId: string;
    readonly kind: 'input' | 'truth';
    readonly srmse: Distribution;
    /** Input tables: the census's own noise floor over the same areas (quality/floor.ts). */
    readonly floor?: Distribution;
    readonly totalAbsoluteError: number;
  }[];
  /** Suburbs whose person or dwelling total differs from the census total they were fitted to. */
  readonly totalsMismatched: readonly string[];
  /** Areas that could not be fitted (left out of the release), by name with the reason. */
  readonly areasFailed: readonly { readonly area: string; readonly reason: string }[];
  /** Unpublished (`..`) cells: estimated from a parent that publishes them, or structural zeros (published at no level). */
  readonly cellsNotPublished: { readonly estimated: number; readonly structural: number };
  /** What the inputs held and how they were linked (match rates, levels or areas the pack lacks), one line each. */
  readonly inputNotes: readonly string[];
  /** Areas of a level's geography not built because of the inputs (unmatched, ambiguous …), each with its reason. */
  readonly areasLeftOut: readonly { readonly area: string; readonly reason: string }[];
  /**
   * SRMSE over (area, table) pairs of the tables the ABS publishes for the area itself, where
   * some of a level's tables were taken from parents (suburbs built from SAL part files): the
   * fit to the area's own figures. Null where every table is the area's own.
   */
  readonly ownTables: Distribution | null;
  /** Demo inputs: the hidden truth scored against the tables it was published as (what no synthesizer can beat). */
  readonly floor: { readonly median: number | null; readonly p95: number | null } | null;
  /** How strongly areas borrowed from their parents, per level, table and size band (borrowing.ts); null where not chosen. */
  readonly borrowingStrength: StrengthFigures | null;
  /** Which real DataPack columns were read, per input table. */
  readonly columnsRead: readonly TableColumnsRead[];
  /**
   * Realism beyond table fit (docs/synthesis.md): implausible combinations, couples, mothers,
   * Cramér's V of pairs no table links, and for demo inputs each validation cross-tab's share of
   * the independence error removed; with the truth's and an oracle's figures when the demo
   * inputs carry them.
   */
  readonly realism: RealismSummary;
  readonly perSuburb: readonly SuburbFit[];
}

function byBand(fits: readonly SuburbFit[], pick: (fit: SuburbFit) => readonly TableFit[], values: (fits: readonly TableFit[]) => number[] = scores) {
  const entries = SIZE_BANDS.map((band) => [
    band,
    distribution(fits.filter((fit) => sizeBand(fit.persons) === band).flatMap((fit) => values(pick(fit)))),
  ]);
  return Object.fromEntries(entries) as Record<SizeBand, Distribution>;
}

function perTable(fits: readonly SuburbFit[], kind: 'input' | 'truth') {
  const byTable = new Map<string, TableFit[]>();
  for (const fit of fits) {
    for (const table of kind === 'input' ? fit.inputs : fit.truth) {
      let list = byTable.get(table.tableId);
      if (!list) byTable.set(table.tableId, (list = []));
      list.push(table);
    }
  }
  return [...byTable].map(([tableId, list]) => ({
    tableId,
    kind,
    srmse: distribution(scores(list)),
    ...(kind === 'input' ? { floor: distribution(floors(list)) } : {}),
    totalAbsoluteError: list.reduce((sum, fit) => sum + fit.totalAbsoluteError, 0),
  }));
}

/** What a build knows beyond the areas' fits: areas left out, unpublished cells, the demo's perturbation floor. */
export interface BuildExtras {
  readonly areasFailed?: readonly { readonly area: string; readonly reason: string }[];
  readonly cellsNotPublished?: { readonly estimated: number; readonly structural: number };
  readonly inputNotes?: readonly string[];
  readonly areasLeftOut?: readonly { readonly area: string; readonly reason: string }[];
  /** Per area code, the tables taken from its parents (not its own). */
  readonly derivedTables?: (salCode: string) => ReadonlySet<string> | undefined;
  readonly floor?: { readonly median: number | null; readonly p95: number | null };
  readonly borrowingStrength?: StrengthFigures;
}

export function summariseReport(
  version: string,
  fits: readonly SuburbFit[],
  totalsMismatched: readonly string[],
  realism: RealismSummary,
  extras: BuildExtras = {},
): BuildReport {
  const hasTruth = fits.some((fit) => fit.truth.length > 0);
  const violationsByRule: Record<string, number> = {};
  for (const fit of fits) {
    for (const [rule, count] of Object.entries(fit.violationsByRule)) violationsByRule[rule] = (violationsByRule[rule] ?? 0) + count;
  }
  return {
    version,
    suburbs: fits.length,
    persons: fits.reduce((sum, fit) => sum + fit.persons, 0),
    families: fits.reduce((sum, fit) => sum + fit.families, 0),
    dwellings: fits.reduce((sum, fit) => sum + fit.dwellings, 0),
    structuralViolations: fits.reduce((sum, fit) => sum + fit.structuralViolations, 0),
    violationsByRule,
    inputs: { overall: distribution(fits.flatMap((fit) => scores(fit.inputs))), bySizeBand: byBand(fits, (fit) => fit.inputs) },
    noiseFloor: { overall: distribution(fits.flatMap((fit) => floors(fit.inputs))), bySizeBand: byBand(fits, (fit) => fit.inputs, floors) },
    truth: hasTruth
      ? { overall: distribution(fits.flatMap((fit) => scores(fit.truth))), bySizeBand: byBand(fits, (fit) => fit.truth) }
      : null,
    tables: [...perTable(fits, 'input'), ...(hasTruth ? perTable(fits, 'truth') : [])],
    totalsMismatched,
    areasFailed: extras.areasFailed ?? [],
    cellsNotPublished: extras.cellsNotPublished ?? { estimated: 0, structural: 0 },
    inputNotes: extras.inputNotes ?? [],
    areasLeftOut: extras.areasLeftOut ?? [],
    ownTables: ownTablesFit(fits, extras.derivedTables),
    floor: extras.floor ?? null,
    borrowingStrength: extras.borrowingStrength ?? null,
    columnsRead: columnsRead(),
    realism,
    perSuburb: fits,
  };
}

/** The fit to areas' own tables, where some areas have tables taken from parents. */
function ownTablesFit(fits: readonly SuburbFit[], derivedOf: BuildExtras['derivedTables']): Distribution | null {
  if (!derivedOf || !fits.some((fit) => (derivedOf(fit.salCode)?.size ?? 0) > 0)) return null;
  return distribution(fits.flatMap((fit) => scores(fit.inputs.filter((t) => !derivedOf(fit.salCode)?.has(t.tableId)))));
}

const fmt = (value: number | null) => (value === null ? '—' : value.toFixed(4));

/** The readable summary (report.txt and the CLI's closing lines). */
export function renderReport(report: BuildReport, seconds: number): string {
  const lines = [
    `pool release ${report.version}: ${report.suburbs} suburbs, ${report.persons} persons, ${report.families} families, ${report.dwellings} dwellings (${seconds.toFixed(1)} s)`,
    `SRMSE vs input tables: median ${fmt(report.inputs.overall.median)}, p95 ${fmt(report.inputs.overall.p95)} over ${report.inputs.overall.pairs} (suburb, table) pairs`,
    ...SIZE_BANDS.map((band) => {
      const d = report.inputs.bySizeBand[band];
      return `  ${band.padEnd(9)} persons: median ${fmt(d.median)}, p95 ${fmt(d.p95)} (${d.pairs} pairs)`;
    }),
  ];
  const noise = report.noiseFloor;
  if (noise && noise.overall.pairs > 0) {
    lines.push(`census noise floor (each table's published subtotals against its cells): median ${fmt(noise.overall.median)}, p95 ${fmt(noise.overall.p95)} over ${noise.overall.pairs} pairs; fit / floor`);
    for (const band of SIZE_BANDS) {
      const d = noise.bySizeBand[band];
      const fit = report.inputs.bySizeBand[band];
      const ratio = (a: number | null, b: number | null) => (a === null || b === null || !(b > 0) ? '—' : `${(a / b).toFixed(2)}×`);
      lines.push(`  ${band.padEnd(9)} persons: floor median ${fmt(d.median)}, p95 ${fmt(d.p95)}; fit / floor ${ratio(fit.median, d.median)}, ${ratio(fit.p95, d.p95)}`);
    }
  }
  if (report.borrowingStrength) lines.push(...renderStrengths(report.borrowingStrength));
  if (report.floor) lines.push(`perturbation floor (the hidden truth vs the tables it was published as): median ${fmt(report.floor.median)}, p95 ${fmt(report.floor.p95)}`);
  if (report.truth) {
    lines.push(`SRMSE vs hidden truth (cross-tabs not used as inputs): median ${fmt(report.truth.overall.median)}, p95 ${fmt(report.truth.overall.p95)}`);
  }
  lines.push(`structural violations: ${report.structuralViolations}`);
  const np = report.cellsNotPublished;
  if (np.estimated + np.structural > 0) lines.push(`cells the ABS does not publish (..): ${np.structural} structural zeros (published at no level), ${np.estimated} estimated from a parent area`);
  lines.push(`suburbs whose person or dwelling total misses the census total: ${report.totalsMismatched.length}`);
  if (report.ownTables)
    lines.push(`SRMSE vs the areas' own tables (not those taken from parents): median ${fmt(report.ownTables.median)}, p95 ${fmt(report.ownTables.p95)} over ${report.ownTables.pairs} pairs`);
  for (const note of report.inputNotes) lines.push(`inputs: ${note}`);
  if (report.areasLeftOut.length > 0) {
    lines.push(`areas not built because of the inputs: ${report.areasLeftOut.length}`);
    for (const f of report.areasLeftOut) lines.push(`  ${f.area}: ${f.reason}`);
  }
  if (report.areasFailed.length > 0) {
    lines.push(`areas that could not be fitted (not in the release): ${report.areasFailed.length}`);
    for (const f of report.areasFailed) lines.push(`  ${f.area}: ${f.reason}`);
  }
  lines.push('per table (median SRMSE, p95, total absolute error; census noise floor median, p95):');
  for (const table of report.tables) {
    const floor = table.floor && table.floor.pairs > 0 ? `  floor ${fmt(table.floor.median)}  ${fmt(table.floor.p95)}` : '';
    lines.push(`  ${table.kind === 'truth' ? 'truth ' : ''}${table.tableId.padEnd(8)} ${fmt(table.srmse.median)}  ${fmt(table.srmse.p95)}  ${Math.round(table.totalAbsoluteError)}${floor}`);
  }
  const read = report.columnsRead;
  const count = (t: TableColumnsRead) => t.fitted.length + t.readOnly.length;
  lines.push(
    `DataPack columns read: ${read.reduce((n, t) => n + count(t), 0)} of ${read.reduce((n, t) => n + t.columns, 0)} in ${read.length} tables (fitted + totals; the rest of the part files is skipped):`,
  );
  for (const t of read) lines.push(`  ${columnsReadLine(t)}`);
  lines.push('', `realism (${report.realism.all.suburbs} suburbs, in fine categories before small suburbs are coarsened):`, ...renderRealism(report.realism));
  return `${lines.join('\n')}\n`;
}
