import { join } from 'node:path';
import type { CensusInputs, InputError } from '../../core/census/inputs.ts';
import { INPUT_TABLES, VALIDATION_TABLES } from '../../core/census/tables.ts';
import { err, ok, type Result } from '../../core/result.ts';
import { loadGeography, isNonSpatialSal, salKey } from './asgs.ts';
import { readCsvRows } from './csv.ts';
import { loadDataPackTable, type TableLoadOptions } from './datapack.ts';
import { REALISM_REFERENCE_FILE, SAL_KEY, TRUTH_DIR, truthFile } from './file-names.ts';
import { indexFiles } from './file-index.ts';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { RealismSummary } from '../../core/quality/realism.ts';

/**
 * Everything the synthesizer needs from an input directory: the ASGS files (anywhere under
 * `dir`) and one GCP DataPack CSV per table part. The first malformed thing stops the load
 * with an InputError naming file, row and column.
 */
export async function loadCensusInputs(
  dir: string,
  onProgress?: (done: number, total: number, what: string) => void,
  options: TableLoadOptions = {},
): Promise<Result<CensusInputs, InputError>> {
  if (!existsSync(dir)) return err({ file: dir, message: 'input directory does not exist' });
  const files = await indexFiles(dir);
  const total = INPUT_TABLES.length + 1;
  onProgress?.(0, total, 'ASGS geography');
  const geography = await loadGeography(files);
  if (!geography.ok) return geography;
  const salCodes = new Set(geography.value.map((s) => s.salCode));
  const tables = new Map<string, ReadonlyMap<string, Float64Array>>();
  const totals = new Map<string, ReadonlyMap<string, number>>();
  let done = 1;
  for (const spec of INPUT_TABLES) {
    onProgress?.(done, total, spec.id);
    const loaded = await loadDataPackTable(files, spec, salCodes, options);
    if (!loaded.ok) return loaded;
    tables.set(spec.id, loaded.value.cells);
    if (spec.totalHeader) totals.set(spec.id, loaded.value.totals);
    done++;
  }
  onProgress?.(done, total, 'done');
  return ok({ suburbs: geography.value, tables, totals });
}

/**
 * The demo's hidden truth: VALIDATION_TABLES tabulations under <dir>/truth/, with our own
 * header names. Real ABS inputs have no truth/ directory: the result is then empty. A truth/
 * directory missing one of its files is an error naming the file.
 */
export async function loadTruth(dir: string): Promise<Result<ReadonlyMap<string, ReadonlyMap<string, Float64Array>>, InputError>> {
  const out = new Map<string, Map<string, Float64Array>>();
  if (!existsSync(join(dir, TRUTH_DIR))) return ok(out);
  for (const spec of VALIDATION_TABLES) {
    const name = truthFile(spec.id);
    const path = join(dir, TRUTH_DIR, name);
    if (!existsSync(path)) return err({ file: name, message: 'truth file is missing (truth exists for demo inputs only)' });
    const bySal = new Map<string, Float64Array>();
    let columns: Int32Array | undefined;
    let keyAt = -1;
    for await (const { row, fields } of readCsvRows(path)) {
      if (!columns) {
        keyAt = fields.indexOf(SAL_KEY);
        if (keyAt < 0) return err({ file: name, row, column: SAL_KEY, message: `missing key column ${SAL_KEY}` });
        const at = new Map(spec.cells.map((c, i) => [c.header, i]));
        columns = new Int32Array(fields.length).fill(-1);
        for (let i = 0; i < fields.length; i++) {
          if (i === keyAt) continue;
          const j = at.get(fields[i]!);
          if (j === undefined) return err({ file: name, row, column: fields[i]!, message: `unknown header ${fields[i]}` });
          columns[i] = j;
          at.delete(fields[i]!);
        }
        const missing = [...at.keys()][0];
        if (missing !== undefined) return err({ file: name, row, column: missing, message: `missing column ${missing}` });
        continue;
      }
      const sal = salKey(fields[keyAt] ?? '');
      if (!sal || isNonSpatialSal(sal)) return err({ file: name, row, column: SAL_KEY, message: `not a SAL code: "${fields[keyAt]}"` });
      const cells = new Float64Array(spec.cells.length);
      for (let i = 0; i < fields.length; i++) {
        if (columns[i]! < 0) continue;
        const v = Number(fields[i]);
        if (fields[i] === '' || !Number.isFinite(v)) return err({ file: name, row, column: spec.cells[columns[i]!]!.header, message: `not a number: "${fields[i]}"` });
        cells[columns[i]!] = v;
      }
      bySal.set(sal, cells);
    }
    out.set(spec.id, bySal);
  }
  return ok(out);
}

/**
 * The hidden truth's own realism figures and an oracle's (a second draw of the truth model),
 * written by the demo generator (<dir>/truth/realism.json): the build report's reference
 * columns. Undefined for real inputs.
 */
export async function loadRealismReference(dir: string): Promise<Result<RealismSummary | undefined, InputError>> {
  const path = join(dir, TRUTH_DIR, REALISM_REFERENCE_FILE);
  if (!existsSync(path)) return ok(undefined);
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as RealismSummary;
    if (!parsed?.all?.synthetic || !parsed.byBand) return err({ file: REALISM_REFERENCE_FILE, message: 'not a realism summary (no "all" or "byBand")' });
    return ok(parsed);
  } catch (error) {
    return err({ file: REALISM_REFERENCE_FILE, message: `unreadable: ${(error as Error).message}` });
  }
}
