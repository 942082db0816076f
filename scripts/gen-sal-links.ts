/**
 * Regenerates src/census-input/reference/sal-links-2021.csv: each 2021 suburb's real postcodes,
 * LGAs and SA2s with the share of its people in each, and its GCCSA, as a suburb build without
 * the 2021 ASGS allocation files links them (src/census-input/sal-links.ts): through the ABS
 * 2016 correspondences, matched to 2021's suburbs by name and state; SA2 and postcode codes
 * checked against the 2021 DataPack's SA2 and POA rows. The demo's suburbs take their links from
 * this file (Richmond (Vic.) → 3121, Yarra), and a postal area its LGAs and largest suburbs
 * (with each suburb's persons, G14's total in the SAL pack). Suburbs it cannot link are listed on stderr.
 * (ABS ASGS correspondences and 2021 Census DataPacks, CC BY 4.0, based on ABS data.)
 * Usage: node bin/run-ts.js scripts/gen-sal-links.ts [CORRESPONDENCES_DIR] [DATAPACK_DIR]
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { csvLine } from '../src/census-input/csv.ts';
import { realSals } from '../src/census-input/asgs-reference.ts';
import { loadSuburbs2016 } from '../src/census-input/correspondences-2016.ts';
import { indexFiles, indexInputs } from '../src/census-input/file-index.ts';
import { readDataPackPart } from '../src/census-input/datapack.ts';
import { linkSuburbs2016 } from '../src/census-input/sal-links.ts';
import { formatSalLinks } from '../src/census-input/sal-links-reference.ts';

const shared = (p: string) => fileURLToPath(new URL(`../../shared/abs/${p}`, import.meta.url));
const correspondences = process.argv[2] ?? shared('asgs-2016-correspondences');
const pack = process.argv[3] ?? shared('2021-gcp/datapack/2021 Census GCP All Geographies for AUS');

const old = await loadSuburbs2016(await indexFiles(correspondences));
if (!old.ok) throw new Error(old.error.map((e) => `${e.file}: ${e.message}`).join('\n'));
const index = await indexInputs(pack);
async function codes(level: string, pattern: RegExp): Promise<Set<string>> {
  const found = index.dataPack.get(level)?.get('G01')?.[0];
  if (!found) throw new Error(`${pack}: no ${level} G01 file`);
  const read = await readDataPackPart(found.path, 'G01', { keyColumn: `${level}_CODE_2021`, headers: [], key: (raw) => pattern.exec(raw.trim())?.[1] ?? null });
  if (!read.ok) throw new Error(read.error.message);
  return new Set(read.value.keys);
}
/** Each suburb's persons (G14's total in the SAL pack): what ranks a postcode's suburbs and weights its LGAs. */
async function salPersons(): Promise<Map<string, number>> {
  const found = index.dataPack.get('SAL')?.get('G14')?.[0];
  if (!found) throw new Error(`${pack}: no SAL G14 file`);
  const read = await readDataPackPart(found.path, 'G14', { keyColumn: 'SAL_CODE_2021', headers: ['Tot_P'], key: (raw) => raw.trim() });
  if (!read.ok) throw new Error(read.error.message);
  return new Map([...read.value.rows].map(([k, values]) => [k, values[0]!]));
}
const links = linkSuburbs2016(realSals(), old.value, { sa2: await codes('SA2', /^(\d{9})$/), poa: await codes('POA', /^(?:POA)?(\d{4})$/) });
for (const note of links.notes) process.stderr.write(`${note}\n`);
process.stderr.write(`${links.leftOut.length} suburbs not linked\n`);
const path = new URL('../src/census-input/reference/sal-links-2021.csv', import.meta.url);
writeFileSync(path, formatSalLinks(links.suburbs, await salPersons(), csvLine));
console.log(`${fileURLToPath(path)}: ${links.suburbs.length} suburbs`);
