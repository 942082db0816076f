import type { InputError } from '../../core/census/inputs.ts';
import type { TableSpec } from '../../core/census/tables.ts';
import { GCP_PART_HEADERS } from '../../core/census/gcp/layout.generated.ts';
import { err, ok, type Result } from '../../core/result.ts';
import { readCsvRows } from './csv.ts';
import { SAL_KEY, dataPackFile } from './file-names.ts';
import type { FileIndex } from './file-index.ts';
import { isNonSpatialSal, salKey } from './asgs.ts';

export interface LoadedTable {
  /** SAL code → cells in spec order. */
  readonly cells: Map<string, Float64Array>;
  /** SAL code → the published total (when the table names one). */
  readonly totals: Map<string, number>;
}

export interface TableLoadOptions {
  /**
   * Accept columns the ABS metadata does not list for the part file (they are skipped), and
   * read columns from whichever part holds them. Off by default: an unknown header usually
   * means the wrong file or a DataPack release whose layout changed.
   */
  readonly allowUnknownHeaders?: boolean;
}

/**
 * One GCP table from its DataPack part files (e.g. G04A + G04B). Every header of a part file
 * must be one the ABS metadata lists for that part (src/core/census/gcp/layout.generated.ts);
 * every header of the spec must be present; the columns the spec does not read are skipped
 * without being parsed. Every value read must be a number; every SAL must be a known suburb. A
 * suburb missing from the file gets zeros (the ABS publishes empty SALs as zero rows).
 */
export async function loadDataPackTable(
  files: FileIndex,
  spec: TableSpec,
  suburbs: ReadonlySet<string>,
  options: TableLoadOptions = {},
): Promise<Result<LoadedTable, InputError>> {
  const cellAt = new Map(spec.cells.map((c, i) => [c.header, i]));
  const known = new Set(spec.otherHeaders);
  const seen = new Set<string>();
  const cells = new Map<string, Float64Array>();
  const totals = new Map<string, number>();

  for (const part of spec.files) {
    const file = dataPackFile(part);
    const path = files.get(file);
    if (!path) return err({ file, message: `DataPack file for table ${spec.id} is missing from the input directory` });
    let keyAt = -1;
    /** Per column: cell index (≥ 0), -1 total, -2 read-only, -3 skip. */
    let roles: Int32Array | undefined;
    let headers: string[] = [];
    const layout = new Set(GCP_PART_HEADERS[part] ?? []);
    for await (const { row, fields } of readCsvRows(path)) {
      if (!roles) {
        headers = fields.map((h) => h.trim());
        keyAt = headers.indexOf(SAL_KEY);
        if (keyAt < 0) return err({ file, row, column: SAL_KEY, message: `missing key column ${SAL_KEY}` });
        roles = new Int32Array(headers.length).fill(-3);
        for (let i = 0; i < headers.length; i++) {
          const h = headers[i]!;
          if (i === keyAt) continue;
          if (!layout.has(h) && !options.allowUnknownHeaders) {
            const home = spec.files.find((p) => GCP_PART_HEADERS[p]?.includes(h));
            return err({
              file,
              row,
              column: h,
              message: home
                ? `header ${h} belongs to DataPack part ${home}, not ${part} (ABS 2021 GCP metadata)`
                : `unknown header ${h}: the ABS 2021 GCP metadata lists no such column for ${spec.id}`,
            });
          }
          if (seen.has(h)) return err({ file, row, column: h, message: `header ${h} appears twice in table ${spec.id}` });
          const at = cellAt.get(h);
          if (at !== undefined) roles[i] = at;
          else if (h === spec.totalHeader) roles[i] = -1;
          else if (known.has(h)) roles[i] = -2;
          seen.add(h);
        }
        continue;
      }
      const rawKey = (fields[keyAt] ?? '').trim();
      const sal = salKey(rawKey);
      if (!sal) return err({ file, row, column: SAL_KEY, message: `not a SAL code: "${rawKey}"` });
      if (isNonSpatialSal(sal)) continue;
      if (!suburbs.has(sal)) return err({ file, row, column: SAL_KEY, message: `${sal} is in ${file} but not in the ASGS files` });
      if (fields.length !== headers.length)
        return err({ file, row, message: `row has ${fields.length} fields, the header has ${headers.length}` });
      let out = cells.get(sal);
      if (!out) cells.set(sal, (out = new Float64Array(spec.cells.length)));
      for (let i = 0; i < headers.length; i++) {
        const role = roles[i]!;
        if (role === -3) continue;
        const raw = fields[i]!.trim();
        const value = raw === '' ? Number.NaN : Number(raw);
        if (!Number.isFinite(value)) return err({ file, row, column: headers[i]!, message: `not a number: "${raw}"` });
        if (role >= 0) out[role] = value;
        else if (role === -1) totals.set(sal, value);
      }
    }
    if (!roles) return err({ file, message: 'file is empty' });
  }

  const first = dataPackFile(spec.files[0]!);
  for (const h of [...cellAt.keys(), ...spec.otherHeaders]) {
    if (!seen.has(h)) return err({ file: first, row: 1, column: h, message: `missing column ${h} of table ${spec.id}` });
  }
  for (const sal of suburbs) if (!cells.has(sal)) cells.set(sal, new Float64Array(spec.cells.length));
  return ok({ cells, totals });
}

export interface DataPackPart {
  /** The key column's values (e.g. SAL20001, 2, 20601100101), in file order. */
  readonly keys: readonly string[];
  /** The part's columns, in the metadata's order. */
  readonly headers: readonly string[];
  /** Key → the row's values, in `headers` order. */
  readonly rows: ReadonlyMap<string, Float64Array>;
}

/**
 * One DataPack part file at any geography level (`keyColumn`: SAL_CODE_2021, STE_CODE_2021,
 * SA1_CODE_2021, …), checked against the ABS metadata: the header row must be the key column
 * followed by exactly the part's short headers, in order, and every value a number.
 */
export async function readDataPackPart(path: string, part: string, keyColumn = SAL_KEY): Promise<Result<DataPackPart, InputError>> {
  const file = path.split(/[\\/]/).at(-1)!;
  const expected = GCP_PART_HEADERS[part];
  if (!expected) return err({ file, message: `${part} is not a DataPack part spq knows (src/core/census/gcp/layout.generated.ts)` });
  const keys: string[] = [];
  const rows = new Map<string, Float64Array>();
  let seenHeader = false;
  for await (const { row, fields } of readCsvRows(path)) {
    if (!seenHeader) {
      seenHeader = true;
      if (fields[0]?.trim() !== keyColumn) return err({ file, row, column: keyColumn, message: `missing key column ${keyColumn} (first column)` });
      const got = fields.slice(1).map((f) => f.trim());
      for (let i = 0; i < Math.max(got.length, expected.length); i++) {
        if (got[i] !== expected[i])
          return err({
            file,
            row,
            column: got[i] ?? expected[i]!,
            message: got[i] === undefined ? `missing column ${expected[i]}` : `column ${i + 2} is ${got[i]}; the ABS metadata has ${expected[i] ?? 'no more columns'} there`,
          });
      }
      continue;
    }
    if (fields.length !== expected.length + 1) return err({ file, row, message: `row has ${fields.length} fields, the header has ${expected.length + 1}` });
    const key = fields[0]!.trim();
    const values = new Float64Array(expected.length);
    for (let i = 0; i < expected.length; i++) {
      const raw = fields[i + 1]!.trim();
      const value = raw === '' ? Number.NaN : Number(raw);
      if (!Number.isFinite(value)) return err({ file, row, column: expected[i]!, message: `not a number: "${raw}"` });
      values[i] = value;
    }
    keys.push(key);
    rows.set(key, values);
  }
  if (!seenHeader) return err({ file, message: 'file is empty' });
  return ok({ keys, headers: expected, rows });
}
