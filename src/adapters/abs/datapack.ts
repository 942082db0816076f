import type { InputError } from '../../core/census/inputs.ts';
import type { TableSpec } from '../../core/census/tables.ts';
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
   * Accept columns the spec does not name (they are skipped). Off by default: an unknown header
   * usually means the wrong file or a DataPack release whose layout changed.
   */
  readonly allowUnknownHeaders?: boolean;
}

/**
 * One GCP table from its DataPack part files (e.g. G04A + G04B). Every header of the spec must
 * be present in one of the parts; every value must be a number; every SAL must be a known
 * suburb. A suburb missing from the file gets zeros (the ABS publishes empty SALs as zero rows).
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
    for await (const { row, fields } of readCsvRows(path)) {
      if (!roles) {
        headers = fields.map((h) => h.trim());
        keyAt = headers.indexOf(SAL_KEY);
        if (keyAt < 0) return err({ file, row, column: SAL_KEY, message: `missing key column ${SAL_KEY}` });
        roles = new Int32Array(headers.length).fill(-3);
        for (let i = 0; i < headers.length; i++) {
          const h = headers[i]!;
          if (i === keyAt) continue;
          if (seen.has(h)) return err({ file, row, column: h, message: `header ${h} appears twice in table ${spec.id}` });
          const at = cellAt.get(h);
          if (at !== undefined) roles[i] = at;
          else if (h === spec.totalHeader) roles[i] = -1;
          else if (known.has(h)) roles[i] = -2;
          else if (!options.allowUnknownHeaders)
            return err({ file, row, column: h, message: `unknown header ${h}: not in the table spec for ${spec.id}` });
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
