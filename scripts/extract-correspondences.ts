/**
 * Writes census/2021-gcp/correspondences/: the ABS ASGS 2016 correspondences a suburb build reads
 * (src/census-input/correspondences-2016.ts), cut to the rows of the states spq ships (Tasmania,
 * the ACT, the Northern Territory), so that `npm run start:census` builds those states' suburbs.
 * Each workbook keeps the ABS's file name, sheets, title rows, headers and copyright footers; in
 * its tables only the rows of those states remain, a row's state being the first digit of its SA1,
 * SA2 or 2016 suburb code (each of these nests in a state), else its STATE column. Cell values are
 * the ABS's own, unchanged (a formula is written as the value it gave); styles are not copied.
 * Called by scripts/extract-real-areas.ts with its SAL level, or alone:
 *   node bin/run-ts.js scripts/extract-correspondences.ts [path/to/asgs-2016-correspondences]
 */
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { CORRESPONDENCES_2016 } from '../src/census-input/correspondences-2016.ts';
import { STATE_BY_ABS_CODE } from '../src/census-names.ts';

/** The states whose areas census/2021-gcp ships, as the ABS abbreviates them in state packs. */
export const SHIPPED_STATES = ['TAS', 'ACT', 'NT'] as const;
const SHIPPED: ReadonlySet<string> = new Set(SHIPPED_STATES);
/** Columns whose codes' first digit is the state (SA1, SA2 and 2016 suburbs nest in states). */
const CODE_COLUMNS = ['SA1_MAINCODE_2016', 'SA2_MAINCODE_2016', 'SSC_CODE_2016'] as const;

const plain = (value: ExcelJS.CellValue): ExcelJS.CellValue =>
  value !== null && typeof value === 'object' && 'result' in value ? (value.result as ExcelJS.CellValue) : value;
const text = (value: ExcelJS.CellValue): string => String(plain(value) ?? '').trim();

/** The state a table row concerns, from its codes (else its STATE column); undefined when it names none. */
function stateOfRow(values: readonly ExcelJS.CellValue[], columns: ReadonlyMap<string, number>): string | undefined {
  for (const column of CODE_COLUMNS) {
    const at = columns.get(column);
    const code = at === undefined ? '' : text(values[at]);
    if (/^\d/.test(code)) return STATE_BY_ABS_CODE[code[0]!];
  }
  const at = columns.get('STATE');
  return at === undefined ? undefined : text(values[at]);
}

/** One sheet copied: every row down to its header; below it, blank rows, footers and the rows of the shipped states. */
function copySheet(from: ExcelJS.Worksheet, to: ExcelJS.Worksheet): { kept: number; dropped: number } {
  let columns: Map<string, number> | undefined;
  let next = 1;
  let kept = 0;
  let dropped = 0;
  from.eachRow({ includeEmpty: true }, (row) => {
    const values = Array.from(row.values as ExcelJS.CellValue[], plain); // dense: the ABS sheets leave column A empty
    const texts = values.map((v) => text(v));
    if (columns) {
      const isData = texts.some((t) => t !== '') && !texts.some((t) => t.startsWith('©'));
      if (isData && !SHIPPED.has(stateOfRow(values, columns) ?? '')) {
        dropped++;
        return;
      }
      if (isData) kept++;
    } else if (CODE_COLUMNS.some((c) => texts.includes(c))) columns = new Map(texts.map((t, i) => [t, i]));
    to.getRow(next++).values = values;
  });
  return { kept, dropped };
}

/** The correspondences of the shipped states, written beside the shipped DataPack rows. */
export async function writeCorrespondenceSubsets(
  source = fileURLToPath(new URL('../../shared/abs/asgs-2016-correspondences/', import.meta.url)),
  out = fileURLToPath(new URL('../census/2021-gcp/correspondences/', import.meta.url)),
): Promise<void> {
  mkdirSync(out, { recursive: true });
  for (const { file } of Object.values(CORRESPONDENCES_2016)) {
    const original = new ExcelJS.Workbook();
    await original.xlsx.readFile(join(source, file));
    const subset = new ExcelJS.Workbook();
    // Fixed dates, so that the workbook's properties do not change from one extraction to the next.
    subset.created = subset.modified = new Date('2021-06-01T00:00:00Z');
    const counts: string[] = [];
    for (const sheet of original.worksheets) {
      const { kept, dropped } = copySheet(sheet, subset.addWorksheet(sheet.name));
      if (dropped > 0) counts.push(`${sheet.name}: ${kept} of ${kept + dropped} rows`);
    }
    await subset.xlsx.writeFile(join(out, file));
    console.log(`wrote ${file} (${(statSync(join(out, file)).size / 1e3).toFixed(0)} kB; ${counts.join(', ')})`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await writeCorrespondenceSubsets(process.argv[2] || undefined);
