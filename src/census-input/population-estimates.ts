import ExcelJS from 'exceljs';
import { existsSync } from 'node:fs';
import type { InputError } from '../synthesis/census/inputs.ts';
import { ERP_AGE_GROUPS, type AgeSexEstimate, type PopulationEstimate } from '../synthesis/census/population-estimate.ts';
import { err, ok, type Result } from '../core/result.ts';
import { readCsvRows } from './csv.ts';
import { realSa2s } from './asgs-reference.ts';

/**
 * The ABS estimated resident population (ERP) files an operator downloads, read into one year's
 * estimate by SA2 (src/synthesis/census/population-estimate.ts). Layouts read, found by their
 * header row (docs/inputs.md, "Sizing a release to the estimated resident population"):
 *
 * - by SA1 or SA2, one column per year (`SA1` or `SA2_CODE_2021`, then `2011` … `2022r`, `2023p`):
 *   SA1s are summed into their SA2 (the first nine digits of the SA1 code);
 * - by SA2, one value column (`sa2_code_2021`, `erp`): the year is --population-year's;
 * - the ABS data cube (xlsx, "Regional population", 32180DS0001): the sheets whose header row names
 *   "SA2 code" (under the ABS title rows), year columns ("2022", "2023", "2023p" …) in that row or
 *   the row above it;
 * - by age and sex ("Regional population by age and sex", SA2 × five-year age × sex), long: an SA2
 *   column, `sex` (Males/Females, M/F or 1/2), `age` (0–4 … 80–84, "85 and over" or "85+") and
 *   year or value columns, csv or xlsx.
 *
 * Every problem is an InputError naming file, row and column: an SA2 the ASGS 2021 does not
 * have, a negative, missing or non-numeric estimate, an SA2 twice, several years and no year
 * chosen, the year chosen not in the file.
 */
export async function readPopulationEstimates(path: string, year?: number): Promise<Result<PopulationEstimate, InputError[]>> {
  const file = path.split(/[\\/]/).at(-1)!;
  if (!existsSync(path)) return err([{ file: path, message: 'population estimate file does not exist' }]);
  const grid = /\.xlsx$/i.test(file) ? await xlsxGrid(path, file) : ok(await csvGrid(path));
  if (!grid.ok) return err([grid.error]);
  const table = findHeader(grid.value, file);
  if (!table.ok) return err([table.error]);
  return readTable(table.value, file, year);
}

/** A row of cells as text, with the row number (and sheet) it had in the file. */
interface GridRow {
  readonly row: number;
  readonly sheet?: string;
  readonly cells: readonly string[];
}

async function csvGrid(path: string): Promise<GridRow[]> {
  const rows: GridRow[] = [];
  for await (const { row, fields } of readCsvRows(path)) rows.push({ row, cells: fields.map((f) => f.trim()) });
  return rows;
}

const cellText = (value: ExcelJS.CellValue): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && 'result' in value) return cellText(value.result as ExcelJS.CellValue);
  if (typeof value === 'object' && 'richText' in value) return value.richText.map((r) => r.text).join('');
  return String(value).trim();
};

/** Every sheet's rows (a data cube holds one table per state, or one per sheet). */
async function xlsxGrid(path: string, file: string): Promise<Result<GridRow[], InputError>> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.readFile(path);
  } catch (error) {
    return err({ file, message: `not a readable xlsx workbook: ${(error as Error).message}` });
  }
  const rows: GridRow[] = [];
  for (const sheet of workbook.worksheets)
    sheet.eachRow((row, number) => {
      rows.push({ row: number, sheet: sheet.name, cells: (row.values as ExcelJS.CellValue[]).slice(1).map(cellText) });
    });
  return ok(rows);
}

const SA2_KEYS = /^(sa2[ _]?code([ _]2021)?|sa2_main(16|_2021)?|sa2_code_2021|sa2)$/i;
const SA1_KEYS = /^(sa1|sa1[ _]code([ _]2021)?|sa1_code_2021|sa1_7dig(it)?_code_2021)$/i;
const YEAR = /^(\d{4})\s*([rp])?(?:\s*no\.?)?$/i;
const VALUE = /^(erp|value|obs_value|estimated resident population|persons|no\.?)$/i;

interface Table {
  readonly rows: readonly GridRow[];
  readonly key: { readonly at: number; readonly kind: 'sa1' | 'sa2'; readonly name: string };
  readonly years: readonly { readonly at: number; readonly year: number; readonly status?: 'preliminary' | 'revised'; readonly name: string }[];
  readonly value?: { readonly at: number; readonly name: string };
  readonly sex?: number;
  readonly age?: number;
}

/** The header row: the first naming an SA1 or SA2 column; its data rows follow (in every sheet with such a header). */
function findHeader(grid: readonly GridRow[], file: string): Result<Table, InputError> {
  let table: { -readonly [K in keyof Table]: Table[K] } | undefined;
  const data: GridRow[] = [];
  let sheet: string | undefined;
  let header: GridRow | undefined;
  for (const [i, row] of grid.entries()) {
    const keyAt = row.cells.findIndex((c) => SA2_KEYS.test(c) || SA1_KEYS.test(c));
    if (keyAt >= 0 && (header === undefined || row.sheet !== sheet)) {
      header = row;
      sheet = row.sheet;
      const above = i > 0 && grid[i - 1]!.sheet === row.sheet ? grid[i - 1]!.cells : [];
      table ??= headerOf(row.cells, above, keyAt);
      continue;
    }
    if (header && row.sheet === sheet && row.cells.some((c) => c !== '') && !row.cells.some((c) => c.startsWith('©'))) data.push(row);
  }
  if (!table) return err({ file, message: 'no header row naming an SA1 or SA2 code column (SA1, SA2_CODE_2021, "SA2 code"): not an estimated resident population layout spq reads (docs/inputs.md)' });
  if (table.years.length === 0 && !table.value) return err({ file, row: header!.row, message: 'the header names no year column ("2023", "2023p") and no value column ("erp")' });
  return ok({ ...table, rows: data });
}

function headerOf(cells: readonly string[], above: readonly string[], keyAt: number): { -readonly [K in keyof Table]: Table[K] } {
  const years: Table['years'][number][] = [];
  for (const [at, cell] of cells.entries()) {
    const m = YEAR.exec(cell) ?? (cell === '' || /^no\.?$/i.test(cell) ? YEAR.exec(above[at] ?? '') : null);
    if (m && at !== keyAt) years.push({ at, year: Number(m[1]), name: cell || above[at]!, ...(m[2] ? { status: m[2].toLowerCase() === 'p' ? 'preliminary' : 'revised' } : {}) });
  }
  const valueAt = cells.findIndex((c, at) => at !== keyAt && VALUE.test(c));
  const sex = cells.findIndex((c) => /^sex$/i.test(c));
  const age = cells.findIndex((c) => /^age( group)?$/i.test(c));
  return {
    rows: [],
    key: { at: keyAt, kind: SA1_KEYS.test(cells[keyAt]!) ? 'sa1' : 'sa2', name: cells[keyAt]! },
    years: years.length > 0 ? years : [],
    ...(years.length === 0 && valueAt >= 0 ? { value: { at: valueAt, name: cells[valueAt]! } } : {}),
    ...(sex >= 0 ? { sex } : {}),
    ...(age >= 0 ? { age } : {}),
  };
}

/** The one year the release is sized to: --population-year's, or the file's only one. */
function chooseYear(table: Table, file: string, year: number | undefined): Result<{ at: number; name: string; year: number; status?: 'preliminary' | 'revised' }, InputError> {
  if (table.value) {
    if (year === undefined) return err({ file, column: table.value.name, message: `the file's one estimate column "${table.value.name}" does not say its year: give --population-year` });
    return ok({ ...table.value, year });
  }
  if (year === undefined) {
    if (table.years.length > 1) return err({ file, message: `the file holds ${table.years.length} years (${table.years.map((y) => y.name).join(', ')}): give --population-year` });
    return ok(table.years[0]!);
  }
  const found = table.years.find((y) => y.year === year);
  if (!found) return err({ file, message: `no ${year} column in the file (it holds ${table.years.map((y) => y.name).join(', ')})` });
  return ok(found);
}

const NON_SPATIAL_SA2 = /(?:9499|9799)$/;
let knownSa2s: ReadonlySet<string> | undefined;

type Cell = Result<number, InputError>;

function readEstimate(raw: string, file: string, row: GridRow, column: string, what: string): Cell {
  const text = raw.replace(/,/g, '');
  if (text === '' || text === '..' || text === '-' || text === 'np') return err({ file, row: row.row, column, message: `${what}: no estimate` });
  const value = Number(text);
  if (!Number.isFinite(value)) return err({ file, row: row.row, column, message: `${what}: "${raw}" is not a number` });
  if (value < 0) return err({ file, row: row.row, column, message: `${what}: negative estimate ${value}` });
  return ok(value);
}

function readTable(table: Table, file: string, year: number | undefined): Result<PopulationEstimate, InputError[]> {
  const chosen = chooseYear(table, file, year);
  if (!chosen.ok) return err([chosen.error]);
  const base = table.value || chosen.value.year === 2021 ? undefined : table.years.find((y) => y.year === 2021);
  knownSa2s ??= new Set(realSa2s().map((a) => a.code));
  const sa2 = new Map<string, number>();
  const base2021 = new Map<string, number>();
  const ageSex = new Map<string, AgeSexEstimate>();
  const seen = new Set<string>();
  const problems: InputError[] = [];
  const byAgeSex = table.sex !== undefined && table.age !== undefined;
  for (const row of table.rows) {
    if (problems.length >= 20) break;
    const rawKey = (row.cells[table.key.at] ?? '').trim();
    if (rawKey === '' || /^(total|australia)/i.test(rawKey)) continue;
    const code = keyOf(rawKey, table.key.kind);
    if (!code) {
      problems.push({ file, row: row.row, column: table.key.name, message: `"${rawKey}" is not ${table.key.kind === 'sa1' ? 'an SA1 code (11 digits)' : 'an SA2 code (9 digits)'}` });
      continue;
    }
    if (NON_SPATIAL_SA2.test(code)) continue;
    if (!knownSa2s.has(code)) {
      problems.push({ file, row: row.row, column: table.key.name, message: `${rawKey}: no SA2 ${code} in the ASGS 2021 (an area the release cannot have)` });
      continue;
    }
    const once = table.key.kind === 'sa1' || byAgeSex ? `${rawKey}|${row.cells[table.sex ?? -1] ?? ''}|${row.cells[table.age ?? -1] ?? ''}` : code;
    if (seen.has(once)) {
      problems.push({ file, row: row.row, column: table.key.name, message: `${rawKey} appears twice` });
      continue;
    }
    seen.add(once);
    const value = readEstimate(row.cells[chosen.value.at] ?? '', file, row, chosen.value.name, rawKey);
    if (!value.ok) {
      problems.push(value.error);
      continue;
    }
    if (byAgeSex) {
      const placed = placeAgeSex(ageSex, code, row, table, file, value.value);
      if (!placed.ok) {
        problems.push(placed.error);
        continue;
      }
    }
    sa2.set(code, (sa2.get(code) ?? 0) + value.value);
    if (base) {
      const b = readEstimate(row.cells[base.at] ?? '', file, row, base.name, rawKey);
      if (b.ok) base2021.set(code, (base2021.get(code) ?? 0) + b.value);
    }
  }
  if (byAgeSex) problems.push(...incompleteAgeSex(seen, file));
  if (problems.length > 0) return err(problems);
  if (sa2.size === 0) return err([{ file, message: 'no SA1 or SA2 rows under the header' }]);
  const layout = byAgeSex ? 'SA2 × five-year age × sex' : table.key.kind === 'sa1' ? 'by SA1, summed into SA2s' : 'by SA2';
  return ok({
    year: chosen.value.year,
    source: `${file} (${layout}, column "${chosen.value.name}")`,
    breakdown: byAgeSex ? 'age_sex' : 'totals',
    ...(chosen.value.status ? { status: chosen.value.status } : {}),
    sa2,
    ...(byAgeSex ? { ageSex } : {}),
    ...(base2021.size > 0 ? { base2021 } : {}),
  });
}

function keyOf(raw: string, kind: 'sa1' | 'sa2'): string | undefined {
  const digits = raw.replace(/\.0+$/, '');
  if (kind === 'sa1') return /^\d{11}$/.test(digits) ? digits.slice(0, 9) : undefined;
  return /^\d{9}$/.test(digits) ? digits : undefined;
}

/** An SA2 of an age × sex file without every age group of both sexes (36 rows) is a problem naming it. */
function incompleteAgeSex(seen: ReadonlySet<string>, file: string): InputError[] {
  const rows = new Map<string, number>();
  for (const key of seen) {
    const code = key.slice(0, key.indexOf('|'));
    rows.set(code, (rows.get(code) ?? 0) + 1);
  }
  const want = 2 * ERP_AGE_GROUPS.length;
  return [...rows].filter(([, n]) => n !== want).slice(0, 20).map(([code, n]) => ({ file, message: `${code} has ${n} of the ${want} rows by age group and sex` }));
}

/** Age group of the ABS's labels: "0–4", "0-4", "5 to 9", "85 and over", "85+". */
export function ageGroupOf(label: string): number | undefined {
  const t = label.trim().toLowerCase().replace(/\s*years?$/, '');
  const over = /^(\d+)\s*(\+|and over|and older|or over)$/.exec(t);
  if (over) return Number(over[1]) === 85 ? ERP_AGE_GROUPS.length - 1 : undefined;
  const range = /^(\d+)\s*(?:-|–|—|to)\s*(\d+)$/.exec(t);
  if (!range) return undefined;
  const g = ERP_AGE_GROUPS.findIndex(([a, b]) => a === Number(range[1]) && b === Number(range[2]));
  return g >= 0 && g < ERP_AGE_GROUPS.length - 1 ? g : undefined;
}

function sexOf(label: string): 'male' | 'female' | 'persons' | undefined {
  const t = label.trim().toLowerCase();
  if (/^(m|males?|1)$/.test(t)) return 'male';
  if (/^(f|females?|2)$/.test(t)) return 'female';
  if (/^(p|persons|3|total)$/.test(t)) return 'persons';
  return undefined;
}

function placeAgeSex(into: Map<string, AgeSexEstimate>, code: string, row: GridRow, table: Table, file: string, value: number): Result<void, InputError> {
  const sexLabel = row.cells[table.sex!] ?? '';
  const ageLabel = row.cells[table.age!] ?? '';
  const sex = sexOf(sexLabel);
  if (!sex) return err({ file, row: row.row, column: 'sex', message: `"${sexLabel}" is not a sex (Males, Females)` });
  if (sex === 'persons' || /^(all ages|total)$/i.test(ageLabel.trim())) return err({ file, row: row.row, message: 'persons or all-ages rows: give males and females by age group only' });
  const group = ageGroupOf(ageLabel);
  if (group === undefined) return err({ file, row: row.row, column: 'age', message: `"${ageLabel}" is not one of the ABS's five-year age groups (0–4 … 80–84, 85 and over)` });
  let est = into.get(code);
  if (!est) into.set(code, (est = { male: new Float64Array(ERP_AGE_GROUPS.length), female: new Float64Array(ERP_AGE_GROUPS.length) }));
  est[sex][group] = est[sex][group]! + value;
  return ok(undefined);
}
