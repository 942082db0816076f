import type { InputError } from '../synthesis/census/inputs.ts';
import type { TableSpec } from '../synthesis/census/table-spec.ts';
import { GCP_PART_HEADERS } from '../synthesis/census/gcp/layout.generated.ts';
import { err, ok, type Result } from '../core/result.ts';
import { NOT_PUBLISHED } from '../synthesis/census/published.ts';
import { readCsvRows } from './csv.ts';
import { SAL_KEY, dataPackFile } from './file-names.ts';
import type { FoundPart } from './file-index.ts';

/** How the ABS writes a cell it does not publish (structurally impossible cells such as partners aged 0–14). */
export const NOT_PUBLISHED_MARK = '..';

export interface PartReadOptions {
  /**
   * The key column: `SAL_CODE_2021` (default) for the SAL DataPack, `STE_CODE_2021`,
   * `SA1_CODE_2021`, `LGA_CODE_2021`, … for the other geography levels.
   */
  readonly keyColumn?: string;
  /**
   * The columns to return, in this order (default: every column the ABS metadata lists for the
   * part, in file order). The file's other columns are checked by name but never parsed.
   */
  readonly headers?: readonly string[];
  /**
   * A requested column the file does not have is left out of `headers` in the result instead of
   * being an error (the caller decides; loadDataPackTable's lenient mode reads a table's columns
   * from whichever part holds them).
   */
  readonly optionalHeaders?: boolean;
  /** Accept (and skip) headers the ABS metadata does not list for the part. Off by default. */
  readonly allowUnknownHeaders?: boolean;
  /**
   * The row's key from the key column's text: the key, `null` to skip the row, or an error
   * message (reported at the row and the key column). Default: the trimmed text.
   */
  readonly key?: (raw: string) => string | null | { readonly error: string };
}

export interface DataPackPart {
  /** The file's name (errors name it). */
  readonly file: string;
  /** The file's header row after the key column, exactly as written. */
  readonly columns: readonly string[];
  /** The columns read, in the order of `rows`' values. */
  readonly headers: readonly string[];
  /** The rows' keys (e.g. SAL20001, 2, 20601100101), in file order, skipped rows left out. */
  readonly keys: readonly string[];
  /** Key → the row's values, in `headers` order. */
  readonly rows: ReadonlyMap<string, Float64Array>;
}

/** The part file (and table) the ABS metadata puts a header in, preferring `part`'s own table. */
function homeOf(header: string, part: string): string | undefined {
  const parts = Object.keys(GCP_PART_HEADERS);
  const table = part.slice(0, 3);
  return (
    parts.find((p) => p.startsWith(table) && GCP_PART_HEADERS[p]!.includes(header)) ??
    parts.find((p) => GCP_PART_HEADERS[p]!.includes(header))
  );
}

/**
 * One DataPack part file (e.g. `2021Census_G17C_AUST_SAL.csv` is part G17C) at any geography
 * level, checked against the ABS metadata (src/synthesis/census/gcp/layout.generated.ts):
 *
 * - the header row must hold the key column, and no header the metadata does not list for the
 *   part (unless `allowUnknownHeaders`; a header of another part is named as such), none twice;
 * - every requested column must be there (unless `optionalHeaders`);
 * - every value of a requested column must be a number (empty cells included) or `..`, the
 *   ABS's mark for a cell it does not publish, read as NOT_PUBLISHED (NaN); the other columns are
 *   split off the line but never parsed;
 * - every row has as many fields as the header, and no key appears twice.
 *
 * The first problem is an InputError naming file, row (1 = the header row) and column.
 */
export async function readDataPackPart(path: string, part: string, options: PartReadOptions = {}): Promise<Result<DataPackPart, InputError>> {
  const file = path.split(/[\\/]/).at(-1)!;
  const keyColumn = options.keyColumn ?? SAL_KEY;
  const layout = GCP_PART_HEADERS[part];
  if (!layout) return err({ file, message: `${part} is not a DataPack part spq knows (src/synthesis/census/gcp/layout.generated.ts)` });
  const listed = new Set(layout);
  const requested = options.headers ?? layout;
  const toKey = options.key ?? ((raw: string) => raw);

  let header: PartHeader | undefined;
  const keys: string[] = [];
  const rows = new Map<string, Float64Array>();

  for await (const { row, fields } of readCsvRows(path)) {
    if (!header) {
      const read = readPartHeader(fields, { file, row, part, keyColumn, listed, requested, options });
      if (!read.ok) return read;
      header = read.value;
      continue;
    }
    const { columns, keyAt } = header;
    const raw = (fields[keyAt] ?? '').trim();
    const key = toKey(raw);
    if (key === null) continue;
    if (typeof key !== 'string') return err({ file, row, column: keyColumn, message: key.error });
    if (fields.length !== columns.length + 1)
      return err({ file, row, message: `row has ${fields.length} fields, the header has ${columns.length + 1}` });
    if (rows.has(key)) return err({ file, row, column: keyColumn, message: `${key} appears twice in ${file}` });
    const values = readValues(fields, header, file, row);
    if (!values.ok) return values;
    keys.push(key);
    rows.set(key, values.value);
  }
  if (!header) return err({ file, message: 'file is empty' });
  return ok({ file, columns: header.columns, headers: header.headers, keys, rows });
}

/** A part file's header row, read. */
interface PartHeader {
  /** The file's columns but the key, in file order. */
  readonly columns: string[];
  /** The columns read, in the order requested. */
  readonly headers: string[];
  readonly keyAt: number;
  /** Per file column: its index in `headers`, or -1 (not read). */
  readonly slot: Int32Array;
}

/** The header row checked: the key column there, every header one the metadata lists for the part (once), every requested one present. */
function readPartHeader(
  fields: readonly string[],
  at: { file: string; row: number; part: string; keyColumn: string; listed: ReadonlySet<string>; requested: readonly string[]; options: PartReadOptions },
): Result<PartHeader, InputError> {
  const { file, row, part, keyColumn, listed, requested, options } = at;
  const names = fields.map((f) => f.trim());
  const keyAt = names.indexOf(keyColumn);
  if (keyAt < 0) return err({ file, row, column: keyColumn, message: `missing key column ${keyColumn}` });
  const columns = names.filter((_, i) => i !== keyAt);
  const indexOf = new Map<string, number>();
  for (let i = 0; i < names.length; i++) {
    if (i === keyAt) continue;
    const h = names[i]!;
    if (!listed.has(h) && !options.allowUnknownHeaders) {
      const home = homeOf(h, part);
      return err({
        file,
        row,
        column: h,
        message: home
          ? `header ${h} belongs to DataPack part ${home}, not ${part} (ABS 2021 GCP metadata)`
          : `unknown header ${h}: the ABS 2021 GCP metadata lists no such column for ${part}`,
      });
    }
    if (indexOf.has(h)) return err({ file, row, column: h, message: `header ${h} appears twice` });
    indexOf.set(h, i);
  }
  const headers: string[] = [];
  const slot = new Int32Array(names.length).fill(-1);
  for (const h of requested) {
    const i = indexOf.get(h);
    if (i === undefined) {
      if (options.optionalHeaders) continue;
      return err({
        file,
        row,
        column: h,
        message: listed.has(h) ? `missing column ${h} (the ABS metadata lists it for ${part})` : `missing column ${h}`,
      });
    }
    if (slot[i]! >= 0) continue; // asked for twice: read once
    slot[i] = headers.length;
    headers.push(h);
  }
  return ok({ columns, headers, keyAt, slot });
}

/** A data row's requested values: numbers (empty cells NaN), `..` as NOT_PUBLISHED; anything else an error at its column. */
function readValues(fields: readonly string[], header: PartHeader, file: string, row: number): Result<Float64Array, InputError> {
  const { headers, slot } = header;
  const values = new Float64Array(headers.length);
  for (let i = 0; i < fields.length; i++) {
    const j = slot[i]!;
    if (j < 0) continue;
    const text = fields[i]!.trim();
    if (text === NOT_PUBLISHED_MARK) {
      values[j] = NOT_PUBLISHED;
      continue;
    }
    const value = text === '' ? Number.NaN : Number(text);
    if (!Number.isFinite(value)) return err({ file, row, column: headers[j]!, message: `not a number: "${text}"` });
    values[j] = value;
  }
  return ok(values);
}

export interface LoadedTable {
  /** Area code → cells in spec order (NOT_PUBLISHED where the ABS wrote `..`). */
  readonly cells: Map<string, Float64Array>;
  /** Area code → the published total (when the table names one). */
  readonly totals: Map<string, number>;
  /**
   * Area code → the table's published totals and subtotals (spec.otherHeaders order, NaN where
   * not published): the margins that stay reliable where perturbation empties a small area's cells.
   */
  readonly aggregates: Map<string, Float64Array>;
}

export interface TableLoadOptions {
  /**
   * Accept columns the ABS metadata does not list for the part file (they are skipped), and
   * read columns from whichever part holds them. Off by default: an unknown header usually
   * means the wrong file or a DataPack release whose layout changed.
   */
  readonly allowUnknownHeaders?: boolean;
}

/** Where a level's tables come from: its part files, key column and areas. */
export interface TableSource {
  /** The level as its file names write it ("SAL", "POA", "LGA"): errors name its files. */
  readonly level: string;
  /** Part → its files: one Australia-wide file, or one per state (their rows are put together). */
  readonly parts: ReadonlyMap<string, readonly FoundPart[]>;
  readonly keyColumn: string;
  /** The row's area code from the key column's text: the code, null to skip the row, or an error message. */
  readonly key: (raw: string, file: string) => string | null | { readonly error: string };
  /** The areas of the build: each gets a row (zeros when a file leaves it out). */
  readonly areas: ReadonlySet<string>;
  /** Where the areas come from, for the error on a row of another area ("the ASGS files"). */
  readonly areasFrom: string;
}

/**
 * One GCP table from its DataPack part files at one level (e.g. G04A + G04B), each read with
 * readDataPackPart: every header of a part file must be one the ABS metadata lists for that
 * part; every header of the spec must be present (in the part the metadata puts it in); the
 * columns the spec does not read are skipped without being parsed. Every value read must be a
 * number or `..`; every row's key must be a known area (rows `key` returns null for are
 * skipped). An area missing from the files gets zeros (the ABS publishes empty areas as zero
 * rows). Every missing part file and every file's first problem are reported together.
 */
export async function loadDataPackTable(source: TableSource, spec: TableSpec, options: TableLoadOptions = {}): Promise<Result<LoadedTable, InputError[]>> {
  const lenient = options.allowUnknownHeaders ?? false;
  const cellAt = new Map(spec.cells.map((c, i) => [c.header, i]));
  const aggregateAt = new Map(spec.otherHeaders.map((h, i) => [h, i]));
  const wanted = [...new Set([...cellAt.keys(), ...spec.otherHeaders, ...(spec.totalHeader ? [spec.totalHeader] : [])])];
  const wantedSet = new Set(wanted);
  /** Header → the part file it was read from. */
  const readFrom = new Map<string, string>();
  const cells = new Map<string, Float64Array>();
  const totals = new Map<string, number>();
  const aggregates = new Map<string, Float64Array>();
  const problems: InputError[] = [];

  for (const part of spec.files) {
    const files = source.parts.get(part) ?? [];
    if (files.length === 0) {
      problems.push({ file: dataPackFile(part, source.level), message: `DataPack file for table ${spec.id} is missing from the input directory` });
      continue;
    }
    const listed = new Set(GCP_PART_HEADERS[part] ?? []);
    const headersOfPart = new Set<string>();
    /** Area → the file whose row it came from (state packs must not repeat an area). */
    const rowFrom = new Map<string, string>();
    for (const found of files) {
      const file = found.path.split(/[\\/]/).at(-1)!;
      const read = await readDataPackPart(found.path, part, {
        keyColumn: source.keyColumn,
        headers: lenient ? wanted.filter((h) => !readFrom.has(h) || headersOfPart.has(h)) : wanted.filter((h) => listed.has(h)),
        optionalHeaders: lenient,
        allowUnknownHeaders: lenient,
        key: (raw) => {
          const key = source.key(raw, file);
          if (key === null || typeof key !== 'string') return key;
          if (!source.areas.has(key)) return { error: `${key} is in ${file} but not in ${source.areasFrom}` };
          const earlier = rowFrom.get(key);
          // Twice in the same file is readDataPackPart's own error ("appears twice").
          if (earlier !== undefined && earlier !== file) return { error: `${key} is in ${file} and in ${earlier}` };
          rowFrom.set(key, file);
          return key;
        },
      });
      if (!read.ok) {
        problems.push(read.error);
        continue;
      }
      // The first file of a part names its headers (a state's file has the same ones).
      if (headersOfPart.size === 0) problems.push(...noteHeaders(read.value, file, spec, wantedSet, readFrom, headersOfPart));
      scatterRows(read.value, spec, cellAt, aggregateAt, { cells, totals, aggregates });
    }
  }
  if (problems.length > 0) return err(problems);

  const first = dataPackFile(spec.files[0]!, source.level);
  for (const h of wanted) {
    if (!readFrom.has(h)) problems.push({ file: first, row: 1, column: h, message: `missing column ${h} of table ${spec.id}` });
  }
  if (problems.length > 0) return err(problems);
  for (const area of source.areas) {
    if (!cells.has(area)) cells.set(area, new Float64Array(spec.cells.length));
    if (!aggregates.has(area)) aggregates.set(area, new Float64Array(spec.otherHeaders.length));
  }
  return ok({ cells, totals, aggregates });
}

/** Records which file each header of a part was read from; a wanted header already read from another part is a problem. */
function noteHeaders(
  part: DataPackPart,
  file: string,
  spec: TableSpec,
  wanted: ReadonlySet<string>,
  readFrom: Map<string, string>,
  headersOfPart: Set<string>,
): InputError[] {
  const problems: InputError[] = [];
  for (const h of part.columns) {
    const earlier = readFrom.get(h);
    if (earlier !== undefined && wanted.has(h)) problems.push({ file, row: 1, column: h, message: `header ${h} appears twice in table ${spec.id} (also in ${earlier})` });
  }
  for (const h of part.headers) {
    readFrom.set(h, file);
    headersOfPart.add(h);
  }
  return problems;
}

/** A part file's rows into the table: each value to its cell, aggregate or total by header. */
function scatterRows(
  { headers, rows }: DataPackPart,
  spec: TableSpec,
  cellAt: ReadonlyMap<string, number>,
  aggregateAt: ReadonlyMap<string, number>,
  table: { cells: Map<string, Float64Array>; totals: Map<string, number>; aggregates: Map<string, Float64Array> },
): void {
  const { cells, totals, aggregates } = table;
  const into = headers.map((h) => cellAt.get(h) ?? -1);
  const intoAggregates = headers.map((h) => aggregateAt.get(h) ?? -1);
  const totalAt = spec.totalHeader === undefined ? -1 : headers.indexOf(spec.totalHeader);
  for (const [area, values] of rows) {
    let out = cells.get(area);
    if (!out) cells.set(area, (out = new Float64Array(spec.cells.length)));
    for (let j = 0; j < into.length; j++) if (into[j]! >= 0) out[into[j]!] = values[j]!;
    let sums = aggregates.get(area);
    if (!sums) aggregates.set(area, (sums = new Float64Array(spec.otherHeaders.length)));
    for (let j = 0; j < intoAggregates.length; j++) if (intoAggregates[j]! >= 0) sums[intoAggregates[j]!] = values[j]!;
    if (totalAt >= 0) totals.set(area, values[totalAt]!);
  }
}

/** Several tables of one level: each table's cells, totals and subtotals by area, and every problem of every table. */
export interface LoadedTables {
  readonly tables: Map<string, ReadonlyMap<string, Float64Array>>;
  readonly totals: Map<string, ReadonlyMap<string, number>>;
  readonly aggregates: Map<string, ReadonlyMap<string, Float64Array>>;
  readonly problems: InputError[];
}

/** loadDataPackTable for each spec in turn (`onTable` before each, for progress), the problems of all gathered. */
export async function loadDataPackTables(source: TableSource, specs: readonly TableSpec[], options: TableLoadOptions = {}, onTable?: (spec: TableSpec) => void): Promise<LoadedTables> {
  const out: LoadedTables = { tables: new Map(), totals: new Map(), aggregates: new Map(), problems: [] };
  for (const spec of specs) {
    onTable?.(spec);
    const loaded = await loadDataPackTable(source, spec, options);
    if (!loaded.ok) {
      out.problems.push(...loaded.error);
      continue;
    }
    out.tables.set(spec.id, loaded.value.cells);
    out.aggregates.set(spec.id, loaded.value.aggregates);
    if (spec.totalHeader) out.totals.set(spec.id, loaded.value.totals);
  }
  return out;
}
