/**
 * Sampled rows → file, O(n) whatever the pool size: the chosen rows are gathered from the
 * column files (each through a reader of its own, columns.ts) 2,048 rows (one DuckDB vector) at
 * a time, and nothing is materialised whatever n.
 * - parquet: DuckDB writes the file with its own COPY from a table function, spq_gather, that
 *   hands it those chunks as they are gathered (ENUM codes and ready-made id strings, one bulk
 *   copy per column). No temporary table, no appender (both cost more than the COPY for small
 *   exports and block the event loop for large).
 * - csv and xlsx: the chunks go straight to our streaming writers (csv.ts writes exactly the
 *   bytes DuckDB's csv COPY would, with no DuckDB round trip per chunk; docs/performance.md).
 */
import { DuckDBTableFunction, type DuckDBConnection } from '@duckdb/node-api';
import type * as Bindings from '@duckdb/node-bindings';
import { stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { HIERARCHICAL_COLUMNS, type DatasetType } from '../../core/dataset.ts';
import { fittedToText } from '../../core/provenance.ts';
import { missingCodesOf } from '../../synthesis/census/missing-codes.ts';
import type { ExportRequest, ExportResult } from '../../ports/pool-release.ts';
import { ID_DIGITS, ID_PREFIX, type Catalog, type CatalogSuburb } from './catalog.ts';
import type { ColumnFile, ColumnReader } from './columns.ts';
import { ID_COLUMNS } from './records-sql.ts';
import { quoteLiteral } from './sql.ts';
import { writeCsv, type CsvColumn } from './csv.ts';
import { writeXlsx, type XlsxColumn } from './xlsx.ts';
import { coarseColumnName, fileValue, NULL_CODE, variableFileColumns, type VariableFileColumn } from './variable-columns.ts';

/**
 * DuckDB's C API as @duckdb/node-api itself loads it (resolved from node-api's own location, so
 * always the very copy and version that opened the database). node-api's vector wrappers cost
 * more to build than to fill (an ENUM's wrapper reads every label back from DuckDB, once per
 * chunk in a table function), so the gather function writes vectors through the raw API.
 */
const duckdb = createRequire(createRequire(import.meta.url).resolve('@duckdb/node-api'))('@duckdb/node-bindings') as typeof Bindings;

/** One dataset's columns: link columns by name, variables in catalog order (ENUM indices). */
export interface DatasetColumns {
  readonly links: Readonly<Record<string, ColumnFile>>;
  readonly variables: readonly ColumnFile[];
}

/** A selection's rows with the catalog ordinals of the suburbs it draws from. */
export interface ExportPart {
  readonly rows: Uint32Array;
  readonly suburbOrdinals: readonly number[];
  /** The selection the part answers, as the client wrote it (the `selection` column of a multi-selection file). */
  readonly label?: string;
}

/** A file answering several selections says which one each row answers, in a `selection` column after the ids. */
const hasSelectionColumn = (parts: readonly ExportPart[]): boolean => parts.length > 1;

/**
 * The dictionary shipped with every file: variable code → description and labels, ABS order.
 * Given the file's columns, it also says which are coarse: a variable with a CODE_coarse
 * companion names it and the suburbs whose records are empty in CODE (variable-columns.ts).
 */
export function dictionaryOf(catalog: Catalog, dataset: DatasetType, fileColumns?: readonly VariableFileColumn[], parts?: readonly ExportPart[], hierarchical = false) {
  return {
    version: catalog.version,
    fitted_to: fittedToText(catalog.fittedTo ?? 'demo'),
    dataset_type: dataset,
    ...(fileColumns ? { columns: describeColumns(catalog, dataset, fileColumns, parts ?? [], hierarchical) } : {}),
    ...(fileColumns?.some((c) => c.source.link) ? { linked_variables: linkedVariables(catalog, fileColumns) } : {}),
    ...(parts && hasSelectionColumn(parts)
      ? { selection_column: { description: 'The geography selection (as written in the request) that each record answers; a record is drawn once even where selections overlap.', values: selectionLabels(parts) } }
      : {}),
    variables: catalog.variables[dataset].map((v) => {
      const companion = fileColumns?.find((c) => c.name === coarseColumnName(v.code));
      const fine = fileColumns?.find((c) => c.name === v.code);
      const emptyIn = fine?.nullFor ? catalog.suburbs.flatMap((s, o) => (fine.nullFor![o] ? [s.suburbId] : [])) : [];
      return {
        code: v.code,
        description: v.description,
        categories: v.categories,
        // Missing-value codes, so readers order only the substantive levels (fine and coarse labels).
        missing: missingCodesOf([...new Set([...v.categories, ...(v.coarseCategories ?? [])])]),
        ...(v.coarseCategories ? { coarse_categories: v.coarseCategories } : {}),
        ...(companion
          ? {
              coarse_column: companion.name,
              coarse_note: `${v.code} is empty for records of small suburbs, whose records carry only coarse categories; ${companion.name} holds the coarse category of every record.`,
              empty_in_suburbs: emptyIn,
            }
          : {}),
      };
    }),
  };
}

const ID_MEANING: Readonly<Record<string, string>> = {
  person_id: 'The person record (P + 9 digits); text, keep the leading zeros',
  family_id: "The record's family (F + 9 digits), empty for persons in no family; joins the families file",
  dwelling_id: "The record's dwelling (D + 9 digits); joins the dwellings file",
};
const GEOGRAPHY_MEANING: Readonly<Record<string, string>> = {
  suburb_code:
    "The area whose pools the record comes from: ABS 2021 SAL code (SAL + 5 digits) for a suburb; the SA2's 9 digits, POA + 4 digits or LGA + 5 digits where the release fits SA2s, postal areas or LGAs to their own tables",
  suburb: 'The suburb as spq identifies it (decisions.md, "Geography identifiers"); empty for records of SA2, postal-area and LGA pools',
  postcode: "The suburb's main postcode, or the postal area (4 digits, text: keep the leading zero, e.g. 0800); empty for LGA pools",
  lga: "The suburb's main Local Government Area (the one holding most of its people), or the LGA; for postal-area and SA2 pools the LGA holding most of their people, from the ABS correspondences (empty where none places them)",
  gccsa: "The suburb's Greater Capital City Statistical Area; for postal-area and SA2 pools the one holding most of their people; empty for LGA pools",
  state: 'State or territory abbreviation',
};

const LINKED_OF: Readonly<Record<string, string>> = { family_row: "the record's family", dwelling_row: "the record's dwelling" };

/** Every column of the file, in file order, with what it holds (ids, selection, geography, variables, linked records' variables, coarse companions). */
function describeColumns(catalog: Catalog, dataset: DatasetType, fileColumns: readonly VariableFileColumn[], parts: readonly ExportPart[], hierarchical: boolean) {
  return [
    ...ID_COLUMNS[dataset].map((name) => ({ name, kind: 'id', description: ID_MEANING[name]! })),
    ...(hasSelectionColumn(parts) ? [{ name: 'selection', kind: 'selection', description: 'The geography selection (as written in the request) this record answers' }] : []),
    { name: 'suburb_code', kind: 'geography', description: GEOGRAPHY_MEANING['suburb_code']! },
    ...fileColumns.map((c) => {
      const v = catalog.variables[c.source.dataset][c.source.variable]!;
      const of = c.source.link ? `${v.description}, of ${LINKED_OF[c.source.link] ?? c.source.link} (empty where there is none)` : v.description;
      const kind = c.source.link ? 'linked' : 'variable';
      return c.name.endsWith('_coarse')
        ? { name: c.name, kind: 'coarse', description: `${of}: coarse categories for every record` }
        : { name: c.name, kind, description: c.nullFor ? `${of} (fine categories; empty for records of small suburbs: see ${coarseColumnName(c.name)})` : of };
    }),
    ...(hierarchical ? HIERARCHICAL_COLUMNS.map((name) => ({ name, kind: 'geography', description: GEOGRAPHY_MEANING[name]! })) : []),
  ];
}

/** The joined columns of linked records (family_*, dwelling_*) with their categories, as `variables` lists the record's own. */
function linkedVariables(catalog: Catalog, fileColumns: readonly VariableFileColumn[]) {
  return fileColumns
    .filter((c) => c.source.link && !c.name.endsWith('_coarse'))
    .map((c) => {
      const v = catalog.variables[c.source.dataset][c.source.variable]!;
      return { column: c.name, dataset_type: c.source.dataset, code: v.code, description: v.description, categories: v.categories };
    });
}

/** Where the csv export writes its dictionary: next to the file, `<destPath>.dictionary.json`. */
export const dictionaryPathOf = (csvPath: string): string => `${csvPath}.dictionary.json`;

const CHUNK = 2048;

/** A geography column coded per export: its distinct values, and each involved suburb's value index. */
interface GeoColumn {
  readonly name: string;
  readonly labels: readonly string[];
  /** local suburb index → label index */
  readonly valueOf: Uint32Array;
}

function geographyColumns(catalog: Catalog, parts: readonly ExportPart[], hierarchical: boolean): { localOf: Int32Array; columns: GeoColumn[] } {
  const localOf = new Int32Array(catalog.suburbs.length).fill(-1);
  const involved: CatalogSuburb[] = [];
  for (const p of parts) {
    for (const o of p.suburbOrdinals) {
      if (localOf[o] === -1) {
        localOf[o] = involved.length;
        involved.push(catalog.suburbs[o]!);
      }
    }
  }
  const pick: Record<string, (s: CatalogSuburb) => string> = {
    suburb_code: (s) => s.salCode,
    // A postal area's or LGA's pools belong to no one suburb.
    suburb: (s) => ((s.level ?? 'sal') === 'sal' ? s.suburbId : ''),
    postcode: (s) => s.postcode,
    lga: (s) => s.lga,
    gccsa: (s) => s.gccsa,
    state: (s) => s.state,
  };
  const names = ['suburb_code', ...(hierarchical ? HIERARCHICAL_COLUMNS : [])];
  const columns = names.map((name) => {
    const labels: string[] = [];
    const index = new Map<string, number>();
    const valueOf = Uint32Array.from(involved, (s) => {
      const v = pick[name]!(s);
      let i = index.get(v);
      if (i === undefined) {
        i = labels.push(v) - 1;
        index.set(v, i);
      }
      return i;
    });
    return { name, labels, valueOf };
  });
  return { localOf, columns };
}

/** Row chunks in file order: part by part, rows ascending within a part. */
function* rowChunks(parts: readonly ExportPart[]): Generator<{ readonly rows: Uint32Array; readonly part: number }> {
  for (const [part, p] of parts.entries()) {
    for (let start = 0; start < p.rows.length; start += CHUNK) yield { rows: p.rows.subarray(start, Math.min(start + CHUNK, p.rows.length)), part };
  }
}

/** The `selection` column's labels: each part's selection as written (or "selection N"). */
const selectionLabels = (parts: readonly ExportPart[]): string[] => parts.map((p, i) => p.label ?? `selection ${i + 1}`);

/**
 * One output column of spq_gather: its name, DuckDB type, and its values for a chunk of rows in
 * a buffer of its own (a vector's bytes, ready for one copy into DuckDB's vector).
 */
interface GatherColumn {
  readonly name: string;
  readonly type: Bindings.LogicalType;
  /**
   * Fills the column's buffer for `rows` of part `part` (`local`: each row's local suburb index;
   * `ordinals`: each row's suburb ordinal, read once per chunk for every column);
   * returns the bytes and, when some values are NULL, a validity mask.
   */
  fill(rows: Uint32Array, local: Uint32Array, part: number, ordinals: Uint32Array): { readonly data: Uint8Array | Uint16Array | Uint32Array; readonly validity: Uint8Array | undefined };
}

/** An export's gather: its columns, and the chunk of rows prepared ahead of DuckDB's next call. */
interface Gather {
  readonly columns: readonly GatherColumn[];
  readonly rows: number;
  readonly parts: readonly ExportPart[];
  readonly ordinal: ColumnReader;
  readonly localOf: Int32Array;
}

/** A scan of a gather (DuckDB's init data): where it is, and the next chunk when it is already filled. */
interface Scan {
  readonly gather: Gather;
  readonly chunks: ReturnType<typeof rowChunks>;
  readonly local: Uint32Array;
  readonly ordinals: Uint32Array;
  next: { readonly rows: Uint32Array; readonly values: ReturnType<GatherColumn['fill']>[] } | 'done' | undefined;
  failure: unknown;
}

/** A buffer for a chunk of ENUM codes: DuckDB stores them in 1, 2 or 4 bytes depending on the number of labels. */
function codeBuffer(type: Bindings.LogicalType): Uint8Array | Uint16Array | Uint32Array {
  const width = duckdb.enum_internal_type(type);
  return width === duckdb.Type.UTINYINT ? new Uint8Array(CHUNK) : width === duckdb.Type.USMALLINT ? new Uint16Array(CHUNK) : new Uint32Array(CHUNK);
}

/** "0000" … "9999" as ASCII bytes, 4 per number: ids are written four digits at a time. */
const FOUR_DIGITS = (() => {
  const t = new Uint8Array(40_000);
  for (let n = 0; n < 10_000; n++) for (let k = 0; k < 4; k++) t[n * 4 + k] = 48 + (Math.floor(n / 10 ** (3 - k)) % 10);
  return t;
})();

/**
 * An id column ("P000000123") written as DuckDB strings here, where it costs a few byte stores,
 * instead of printf in the COPY's single scanning thread. Each value is a duckdb_string_t in its
 * inlined form (C API, duckdb.h: a uint32 length, then up to 12 bytes of text in place; ids are
 * 10 or 11 bytes), so the vector needs no string heap.
 */
function idColumn(name: string, prefix: string, source: ColumnReader | undefined): GatherColumn {
  const p = prefix.charCodeAt(0);
  const out = new Uint8Array(CHUNK * 16);
  const validity = new Uint8Array(CHUNK / 8);
  const T = FOUR_DIGITS;
  return {
    name,
    type: duckdb.create_logical_type(duckdb.Type.VARCHAR),
    fill(rows) {
      const m = rows.length;
      let nulls = 0;
      for (let i = 0; i < m; i++) {
        const x = source === undefined ? rows[i]! : source.get(rows[i]!);
        const o = i * 16;
        if (x < 0) {
          out.fill(0, o, o + 16);
          nulls++;
          continue;
        }
        // Nine digits (ID_DIGITS) as 1 + 4 + 4; an id of ten digits (≥ 10⁹ rows) carries one more.
        const high = Math.floor(x / 100_000_000);
        const mid = Math.floor(x / 10_000) % 10_000;
        const low = x % 10_000;
        const wide = high >= 10 ? 1 : 0;
        out[o] = 10 + wide;
        out[o + 1] = 0;
        out[o + 2] = 0;
        out[o + 3] = 0;
        out[o + 4] = p;
        if (wide) {
          out[o + 5] = 48 + Math.floor(high / 10);
          out[o + 6] = 48 + (high % 10);
        } else out[o + 5] = 48 + high;
        const d = o + 6 + wide;
        const a = mid * 4;
        const b = low * 4;
        out[d] = T[a]!;
        out[d + 1] = T[a + 1]!;
        out[d + 2] = T[a + 2]!;
        out[d + 3] = T[a + 3]!;
        out[d + 4] = T[b]!;
        out[d + 5] = T[b + 1]!;
        out[d + 6] = T[b + 2]!;
        out[d + 7] = T[b + 3]!;
        for (let z = d + 8; z < o + 16; z++) out[z] = 0;
      }
      const data = out.subarray(0, m * 16);
      if (nulls === 0) return { data, validity: undefined };
      const mask = validity.subarray(0, Math.ceil(m / 64) * 8);
      mask.fill(0);
      for (let i = 0; i < m; i++) if (out[i * 16] !== 0) mask[i >> 3]! |= 1 << (i & 7);
      return { data, validity: mask };
    },
  };
}

function gatherPlan(shape: FileShape): Gather {
  const { dataset, columns, parts, geo, fileColumns, linked } = shape;
  const out: GatherColumn[] = idSourcesOf(dataset, columns).map(({ dataset: d, column }, k) => idColumn(ID_COLUMNS[dataset][k]!, ID_PREFIX[d], column?.reader()));
  const geoColumns = geo.columns.map((g): GatherColumn => {
    const type = duckdb.create_enum_type(g.labels);
    const buffer = codeBuffer(type);
    const valueOf = g.valueOf;
    return {
      name: g.name,
      type,
      fill: (rows, local) => {
        const o = buffer.subarray(0, rows.length);
        for (let i = 0; i < rows.length; i++) o[i] = valueOf[local[i]!]!;
        return { data: o, validity: undefined };
      },
    };
  });
  if (hasSelectionColumn(parts)) {
    const type = duckdb.create_enum_type(selectionLabels(parts));
    const buffer = codeBuffer(type);
    out.push({
      name: 'selection',
      type,
      fill: (rows, _local, part) => {
        const o = buffer.subarray(0, rows.length);
        o.fill(part);
        return { data: o, validity: undefined };
      },
    });
  }
  out.push(geoColumns[0]!);
  // One reader of the suburb ordinals for the whole gather: prepare() reads each chunk's once for every column.
  const ordinal = columns.links['suburb_ordinal']!.reader();
  for (const column of fileColumns) {
    const type = duckdb.create_enum_type(column.labels);
    const buffer = codeBuffer(type);
    const validity = new Uint8Array(CHUNK / 8);
    const valueOf = columnReader(column, columns, linked);
    out.push({
      name: column.name,
      type,
      fill: (rows, _local, _part, ordinals) => {
        const o = buffer.subarray(0, rows.length);
        let nulls = 0;
        for (let i = 0; i < rows.length; i++) {
          const v = valueOf(rows[i]!, ordinals[i]!);
          if (v === NULL_CODE) nulls++;
          o[i] = v === NULL_CODE ? 0 : v;
        }
        if (nulls === 0) return { data: o, validity: undefined };
        const mask = validity.subarray(0, Math.ceil(rows.length / 64) * 8);
        mask.fill(0);
        for (let i = 0; i < rows.length; i++) if (valueOf(rows[i]!, ordinals[i]!) !== NULL_CODE) mask[i >> 3]! |= 1 << (i & 7);
        return { data: o, validity: mask };
      },
    });
  }
  out.push(...geoColumns.slice(1));
  return { columns: out, rows: parts.reduce((n, p) => n + p.rows.length, 0), parts, ordinal, localOf: geo.localOf };
}

/** Fills every column's buffer with the scan's next chunk. */
function prepare(scan: Scan): void {
  const next = scan.chunks.next();
  if (next.done) {
    scan.next = 'done';
    return;
  }
  const { rows, part } = next.value;
  const { ordinal, localOf } = scan.gather;
  for (let i = 0; i < rows.length; i++) {
    const o = ordinal.get(rows[i]!);
    scan.ordinals[i] = o;
    scan.local[i] = localOf[o]!;
  }
  scan.next = { rows, values: scan.gather.columns.map((c) => c.fill(rows, scan.local, part, scan.ordinals)) };
}

/** Exports in progress, by the id their COPY passes to spq_gather. */
const gathers = new Map<string, Gather>();
let gatherCount = 0;
/** Registered functions stay referenced for the life of the process (DuckDB calls back into them). */
const registered: DuckDBTableFunction[] = [];

/**
 * Registers spq_gather(id) on a database (once per DuckDB instance, before its first export):
 * the rows of the export `id`, chunk by chunk, in file order (one scanning thread keeps it).
 * DuckDB calls the function from its own thread and waits while JavaScript answers; the answer
 * is a prepared chunk (one copy per column), and the chunk after it is prepared on the event loop
 * right after, while DuckDB encodes: gathering and encoding overlap on two cores.
 */
export function registerGatherFunction(connection: DuckDBConnection): void {
  const tf = new DuckDBTableFunction();
  const raw = tf.table_function;
  duckdb.table_function_set_name(raw, 'spq_gather');
  duckdb.table_function_add_parameter(raw, duckdb.create_logical_type(duckdb.Type.VARCHAR));
  duckdb.table_function_set_bind(raw, (info) => {
    const id = duckdb.get_varchar(duckdb.bind_get_parameter(info, 0));
    const gather = gathers.get(id);
    if (gather === undefined) {
      duckdb.bind_set_error(info, `spq_gather: no export "${id}" in progress`);
      return;
    }
    for (const c of gather.columns) duckdb.bind_add_result_column(info, c.name, c.type);
    duckdb.bind_set_cardinality(info, gather.rows, true);
    duckdb.bind_set_bind_data(info, gather);
  });
  duckdb.table_function_set_init(raw, (info) => {
    const gather = duckdb.init_get_bind_data(info) as Gather;
    duckdb.init_set_max_threads(info, 1);
    const scan: Scan = { gather, chunks: rowChunks(gather.parts), local: new Uint32Array(CHUNK), ordinals: new Uint32Array(CHUNK), next: undefined, failure: undefined };
    duckdb.init_set_init_data(info, scan);
  });
  duckdb.table_function_set_function(raw, (info, output) => {
    const scan = duckdb.function_get_init_data(info) as Scan;
    try {
      if (scan.failure !== undefined) throw scan.failure;
      if (scan.next === undefined) prepare(scan);
      const next = scan.next!;
      if (next === 'done') {
        duckdb.data_chunk_set_size(output, 0);
        return;
      }
      duckdb.data_chunk_set_size(output, next.rows.length);
      next.values.forEach(({ data, validity }, k) => {
        const vector = duckdb.data_chunk_get_vector(output, k);
        duckdb.copy_data_to_vector(vector, 0, data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
        if (validity !== undefined) {
          duckdb.vector_ensure_validity_writable(vector);
          duckdb.copy_data_to_vector_validity(vector, 0, validity.buffer as ArrayBuffer, validity.byteOffset, validity.byteLength);
        }
      });
      // The buffers are copied into DuckDB's vectors: refill them for the next call while DuckDB works.
      scan.next = undefined;
      setImmediate(() => {
        if (scan.next !== undefined || scan.failure !== undefined) return;
        try {
          prepare(scan);
        } catch (error) {
          scan.failure = error;
        }
      });
    } catch (error) {
      duckdb.function_set_error(info, `spq_gather: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  connection.registerTableFunction(tf);
  registered.push(tf);
}

export async function exportRows(
  connection: DuckDBConnection,
  catalog: Catalog,
  dataset: DatasetType,
  columns: DatasetColumns,
  parts: readonly ExportPart[],
  request: ExportRequest,
  linked: LinkedColumns = {},
): Promise<ExportResult> {
  const { format, destPath } = request;
  const hierarchical = request.includeGeography === 'hierarchical';
  const fileColumns = variableFileColumns(catalog, dataset, parts.flatMap((p) => p.suburbOrdinals), request.linkedRecords ?? 'none');
  const dictionary = dictionaryOf(catalog, dataset, fileColumns, parts, hierarchical);
  const rows = parts.reduce((n, p) => n + p.rows.length, 0);
  const geo = geographyColumns(catalog, parts, hierarchical);

  const shape: FileShape = { dataset, columns, parts, geo, fileColumns, linked };
  if (format === 'xlsx') {
    await exportXlsx(catalog, shape, request);
  } else if (format === 'csv') {
    await exportCsv(shape, request);
    // csv has no place for it: the dictionary (and the query metadata) is a separate file.
    await writeFile(dictionaryPathOf(destPath), JSON.stringify({ ...dictionary, metadata: request.metadata }, null, 2) + '\n');
  } else {
    const id = `g${++gatherCount}`;
    gathers.set(id, gatherPlan(shape));
    try {
      const kv = { ...request.metadata, dictionary: JSON.stringify(dictionary) };
      const kvSql = `{${Object.entries(kv).map(([k, v]) => `${quoteLiteral(k)}: ${quoteLiteral(v)}`).join(', ')}}`;
      // One scanning thread: the file keeps the gather's order (part, then row).
      await connection.run(`COPY (SELECT * FROM spq_gather('${id}')) TO ${quoteLiteral(destPath)} (FORMAT parquet, COMPRESSION zstd, KV_METADATA ${kvSql})`);
    } finally {
      gathers.delete(id);
    }
  }
  return { rows, bytes: (await stat(destPath)).size, ...(format === 'csv' ? { dictionaryPath: dictionaryPathOf(destPath) } : {}) };
}

/** Where each id column of a dataset's files comes from: the row itself, or a link column (−1 = none). */
function idSourcesOf(dataset: DatasetType, columns: DatasetColumns): { dataset: DatasetType; column: ColumnFile | undefined }[] {
  return ID_COLUMNS[dataset].map((name) => {
    const target = (name === 'person_id' ? 'persons' : name === 'family_id' ? 'families' : 'dwellings') as DatasetType;
    return { dataset: target, column: target === dataset ? undefined : columns.links[target === 'families' ? 'family_row' : 'dwelling_row'] };
  });
}

/**
 * The rows in file order as batches of numbers, one array per file column: ids as row numbers
 * (−1 = none), suburb_code, variables and hierarchical geography as label indices. The arrays
 * are reused batch after batch: a writer is done with a batch before it asks for the next.
 */
function* codedBatches(shape: FileShape): Generator<{ rowCount: number; columns: ArrayLike<number>[] }> {
  const { dataset, columns, parts, geo, fileColumns, linked } = shape;
  const idSources = idSourcesOf(dataset, columns);
  const idReaders = idSources.map(({ column }) => column?.reader());
  const ordinal = columns.links['suburb_ordinal']!.reader();
  const ids = idSources.map(({ column }) => (column === undefined ? undefined : new Int32Array(CHUNK)));
  const local = new Uint32Array(CHUNK);
  const ordinalScratch = new Uint32Array(CHUNK);
  const geoValues = geo.columns.map(() => new Uint32Array(CHUNK));
  const vars = fileColumns.map(() => new Uint8Array(CHUNK));
  const { sources, sourceOf } = poolSources(fileColumns, columns, linked);
  const selection = hasSelectionColumn(parts) ? new Uint32Array(CHUNK) : undefined;
  for (const { rows, part } of rowChunks(parts)) {
    const m = rows.length;
    const idColumns = idReaders.map((column, k) => {
      if (column === undefined) return rows;
      const out = ids[k]!;
      column.gather(rows, m, out);
      return out;
    });
    const ordinals = ordinalScratch;
    ordinal.gather(rows, m, ordinals);
    for (let i = 0; i < m; i++) local[i] = geo.localOf[ordinals[i]!]!;
    geo.columns.forEach((g, k) => {
      const out = geoValues[k]!;
      for (let i = 0; i < m; i++) out[i] = g.valueOf[local[i]!]!;
    });
    for (const source of sources) source.gather(rows, m);
    fileColumns.forEach((column, k) => fileValues(column, sources[sourceOf[k]!]!.values, ordinals, m, vars[k]!));
    selection?.fill(part, 0, m);
    yield { rowCount: m, columns: [...idColumns, ...(selection ? [selection] : []), geoValues[0]!, ...vars, ...geoValues.slice(1)] };
  }
}

/**
 * The pool columns a file's variables read, each once per chunk: a variable and its coarse
 * companion share one (the fine-to-coarse map is applied after), so the column is read once.
 */
function poolSources(fileColumns: readonly VariableFileColumn[], own: DatasetColumns, linked: LinkedColumns) {
  const keys: string[] = [];
  const sources: { readonly values: Int32Array; gather(rows: Uint32Array, m: number): void }[] = [];
  const sourceOf = fileColumns.map((column) => {
    const key = `${column.source.dataset}/${column.source.variable}/${column.source.link ?? ''}`;
    const known = keys.indexOf(key);
    if (known >= 0) return known;
    keys.push(key);
    sources.push(poolSource(column, own, linked));
    return sources.length - 1;
  });
  return { sources, sourceOf };
}

/** One pool column's values for a chunk's rows (−1 where a linked record has none). */
function poolSource(column: VariableFileColumn, own: DatasetColumns, linked: LinkedColumns) {
  const { dataset, variable, link } = column.source;
  const holder = link ? linked[dataset] : own;
  if (!holder) throw new Error(`export: no columns of ${dataset} to join`);
  const reader = holder.variables[variable]!.reader();
  const linkFile = link ? own.links[link] : undefined;
  if (link && !linkFile) throw new Error(`export: no link column ${link}`);
  const values = new Int32Array(CHUNK);
  if (!linkFile) return { values, gather: (rows: Uint32Array, m: number) => reader.gather(rows, m, values) };
  const linkReader = linkFile.reader();
  const at = new Int32Array(CHUNK);
  return {
    values,
    gather(rows: Uint32Array, m: number) {
      linkReader.gather(rows, m, at);
      for (let i = 0; i < m; i++) values[i] = at[i]! < 0 ? -1 : reader.get(at[i]!);
    },
  };
}

/** A file column's label indices from its pool column's values (fileValue for a batch; NULL where the value is −1). */
function fileValues(column: VariableFileColumn, values: Int32Array, ordinals: Uint32Array, m: number, out: Uint8Array): void {
  const { map, nullFor } = column;
  if (nullFor) for (let i = 0; i < m; i++) out[i] = values[i]! < 0 || nullFor[ordinals[i]!] ? NULL_CODE : map[values[i]!]!;
  else for (let i = 0; i < m; i++) out[i] = values[i]! < 0 ? NULL_CODE : map[values[i]!]!;
}

/** The file columns after the ids: suburb_code, the variables, then hierarchical geography; labels per column. */
function codedColumns(geo: { columns: GeoColumn[] }, fileColumns: readonly VariableFileColumn[], parts: readonly ExportPart[]): { name: string; labels: readonly string[] }[] {
  const [codeColumn, ...hierarchy] = geo.columns;
  return [
    ...(hasSelectionColumn(parts) ? [{ name: 'selection', labels: selectionLabels(parts) }] : []),
    { name: 'suburb_code', labels: codeColumn!.labels },
    ...fileColumns.map((c) => ({ name: c.name, labels: c.labels })),
    ...hierarchy.map((g) => ({ name: g.name, labels: g.labels })),
  ];
}

/** What a file is made of: its dataset's columns, the rows in parts, its geography and variable columns. */
interface FileShape {
  readonly dataset: DatasetType;
  readonly columns: DatasetColumns;
  readonly parts: readonly ExportPart[];
  readonly geo: { localOf: Int32Array; columns: GeoColumn[] };
  readonly fileColumns: readonly VariableFileColumn[];
  /** The other datasets' columns, for linked records' variables (joined). */
  readonly linked: LinkedColumns;
}

/** Every dataset's columns by dataset, as the release holds them open. */
export type LinkedColumns = Readonly<Partial<Record<DatasetType, DatasetColumns>>>;

/** A file column's value for a record row: its own variable, or its linked record's (NULL where it has none). */
function columnReader(column: VariableFileColumn, own: DatasetColumns, linked: LinkedColumns): (row: number, suburbOrdinal: number) => number {
  const { dataset, variable, link } = column.source;
  const holder = link ? linked[dataset] : own;
  if (!holder) throw new Error(`export: no columns of ${dataset} to join`);
  const values = holder.variables[variable]!.reader();
  const linkFile = link ? own.links[link] : undefined;
  if (link && !linkFile) throw new Error(`export: no link column ${link}`);
  if (!linkFile) return (row, o) => fileValue(column, values.get(row), o);
  const linkColumn = linkFile.reader();
  return (row, o) => {
    const at = linkColumn.get(row);
    return at < 0 ? NULL_CODE : fileValue(column, values.get(at), o);
  };
}

/** The ids, then the coded columns (suburb_code, variables, hierarchy), as both streaming writers take them. */
function streamedColumns(shape: FileShape) {
  const idSources = idSourcesOf(shape.dataset, shape.columns);
  return [
    ...ID_COLUMNS[shape.dataset].map((name, k) => ({ name, kind: 'id' as const, prefix: ID_PREFIX[idSources[k]!.dataset], digits: ID_DIGITS })),
    ...codedColumns(shape.geo, shape.fileColumns, shape.parts).map((c) => ({ ...c, kind: 'coded' as const })),
  ];
}

const batchesOf = (shape: FileShape) => codedBatches(shape);

async function exportCsv(shape: FileShape, request: ExportRequest): Promise<void> {
  const csvColumns: CsvColumn[] = streamedColumns(shape);
  await writeCsv({ destPath: request.destPath, columns: csvColumns, batches: batchesOf(shape) });
}

async function exportXlsx(catalog: Catalog, shape: FileShape, request: ExportRequest): Promise<void> {
  const variables = catalog.variables[shape.dataset];
  const xlsxColumns: XlsxColumn[] = streamedColumns(shape);
  const fileColumns = shape.fileColumns;
  // The last column names a label's missing-value kind (not_applicable, non_response, partial_response), else empty.
  const dictionaryRows: (string | number)[][] = [['code', 'description', 'category_index', 'label', 'missing']];
  const missingKind = (categories: readonly string[]) => {
    const m = missingCodesOf(categories);
    return (label: string) => (['not_applicable', 'non_response', 'partial_response'] as const).find((k) => m[k].includes(label.trim())) ?? '';
  };
  for (const v of linkedVariables(catalog, fileColumns)) {
    const kind = missingKind(v.categories);
    v.categories.forEach((label, i) => dictionaryRows.push([v.column, `${v.description} (${v.dataset_type})`, i + 1, label, kind(label)]));
  }
  for (const v of variables) {
    const kind = missingKind(v.categories);
    v.categories.forEach((label, i) => dictionaryRows.push([v.code, v.description, i + 1, label, kind(label)]));
    const companion = fileColumns.find((c) => c.name === coarseColumnName(v.code));
    if (companion) {
      const coarseKind = missingKind(companion.labels);
      companion.labels.forEach((label, i) =>
        dictionaryRows.push([companion.name, `${v.description} (coarse categories, every record; ${v.code} is empty for small suburbs)`, i + 1, label, coarseKind(label)]),
      );
    }
  }
  await writeXlsx({
    destPath: request.destPath,
    sheetName: shape.dataset,
    columns: xlsxColumns,
    batches: batchesOf(shape),
    extraSheets: [
      { name: 'dictionary', rows: dictionaryRows },
      {
        name: 'columns',
        rows: [
          ['name', 'kind', 'description'],
          ...describeColumns(catalog, shape.dataset, shape.fileColumns, shape.parts, request.includeGeography === 'hierarchical').map((c) => [c.name, c.kind, c.description]),
        ],
      },
      { name: 'metadata', rows: [['key', 'value'], ...Object.entries(request.metadata).map(([k, v]) => [k, v])] },
    ],
  });
}
