/**
 * A pool release opened for serving (the PoolRelease port). Opening verifies the manifest
 * (sizes and sampled hashes, or every byte: VerifyMode), reads catalog.json, builds the
 * geography index and opens the column files, which stay on disk: exports read the sampled rows
 * with positioned reads (columns.ts), so memory does not grow with the release and every
 * process on the host shares the page cache. Our own writers write each output format
 * (export.ts, writers.ts); serving opens no DuckDB.
 */
import { open, rm, stat } from 'node:fs/promises';
import { DATASET_TYPES, type DatasetType, type GeographyLevel } from '../../core/dataset.ts';
import { buildGeographyIndex, findArea, resolveGeography, searchGeography, type GeographyIndex } from '../../core/geography/matching.ts';
import { companionNameOf, OUTPUT_FORMAT_SPECS } from '../../core/formats.ts';
import { err, ok, type Result } from '../../core/result.ts';
import { poolSizeOf, sampleRows, type RowRange } from '../../core/sampling/sample.ts';
import type { ExportBundleRequest, ExportRequest, PoolRelease, ResolveFailure, ResolvedSelection, SearchQuery, SuburbInfo, VariableEntry } from '../../ports/pool-release.ts';
import { RELEASE_FILES, shareRepeatedValues, type Catalog, type CatalogSuburb } from './catalog.ts';
import { LINK_FILES, OpenColumnFile, columnFile, type ColumnFile, type ColumnKind, type ColumnReader } from './columns.ts';
import { compactor } from './compaction.ts';
import { codebookEntryOf, dictionaryPathOf } from './dictionary.ts';
import { exportRows } from './export.ts';
import type { DatasetColumns } from './file-shape.ts';
import { verifyManifest, type VerifyMode } from './manifest.ts';
import type { ParquetEncoding } from './parquet.ts';
import { ZipWriter } from './zip.ts';
import { releaseQuality } from './release-quality.ts';
import type { ExportResult } from '../../ports/pool-release.ts';

/** An area as the release serves and indexes it: its memberships always present. */
type IndexedInfo = SuburbInfo & Pick<CatalogSuburb, 'postcodes' | 'lgas'>;

export interface OpenPoolReleaseOptions {
  /** Refuse a release whose manifest names another version. */
  readonly expectedVersion?: string | undefined;
  /** Refuse a release whose manifest checksum is another (hex SHA-256, as `spq build` reports it). */
  readonly expectedChecksum?: string | undefined;
  /** Unused since exports no longer go through DuckDB (parquet.ts); accepted so callers need not change. */
  readonly threads?: number;
  /** Unused, as `threads`. */
  readonly memoryLimit?: string;
  /** How start-up checks the files against the manifest (default "sampled"; SPQ_POOL_VERIFY). */
  readonly verify?: VerifyMode;
  /** Where parquet row groups are encoded (parquet.ts; by default on the encoding thread for a file of several): benches compare the two. */
  readonly parquetEncoding?: ParquetEncoding;
}

export async function openPoolRelease(dir: string, options: OpenPoolReleaseOptions = {}): Promise<PoolRelease> {
  // The catalog is read once, hashed and kept: what is parsed is what was verified. The column
  // files are checked as the verify mode says and then read in place (a release is immutable).
  const { manifest, kept } = await verifyManifest(dir, { version: options.expectedVersion, checksum: options.expectedChecksum, verify: options.verify }, (name) => name === RELEASE_FILES.catalog);
  const catalogBytes = kept.get(RELEASE_FILES.catalog);
  if (!catalogBytes) throw new Error(`pool release ${dir}: ${RELEASE_FILES.catalog} is not in the manifest`);
  const catalog = JSON.parse(catalogBytes.toString('utf8')) as Catalog;
  if (catalog.format !== 1 || catalog.version !== manifest.version) {
    throw new Error(`pool release ${dir}: catalog version "${catalog.version}" does not match manifest version "${manifest.version}"`);
  }
  shareRepeatedValues(catalog.suburbs);

  // One info object per area, indexed as it is (no copy with the catalog entry beside it: at
  // 20,827 areas every object kept per area is old-space the collector marks on each full GC),
  // and one map from it to its catalog entry and ordinal.
  const infos = catalog.suburbs.map((c): IndexedInfo => ({
    level: c.level ?? 'sal',
    salCode: c.salCode, suburbId: c.suburbId, name: c.name, state: c.state, postcode: c.postcode,
    lga: c.lga, lgaCode: c.lgaCode, gccsa: c.gccsa, smallSuburb: c.smallSuburb, pools: c.pools,
    postcodes: c.postcodes, lgas: c.lgas,
    ...(c.censusPersons !== undefined ? { censusPersons: c.censusPersons } : {}), ...(c.estimatedPersons !== undefined ? { estimatedPersons: c.estimatedPersons } : {}),
    // The geography API's sa2 is a suburb's (a postal area's or LGA's SA2 is for the files' sa2 columns).
    ...(c.sa2 && (c.level ?? 'sal') === 'sal' ? { sa2: c.sa2 } : {}), ...(c.largestSuburbs ? { largestSuburbs: c.largestSuburbs } : {}),
  }));
  const index: GeographyIndex<IndexedInfo> = buildGeographyIndex(infos);
  const ordinalOfInfo = new Map<SuburbInfo, number>(infos.map((info, i) => [info, i]));
  const ordinalOfSal = new Map(catalog.suburbs.map((c, i) => [c.salCode, i]));
  /** An area's catalog ordinal: its own info object's, else (an info made elsewhere) its code's. */
  const ordinalOf = (s: SuburbInfo): number | undefined => ordinalOfInfo.get(s) ?? ordinalOfSal.get(s.salCode);

  const columns = {} as Record<DatasetType, DatasetColumns>;
  const files: OpenColumnFile[] = [];
  /** Per dataset, once known: whether its rows are stored dwelling by dwelling (membersOf). */
  const stored: Partial<Record<DatasetType, boolean>> = {};
  try {
    for (const dataset of DATASET_TYPES) {
      const total = catalog.totals[dataset];
      const load = (name: string, kind: ColumnKind): ColumnFile => {
        const file = columnFile(dataset, name);
        if (manifest.files[file] === undefined) throw new Error(`pool release ${dir}: ${file} is not in the manifest`);
        try {
          const column = new OpenColumnFile(`${dir}/${file}`, kind, total);
          files.push(column);
          return column;
        } catch (cause) {
          throw new Error(`pool release ${dir}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
        }
      };
      const links = Object.fromEntries(LINK_FILES[dataset].map((l) => [l.name, load(l.name, l.kind)]));
      const variables = catalog.variables[dataset].map((v) => load(v.code, 'u8'));
      columns[dataset] = { links, variables };
    }
  } catch (error) {
    for (const file of files) file.close();
    throw error;
  }
  let closed = false;

  const catalogSuburbOf = (s: SuburbInfo): CatalogSuburb => {
    const o = ordinalOf(s);
    const c = o === undefined ? undefined : catalog.suburbs[o];
    if (!c) throw new Error(`suburb ${s.salCode} is not in pool release ${catalog.version}`);
    return c;
  };
  const rangesOf = (selection: ResolvedSelection, dataset: DatasetType): RowRange[] =>
    selection.suburbs.map((s) => {
      const c = catalogSuburbOf(s);
      return { offset: c.offsets[dataset], size: c.pools[dataset] };
    });
  const asFailure = (f: ResolveFailure): ResolveFailure => f;
  const suburb = (suburbId: string): Result<SuburbInfo, ResolveFailure> => {
    const r = findArea(index, suburbId);
    return r.ok ? ok(r.value.suburbs[0]!) : err(asFailure(r.error));
  };

  const release: PoolRelease = {
    version: manifest.version,
    checksum: manifest.checksum,
    levels: index.levels,
    fittedTo: catalog.fittedTo ?? 'demo',
    ...(catalog.population ? { population: catalog.population } : {}),

    resolve(level: GeographyLevel, selection: string) {
      const r = resolveGeography(index, level, selection);
      if (!r.ok) return err(r.error);
      return ok({ level, input: selection, canonical: r.value.canonical, suburbs: r.value.suburbs });
    },

    suburb,

    search(query: SearchQuery) {
      const { results, total } = searchGeography(index, query);
      return { results, total };
    },

    variables(selection: ResolvedSelection, dataset: DatasetType): readonly VariableEntry[] {
      const coarsened = selection.suburbs.map((s) => new Set(catalogSuburbOf(s).coarsened));
      return catalog.variables[dataset].map((v) => {
        const coarseAreas = coarsened.filter((c) => c.has(v.code)).length;
        const allCoarse = coarseAreas > 0 && coarseAreas === selection.suburbs.length && v.coarseCategories !== undefined;
        return { ...codebookEntryOf(v), n_categories: allCoarse ? v.coarseCategories!.length : v.categories.length, coarse_areas: coarseAreas };
      });
    },

    codebook: (dataset) => catalog.variables[dataset].map(codebookEntryOf),

    poolSize: (selection, dataset) => poolSizeOf(rangesOf(selection, dataset)),

    sample: (selection, dataset, n, seed) => sampleRows(rangesOf(selection, dataset), n, seed),

    members: (dataset, dwellingRows) => {
      const file = columns[dataset].links['dwelling_row']!;
      const dwellingOf = file.reader();
      if ((stored[dataset] ??= isNonDecreasing(file.reader(), file.length))) return membersOf(dwellingOf, file.length, dwellingRows);
      // A release written in another order: one scan (O(pool)) instead of the binary searches.
      const wanted = new Set(dwellingRows);
      const out: number[] = [];
      for (let row = 0; row < file.length; row++) if (wanted.has(dwellingOf.get(row))) out.push(row);
      return Uint32Array.from(out);
    },

    async export(request: ExportRequest) {
      if (closed) throw new Error('pool release is closed');
      // The heap this export grows is handed back once no export is running (compaction.ts).
      const ended = compactor.begin();
      try {
        const parts = request.parts.map((p) => ({ rows: p.rows, suburbOrdinals: p.selection.suburbs.map((s) => ordinalOfSal.get(s.salCode)!), label: p.selection.input }));
        return await exportRows(catalog, request.dataset, columns[request.dataset], parts, request, columns, options.parquetEncoding);
      } catch (error) {
        // Never leave a half-written file behind for the caller to serve by mistake.
        await rm(request.destPath, { force: true });
        await rm(dictionaryPathOf(request.destPath), { force: true });
        throw error;
      } finally {
        ended();
      }
    },

    exportBundle: (request: ExportBundleRequest) => exportBundle(release, request),

    quality: releaseQuality(dir, manifest, catalog, columns, (salCode) => {
      const o = ordinalOfSal.get(salCode);
      const c = o === undefined ? undefined : catalog.suburbs[o];
      if (!c) throw new Error(`area ${salCode} is not in pool release ${catalog.version}`);
      return c;
    }),

    async close() {
      if (closed) return;
      closed = true;
      for (const file of files) file.close();
    },
  };
  return release;
}

/** A household bundle: each file exported beside the zip first, then streamed into it (with its companion dictionary, for a format that has one). */
async function exportBundle(release: PoolRelease, request: ExportBundleRequest): Promise<ExportResult> {
  const written: { name: string; path: string }[] = [];
  let rows = 0;
  try {
    for (const [k, file] of request.files.entries()) {
      const path = `${request.destPath}.${k}.${OUTPUT_FORMAT_SPECS[request.format].extension}`;
      written.push({ name: file.name, path });
      const result = await release.export({ dataset: file.dataset, parts: file.parts, format: request.format, includeGeography: request.includeGeography, metadata: request.metadata, destPath: path });
      rows += result.rows;
      if (result.dictionaryPath !== undefined) written.push({ name: companionNameOf(file.name, 'dictionary'), path: result.dictionaryPath });
    }
    await zipFiles(request.destPath, written);
    return { rows, bytes: (await stat(request.destPath)).size };
  } catch (error) {
    await rm(request.destPath, { force: true });
    throw error;
  } finally {
    for (const { path } of written) await rm(path, { force: true });
  }
}

/** The files, in order, as the entries of a new zip at destPath (each streamed in 1 MiB pieces). */
async function zipFiles(destPath: string, files: readonly { readonly name: string; readonly path: string }[]): Promise<void> {
  const zip = await ZipWriter.create(destPath);
  for (const { name, path } of files) {
    await zip.beginEntry(name);
    const handle = await open(path);
    try {
      for await (const chunk of handle.createReadStream({ highWaterMark: 1 << 20 })) await zip.data(chunk as Buffer);
    } finally {
      await handle.close();
    }
    await zip.endEntry();
  }
  await zip.close();
}

/**
 * The rows whose dwelling is one of `dwellingRows`. A release stores a suburb's families and
 * persons dwelling by dwelling, and suburbs in order, so dwelling_row never decreases down the
 * rows (checked): each dwelling's members are one run. The dwellings are taken in ascending
 * order and each run is found by galloping forward from the end of the one before (1, 2, 4, …
 * rows, then a binary search inside the last step), so the reader moves forward through the
 * column: a dense sample reads it once in large windows, a sparse one costs O(log gap) per
 * dwelling. (A binary search over the whole column per dwelling read a page per step: 4.6 s of
 * positioned reads on the event loop for 257,757 dwellings of 700,000 persons, bench/household-stall.ts.)
 */
export function membersOf(dwellingOf: ColumnReader, n: number, dwellingRows: Uint32Array): Uint32Array {
  const sorted = Uint32Array.from(dwellingRows).sort();
  const out = new RunBuffer();
  let position = 0;
  for (const d of sorted) {
    position = firstAtOrAfter(dwellingOf, n, d, position);
    for (; position < n && dwellingOf.get(position) === d; position++) out.push(position);
  }
  return out.rows();
}

/** The first row at or after `from` whose value is ≥ d, in a non-decreasing column of n rows. */
function firstAtOrAfter(column: ColumnReader, n: number, d: number, from: number): number {
  if (from >= n || column.get(from) >= d) return from;
  // column.get(lo) < d throughout; gallop until hi is past d (or the end).
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < n && column.get(hi) < d) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  hi = Math.min(hi, n);
  lo += 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (column.get(mid) < d) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A growing Uint32Array (a number[] of 650,000 rows costs ~10× the memory and a copy at the end). */
class RunBuffer {
  #rows = new Uint32Array(1024);
  #length = 0;
  push(row: number): void {
    if (this.#length === this.#rows.length) {
      const grown = new Uint32Array(this.#rows.length * 2);
      grown.set(this.#rows);
      this.#rows = grown;
    }
    this.#rows[this.#length++] = row;
  }
  rows(): Uint32Array {
    return this.#rows.slice(0, this.#length);
  }
}

/** Whether a link column never decreases (membersOf's precondition). */
export function isNonDecreasing(column: ColumnReader, length: number): boolean {
  let previous = length > 0 ? column.get(0) : 0;
  for (let i = 1; i < length; i++) {
    const value = column.get(i);
    if (value < previous) return false;
    previous = value;
  }
  return true;
}
