/**
 * Regenerates src/census-input/reference/{sal,lga,poa,sa2,ra}-2021.csv from the ABS geography descriptors
 * (../shared/abs/2021-gcp/Metadata/2021Census_geog_desc_1st_2nd_3rd_release.xlsx, sheets
 * 2021_ASGS_Non_ABS_Structures for SAL, LGA and POA, 2021_ASGS_MAIN_Structures for SA2 and
 * 2021_ASGS_RA_Structures for the Remoteness Areas; CC BY 4.0, based on ABS data): every real code and name, and the area in
 * square kilometres. The demo inputs are built from these, so a fresh clone needs no ../shared.
 * Usage: node bin/run-ts.js scripts/gen-asgs-reference.ts [path/to/workbook.xlsx]
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { csvLine } from '../src/census-input/csv.ts';

const workbook = process.argv[2] ?? fileURLToPath(new URL('../../shared/abs/2021-gcp/Metadata/2021Census_geog_desc_1st_2nd_3rd_release.xlsx', import.meta.url));
const wb = new ExcelJS.Workbook();
await wb.xlsx.readFile(workbook);
/** Columns of both sheets: ASGS_Structure, Census_Code_2021, AGSS_Code_2021, Census_Name_2021, Area sqkm. */
const SHEETS: Record<string, readonly string[]> = {
  '2021_ASGS_Non_ABS_Structures': ['SAL', 'LGA', 'POA'],
  '2021_ASGS_MAIN_Structures': ['SA2'],
  '2021_ASGS_RA_Structures': ['RA'],
};
const rows: Record<string, string[]> = {};
for (const [name, levels] of Object.entries(SHEETS)) {
  const sheet = wb.getWorksheet(name);
  if (!sheet) throw new Error(`${workbook}: no sheet ${name}`);
  for (const l of levels) rows[l] = [];
  sheet.eachRow((row, i) => {
    if (i === 1) return;
    const [level, code, , areaName, area] = (row.values as unknown[]).slice(1).map((v) => String(v ?? '').trim());
    if (levels.includes(level!)) rows[level!]!.push(csvLine([code!, areaName!, Number(area).toFixed(4)]));
  });
}
for (const [level, lines] of Object.entries(rows)) {
  if (lines.length === 0) throw new Error(`${workbook}: no ${level} rows`);
  const path = new URL(`../src/census-input/reference/${level.toLowerCase()}-2021.csv`, import.meta.url);
  writeFileSync(path, csvLine(['code', 'name', 'area_sqkm']) + lines.join(''));
  console.log(`${fileURLToPath(path)}: ${lines.length} rows`);
}
