/**
 * Regenerates src/census-input/reference/sa4-gccsa-2021.csv: the Greater Capital City
 * Statistical Area of each SA4 (every SA2 lies in one SA4, its code's first three digits, and
 * every SA4 in one GCCSA). The geography descriptors list SA4s and GCCSAs with their areas but
 * not which SA4 makes up which GCCSA, so the capital's SA4s are found as the one set of the
 * state's SA4s whose areas add up to the capital's (to 0.01 km²; meet in the middle over the
 * state's ≤ 30 SA4s); the rest of the state is "Rest of …". A state where no set or more than one
 * adds up stops the script. (ABS geography descriptors, CC BY 4.0, based on ABS data.)
 * Usage: node bin/run-ts.js scripts/gen-gccsa-reference.ts [path/to/workbook.xlsx]
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { csvLine } from '../src/census-input/csv.ts';

const workbook = process.argv[2] ?? fileURLToPath(new URL('../../shared/abs/2021-gcp/Metadata/2021Census_geog_desc_1st_2nd_3rd_release.xlsx', import.meta.url));
const wb = new ExcelJS.Workbook();
await wb.xlsx.readFile(workbook);
type Area = { code: string; name: string; area: number };
function rowsOf(sheetName: string, level: string): Area[] {
  const sheet = wb.getWorksheet(sheetName);
  if (!sheet) throw new Error(`${workbook}: no sheet ${sheetName}`);
  const out: Area[] = [];
  sheet.eachRow((row) => {
    const [kind, code, , name, area] = (row.values as unknown[]).slice(1).map((v) => String(v ?? '').trim());
    if (kind === level) out.push({ code: code!, name: name!, area: Number(area) });
  });
  return out;
}
const sa4s = rowsOf('2021_ASGS_MAIN_Structures', 'SA4').filter((s) => !/9[79]$/.test(s.code));
const gccsas = rowsOf('2021_ASGS_GCCSA_Structure', 'GCCSA').filter((g) => /^\d[A-Z]{4}$/.test(g.code));

/** Every subset of `items` (as a bit mask) with its summed area, in hundredths of a km². */
const sums = (items: readonly Area[]) => {
  const out = new Map<number, number[]>();
  for (let mask = 0; mask < 1 << items.length; mask++) {
    let s = 0;
    for (let i = 0; i < items.length; i++) if (mask & (1 << i)) s += items[i]!.area;
    const key = Math.round(s * 100);
    out.set(key, [...(out.get(key) ?? []), mask]);
  }
  return out;
};

const lines: string[] = [];
for (const digit of new Set(gccsas.map((g) => g.code[0]!))) {
  const mine = sa4s.filter((s) => s.code.startsWith(digit));
  const capital = gccsas.find((g) => g.code[0] === digit && g.code[1] === 'G');
  const rest = gccsas.find((g) => g.code[0] === digit && g.code[1] !== 'G') ?? capital!;
  let inCapital = new Set<string>();
  if (capital && rest !== capital) {
    const half = Math.floor(mine.length / 2);
    const [a, b] = [mine.slice(0, half), mine.slice(half)];
    const [sa, sb] = [sums(a), sums(b)];
    const target = Math.round(capital.area * 100);
    const found: Set<string>[] = [];
    for (const [key, masks] of sa)
      for (const off of [-1, 0, 1])
        for (const ma of masks)
          for (const mb of sb.get(target - key + off) ?? [])
            found.push(new Set([...a.filter((_, i) => ma & (1 << i)), ...b.filter((_, i) => mb & (1 << i))].map((s) => s.code)));
    if (found.length !== 1) throw new Error(`${capital.name}: ${found.length} sets of SA4s add up to its area`);
    inCapital = found[0]!;
  } else if (capital) inCapital = new Set(mine.map((s) => s.code));
  for (const s of mine) {
    const g = inCapital.has(s.code) ? capital! : rest;
    lines.push(csvLine([s.code, s.name, g.code, g.name]));
  }
}
const path = new URL('../src/census-input/reference/sa4-gccsa-2021.csv', import.meta.url);
writeFileSync(path, csvLine(['sa4_code', 'sa4_name', 'gccsa_code', 'gccsa_name']) + lines.join(''));
console.log(`${fileURLToPath(path)}: ${lines.length} SA4s`);
