/**
 * What the quality pages read of a pool release (PoolRelease.quality): the build's quality.json
 * (each area's published bars, the census's noise per cell, its fit per table), the build
 * report's release-wide figures, the build's date, and an area's records as served.
 */
import type { AreaLevel, DatasetType } from '../core/dataset.ts';
import type { ServedRecords } from '../synthesis/census/quality-charts.ts';

/** One area's figures in quality.json. Numbers are rounded (counts to 0.1, scores to 4 significant digits). */
export interface QualityArea {
  /** Chart id → the published bars (fine, barsOf order); null where a cell of the bar is not published. */
  readonly p: Readonly<Record<string, readonly (number | null)[]>>;
  /** Table id → the census's noise per published cell in counts (floor SRMSE × mean published cell), where measured. */
  readonly s: Readonly<Record<string, number>>;
  /** Input table id → [SRMSE of the records, the census's noise floor SRMSE] (null where not scored or not measured). */
  readonly f: Readonly<Record<string, readonly [number | null, number | null]>>;
}

/** quality.json. */
export interface QualityFile {
  readonly format: 1;
  readonly version: string;
  /** Chart id → its number of fine bars when written (a page whose charts changed since shows the records alone). */
  readonly charts: Readonly<Record<string, number>>;
  /** Per level: the tables its areas took from parents (a suburb's SA2s and postcodes) rather than their own. */
  readonly levels: Readonly<Partial<Record<AreaLevel, { readonly derivedTables: readonly string[] }>>>;
  /** Area code (catalog salCode) → its figures. */
  readonly areas: Readonly<Record<string, QualityArea>>;
}

/** A family or household link's figures as the build report gives them (quality/resemblance.ts LinkFigures). */
export interface LinkFiguresView {
  readonly pairs: number;
  readonly alike?: number;
  readonly independence?: number;
  readonly target?: number;
  readonly published?: number;
  readonly source: string;
}

/** The build report's release-wide figures the release page shows (report.json; fields absent in older releases are optional). */
export interface ReleaseReportView {
  readonly suburbs?: number;
  readonly persons?: number;
  readonly families?: number;
  readonly dwellings?: number;
  readonly structuralViolations?: number;
  readonly violationsByRule?: Readonly<Record<string, number>>;
  readonly areasFailed?: readonly { readonly area: string; readonly reason: string }[];
  readonly areasLeftOut?: readonly { readonly area: string; readonly reason: string }[];
  readonly cellsNotPublished?: { readonly estimated: number; readonly structural: number };
  readonly inputNotes?: readonly string[];
  readonly totalsMismatched?: readonly string[];
  readonly realism?: { readonly all?: { readonly synthetic?: { readonly resemblance?: ResemblanceView } } };
}

/** The build report's family resemblance figures (quality/resemblance.ts ResemblanceFigures), as far as the release page shows them. */
export interface ResemblanceView {
  readonly links?: Readonly<Record<string, LinkFiguresView>>;
  readonly homeLanguage?: { readonly households: number; readonly householdsOverPersons?: number; readonly published: number };
  readonly parentsOfDependentChildren?: { readonly children: number; readonly alike?: number; readonly independence?: number; readonly published: { readonly alike: number; readonly independence: number } };
  readonly degreeOverChance?: { readonly couples: number; readonly records?: number; readonly target?: number; readonly published: number };
}

/** An area with pools, by its code (a SuburbInfo's salCode). */
export interface AreaRef {
  readonly salCode: string;
}

export interface ReleaseQuality {
  /** quality.json; undefined for a release built before it. */
  file(): Promise<QualityFile | undefined>;
  /** report.json's release-wide figures; undefined where the release has none. */
  report(): Promise<ReleaseReportView | undefined>;
  /** When the build finished writing the release (its manifest's time). */
  builtAt(): Promise<Date>;
  /** Every area of the release: its code, level, persons and small flag (the release page's size bands). */
  areas(): readonly { readonly code: string; readonly level: AreaLevel; readonly persons: number; readonly small: boolean }[];
  /** The variables the area's records are served coarsened in. */
  coarsened(area: AreaRef): readonly string[];
  /** The area's records of one dataset as served: the label index of each of `codes` per record. */
  records(area: AreaRef, dataset: DatasetType, codes: readonly string[]): Promise<ServedRecords>;
}
