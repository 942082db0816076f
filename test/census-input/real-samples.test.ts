import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readDataPackPart, type DataPackPart, type PartReadOptions } from '../../src/census-input/datapack.ts';
import { GCP_PART_HEADERS } from '../../src/synthesis/census/gcp/layout.generated.ts';
import { tableById } from '../../src/synthesis/census/tables.ts';

/**
 * The real ABS files in ../shared/abs/2021-gcp/samples (2021 Census G17, total personal income
 * by age by sex, for Victoria at state and SA1 level) read through the same reader and header
 * map as a real SAL DataPack build, and checked against each other.
 *
 * Tolerances. The ABS perturbs every published cell independently (a small random adjustment,
 * different for each cell, so a total is not the sum of its published parts). The SA1 file
 * measures the size of that adjustment: in the ~11,000 SA1s where the nine age totals and
 * P_Tot_Tot are all non-zero, "sum of the nine − P_Tot_Tot" (ten independent adjustments) has
 * a standard deviation of about 6.3 persons, i.e. about 2 persons per cell (asserted below as
 * ≤ CELL_SD). The adjustment does not grow with the count, so the same holds for state-level
 * cells of a million. A sum of n published cells against a published total then differs by
 * about CELL_SD·√(n+1); every check allows five times that. For G17 at state level (288 cells)
 * that is ±212 persons out of 5.3 million: far tighter than a percentage, and a wrong header
 * map (a column read from the wrong place) would miss by thousands.
 */
const CELL_SD = 2.5;
const tolerance = (cells: number): number => 5 * CELL_SD * Math.sqrt(cells + 1);

const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));
const SAMPLES = fileURLToPath(new URL('../../../shared/abs/2021-gcp/samples/', import.meta.url));
const present = existsSync(SHARED);
if (!present) console.warn(`skipping the real ABS sample tests: ${SHARED} is absent (put ../shared beside the checkout to run them)`);

const STE = { keyColumn: 'STE_CODE_2021' } as const;
const SA1 = { keyColumn: 'SA1_CODE_2021' } as const;

async function part(name: string, partId: string, options: PartReadOptions): Promise<DataPackPart> {
  const read = await readDataPackPart(`${SAMPLES}${name}`, partId, options);
  if (!read.ok) throw new Error(`${read.error.file}, row ${read.error.row}, column ${read.error.column}: ${read.error.message}`);
  return read.value;
}

/** Victoria's G17 at state level: header → value, across the three parts. */
async function victoria(): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  for (const p of tableById('G17').files) {
    const read = await part(`2021Census_${p}_VIC_STE.csv`, p, STE);
    read.headers.forEach((h, i) => values.set(h, read.rows.get('2')![i]!));
  }
  return values;
}

describe.skipIf(!present)('real 2021 DataPack samples (../shared/abs/2021-gcp/samples)', () => {
  it('have exactly the metadata header rows (0 differences) and load as non-negative whole numbers', async () => {
    const files: [string, string, PartReadOptions][] = [
      ['2021Census_G17A_VIC_STE.csv', 'G17A', STE],
      ['2021Census_G17B_VIC_STE.csv', 'G17B', STE],
      ['2021Census_G17C_VIC_STE.csv', 'G17C', STE],
      ['2021Census_G17C_VIC_SA1.csv', 'G17C', SA1],
    ];
    for (const [name, p, options] of files) {
      const read = await part(name, p, options);
      const expected = GCP_PART_HEADERS[p]!;
      const differences = expected.flatMap((h, i) => (read.columns[i] === h ? [] : [`${i + 2}: ${read.columns[i]} ≠ ${h}`]));
      expect(differences, name).toEqual([]);
      expect(read.columns.length, name).toBe(expected.length);
      expect(read.headers).toEqual(expected);
      for (const row of read.rows.values()) expect(row.every((v) => Number.isInteger(v) && v >= 0), name).toBe(true);
    }
    expect((await part('2021Census_G17A_VIC_STE.csv', 'G17A', STE)).keys).toEqual(['2']);
  });

  it("G17's persons by sex × income × age, read across the three parts, add up to Victoria's total in G17C", async () => {
    const g17 = tableById('G17');
    const values = await victoria();
    // Every fitted cell (male and female, 16 income bands × 9 ages) is in one of the parts.
    expect(g17.cells.filter((c) => !values.has(c.header)).map((c) => c.header)).toEqual([]);
    const sum = g17.cells.reduce((a, c) => a + values.get(c.header)!, 0);
    const total = values.get('P_Tot_Tot')!;
    expect(total).toBeGreaterThan(5_000_000); // Victorians aged 15+ in 2021: about 5.3 million
    expect(Math.abs(sum - total)).toBeLessThan(tolerance(g17.cells.length));
    for (const sex of ['M', 'F', 'P']) {
      const own = [...values].filter(([h]) => h.startsWith(`${sex}_`) && !h.includes('_Tot'));
      expect(own.length, sex).toBe(144);
      const bySex = own.reduce((a, [, v]) => a + v, 0);
      expect(Math.abs(bySex - values.get(`${sex}_Tot_Tot`)!), sex).toBeLessThan(tolerance(own.length));
    }
    expect(Math.abs(values.get('M_Tot_Tot')! + values.get('F_Tot_Tot')! - total)).toBeLessThan(tolerance(2));
  });

  it('G17C for every Victorian SA1: ~15k rows, each adding up within the perturbation, and the SA1s add up to the state', async () => {
    const sa1 = await part('2021Census_G17C_VIC_SA1.csv', 'G17C', SA1);
    const ste = await part('2021Census_G17C_VIC_STE.csv', 'G17C', STE);
    expect(sa1.keys.length).toBeGreaterThan(15_000);
    expect(sa1.keys.every((k) => /^2\d{10}$/.test(k))).toBe(true);
    // G17C holds the persons (P_*) columns only (M_Tot_Tot is in G17A, F_Tot_Tot in G17B), so
    // each SA1 is checked within the part: its nine age totals against P_Tot_Tot.
    const at = (h: string) => sa1.headers.indexOf(h);
    const total = at('P_Tot_Tot');
    const ages = sa1.headers.filter((h) => /^P_Tot_\d/.test(h)).map(at);
    expect(ages.length).toBe(9);
    let persons = 0;
    let worst = 0;
    let zeros = 0;
    let oneOrTwo = 0;
    const full: number[] = [];
    for (const row of sa1.rows.values()) {
      persons += row[total]!;
      const gap = ages.reduce((a, i) => a + row[i]!, 0) - row[total]!;
      worst = Math.max(worst, Math.abs(gap));
      if (row[total]! > 0 && ages.every((i) => row[i]! > 0)) full.push(gap);
      for (const v of row) {
        if (v === 0) zeros++;
        else if (v <= 2) oneOrTwo++;
      }
    }
    // The perturbation's size, measured: ten independent adjustments per gap.
    expect(full.length).toBeGreaterThan(10_000);
    const sd = Math.sqrt(full.reduce((a, g) => a + g * g, 0) / full.length / 10);
    expect(sd).toBeGreaterThan(1);
    expect(sd).toBeLessThanOrEqual(CELL_SD);
    expect(worst).toBeLessThan(tolerance(ages.length));
    // The state's cell and the 15,482 SA1 cells are all perturbed independently.
    const state = ste.rows.get('2')![total]!;
    expect(Math.abs(persons - state)).toBeLessThan(tolerance(sa1.keys.length));
    // Real small-area tables are mostly zeros, and the ABS publishes no 1s or 2s.
    expect(zeros / (sa1.keys.length * sa1.headers.length)).toBeGreaterThan(0.3);
    expect(oneOrTwo).toBe(0);
  });

  it('reads only the requested columns, in the requested order', async () => {
    const read = await part('2021Census_G17C_VIC_SA1.csv', 'G17C', { ...SA1, headers: ['P_Tot_Tot', 'P_Tot_15_19_yrs'] });
    expect(read.headers).toEqual(['P_Tot_Tot', 'P_Tot_15_19_yrs']);
    expect(read.columns).toEqual(GCP_PART_HEADERS['G17C']);
    const row = read.rows.get(read.keys[0]!)!;
    expect(row.length).toBe(2);
    expect(row[0]).toBeGreaterThanOrEqual(row[1]!);
  });

  it('refuses a part file whose header row is not the metadata part asked for, naming file, row and column', async () => {
    const wrong = await readDataPackPart(`${SAMPLES}2021Census_G17A_VIC_STE.csv`, 'G17B', STE);
    expect(!wrong.ok && wrong.error).toMatchObject({
      file: '2021Census_G17A_VIC_STE.csv',
      row: 1,
      column: 'M_Neg_Nil_income_15_19_yrs',
      message: expect.stringMatching(/belongs to DataPack part G17A, not G17B/),
    });
    // The SAL key column by default: a state-level file has none.
    const key = await readDataPackPart(`${SAMPLES}2021Census_G17A_VIC_STE.csv`, 'G17A');
    expect(!key.ok && key.error).toMatchObject({ row: 1, column: 'SAL_CODE_2021' });
  });
});
