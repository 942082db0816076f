import type { DatasetType, FittedTo } from '../../core/dataset.ts';
import type { SuburbInfo } from '../../ports/pool-release.ts';
import type { PopulationBasis } from '../../core/provenance.ts';
import type { Measurement } from '../../synthesis/census/variables.ts';

/** One suburb as the builder describes it; postcodes and LGAs beyond the primary ones are optional memberships. */
export type SuburbEntry = Omit<SuburbInfo, 'pools' | 'level'> & {
  /** The level the area's pools were fitted at (default "sal"). */
  readonly level?: SuburbInfo['level'];
  /** Every postcode whose pool includes this suburb (the primary one is always included). */
  readonly postcodes?: readonly string[];
  /** Every LGA whose pool includes this suburb (the primary one is always included). */
  readonly lgas?: readonly { readonly code: string; readonly name: string }[];
  /** The SA2 the area's records are placed in (its code; its name is `sa2`): CatalogSuburb's. */
  readonly sa2Code?: string;
};

export interface CatalogVariable {
  readonly code: string;
  readonly description: string;
  /** Nominal or ordinal (releases before 2026-11-28 lack it: the code's catalogue stands in, measurementOf). */
  readonly measurement?: Measurement;
  readonly categories: readonly string[];
  readonly coarseCategories?: readonly string[];
  /** Fine category index → coarse category index (releases before 2026-11 lack it: the code's catalogue stands in). */
  readonly coarseOfFine?: readonly number[];
  /** The ENUM column's labels in order (columnLabels): what enum_code() indexes. */
  readonly labels: readonly string[];
}

export interface CatalogSuburb extends Omit<SuburbInfo, 'pools' | 'level'> {
  /** The level the area's pools were fitted at (absent in releases before levels: "sal"). */
  readonly level?: SuburbInfo['level'];
  readonly postcodes: readonly string[];
  readonly lgas: readonly { readonly code: string; readonly name: string }[];
  /** First global row_index of this suburb's records, per dataset. */
  readonly offsets: Readonly<Record<DatasetType, number>>;
  readonly pools: Readonly<Record<DatasetType, number>>;
  /** Variable codes served with their coarse categories in this suburb. */
  readonly coarsened: readonly string[];
  /**
   * The SA2 the area's records are placed in: an SA2 its own, a suburb, postal area or LGA the
   * one holding most of its people (census-input/area-sa2.ts mainSa2Of); its nine-digit code here,
   * its ABS name in `sa2`. Absent where the correspondences place none, and in releases before
   * 2026-12-07 (those hold `sa2`, a suburb's SA2 name, without the code).
   */
  readonly sa2Code?: string;
}

/** catalog.json */
export interface Catalog {
  readonly format: 1;
  readonly version: string;
  /** What the pools were fitted to (absent in releases before 2026-11-25, which were all demo builds). */
  readonly fittedTo?: FittedTo;
  /** The estimated resident population the areas were sized to (absent: sized to the 2021 Census counts, and releases before 2026-12-07). */
  readonly population?: PopulationBasis;
  readonly variables: Readonly<Record<DatasetType, readonly CatalogVariable[]>>;
  readonly suburbs: readonly CatalogSuburb[];
  readonly totals: Readonly<Record<DatasetType, number>>;
  /**
   * Which independent synthesis of the release this is (1: the release directory itself; k ≥ 2:
   * implicates/<k>/) and the synthesis seed it was built with (absent in releases before implicates).
   */
  readonly synthesis?: ImplicateOrigin;
}

/** One implicate's number and the seed its synthesis ran with (decimal). */
export interface ImplicateOrigin {
  readonly implicate: number;
  readonly seed: string;
}

/** One file of a release as its manifest records it. */
export interface ManifestFile {
  readonly sha256: string;
  readonly bytes: number;
  /**
   * Files larger than 64 KiB: SHA-256 over the file's length and 16 blocks of 4 KiB spread
   * evenly over it (manifest.ts, sampleHashOf), what start-up checks instead of reading every
   * byte. Absent in releases before 2026-11-27 (their large files are checked by size).
   */
  readonly sample?: string;
}

/** manifest.json: what serving verifies before it trusts a release directory. */
export interface Manifest {
  readonly format: 1;
  readonly version: string;
  readonly files: Readonly<Record<string, ManifestFile>>;
  /** SHA-256 over the sorted "name sha256" lines of files: the release's content checksum. */
  readonly checksum: string;
}

export const RELEASE_FILES = { pools: 'pools.duckdb', catalog: 'catalog.json', manifest: 'manifest.json', report: 'report.json', reportText: 'report.txt' } as const;

/** Public id of a record from its dataset and global row index: "P000000123", "F…", "D…". */
export const ID_PREFIX: Readonly<Record<DatasetType, string>> = { persons: 'P', families: 'F', dwellings: 'D' };
export const ID_DIGITS = 9;

/**
 * Makes the catalog's areas share one string per distinct text and one array per distinct
 * `coarsened` list, in place, right after parsing. JSON.parse makes a string per value (but the
 * shortest): on the national four-level release 153,629 of the 229,320 strings a served catalog
 * held were copies ("Rest of NSW" 4,214 times, each area's LGA, GCCSA and SA2 names), and 20,827
 * `coarsened` arrays hold a few hundred distinct lists. Every object kept is one more the
 * collector marks on each full collection (the preview's slowest answers) and memory held while
 * idle. Nothing mutates a catalog (a release is immutable), so sharing is safe.
 */
export function shareRepeatedValues(suburbs: readonly CatalogSuburb[]): void {
  const texts = new Map<string, string>();
  const one = (s: string): string => {
    const known = texts.get(s);
    if (known !== undefined) return known;
    texts.set(s, s);
    return s;
  };
  const lists = new Map<string, readonly string[]>();
  for (const area of suburbs) {
    const c = area as unknown as Record<string, unknown>;
    for (const key of Object.keys(c)) {
      const value = c[key];
      if (typeof value === 'string') c[key] = one(value);
      else if (Array.isArray(value)) shareInList(value, one);
    }
    const key = area.coarsened.join('\n');
    const known = lists.get(key);
    if (known === undefined) lists.set(key, area.coarsened);
    else c['coarsened'] = known;
  }
}

/** A list's strings, and its objects' string fields (an area's LGAs), through `one`. */
function shareInList(list: unknown[], one: (s: string) => string): void {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item === 'string') list[i] = one(item);
    else if (item !== null && typeof item === 'object') {
      const o = item as Record<string, unknown>;
      for (const key of Object.keys(o)) if (typeof o[key] === 'string') o[key] = one(o[key] as string);
    }
  }
}
