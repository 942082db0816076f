import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readDataPackPart, type DataPackPart } from '../../../src/adapters/abs/datapack.ts';
import { tableById } from '../../../src/core/census/tables.ts';

/**
 * The real ABS files in ../shared/abs/2021-gcp/samples (2021 Census G17 for Victoria, at state
 * and SA1 level) read through the same reader and header map as a real DataPack build.
 */
const SAMPLES = fileURLToPath(new URL('../../../../shared/abs/2021-gcp/samples/', import.meta.url));
const present = existsSync(SAMPLES);
if (!present) console.warn(`real ABS samples not found at ${SAMPLES}: put ../shared beside the checkout to run these tests`);

async function part(name: string, partId: string, key: string): Promise<DataPackPart> {
  const read = await readDataPackPart(`${SAMPLES}${name}`, partId, key);
  if (!read.ok) throw new Error(`${read.error.file}: ${read.error.message}`);
  return read.value;
}

describe.skipIf(!present)('real 2021 DataPack samples', () => {
  it('have exactly the metadata header rows (0 differences) and load as numbers', async () => {
    for (const p of ['G17A', 'G17B', 'G17C']) {
      const ste = await part(`2021Census_${p}_VIC_STE.csv`, p, 'STE_CODE_2021');
      expect(ste.keys).toEqual(['2']);
      expect(ste.rows.get('2')!.every((v) => Number.isInteger(v) && v >= 0)).toBe(true);
    }
  });

  it("G17's persons by sex × income × age, read across the three parts, add up to Victoria's total in G17C", async () => {
    const g17 = tableById('G17');
    const values = new Map<string, number>();
    for (const p of g17.files) {
      const read = await part(`2021Census_${p}_VIC_STE.csv`, p, 'STE_CODE_2021');
      read.headers.forEach((h, i) => values.set(h, read.rows.get('2')![i]!));
    }
    // Every fitted cell (male and female, 16 bands × 9 ages) is in one of the parts.
    const cells = g17.cells.map((c) => values.get(c.header));
    expect(cells.filter((v) => v === undefined)).toEqual([]);
    const sum = cells.reduce((a, b) => a! + b!, 0)!;
    const total = values.get('P_Tot_Tot')!;
    expect(total).toBeGreaterThan(5_000_000); // Victorians aged 15+ in 2021: about 5.3 million
    // Each of the 288 cells carries its own small perturbation (a few persons either way) and
    // the total its own: they agree to well within 0.1%, not exactly.
    expect(Math.abs(sum - total) / total).toBeLessThan(0.001);
    for (const sex of ['M', 'F']) {
      const bySex = g17.cells.filter((c) => c.header.startsWith(`${sex}_`)).reduce((a, c) => a + values.get(c.header)!, 0);
      expect(Math.abs(bySex - values.get(`${sex}_Tot_Tot`)!) / values.get(`${sex}_Tot_Tot`)!).toBeLessThan(0.001);
    }
  });

  it('G17C for every Victorian SA1 loads, and its small areas add up to the state', async () => {
    const sa1 = await part('2021Census_G17C_VIC_SA1.csv', 'G17C', 'SA1_CODE_2021');
    const ste = await part('2021Census_G17C_VIC_STE.csv', 'G17C', 'STE_CODE_2021');
    expect(sa1.keys.length).toBeGreaterThan(15_000);
    expect(sa1.keys.every((k) => /^2\d{10}$/.test(k))).toBe(true);
    const at = sa1.headers.indexOf('P_Tot_Tot');
    let persons = 0;
    let zeros = 0;
    for (const row of sa1.rows.values()) {
      persons += row[at]!;
      zeros += row.filter((v) => v === 0).length;
    }
    const state = ste.rows.get('2')![at]!;
    // Perturbation is independent per area, so 15,000 small areas drift from the state total by
    // a little (and SA1s exclude nobody): within 0.5%.
    expect(Math.abs(persons - state) / state).toBeLessThan(0.005);
    // Real small-area tables are mostly small cells and zeros.
    expect(zeros / (sa1.keys.length * sa1.headers.length)).toBeGreaterThan(0.3);
  });

  it('refuses a part file whose header row differs from the metadata, naming the column', async () => {
    const read = await readDataPackPart(`${SAMPLES}2021Census_G17A_VIC_STE.csv`, 'G17B', 'STE_CODE_2021');
    expect(!read.ok && read.error).toMatchObject({ row: 1, column: 'M_Neg_Nil_income_15_19_yrs' });
    const key = await readDataPackPart(`${SAMPLES}2021Census_G17A_VIC_STE.csv`, 'G17A');
    expect(!key.ok && key.error).toMatchObject({ row: 1, column: 'SAL_CODE_2021' });
  });
});
