import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField, writeCsv, type CsvColumn } from '../../../src/adapters/pools/csv.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'spq-csv-'));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('csv writer', () => {
  it('quotes fields as RFC 4180 requires', () => {
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField('$1,000-$1,999')).toBe('"$1,000-$1,999"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    // Empty text as DuckDB's COPY writes it, apart from NULL (an empty field).
    expect(csvField('')).toBe('""');
  });

  it('writes exactly what DuckDB\'s csv COPY writes for the same values, across batches', async () => {
    const labels = ['Plain', 'With, comma', 'With "quotes"', 'Line\nbreak', 'Ünïcödé – dash', ' padded '];
    const columns: CsvColumn[] = [
      { kind: 'id', name: 'person_id', prefix: 'P', digits: 9 },
      { kind: 'id', name: 'family_id', prefix: 'F', digits: 9 },
      { kind: 'coded', name: 'label', labels },
      { kind: 'coded', name: 'other, name', labels: ['x', 'y'] },
    ];
    // Ids from 0 to beyond 2^31 and beyond nine digits; every third family id NULL; 3 batches, the last partial.
    const ids = [0, 7, 123456789, 999999999, 1000000000, 2147483648, 4294967294];
    const n = 2048 * 2 + 100;
    const batches = [0, 2048, 4096].map((start) => {
      const m = Math.min(2048, n - start);
      const row = (i: number) => start + i;
      return {
        rowCount: m,
        columns: [
          Float64Array.from({ length: m }, (_, i) => ids[row(i) % ids.length]! + (row(i) >= ids.length ? row(i) : 0)),
          Float64Array.from({ length: m }, (_, i) => (row(i) % 3 === 0 ? -1 : row(i))),
          Uint8Array.from({ length: m }, (_, i) => row(i) % labels.length),
          Uint8Array.from({ length: m }, (_, i) => row(i) % 2),
        ],
      };
    });
    const ours = join(tmp, 'ours.csv');
    expect(await writeCsv({ destPath: ours, columns, batches })).toBe(n);

    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      const values = batches.flatMap((b) =>
        Array.from({ length: b.rowCount }, (_, i) => {
          const id = (prefix: string, x: number) => (x < 0 ? 'NULL' : `'${prefix}${String(x).padStart(9, '0')}'`);
          return `(${id('P', b.columns[0]![i]!)}, ${id('F', b.columns[1]![i]!)}, '${labels[b.columns[2]![i]!]!.replace(/'/g, "''")}', '${['x', 'y'][b.columns[3]![i]!]}')`;
        }),
      );
      await duck.run(`CREATE TABLE t (person_id VARCHAR, family_id VARCHAR, label VARCHAR, "other, name" VARCHAR)`);
      for (let k = 0; k < values.length; k += 1000) await duck.run(`INSERT INTO t VALUES ${values.slice(k, k + 1000).join(', ')}`);
      const theirs = join(tmp, 'theirs.csv');
      await duck.run(`COPY t TO '${theirs}' (FORMAT csv, HEADER true)`);
      const [a, b] = [await readFile(ours, 'utf8'), await readFile(theirs, 'utf8')];
      expect(a).toContain('P4294967294,');
      expect(a).toContain('P1000000000,');
      expect(a === b).toBe(true);
    } finally {
      duck.closeSync();
    }
  });
});
