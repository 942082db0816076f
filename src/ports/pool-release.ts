import type { AreaLevel, DatasetType, FittedTo, GeographyLevel, IncludeGeography, LinkedRecords, OutputFormat, StateAbbr } from '../core/dataset.ts';
import type { Result } from '../core/result.ts';
import type { PopulationBasis } from '../core/provenance.ts';
import type { MissingCodes } from '../synthesis/census/missing-codes.ts';
import type { Measurement } from '../synthesis/census/variables.ts';
import type { ReleaseQuality } from './release-quality.ts';

/**
 * One area of a pool release whose pools were fitted to its own tables: a suburb (ABS Suburb
 * and Locality, SAL), or a postal area or LGA in a release built at those levels.
 */
export interface SuburbInfo {
  /** The level the pools were fitted at. */
  readonly level: AreaLevel;
  /** The DataPack code, e.g. "SAL20001", "601021004" (an SA2), "POA7000", "LGA62810" (the suburb_code column of every record). */
  readonly salCode: string;
  /** The public identifier (docs/spec/decisions.md): "Richmond (VIC)", "Mount Pleasant (Ballarat, VIC)", "Fitzroy". */
  readonly suburbId: string;
  /** The plain name as the ABS writes it without qualifier, e.g. "Richmond". */
  readonly name: string;
  readonly state: StateAbbr;
  /** Primary postcode (largest population share) and primary LGA, used for identifiers and geography columns. */
  readonly postcode: string;
  readonly lga: string;
  readonly lgaCode: string;
  readonly gccsa: string;
  /** Every postcode the area overlaps and every LGA it lies in, largest share first (the primary ones first). */
  readonly postcodes?: readonly string[];
  readonly lgas?: readonly { readonly code: string; readonly name: string }[];
  /** A suburb's main SA2 (its name as the ABS writes it), where the release knows it. */
  readonly sa2?: string;
  /** A postal area's or SA2's suburbs holding most of its people, largest first. */
  readonly largestSuburbs?: readonly string[];
  readonly smallSuburb: boolean;
  readonly pools: Readonly<Record<DatasetType, number>>;
  /** A release sized to an estimated resident population: the area's 2021 Census count (G01 persons) and its estimate, which the pools are sized to. */
  readonly censusPersons?: number;
  readonly estimatedPersons?: number;
}

/** A geography selection resolved against the release: which suburbs its pool is made of. */
export interface ResolvedSelection {
  readonly level: GeographyLevel;
  /** The selection as the client wrote it. */
  readonly input: string;
  /** Canonical spelling (returned in geography_matches). */
  readonly canonical: string;
  readonly suburbs: readonly SuburbInfo[];
}

export type ResolveFailure =
  | { readonly kind: 'unknown'; readonly suggestions: readonly string[] }
  | { readonly kind: 'ambiguous'; readonly choices: readonly string[] }
  /**
   * The release has no pools serving that level; `held` lists the levels it serves, and
   * `building` is there when the level is being built in the background (served once it is).
   */
  | { readonly kind: 'unavailable'; readonly held: readonly GeographyLevel[]; readonly building?: BuildingLevels };

/** Levels a server is still building in the background, and about when to ask again for them. */
export interface BuildingLevels {
  readonly levels: readonly GeographyLevel[];
  /** A client's wait before asking again: the build's estimated time left (whole seconds, at least 1). */
  readonly retryAfterSeconds: number;
}

/** The release serving at this moment, with its implicates: what one query uses from start to end. */
export interface ServedNow {
  readonly pools: PoolRelease;
  readonly implicates: ImplicateSource | undefined;
}

/** A variable as the codebook gives it: what a file's column holds, without any area. */
export interface CodebookEntry {
  readonly code: string;
  readonly description: string;
  /** Extension: nominal, or ordinal (categories run low to high). */
  readonly measurement: Measurement;
  /** Every category in ABS order, missing-value codes last. */
  readonly categories: readonly string[];
  /** Which categories (fine or coarse) are missing-value codes, by kind. */
  readonly missing: MissingCodes;
  /** The coarse categories small suburbs carry instead (absent for a variable never coarsened). */
  readonly coarse_categories?: readonly string[];
}

/** A variable of one area's (or selection's) dataset. */
export interface VariableEntry extends CodebookEntry {
  /** The categories this selection's records can take: the coarse ones where every area of it is coarsened. */
  readonly n_categories: number;
  /** How many areas of the selection serve the variable in coarse categories only (small suburbs). */
  readonly coarse_areas: number;
}

export interface SearchQuery {
  readonly query: string;
  readonly state?: StateAbbr;
  readonly level: 'suburb' | 'postcode' | 'sa2' | 'lga' | 'state';
  readonly limit: number;
}

/** Rows chosen for one selection: global row indices into the dataset, sorted ascending, distinct. */
export interface SampledPart {
  readonly selection: ResolvedSelection;
  readonly rows: Uint32Array;
}

export interface ExportRequest {
  readonly dataset: DatasetType;
  readonly parts: readonly SampledPart[];
  readonly format: OutputFormat;
  readonly includeGeography: IncludeGeography;
  /** Extension: "joined" adds each record's family and dwelling variables as prefixed columns (LINKED_DATASETS). */
  readonly linkedRecords?: LinkedRecords;
  /** Query metadata written into the file (parquet key-value metadata, an xlsx sheet): version, seed, citation, … */
  readonly metadata: Readonly<Record<string, string>>;
  /** Absolute path of the file to create. */
  readonly destPath: string;
}

/** Several files of one query in one zip (a household sample): each its own dataset and parts. */
export interface ExportBundleRequest {
  readonly files: readonly { readonly name: string; readonly dataset: DatasetType; readonly parts: readonly SampledPart[] }[];
  readonly format: OutputFormat;
  readonly includeGeography: IncludeGeography;
  readonly metadata: Readonly<Record<string, string>>;
  /** Absolute path of the zip to create. */
  readonly destPath: string;
}

export interface ExportResult {
  readonly rows: number;
  readonly bytes: number;
  /** csv (a single file): where the file's dictionary was written, beside it; the caller stores it too. */
  readonly dictionaryPath?: string;
}

/**
 * An immutable, versioned pool release opened for serving. Implementations must make
 * sample() O(n) in time and memory whatever the pool size.
 */
export interface PoolRelease {
  readonly version: string;
  /** Content checksum of the release (hex SHA-256 over its files, as recorded at build time). */
  readonly checksum: string;
  /** Whether the pools were fitted to the real ABS census tables or to the demo's made-up figures. */
  readonly fittedTo: FittedTo;
  /** The estimated resident population the areas were sized to (absent: the 2021 Census counts). */
  readonly population?: PopulationBasis;
  /** The query levels this release serves (postcode from postal-area pools or from suburbs, …). */
  readonly levels: readonly GeographyLevel[];
  resolve(level: GeographyLevel, selection: string): Result<ResolvedSelection, ResolveFailure>;
  /** Suburb by public identifier (case-insensitive, spaces folded), for /geography/{suburb_id}/variables. */
  suburb(suburbId: string): Result<SuburbInfo, ResolveFailure>;
  search(query: SearchQuery): { readonly results: readonly SuburbInfo[]; readonly total: number };
  /** The variables of the dataset of a selection's areas; n_categories is per selection (small suburbs are coarsened). */
  variables(selection: ResolvedSelection, dataset: DatasetType): readonly VariableEntry[];
  /** The release's codebook of a dataset: every variable, its categories in order and its missing codes. */
  codebook(dataset: DatasetType): readonly CodebookEntry[];
  poolSize(selection: ResolvedSelection, dataset: DatasetType): number;
  /** n distinct rows, uniform without replacement over the selection's pool, reproducible from the seed. */
  sample(selection: ResolvedSelection, dataset: DatasetType, n: number, seed: bigint): Uint32Array;
  /** Every family or person row of the given dwelling rows (a household sample), ascending; O(dwellings × log pool + members). */
  members(dataset: 'families' | 'persons', dwellingRows: Uint32Array): Uint32Array;
  /** Writes the sampled rows to destPath in the requested format (streaming; never holds a whole large file in memory). */
  export(request: ExportRequest): Promise<ExportResult>;
  /** Writes several files (csv ones with their dictionaries) into one zip at destPath; rows are the files' total. */
  exportBundle(request: ExportBundleRequest): Promise<ExportResult>;
  /** What the quality pages read of the release (absent where the release cannot tell, e.g. a stand-in in tests). */
  readonly quality?: ReleaseQuality;
  /** Levels still being built in the background, to be served by a release that replaces this one (absent: none). */
  readonly building?: BuildingLevels | undefined;
  /**
   * A release that a server may switch while serving (a first level served while the rest is
   * built): the one serving now. A query takes it once and keeps it to the end, so its rows are
   * sampled and written from one release even when the switch happens meanwhile.
   */
  current?(): ServedNow;
  close(): Promise<void>;
}

/** One implicate of the served release: its number, the seed its synthesis ran with, and its pools. */
export interface Implicate {
  /** 1 is the release's first synthesis (what a query without `implicate` draws from). */
  readonly number: number;
  /** The synthesis seed (decimal), when the release records it (releases before implicates do not). */
  readonly synthesisSeed: string | undefined;
  readonly pools: PoolRelease;
}

/**
 * The independently synthesized implicates of the served release: each a full synthesis of every
 * pool from the same census tables with its own seed (not a resample of one pool). A release may
 * gain implicates while it is served (the demo builds its extra ones after the service listens).
 */
export interface ImplicateSource {
  /** The implicates ready to serve now, ascending; 1 is always among them. */
  available(): readonly number[];
  /** Implicate k, opened (and verified) on first use; undefined when the release does not hold it (yet). */
  open(k: number): Promise<Implicate | undefined>;
  close(): Promise<void>;
}
