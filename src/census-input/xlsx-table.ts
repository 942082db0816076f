import ExcelJS from 'exceljs';
import type { InputError } from '../synthesis/census/inputs.ts';
import { err, ok, type Result } from '../core/result.ts';

/** One data row of an ABS workbook's table, by column name; `row` is the sheet's own row number. */
export interface SheetRow {
  readonly row: number;
  readonly get: (column: string) => string;
}

const cellText = (value: ExcelJS.CellValue): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && 'result' in value) return cellText(value.result as ExcelJS.CellValue);
  if (typeof value === 'object' && 'richText' in value) return value.richText.map((r) => r.text).join('');
  return String(value).trim();
};

/**
 * The rows of the data sheets of an ABS workbook (the correspondences' "Table 3", split over
 * "Table 3a" and "Table 3b" in the largest): each sheet's header is the first row naming every
 * wanted column, under the ABS title rows; blank rows are skipped and the copyright footer
 * ("© Commonwealth of Australia …") ends a sheet. A sheet without such a header, or no data
 * sheet at all, is an error naming the file.
 */
export async function readWorkbookTable(
  path: string,
  file: string,
  sheetName: RegExp,
  wanted: readonly string[],
): Promise<Result<SheetRow[], InputError>> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.readFile(path);
  } catch (error) {
    return err({ file, message: `not a readable xlsx workbook: ${(error as Error).message}` });
  }
  const sheets = workbook.worksheets.filter((w) => sheetName.test(w.name));
  if (sheets.length === 0) return err({ file, message: `no sheet named like ${sheetName.source} (the ABS puts the correspondence in "Table 3")` });
  const rows: SheetRow[] = [];
  for (const sheet of sheets) {
    let columns: Map<string, number> | undefined;
    let ended = false;
    sheet.eachRow((row, number) => {
      if (ended) return;
      const values = (row.values as ExcelJS.CellValue[]).map(cellText);
      if (!columns) {
        if (wanted.every((w) => values.includes(w))) columns = new Map(wanted.map((w) => [w, values.indexOf(w)]));
        return;
      }
      if (values.every((v) => v === '')) return;
      if (values.some((v) => v.startsWith('©'))) {
        ended = true;
        return;
      }
      const at = columns;
      rows.push({ row: number, get: (column) => values[at.get(column) ?? -1] ?? '' });
    });
    if (!columns) return err({ file, message: `sheet "${sheet.name}" has no header row with ${wanted.join(', ')}` });
  }
  return ok(rows);
}
