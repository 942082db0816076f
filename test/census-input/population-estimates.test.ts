/**
 * The ABS estimated resident population files an operator downloads, read into one year's
 * estimate by SA2: the SA1 and SA2 csv layouts (one column per year, or one "erp" column), the
 * data cube's xlsx layout (title rows, "SA2 code", year columns), the "Regional population by age
 * and sex" layout (SA2 × five-year age × sex; hand-made here: the repository has no such file),
 * and bad input named by file, row and column. The real files of ../shared/abs/erp, where they
 * are beside the checkout, and the rows census/2021-gcp ships from them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ageGroupOf, readPopulationEstimates } from '../../src/census-input/population-estimates.ts';
import { formatInputError } from '../../src/synthesis/census/inputs.ts';
import { ERP_AGE_GROUPS } from '../../src/synthesis/census/population-estimate.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spq-erp-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const write = async (name: string, text: string) => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};
const errors = (r: Awaited<ReturnType<typeof readPopulationEstimates>>) => (r.ok ? [] : r.error.map(formatInputError));

// Real SA2 codes (Tasmania's first two, Darwin City) and SA1s of them.
const HOBART_A = '601011001';
const HOBART_B = '601011002';
const DARWIN = '701011002';

describe('the csv layouts', () => {
  it('reads the SA2 file with a column per year, the one asked for, and its 2021 column beside it', async () => {
    const path = await write('sa2.csv', `SA2_CODE_2021,2021,2022r,2023p\n${HOBART_A},100,110,121\n${HOBART_B},200,190,180\n701011002,5000,5100,5200\n999999499,0,0,0\n`);
    const read = await readPopulationEstimates(path, 2023);
    if (!read.ok) throw new Error(errors(read).join('\n'));
    expect(read.value.year).toBe(2023);
    expect(read.value.status).toBe('preliminary');
    expect(read.value.breakdown).toBe('totals');
    // The non-spatial SA2 (…9499) is no place: left out.
    expect([...read.value.sa2]).toEqual([[HOBART_A, 121], [HOBART_B, 180], [DARWIN, 5200]]);
    expect(read.value.base2021?.get(HOBART_B)).toBe(200);
    const revised = await readPopulationEstimates(path, 2022);
    expect(revised.ok && [revised.value.status, revised.value.sa2.get(HOBART_A)]).toEqual(['revised', 110]);
  });

  it('sums the SA1 file into SA2s (an SA1\'s first nine digits)', async () => {
    const path = await write('sa1.csv', `SA1,2022r,2023p\n${HOBART_A}01,10,11\n${HOBART_A}02,20,22\n${HOBART_B}01,5,6\n`);
    const read = await readPopulationEstimates(path, 2023);
    expect(read.ok && [...read.value.sa2]).toEqual([[HOBART_A, 33], [HOBART_B, 6]]);
    expect(read.ok && read.value.source).toContain('by SA1, summed into SA2s');
  });

  it('names bad input: several years and no year chosen, a year not there, an area the ASGS lacks, a negative or missing estimate, an SA2 twice', async () => {
    const years = await write('years.csv', `SA2_CODE_2021,2022r,2023p\n${HOBART_A},1,2\n`);
    expect(errors(await readPopulationEstimates(years))).toEqual(['years.csv: the file holds 2 years (2022r, 2023p): give --population-year']);
    expect(errors(await readPopulationEstimates(years, 2019))).toEqual(['years.csv: no 2019 column in the file (it holds 2022r, 2023p)']);
    const one = await write('one.csv', `sa2_code_2021,erp\n${HOBART_A},5\n`);
    expect(errors(await readPopulationEstimates(one))).toEqual(['one.csv, column erp: the file\'s one estimate column "erp" does not say its year: give --population-year']);
    const bad = await write('bad.csv', `SA2_CODE_2021,2023\n${HOBART_A},-4\n${HOBART_B},\n123456789,7\n${DARWIN},x\n${DARWIN},3\n${DARWIN},3\n`);
    expect(errors(await readPopulationEstimates(bad, 2023))).toEqual([
      `bad.csv, row 2, column 2023: ${HOBART_A}: negative estimate -4`,
      `bad.csv, row 3, column 2023: ${HOBART_B}: no estimate`,
      'bad.csv, row 4, column SA2_CODE_2021: 123456789: no SA2 123456789 in the ASGS 2021 (an area the release cannot have)',
      `bad.csv, row 5, column 2023: ${DARWIN}: "x" is not a number`,
      `bad.csv, row 6, column SA2_CODE_2021: ${DARWIN} appears twice`,
      `bad.csv, row 7, column SA2_CODE_2021: ${DARWIN} appears twice`,
    ]);
    const none = await write('none.csv', 'code,value\n1,2\n');
    expect(errors(await readPopulationEstimates(none, 2023))[0]).toContain('no header row naming an SA1 or SA2 code column');
    expect(errors(await readPopulationEstimates(join(dir, 'absent.csv'), 2023))[0]).toContain('does not exist');
  });
});

describe('the ABS data cube (xlsx)', () => {
  it('finds the header under the title rows, the year columns in it, and stops at the copyright line', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Table 1');
    sheet.addRow(['Australian Bureau of Statistics']);
    sheet.addRow(['Regional population, 2022-23']);
    sheet.addRow([]);
    sheet.addRow(['', '', '', '', 'Estimated resident population', '']);
    sheet.addRow(['S/T code', 'S/T name', 'SA2 code', 'SA2 name', '2022', '2023']);
    sheet.addRow([6, 'Tasmania', Number(HOBART_A), 'Hobart - A', 1000, 1010]);
    sheet.addRow([6, 'Tasmania', Number(HOBART_B), 'Hobart - B', 2000, 2100]);
    sheet.addRow(['© Commonwealth of Australia 2024']);
    const path = join(dir, '32180DS0001_2022-23.xlsx');
    await workbook.xlsx.writeFile(path);
    const read = await readPopulationEstimates(path, 2023);
    if (!read.ok) throw new Error(errors(read).join('\n'));
    expect([...read.value.sa2]).toEqual([[HOBART_A, 1010], [HOBART_B, 2100]]);
    expect(errors(await readPopulationEstimates(path))).toEqual(['32180DS0001_2022-23.xlsx: the file holds 2 years (2022, 2023): give --population-year']);
  });
});

describe('the "Regional population by age and sex" layout (hand-made: SA2 × five-year age × sex)', () => {
  const labels = ERP_AGE_GROUPS.map(([a, b]) => (a === 85 ? '85 and over' : `${a}–${b}`));

  it('reads each SA2 by age group and sex, its total their sum', async () => {
    const rows = [HOBART_A, HOBART_B].flatMap((code, k) => ['Males', 'Females'].flatMap((sex, s) => labels.map((age, g) => `${code},${sex},${age},${100 * k + 10 * s + g}`)));
    const path = await write('age-sex.csv', `SA2 code,Sex,Age,2023\n${rows.join('\n')}\n`);
    const read = await readPopulationEstimates(path);
    if (!read.ok) throw new Error(errors(read).join('\n'));
    expect(read.value.breakdown).toBe('age_sex');
    const a = read.value.ageSex!.get(HOBART_A)!;
    expect([a.male[0], a.male[17], a.female[0], a.female[17]]).toEqual([0, 17, 10, 27]);
    expect(read.value.sa2.get(HOBART_A)).toBe(2 * (153) + 10 * 18);
    const short = await write('age-sex-short.csv', `SA2 code,Sex,Age,2023\n${rows.slice(0, 35).join('\n')}\n`);
    expect(errors(await readPopulationEstimates(short))).toEqual([`age-sex-short.csv: ${HOBART_A} has 35 of the 36 rows by age group and sex`]);
    const bad = await write('age-sex-bad.csv', `SA2 code,Sex,Age,2023\n${HOBART_A},Males,0–5,1\n${HOBART_A},Unknown,0–4,1\n`);
    expect(errors(await readPopulationEstimates(bad))).toEqual([
      'age-sex-bad.csv, row 2, column age: "0–5" is not one of the ABS\'s five-year age groups (0–4 … 80–84, 85 and over)',
      'age-sex-bad.csv, row 3, column sex: "Unknown" is not a sex (Males, Females)',
      `age-sex-bad.csv: ${HOBART_A} has 2 of the 36 rows by age group and sex`,
    ]);
  });

  it('knows the ABS\'s ways of writing an age group', () => {
    expect(['0-4', '0–4', '5 to 9', '80–84 years', '85 and over', '85+'].map(ageGroupOf)).toEqual([0, 0, 1, 16, 17, 17]);
    expect(['0–5', '90+', 'all ages'].map(ageGroupOf)).toEqual([undefined, undefined, undefined]);
  });
});

const candidates = ['../../../shared/abs/', '../../../../shared/abs/'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
const ABS = candidates.find((p) => existsSync(join(p, 'erp')));
if (!ABS) console.warn('skipping the real ERP file tests: ../shared/abs/erp is absent');

describe.skipIf(!ABS)('the real ERP files (../shared/abs/erp)', () => {
  it('the SA1 file sums to the national totals of 2021 and 2023, and its SA2 sums equal the ABS\'s published SA2 figures', async () => {
    const sa1 = await readPopulationEstimates(join(ABS!, 'erp', 'ERP_SA1_2021_ASGS_2011-2023.csv'), 2023);
    const published = await readPopulationEstimates(join(ABS!, 'erp', 'ERP_SA2_2021_ASGS_2023_as-published.csv'), 2023);
    if (!sa1.ok || !published.ok) throw new Error('unreadable');
    const total = (m: ReadonlyMap<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    expect(total(sa1.value.sa2)).toBe(26_648_878);
    expect(total(sa1.value.base2021!)).toBe(25_685_412);
    expect(published.value.sa2.size).toBe(2_454);
    expect(total(published.value.sa2)).toBe(26_648_878);
    for (const [code, value] of published.value.sa2) expect(sa1.value.sa2.get(code)).toBe(value);
  }, 60_000);

  it('census/2021-gcp ships the SA2 rows of Tasmania, the ACT and the NT unchanged (scripts/extract-erp.ts)', () => {
    const rows = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');
    const full = rows(join(ABS!, 'erp', 'ERP_SA2_2021_ASGS_2011-2023_summed-from-SA1.csv'));
    const shipped = rows(fileURLToPath(new URL('../../census/2021-gcp/erp/ERP_SA2_2021_ASGS_2011-2023_summed-from-SA1.csv', import.meta.url)));
    expect(shipped).toEqual([full[0], ...full.slice(1).filter((r) => /^[678]/.test(r))]);
  });
});
