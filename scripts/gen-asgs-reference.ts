/**
 * Regenerates src/demo/data/{sal,lga,poa}-2021.csv from the ABS geography descriptors
 * (../shared/abs/2021-gcp/Metadata/2021Census_geog_desc_1st_2nd_3rd_release.xlsx, sheet
 * 2021_ASGS_Non_ABS_Structures; CC BY 4.0, based on ABS data): every real code and name, and
 * the area in square kilometres. The demo inputs are built from these, so a fresh clone needs
 * no ../shared. Usage: node bin/run-ts.js scripts/gen-asgs-reference.ts [path/to/workbook.xlsx]
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { csvLine } from '../src/adapters/abs/csv.ts';

const workbook = process.argv[2] ?? fileURLToPath(new URL('../../shared/abs/2021-gcp/Metadata/2021Census_geog_desc_1st_2nd_3rd_release.xlsx', import.meta.url));
const wb = new ExcelJS.Workbook();
await wb.xlsx.readFile(workbook);
const sheet = wb.getWorksheet('2021_ASGS_Non_ABS_Structures');
if (!sheet) throw new Error(`${workbook}: no sheet 2021_ASGS_Non_ABS_Structures`);
const rows: Record<string, string[]> = { SAL: [], LGA: [], POA: [] };
sheet.eachRow((row, i) => {
  if (i === 1) return;
  const [level, code, , name, area] = (row.values as unknown[]).slice(1).map((v) => String(v ?? '').trim());
  const out = rows[level!];
  if (out) out.push(csvLine([code!, name!, Number(area).toFixed(4)]));
});
for (const [level, lines] of Object.entries(rows)) {
  const path = new URL(`../src/demo/data/${level.toLowerCase()}-2021.csv`, import.meta.url);
  writeFileSync(path, csvLine(['code', 'name', 'area_sqkm']) + lines.join(''));
  console.log(`${fileURLToPath(path)}: ${lines.length} rows`);
}
