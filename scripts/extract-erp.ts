/**
 * Writes what `npm run start:census` sizes its areas with, for the states census/2021-gcp ships
 * (Tasmania, the ACT, the Northern Territory), so a fresh clone needs nothing else:
 * - census/2021-gcp/erp/ERP_SA2_2021_ASGS_2011-2023_summed-from-SA1.csv: the ABS estimated
 *   resident population 2011–2023 of those states' SA2s (the rows of the full file, unchanged);
 * - census/2021-gcp/correspondences/CG_POSTCODE_2021_SA2_2021.csv: the ABS 2021 postcode → SA2
 *   correspondence's rows of every postcode with people in those states' SA2s (the xlsx's
 *   columns, written as csv);
 * - census/2021-gcp/correspondences/CG_SA2_2021_LGA_2022.csv: the SA2 → LGA 2022 rows of their SA2s.
 *   node bin/run-ts.js scripts/extract-erp.ts [path/to/shared/abs]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { STATE_BY_ABS_CODE } from '../src/census-names.ts';
import { csvLine } from '../src/census-input/csv.ts';
import { SHIPPED_STATES } from './extract-correspondences.ts';

const abs = process.argv[2] || fileURLToPath(new URL('../../shared/abs/', import.meta.url));
const out = fileURLToPath(new URL('../census/2021-gcp/', import.meta.url));
const shipped = (sa2: string): boolean => (SHIPPED_STATES as readonly string[]).includes(STATE_BY_ABS_CODE[sa2.slice(0, 1)] ?? '');

const [erpHeader, ...erpRows] = readFileSync(join(abs, 'erp', 'ERP_SA2_2021_ASGS_2011-2023_summed-from-SA1.csv'), 'utf8').trimEnd().split(/\r?\n/);
mkdirSync(join(out, 'erp'), { recursive: true });
const erp = [erpHeader!, ...erpRows.filter((row) => shipped(row.slice(0, row.indexOf(','))))];
writeFileSync(join(out, 'erp', 'ERP_SA2_2021_ASGS_2011-2023_summed-from-SA1.csv'), `${erp.join('\n')}\n`);

const [lgaHeader, ...lgaRows] = readFileSync(join(abs, 'asgs-2021-correspondences', 'CG_SA2_2021_LGA_2022.csv'), 'utf8').trimEnd().split(/\r?\n/);
const lga = [lgaHeader!, ...lgaRows.filter((row) => shipped(row.slice(0, row.indexOf(','))))];
writeFileSync(join(out, 'correspondences', 'CG_SA2_2021_LGA_2022.csv'), `${lga.join('\n')}\n`);

const workbook = new ExcelJS.Workbook();
await workbook.xlsx.readFile(join(abs, 'asgs-2021-correspondences', 'CG_POSTCODE_2021_SA2_2021.xlsx'));
const sheet = workbook.worksheets.find((w) => /CG_POSTCODE_2021_SA2_2021/.test(w.name))!;
const rows: string[][] = [];
sheet.eachRow((row) => {
  const values = (row.values as ExcelJS.CellValue[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)));
  if (values.some((v) => v !== '')) rows.push(values);
});
const [header, ...data] = rows;
const postcodes = new Set(data.filter((r) => (r[0] ?? '') !== '' && shipped(r[1] ?? '')).map((r) => r[0]!));
writeFileSync(join(out, 'correspondences', 'CG_POSTCODE_2021_SA2_2021.csv'), [header!, ...data.filter((r) => postcodes.has(r[0]!))].map(csvLine).join(''));
process.stdout.write(`${erp.length - 1} SA2 estimates, ${lga.length - 1} SA2 → LGA rows, ${postcodes.size} postcodes\n`);
