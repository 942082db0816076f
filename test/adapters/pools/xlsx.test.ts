import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import readXlsxFile from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnLetters, writeXlsx, type XlsxBatch } from '../../../src/adapters/pools/xlsx.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'spq-xlsx-'));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('writeXlsx', () => {
  it('names columns like Excel', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });

  it('streams many buffers of rows that read back exactly, with XML specials, accents, empty cells', async () => {
    const labels = ['$1-$399', 'Tom & Jerry <b>', 'Café "noir"', 'Not stated'];
    const rows = 30_000; // several 1 MiB sheet buffers, so several deflate block runs
    const expected: (string | null)[][] = [];
    const batches: XlsxBatch[] = [];
    for (let start = 0; start < rows; start += 2048) {
      const m = Math.min(2048, rows - start);
      const ids: (string | null)[] = [];
      const shared: string[] = [];
      const codes = new Uint8Array(m);
      for (let i = 0; i < m; i++) {
        const r = start + i;
        ids.push(r % 7 === 0 ? null : `P${String(r).padStart(9, '0')}${r % 1000 === 1 ? ' & Ünïcode <x>' : ''}`);
        shared.push(`SAL${20000 + (r % 13)}`);
        codes[i] = (r * 7) % labels.length;
        expected.push([ids[i]!, labels[codes[i]!]!, shared[i]!]);
      }
      batches.push({ rowCount: m, columns: [ids, codes, shared] });
    }
    const destPath = join(tmp, 'many.xlsx');
    const written = await writeXlsx({
      destPath,
      sheetName: 'persons',
      columns: [
        { name: 'person_id', kind: 'inline' },
        { name: 'INCP', kind: 'coded', labels },
        { name: 'suburb_code', kind: 'shared' },
      ],
      batches,
      extraSheets: [{ name: 'metadata', rows: [['key', 'value'], ['seed', '42'], ['n', 3]] }],
    });
    expect(written).toBe(rows);
    const sheets = await readXlsxFile(destPath);
    expect(sheets.map((s) => s.sheet)).toEqual(['persons', 'metadata']);
    expect(sheets[0]!.data[0]).toEqual(['person_id', 'INCP', 'suburb_code']);
    expect(sheets[0]!.data.slice(1)).toEqual(expected);
    expect(sheets[1]!.data).toEqual([['key', 'value'], ['seed', '42'], ['n', 3]]);
  });
});
