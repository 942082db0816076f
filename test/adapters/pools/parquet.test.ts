import { DuckDBInstance } from '@duckdb/node-api';
import { MessageReader, type Dictionary, type Schema } from 'apache-arrow';
import fc from 'fast-check';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NULL_CODE } from '../../../src/adapters/pools/coded.ts';
import { writeParquet, type ParquetColumn } from '../../../src/adapters/pools/parquet.ts';
import { HybridEncoder } from '../../../src/adapters/pools/rle.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'spq-parquet-'));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Parquet's hybrid, decoded as the format describes it (independent of the encoder). */
function decodeHybrid(bytes: Uint8Array, width: number, count: number): number[] {
  const out: number[] = [];
  let p = 0;
  const varint = () => {
    let n = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[p++]!;
      n += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return n;
      shift += 7;
    }
  };
  while (out.length < count) {
    const header = varint();
    if (header % 2 === 0) {
      let value = 0;
      for (let b = 0; b < Math.ceil(width / 8); b++) value |= bytes[p++]! << (8 * b);
      for (let i = 0; i < header / 2; i++) out.push(value);
    } else {
      const values = Math.floor(header / 2) * 8;
      for (let i = 0; i < values; i++) {
        let v = 0;
        for (let b = 0; b < width; b++) {
          const bit = i * width + b;
          v |= ((bytes[p + (bit >> 3)]! >> (bit & 7)) & 1) << b;
        }
        out.push(v);
      }
      p += Math.floor(header / 2) * width;
    }
  }
  return out.slice(0, count);
}

describe('RLE / bit-packing hybrid', () => {
  it('decodes back to the values, whatever the runs and widths', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 14 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 40 })), { minLength: 1, maxLength: 80 }),
        (width, runs) => {
          const values = Uint16Array.from(runs.flatMap(([v, n]) => Array<number>(n).fill(v % 2 ** width)));
          const encoder = new HybridEncoder(16);
          expect(decodeHybrid(encoder.encode(values, values.length, width), width, values.length)).toEqual([...values]);
          // Reused after reset, it encodes the next column alone.
          encoder.reset();
          expect(decodeHybrid(encoder.encode(values, values.length, width), width, values.length)).toEqual([...values]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('encodes a long run as one RLE run', () => {
    const bytes = new HybridEncoder(4).encode(new Uint16Array(100_000).fill(3), 100_000, 2);
    expect(bytes.length).toBeLessThan(6);
  });
});

describe('parquet writer', () => {
  const levels = ['0-4 years', '5-9 years', '10-14 years', 'Not stated'];
  const places = Array.from({ length: 300 }, (_, i) => `POA${String(800 + i).padStart(4, '0')}`);
  const columns: ParquetColumn[] = [
    { kind: 'id', name: 'person_id', prefix: 'P', digits: 9 },
    { kind: 'id', name: 'family_id', prefix: 'F', digits: 9 },
    { kind: 'coded', name: 'suburb_code', labels: places },
    { kind: 'coded', name: 'AGE5P', labels: levels, ordered: true },
    { kind: 'coded', name: 'SEXP, "quoted" – ünï', labels: ['Male', 'Female'] },
  ];
  const n = 2048 * 3 + 77;
  // Row i: person P<i>, family NULL every third row, a sorted suburb (runs), an age (NULL every fifth row), a sex.
  const expected = Array.from({ length: n }, (_, i) => ({
    person_id: `P${String(i * 3).padStart(9, '0')}`,
    family_id: i % 3 === 0 ? null : `F${String(i).padStart(9, '0')}`,
    suburb_code: places[Math.floor((i * places.length) / n)]!,
    AGE5P: i % 5 === 0 ? null : levels[(i * 7) % levels.length]!,
    'SEXP, "quoted" – ünï': ['Male', 'Female'][i % 2]!,
  }));
  const batches = () =>
    [0, 2048, 4096, 6144].map((start) => {
      const m = Math.min(2048, n - start);
      const row = (i: number) => start + i;
      return {
        rowCount: m,
        columns: [
          Float64Array.from({ length: m }, (_, i) => row(i) * 3),
          Int32Array.from({ length: m }, (_, i) => (row(i) % 3 === 0 ? -1 : row(i))),
          Uint32Array.from({ length: m }, (_, i) => Math.floor((row(i) * places.length) / n)),
          Uint8Array.from({ length: m }, (_, i) => (row(i) % 5 === 0 ? NULL_CODE : (row(i) * 7) % levels.length)),
          Uint8Array.from({ length: m }, (_, i) => row(i) % 2),
        ],
      };
    });
  let path: string;
  beforeAll(async () => {
    path = join(tmp, 'records.parquet');
    // Row groups of 2,500 rows: they straddle the batches.
    expect(await writeParquet({ destPath: path, columns, batches: batches(), keyValue: { seed: '42', dictionary: '{"version":"x"}' }, rowGroupRows: 2500 })).toBe(n);
  });

  it('reads back row for row in DuckDB, with zstd, dictionary pages and statistics per row group', async () => {
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      const rows = (await duck.runAndReadAll(`SELECT * FROM read_parquet('${path}')`)).getRowObjectsJS();
      expect(rows).toEqual(expected);
      const meta = (
        await duck.runAndReadAll(
          `SELECT row_group_id, path_in_schema, compression, encodings, stats_min_value, stats_max_value, stats_null_count, dictionary_page_offset FROM parquet_metadata('${path}') ORDER BY row_group_id, column_id`,
        )
      ).getRowObjectsJS();
      expect(new Set(meta.map((m) => m.row_group_id)).size).toBe(3);
      expect(new Set(meta.map((m) => m.compression))).toEqual(new Set(['ZSTD']));
      const age = meta.filter((m) => m.path_in_schema === 'AGE5P');
      expect(age.every((m) => String(m.encodings).includes('RLE_DICTIONARY') && m.dictionary_page_offset !== null)).toBe(true);
      const first = expected.slice(0, 2500);
      const ages = first.map((r) => r.AGE5P).filter((a): a is string => a !== null);
      expect(age[0]).toMatchObject({ stats_null_count: BigInt(first.filter((r) => r.AGE5P === null).length), stats_min_value: [...ages].sort()[0], stats_max_value: [...ages].sort().at(-1) });
      const ids = meta.filter((m) => m.path_in_schema === 'person_id');
      expect(ids[1]).toMatchObject({ stats_min_value: expected[2500]!.person_id, stats_max_value: expected[4999]!.person_id, stats_null_count: 0n });
      const kv = (await duck.runAndReadAll(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${path}')`)).getRowObjectsJS();
      expect(kv).toEqual(expect.arrayContaining([{ k: 'seed', v: '42' }, { k: 'dictionary', v: '{"version":"x"}' }]));
    } finally {
      duck.closeSync();
    }
  });

  it('reads back row for row in hyparquet (an independent JavaScript reader), strings typed as UTF-8', async () => {
    const bytes = await readFile(path);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const compressors = { ZSTD: (input: Uint8Array) => new Uint8Array(zstdDecompressSync(input)) };
    expect(await parquetReadObjects({ file, compressors })).toEqual(expected);
    const metadata = parquetMetadata(file);
    expect(metadata.row_groups.map((g) => Number(g.num_rows))).toEqual([2500, 2500, n - 5000]);
    expect(metadata.schema.slice(1).map((s) => [s.name, s.type, s.logical_type?.type])).toEqual(columns.map((c) => [c.name, 'BYTE_ARRAY', 'STRING']));
  });

  it('carries an Arrow schema: coded columns as dictionaries of strings, ordered for an ordinal variable', async () => {
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      const [row] = (await duck.runAndReadAll(`SELECT decode(value) AS v FROM parquet_kv_metadata('${path}') WHERE decode(key) = 'ARROW:schema'`)).getRowObjectsJS();
      const encoded = Buffer.from(String(row!.v), 'base64');
      const schema = new MessageReader(encoded).readMessage()!.header() as Schema;
      const fields = schema.fields.map((f) => ({ name: f.name, type: String(f.type), ordered: (f.type as Dictionary).isOrdered }));
      expect(fields).toEqual([
        { name: 'person_id', type: 'Utf8', ordered: undefined },
        { name: 'family_id', type: 'Utf8', ordered: undefined },
        { name: 'suburb_code', type: 'Dictionary<Int32, Utf8>', ordered: false },
        { name: 'AGE5P', type: 'Dictionary<Int32, Utf8>', ordered: true },
        { name: 'SEXP, "quoted" – ünï', type: 'Dictionary<Int32, Utf8>', ordered: false },
      ]);
      // The schema's own metadata is the file's key-value metadata (pyarrow shows the schema's as the table's).
      expect(Object.fromEntries(schema.metadata)).toEqual({ seed: '42', dictionary: '{"version":"x"}' });
    } finally {
      duck.closeSync();
    }
  });

  it('writes a file of no rows that still opens, and removes a failed file', async () => {
    const empty = join(tmp, 'empty.parquet');
    expect(await writeParquet({ destPath: empty, columns, batches: [], keyValue: {} })).toBe(0);
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      expect((await duck.runAndReadAll(`SELECT count(*) AS n, count(AGE5P) AS a FROM read_parquet('${empty}')`)).getRowObjectsJS()).toEqual([{ n: 0n, a: 0n }]);
    } finally {
      duck.closeSync();
    }
    const bad = join(tmp, 'bad.parquet');
    const wrong = [{ rowCount: 1, columns: [[1], [1], [0], [9], [0]] }];
    await expect(writeParquet({ destPath: bad, columns, batches: wrong, keyValue: {} })).rejects.toThrow(/no label in column AGE5P/);
    await expect(readFile(bad)).rejects.toThrow(/ENOENT/);
    // The same failure raised on the encoding thread fails the file the same way, and the thread serves the next file.
    await expect(writeParquet({ destPath: bad, columns, batches: wrong, keyValue: {}, encoding: 'thread' })).rejects.toThrow(/no label in column AGE5P/);
    await expect(readFile(bad)).rejects.toThrow(/ENOENT/);
    expect(await writeParquet({ destPath: join(tmp, 'after.parquet'), columns, batches: batches(), keyValue: {}, encoding: 'thread' })).toBe(n);
  });

  it('writes the same bytes encoded on the encoding thread as on this one, for files written at once', async () => {
    const write = (name: string, encoding: 'thread' | 'here', rowGroupRows: number) =>
      writeParquet({ destPath: join(tmp, name), columns, batches: batches(), keyValue: { seed: '42' }, rowGroupRows, encoding }).then(() => readFile(join(tmp, name)));
    const [here, thread, otherHere, otherThread] = await Promise.all([
      write('here.parquet', 'here', 2500),
      write('thread.parquet', 'thread', 2500),
      write('here-1000.parquet', 'here', 1000),
      write('thread-1000.parquet', 'thread', 1000),
    ]);
    expect(thread.equals(here)).toBe(true);
    expect(otherThread.equals(otherHere)).toBe(true);
    // And the file the suite reads above (several row groups: encoded on the thread by default) is those bytes too.
    const byDefault = await readFile(path);
    const hereWithMetadata = await writeParquet({ destPath: join(tmp, 'here-meta.parquet'), columns, batches: batches(), keyValue: { seed: '42', dictionary: '{"version":"x"}' }, rowGroupRows: 2500, encoding: 'here' });
    expect(hereWithMetadata).toBe(n);
    expect(byDefault.equals(await readFile(join(tmp, 'here-meta.parquet')))).toBe(true);
  });

  it('a file announced smaller than a row group (buffers of its own size) has the same bytes, and more rows than announced fail', async () => {
    const write = async (name: string, extra: { rows?: number; encoding?: 'thread' | 'here' }) => {
      await writeParquet({ destPath: join(tmp, name), columns, batches: batches(), keyValue: { seed: '42' }, ...extra });
      return readFile(join(tmp, name));
    };
    const unannounced = await write('whole.parquet', {});
    expect((await write('announced.parquet', { rows: n })).equals(unannounced)).toBe(true);
    expect((await write('announced-thread.parquet', { rows: n, encoding: 'thread' })).equals(unannounced)).toBe(true);
    await expect(write('short.parquet', { rows: n - 1 })).rejects.toThrow(/more rows than the 6220 announced/);
    await expect(readFile(join(tmp, 'short.parquet'))).rejects.toThrow(/ENOENT/);
  });
});
