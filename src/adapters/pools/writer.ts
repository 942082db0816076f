import type { PopulationBasis } from '../../core/provenance.ts';
import { mkdir, open, readdir, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Population } from '../../synthesis/census/population.ts';
import { DATASET_TYPES, type DatasetType, type FittedTo } from '../../core/dataset.ts';
import { columnLabels, type VariableDef } from '../../synthesis/census/variables.ts';
import { LINK_FILES, columnFile } from './columns.ts';
import { RELEASE_FILES, type Catalog, type ImplicateOrigin, type CatalogSuburb, type CatalogVariable, type SuburbEntry } from './catalog.ts';
import { writeManifest } from './manifest.ts';
import { openSqlCopy } from './sql-copy.ts';

export interface SuburbRecordSet {
  readonly suburb: SuburbEntry;
  readonly population: Population;
  /** Variable codes coarsened for this suburb: their values are indices into the variable's coarse categories. */
  readonly coarsened: readonly string[];
}

export interface PoolReleaseWriterOptions {
  /** The release directory to create (must not exist or be empty). */
  readonly dir: string;
  readonly version: string;
  readonly variables: Readonly<Record<DatasetType, readonly VariableDef[]>>;
  /** What the pools are fitted to (default "demo"). */
  readonly fittedTo?: FittedTo;
  /** The estimated resident population the areas were sized to, recorded in the catalog. */
  readonly population?: PopulationBasis;
  /** Which implicate of the release this is and its synthesis seed, recorded in the catalog. */
  readonly synthesis?: ImplicateOrigin;
  /**
   * Also write pools.duckdb, a copy of the records for SQL inspection (default true). Serving
   * never reads it; a national build leaves it out, as appending 100 M records to DuckDB on the
   * main thread as each area arrives cost the build more than any other step there (issue 42).
   */
  readonly sqlCopy?: boolean;
}

export interface PoolReleaseWriter {
  append(set: SuburbRecordSet): Promise<void>;
  /**
   * Closes the tables, adds the public views, writes catalog, report and manifest (report.txt too
   * when summary is given, and any further files, e.g. quality.json, in the manifest too).
   */
  finish(report: unknown, summary?: string, files?: readonly { readonly name: string; readonly data: string }[]): Promise<{ dir: string; checksum: string }>;
  /** Gives up: closes the database and removes everything written. */
  abort(): Promise<void>;
}

/** Per dataset: the variables' category indices turned into the column files' codes (ENUM indices of columnLabels). */
class ColumnCodes {
  /** Per variable: fine index → code, coarse index → code. */
  private readonly maps: { fine: Uint8Array; coarse: Uint8Array | undefined }[];

  constructor(
    private readonly dataset: DatasetType,
    private readonly variables: readonly VariableDef[],
  ) {
    const seen = new Set<string>();
    for (const v of variables) {
      if (seen.has(v.code)) throw new Error(`${dataset}: variable ${v.code} listed twice`);
      seen.add(v.code);
      if (columnLabels(v).length > 255) throw new Error(`${dataset}: ${v.code} has more than 255 categories`);
    }
    this.maps = variables.map((v) => {
      const labels = columnLabels(v);
      const fine = Uint8Array.from(v.categories, (c) => labels.indexOf(c));
      const coarse = v.coarse === undefined ? undefined : Uint8Array.from(v.coarse.categories, (c) => labels.indexOf(c));
      return { fine, coarse };
    });
  }

  /** One suburb's variables as codes, in the dataset's variable order. */
  columns(count: number, values: Readonly<Record<string, Uint8Array>>, coarsened: ReadonlySet<string>): Uint8Array[] {
    return this.variables.map((v, k) => {
      const col = values[v.code];
      if (col === undefined || col.length < count) throw new Error(`${this.dataset}: variable ${v.code} missing or short`);
      const useCoarse = coarsened.has(v.code);
      const map = useCoarse ? this.maps[k]!.coarse : this.maps[k]!.fine;
      if (map === undefined) throw new Error(`${this.dataset}: ${v.code} is coarsened but has no coarse categories`);
      const out = new Uint8Array(count);
      for (let i = 0; i < count; i++) {
        const e = map[col[i]!];
        if (e === undefined) throw new Error(`${this.dataset}: ${v.code} value ${col[i]} outside its ${useCoarse ? 'coarse ' : ''}categories`);
        out[i] = e;
      }
      return out;
    });
  }
}

/** Collects pieces (the caller never reuses them) and writes them together once 1 MiB is pending. */
class BufferedFile {
  private pending: Uint8Array[] = [];
  private bytes = 0;
  constructor(private readonly handle: FileHandle) {}
  async write(piece: Uint8Array): Promise<void> {
    this.pending.push(piece);
    this.bytes += piece.byteLength;
    if (this.bytes >= 1 << 20) await this.flush();
  }
  private async flush(): Promise<void> {
    if (this.bytes === 0) return;
    const data = Buffer.concat(this.pending, this.bytes);
    this.pending = [];
    this.bytes = 0;
    await this.handle.write(data);
  }
  async close(): Promise<void> {
    await this.flush();
    await this.handle.close();
  }
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

function offsetLinks(links: Uint32Array | Int32Array, base: number): Int32Array {
  const out = new Int32Array(links.length);
  for (let i = 0; i < links.length; i++) out[i] = links[i]! < 0 ? -1 : links[i]! + base;
  return out;
}

export async function createPoolReleaseWriter(opts: PoolReleaseWriterOptions): Promise<PoolReleaseWriter> {
  const { dir, version, variables } = opts;
  await mkdir(dir, { recursive: true });
  if ((await readdir(dir)).length > 0) throw new Error(`pool release directory ${dir} is not empty`);
  const codes = Object.fromEntries(DATASET_TYPES.map((d) => [d, new ColumnCodes(d, variables[d])])) as Record<DatasetType, ColumnCodes>;
  const sql = opts.sqlCopy === false ? undefined : await openSqlCopy(dir, variables);
  const files = await openColumnFiles(dir, variables);
  const rows = { persons: 0, families: 0, dwellings: 0 };
  const writeColumn = async (dataset: DatasetType, name: string, data: ArrayBufferView): Promise<void> => {
    await files.get(columnFile(dataset, name))!.write(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  };
  const writeColumns = async (dataset: DatasetType, links: Record<string, Uint32Array | Int32Array>, columns: readonly Uint8Array[]): Promise<void> => {
    for (const l of LINK_FILES[dataset]) await writeColumn(dataset, l.name, links[l.name]!);
    for (const [k, v] of variables[dataset].entries()) await writeColumn(dataset, v.code, columns[k]!);
  };

  const suburbs: CatalogSuburb[] = [];
  const salCodes = new Set<string>();
  let closed = false;

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    sql?.close();
  };

  return {
    async append({ suburb, population, coarsened }) {
      if (closed) throw new Error('pool release writer is closed');
      if (salCodes.has(suburb.salCode)) throw new Error(`suburb ${suburb.salCode} appended twice`);
      salCodes.add(suburb.salCode);
      const { persons, families, dwellings } = population;
      const offsets = { ...rows };
      checkLinks(suburb.salCode, population);
      const co = new Set(coarsened);
      const ordinal = suburbs.length;
      const personFamily = offsetLinks(persons.family, offsets.families);
      const personDwelling = offsetLinks(persons.dwelling, offsets.dwellings);
      const familyDwelling = offsetLinks(families.dwelling, offsets.dwellings);
      const ordinals = (n: number): Uint32Array => new Uint32Array(n).fill(ordinal);
      const personColumns = codes.persons.columns(persons.count, persons.variables, co);
      const familyColumns = codes.families.columns(families.count, families.variables, co);
      const dwellingColumns = codes.dwellings.columns(dwellings.count, dwellings.variables, co);
      sql?.appenders.persons.append(persons.count, ordinal, [personFamily, personDwelling], personColumns);
      sql?.appenders.families.append(families.count, ordinal, [familyDwelling], familyColumns);
      sql?.appenders.dwellings.append(dwellings.count, ordinal, [], dwellingColumns);
      rows.persons += persons.count;
      rows.families += families.count;
      rows.dwellings += dwellings.count;
      await writeColumns('persons', { suburb_ordinal: ordinals(persons.count), family_row: personFamily, dwelling_row: new Uint32Array(personDwelling.buffer) }, personColumns);
      await writeColumns('families', { suburb_ordinal: ordinals(families.count), dwelling_row: new Uint32Array(familyDwelling.buffer) }, familyColumns);
      await writeColumns('dwellings', { suburb_ordinal: ordinals(dwellings.count) }, dwellingColumns);
      suburbs.push(catalogSuburb(suburb, offsets, population, co));
    },

    async finish(report, summary, extra = []) {
      if (closed) throw new Error('pool release writer is closed');
      if (sql) await sql.finish(suburbs);
      await close();
      const totals = { ...rows };
      await writeFile(join(dir, RELEASE_FILES.catalog), JSON.stringify(catalogOf(opts, suburbs, totals)));
      // Compact: a national report is 110 MB so (180 MB indented), and the quality pages parse it.
      await writeFile(join(dir, RELEASE_FILES.report), JSON.stringify(report ?? null) + '\n');
      for (const file of files.values()) await file.close();
      const names: string[] = [...(sql ? [RELEASE_FILES.pools] : []), RELEASE_FILES.catalog, RELEASE_FILES.report, ...files.keys()];
      if (summary !== undefined) {
        await writeFile(join(dir, RELEASE_FILES.reportText), summary);
        names.push(RELEASE_FILES.reportText);
      }
      for (const file of extra) {
        await writeFile(join(dir, file.name), file.data);
        names.push(file.name);
      }
      const manifest = await writeManifest(dir, version, names);
      return { dir, checksum: manifest.checksum };
    },

    async abort() {
      await close();
      for (const file of files.values()) await file.abandon();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Column files, appended suburb by suburb and written in ~1 MiB pieces (one write per column
 * per suburb would be ~800 k awaited writes at national scale).
 */
async function openColumnFiles(dir: string, variables: PoolReleaseWriterOptions['variables']): Promise<Map<string, BufferedFile>> {
  const files = new Map<string, BufferedFile>();
  for (const dataset of DATASET_TYPES) {
    await mkdir(join(dir, 'columns', dataset), { recursive: true });
    for (const name of [...LINK_FILES[dataset].map((l) => l.name), ...variables[dataset].map((v) => v.code)]) {
      files.set(columnFile(dataset, name), new BufferedFile(await open(join(dir, columnFile(dataset, name)), 'w')));
    }
  }
  return files;
}

/** Every person's and family's links point at a family and dwelling of the same suburb. */
function checkLinks(salCode: string, { persons, families, dwellings }: Population): void {
  for (let i = 0; i < persons.count; i++) {
    if (persons.dwelling[i]! >= dwellings.count) throw new Error(`${salCode}: person ${i} links to a missing dwelling`);
    if (persons.family[i]! >= families.count) throw new Error(`${salCode}: person ${i} links to a missing family`);
  }
  for (let i = 0; i < families.count; i++) {
    if (families.dwelling[i]! >= dwellings.count) throw new Error(`${salCode}: family ${i} links to a missing dwelling`);
  }
}

function catalogSuburb(suburb: SuburbEntry, offsets: Record<DatasetType, number>, { persons, families, dwellings }: Population, coarsened: ReadonlySet<string>): CatalogSuburb {
  const { postcodes, lgas, ...info } = suburb;
  return {
    ...info,
    // A postal area has no LGA, an LGA no postcode: those stay out of the lists (the primary fields are "").
    postcodes: [...new Set([suburb.postcode, ...(postcodes ?? [])])].filter((p) => p !== ''),
    lgas: [{ code: suburb.lgaCode, name: suburb.lga }, ...(lgas ?? []).filter((l) => l.code !== suburb.lgaCode)].filter((l) => l.code !== ''),
    offsets,
    pools: { persons: persons.count, families: families.count, dwellings: dwellings.count },
    coarsened: [...coarsened].sort(),
  };
}

function catalogOf(opts: PoolReleaseWriterOptions, suburbs: CatalogSuburb[], totals: Record<DatasetType, number>): Catalog {
  const { version, variables } = opts;
  return {
    format: 1,
    version,
    fittedTo: opts.fittedTo ?? 'demo',
    ...(opts.population ? { population: opts.population } : {}),
    variables: Object.fromEntries(DATASET_TYPES.map((d) => [d, variables[d].map(catalogVariable)])) as Record<DatasetType, CatalogVariable[]>,
    suburbs,
    totals,
    ...(opts.synthesis ? { synthesis: opts.synthesis } : {}),
  };
}

const catalogVariable = (v: VariableDef): CatalogVariable => ({
  code: v.code,
  description: v.description,
  measurement: v.measurement,
  categories: [...v.categories],
  ...(v.coarse ? { coarseCategories: [...v.coarse.categories], coarseOfFine: [...v.coarse.fromFine] } : {}),
  labels: [...columnLabels(v)],
});
