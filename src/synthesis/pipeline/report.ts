/**
 * The build report: every area's scores pooled into distributions (overall, by size band, by
 * table) beside the census's own noise floor, with what the build knows beyond the fits.
 */
import { quantile, sizeBand, SIZE_BANDS, type SizeBand } from '../quality/metrics.ts';
import type { RealismSummary } from '../quality/realism.ts';
import type { StrengthFigures } from './borrowing.ts';
import { columnsRead, type TableColumnsRead } from './columns-read.ts';
import type { TableFit } from './compare.ts';

/** One area's figures for the report: its records' counts, rules broken and every table's score. */
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
import type { PopulationFigures } from './population.ts';

export interface BuildReport {
  readonly version: string;
  /** The estimated resident population the areas were sized to, and each level's persons against it (absent: sized to the census counts). */
  readonly population?: PopulationFigures;
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
  /** The same pairs by size band, each beside the census's noise floor over them. */
  readonly ownTablesByBand: Readonly<Record<SizeBand, { readonly fit: Distribution; readonly floor: Distribution }>> | null;
  /**
   * Where some tables are partly the areas' own (census/own-cells.ts): SRMSE over each (area,
   * table)'s own published cells (own tables whole, and the own cells of tables partly taken
   * from parents), and over the cells taken from parents (derived, or bound to own figures of
   * another table); per table for the own cells. Null where every cell is the areas' own.
   */
  readonly ownCells: { readonly overall: Distribution; readonly byTable: Readonly<Record<string, Distribution>> } | null;
  readonly derivedTargets: Distribution | null;
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
    ownTablesByBand: ownTablesByBand(fits, extras.derivedTables),
    ...ownAndDerived(fits, extras.derivedTables),
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

function ownTablesByBand(fits: readonly SuburbFit[], derivedOf: BuildExtras['derivedTables']): BuildReport['ownTablesByBand'] {
  if (!derivedOf || !fits.some((fit) => (derivedOf(fit.salCode)?.size ?? 0) > 0)) return null;
  const own = (fit: SuburbFit) => fit.inputs.filter((t) => !derivedOf(fit.salCode)?.has(t.tableId));
  const fit = byBand(fits, own);
  const floor = byBand(fits, own, floors);
  return Object.fromEntries(SIZE_BANDS.map((b) => [b, { fit: fit[b], floor: floor[b] }])) as Record<SizeBand, { fit: Distribution; floor: Distribution }>;
}

/** The fit to own cells (own tables whole, own cells of mixed tables) and to cells taken from parents. */
function ownAndDerived(fits: readonly SuburbFit[], derivedOf: BuildExtras['derivedTables']): Pick<BuildReport, 'ownCells' | 'derivedTargets'> {
  if (!derivedOf || !fits.some((fit) => (derivedOf(fit.salCode)?.size ?? 0) > 0)) return { ownCells: null, derivedTargets: null };
  const ownScore = (fit: SuburbFit, t: TableFit) => (t.own !== undefined ? t.own : derivedOf(fit.salCode)?.has(t.tableId) ? undefined : t.srmse);
  const own: number[] = [];
  const byTable = new Map<string, number[]>();
  const derived: number[] = [];
  for (const fit of fits) {
    for (const t of fit.inputs) {
      const o = ownScore(fit, t);
      if (o !== undefined) {
        own.push(o);
        // Pushed, not copied: a copy per pair was quadratic (two minutes of the national build's report).
        let scoresOfTable = byTable.get(t.tableId);
        if (!scoresOfTable) byTable.set(t.tableId, (scoresOfTable = []));
        scoresOfTable.push(o);
      }
      const d = t.derived !== undefined ? t.derived : derivedOf(fit.salCode)?.has(t.tableId) && t.own === undefined ? t.srmse : undefined;
      if (d !== undefined) derived.push(d);
    }
  }
  return { ownCells: { overall: distribution(own), byTable: Object.fromEntries([...byTable].map(([id, xs]) => [id, distribution(xs)])) }, derivedTargets: distribution(derived) };
}
