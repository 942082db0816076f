/**
 * The demo's hidden truth on disk, under <inputs>/truth/: the generator writes it beside the
 * DataPack it publishes (generate.ts), and the release builder reads it back to score a demo
 * build against what the tables were drawn from. Real ABS inputs have no truth/ directory; every
 * reader then answers "none", which is no error.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InputError } from '../synthesis/census/inputs.ts';
import { VALIDATION_TABLES } from '../synthesis/census/tables.ts';
import type { RealismSummary } from '../synthesis/quality/realism.ts';
import { err, ok, type Result } from '../core/result.ts';
import { isNonSpatialSal, salKey } from '../census-input/asgs.ts';
import { readCsvRows } from '../census-input/csv.ts';
import { SAL_KEY } from '../census-input/file-names.ts';

/** Where the demo generator puts the hidden truth's validation tabulations. */
export const TRUTH_DIR = 'truth';
export const truthFile = (tableId: string): string => `${tableId}_SAL.csv`;
/** The truth's and an oracle's realism figures (demo inputs only), beside the truth tables. */
export const REALISM_REFERENCE_FILE = 'realism.json';
/** The hidden truth scored against the tables it was published as (demo inputs only). */
export const FLOOR_FILE = 'floor.json';

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

/** The perturbation floor the demo generator measured (<dir>/truth/floor.json); undefined for real inputs. */
export async function loadPerturbationFloor(dir: string): Promise<Result<{ readonly median: number | null; readonly p95: number | null } | undefined, InputError>> {
  const path = join(dir, TRUTH_DIR, FLOOR_FILE);
  if (!existsSync(path)) return ok(undefined);
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as { median?: unknown; p95?: unknown };
    const figure = (v: unknown) => (typeof v === 'number' || v === null ? v : undefined);
    const median = figure(parsed.median);
    const p95 = figure(parsed.p95);
    if (median === undefined || p95 === undefined) return err({ file: FLOOR_FILE, message: 'not a floor summary (no "median" or "p95")' });
    return ok({ median, p95 });
  } catch (error) {
    return err({ file: FLOOR_FILE, message: `unreadable: ${(error as Error).message}` });
  }
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
