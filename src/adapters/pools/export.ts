/**
 * Sampled rows → file, O(n) whatever the pool size: the chosen rows are gathered from the
 * column files (each through a reader of its own, columns.ts) 2,048 rows at a time, as label
 * codes, and nothing is materialised whatever n. Every column of the file (ids, the suburb,
 * variables, linked records' variables) is read one way, through a ColumnSource. The chunks go
 * straight to the format's writer (writers.ts): parquet.ts (dictionary pages of the labels, data
 * pages of the codes), csv.ts (exactly the bytes DuckDB's csv COPY would write) and xlsx.ts;
 * docs/pool-store.md.
 */
import { stat, writeFile } from 'node:fs/promises';
import { HIERARCHICAL_COLUMNS, type DatasetType } from '../../core/dataset.ts';
import { hasDictionaryBeside } from '../../core/formats.ts';
import type { ExportRequest, ExportResult } from '../../ports/pool-release.ts';
import type { Catalog, CatalogSuburb } from './catalog.ts';
import { dictionaryOf, dictionaryPathOf } from './dictionary.ts';
import { hasSelectionColumn, idTargetOf, type DatasetColumns, type ExportPart, type FileShape, type GeoColumn, type LinkedColumns } from './file-shape.ts';
import type { ParquetEncoding } from './parquet.ts';
import { ID_COLUMNS } from './records-sql.ts';
import { NULL_CODE, variableFileColumns, type VariableFileColumn } from './variable-columns.ts';
import { FILE_WRITERS, type CodedBatches } from './writers.ts';

const CHUNK = 2048;

/** The geography columns of a file (suburb_code, and with hierarchical geography the rest) over the suburbs its parts draw from. */
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
    // An SA2's pools are its own; a release before SA2 codes has a suburb's SA2 name alone.
    sa2_code: (s) => s.sa2Code ?? (s.level === 'sa2' ? s.salCode : ''),
    sa2_name: (s) => s.sa2 ?? (s.level === 'sa2' ? s.suburbId : ''),
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

export async function exportRows(
  catalog: Catalog,
  dataset: DatasetType,
  columns: DatasetColumns,
  parts: readonly ExportPart[],
  request: ExportRequest,
  linked: LinkedColumns = {},
  parquetEncoding?: ParquetEncoding,
): Promise<ExportResult> {
  const { format, destPath } = request;
  const hierarchical = request.includeGeography === 'hierarchical';
  const fileColumns = variableFileColumns(catalog, dataset, parts.flatMap((p) => p.suburbOrdinals), request.linkedRecords ?? 'none');
  const dictionary = dictionaryOf(catalog, dataset, fileColumns, parts, hierarchical);
  const rows = parts.reduce((n, p) => n + p.rows.length, 0);
  const shape: FileShape = { dataset, columns, parts, geo: geographyColumns(catalog, parts, hierarchical), fileColumns, linked };
  await FILE_WRITERS[format]({ catalog, shape, batches: codedBatches(shape), dictionary, request, parquetEncoding });
  // A format with no place for it has the dictionary (and the query metadata) as a file beside it.
  const beside = hasDictionaryBeside(format);
  if (beside) await writeFile(dictionaryPathOf(destPath), JSON.stringify({ ...dictionary, metadata: request.metadata }, null, 2) + '\n');
  return { rows, bytes: (await stat(destPath)).size, ...(beside ? { dictionaryPath: dictionaryPathOf(destPath) } : {}) };
}

/**
 * Where a file column's values come from: a pool column of the record's own row or, through a
 * link column of the record (family_row, dwelling_row, suburb_ordinal), of the row it names
 * (−1 there: none). Without a variable, the row itself: the record's own (its id) or the linked
 * one (a linked record's id, a suburb ordinal).
 */
interface ColumnSource {
  readonly link?: string | undefined;
  readonly variable?: { readonly dataset: DatasetType; readonly index: number };
}

/**
 * A source's values for a chunk's rows (valid up to the chunk's length; the array is reused chunk
 * after chunk), given the values of the sources added before it in this chunk.
 */
type ChunkReader = (rows: Uint32Array, m: number, earlier: readonly ArrayLike<number>[]) => ArrayLike<number>;

/**
 * The column sources of one export, each read once per chunk however many file columns use it:
 * a variable and its coarse companion share one (the fine-to-coarse map is applied after), and
 * the variables read through a link share the link's rows (and with them the linked id column).
 */
class ColumnSources {
  private readonly keys: string[] = [];
  private readonly readers: ChunkReader[] = [];

  constructor(
    private readonly own: DatasetColumns,
    private readonly linked: LinkedColumns,
  ) {}

  /** The index of the source's values in what gather returns. */
  add(source: ColumnSource): number {
    const key = `${source.link ?? ''}/${source.variable ? `${source.variable.dataset}/${source.variable.index}` : ''}`;
    const known = this.keys.indexOf(key);
    if (known >= 0) return known;
    // Made before the key goes in: a linked variable's reader adds its link's source first.
    const reader = this.readerOf(source);
    this.keys.push(key);
    return this.readers.push(reader) - 1;
  }

  gather(rows: Uint32Array, m: number): ArrayLike<number>[] {
    const values: ArrayLike<number>[] = [];
    for (const read of this.readers) values.push(read(rows, m, values));
    return values;
  }

  private readerOf({ link, variable }: ColumnSource): ChunkReader {
    if (variable === undefined) return link === undefined ? (rows) => rows : this.linkReader(link);
    const holder = link === undefined ? this.own : this.linked[variable.dataset];
    if (!holder) throw new Error(`export: no columns of ${variable.dataset} to join`);
    const reader = holder.variables[variable.index]!.reader();
    const values = new Int32Array(CHUNK);
    if (link === undefined) return (rows, m) => (reader.gather(rows, m, values), values);
    const linkedRows = this.add({ link });
    return (_rows, m, earlier) => {
      const at = earlier[linkedRows]!;
      for (let i = 0; i < m; i++) values[i] = at[i]! < 0 ? -1 : reader.get(at[i]!);
      return values;
    };
  }

  private linkReader(link: string): ChunkReader {
    const file = this.own.links[link];
    if (!file) throw new Error(`export: no link column ${link}`);
    const reader = file.reader();
    const values = new Int32Array(CHUNK);
    return (rows, m) => (reader.gather(rows, m, values), values);
  }
}

/** An id column's source: the record's own row, or the linked record's row. */
const idSourceOf = (dataset: DatasetType, idColumn: string): ColumnSource => ({ link: idTargetOf(dataset, idColumn).link });

/** A variable column's source: its pool column, at the record's own row or through its link. */
const variableSourceOf = ({ source }: VariableFileColumn): ColumnSource => ({ link: source.link, variable: { dataset: source.dataset, index: source.variable } });

/**
 * The rows in file order as batches of numbers, one array per file column: ids as row numbers
 * (−1 = none), suburb_code, variables and hierarchical geography as label indices. The arrays
 * are reused batch after batch: a writer is done with a batch before it asks for the next.
 */
function* codedBatches(shape: FileShape): CodedBatches {
  const { dataset, parts, geo, fileColumns } = shape;
  const sources = new ColumnSources(shape.columns, shape.linked);
  const ids = ID_COLUMNS[dataset].map((name) => sources.add(idSourceOf(dataset, name)));
  const ordinal = sources.add({ link: 'suburb_ordinal' });
  const variables = fileColumns.map((column) => sources.add(variableSourceOf(column)));
  const local = new Uint32Array(CHUNK);
  const geoValues = geo.columns.map(() => new Uint32Array(CHUNK));
  const vars = fileColumns.map(() => new Uint8Array(CHUNK));
  const selection = hasSelectionColumn(parts) ? new Uint32Array(CHUNK) : undefined;
  for (const { rows, part } of rowChunks(parts)) {
    const m = rows.length;
    const values = sources.gather(rows, m);
    const ordinals = values[ordinal]!;
    for (let i = 0; i < m; i++) local[i] = geo.localOf[ordinals[i]!]!;
    geo.columns.forEach((g, k) => {
      const out = geoValues[k]!;
      for (let i = 0; i < m; i++) out[i] = g.valueOf[local[i]!]!;
    });
    fileColumns.forEach((column, k) => fileValues(column, values[variables[k]!]!, ordinals, m, vars[k]!));
    selection?.fill(part, 0, m);
    yield { rowCount: m, columns: [...ids.map((k) => values[k]!), ...(selection ? [selection] : []), geoValues[0]!, ...vars, ...geoValues.slice(1)] };
  }
}

/** A file column's label indices from its pool column's values (fileValue for a batch; NULL where the value is −1). */
function fileValues(column: VariableFileColumn, values: ArrayLike<number>, ordinals: ArrayLike<number>, m: number, out: Uint8Array): void {
  const { map, nullFor } = column;
  if (nullFor) for (let i = 0; i < m; i++) out[i] = values[i]! < 0 || nullFor[ordinals[i]!] ? NULL_CODE : map[values[i]!]!;
  else for (let i = 0; i < m; i++) out[i] = values[i]! < 0 ? NULL_CODE : map[values[i]!]!;
}
