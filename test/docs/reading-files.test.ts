/**
 * docs/api.md "Reading the files with categories in their order": the DuckDB recipe (the block
 * after `<!-- ci: duckdb-recipe -->`), run as written on a real export: the dictionary from the
 * parquet metadata gives HEAP's categories, and an ENUM of them counts, takes the maximum and
 * sorts in ABS order (not alphabetically), as the clients do; then the files' typing per reader.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetReadObjects } from 'hyparquet';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import { tmpdir } from 'node:os';
import { zstdDecompressSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPoolRelease } from '../../src/adapters/pools/release.ts';
import type { PoolRelease } from '../../src/ports/pool-release.ts';
import { substantiveCategories } from '../../src/synthesis/census/missing-codes.ts';
import { buildFixtureRelease, CATALOGUE_VARIABLES } from '../adapters/pools/fixture.ts';

let dir: string;
let release: PoolRelease;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spq-reading-'));
  release = await openPoolRelease(await buildFixtureRelease(join(dir, 'pools')), { threads: 1 });
}, 60_000);
afterAll(async () => {
  await release.close();
  await rm(dir, { recursive: true, force: true });
});

const API_MD = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'api.md'), 'utf8');
const recipe = /<!-- ci: duckdb-recipe -->\s*```sql\n([\s\S]*?)```/.exec(API_MD)?.[1];

describe('reading a parquet file in category order with DuckDB, as docs/api.md says', () => {
  it('runs the recipe as written: the count at or above a level, the maximum, the NAs and the order are the clients\'', async () => {
    expect(recipe, 'docs/api.md has a <!-- ci: duckdb-recipe --> sql block').toBeDefined();
    const selection = release.resolve('australia', 'Australia');
    if (!selection.ok) throw new Error('no Australia');
    const path = join(dir, 'persons.parquet');
    await release.export({ dataset: 'persons', parts: [{ selection: selection.value, rows: release.sample(selection.value, 'persons', 400, 3n) }], format: 'parquet', includeGeography: 'none', metadata: { test: 'reading' }, destPath: path });
    // What the clients make of HEAP: its substantive categories in order, NA where missing.
    const heap = CATALOGUE_VARIABLES.persons.find((v) => v.code === 'HEAP')!;
    const levels = substantiveCategories(heap.categories);
    const bytes = await readFile(path);
    const rows = (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), compressors: { ZSTD: (b: Uint8Array) => new Uint8Array(zstdDecompressSync(b)) } })) as Record<string, string | null>[];
    const ranks = rows.map((r) => (r['HEAP'] === null ? -1 : levels.indexOf(r['HEAP']!)));
    expect(ranks.every((k, i) => k >= 0 || rows[i]!['HEAP'] === null)).toBe(true);
    const atLeast = ranks.filter((k) => k >= levels.indexOf('Bachelor Degree Level')).length;
    const instance = await DuckDBInstance.create(':memory:');
    const duck = await instance.connect();
    try {
      // The reader's working directory: the recipe names the file 'persons.parquet'.
      await duck.run(`SET file_search_path = '${dir}'`);
      const statements = recipe!.split(/;\s*\n/).map((t) => t.trim()).filter((t) => t !== '');
      const results: Record<string, unknown>[][] = [];
      for (const statement of statements) results.push((await duck.runAndReadAll(statement)).getRowObjectsJS() as Record<string, unknown>[]);
      const [, , counted, highest, sorted] = results;
      expect(counted).toEqual([{ bachelor_or_above: BigInt(atLeast) }]);
      expect(atLeast).toBeGreaterThan(0);
      expect(highest).toEqual([{ highest: levels[Math.max(...ranks)], missing: BigInt(ranks.filter((k) => k < 0).length) }]);
      // In ABS order (NULLs, with their reasons, last); alphabetical order would differ.
      const order = sorted!.map((r) => r['HEAP'] as string | null);
      const expected = rows.map((r) => r['HEAP'] ?? null).sort((x, y) => (x === null ? 1 : y === null ? -1 : levels.indexOf(x) - levels.indexOf(y)));
      expect(order).toEqual(expected);
      expect(order.filter((x) => x !== null)).not.toEqual(order.filter((x) => x !== null).toSorted());
      // A NULL's reason is kept (none for a small suburb's record, whose category is coarse).
      const reasons = sorted!.filter((r) => r['HEAP'] === null && r['HEAP_missing'] !== null).map((r) => r['HEAP_missing'] as string);
      expect(reasons.length).toBeGreaterThan(0);
      expect(reasons.filter((m) => levels.includes(m) || !heap.categories.includes(m))).toEqual([]);
    } finally {
      duck.closeSync();
      instance.closeSync();
    }
  });
});

/**
 * Issue 21, item 4: files that type themselves where the format can, and the readers'
 * instructions where it cannot (csv; the client READMEs). A two-postcode query with hierarchical
 * geography, so `selection` ("3121") and `postcode` look like numbers.
 */
describe('ids, postcodes and selection are text; coded columns dictionary-encoded', () => {
  const exportAs = async (format: 'parquet' | 'csv' | 'xlsx'): Promise<string> => {
    const parts = ['3121', '3065'].map((postcode, i) => {
      const selection = release.resolve('postcode', postcode);
      if (!selection.ok) throw new Error(`no postcode ${postcode}`);
      return { selection: selection.value, rows: release.sample(selection.value, 'persons', 25, 5n + BigInt(i)) };
    });
    const path = join(dir, `typed.${format}`);
    await release.export({ dataset: 'persons', parts, format, includeGeography: 'hierarchical', metadata: { test: 'typed' }, destPath: path });
    return path;
  };
  const TEXT_COLUMNS = ['person_id', 'family_id', 'dwelling_id', 'selection', 'suburb_code', 'postcode'];

  it('parquet: coded columns are dictionary-encoded UTF8, ids, postcodes and selection UTF8 text that DuckDB reads back as VARCHAR', async () => {
    const path = await exportAs('parquet');
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      const chunks = (await duck.runAndReadAll(`SELECT path_in_schema, encodings FROM parquet_metadata('${path}')`)).getRowsJS().map((r) => [String(r[0]), String(r[1])] as const);
      const schema = new Map((await duck.runAndReadAll(`SELECT name, converted_type FROM parquet_schema('${path}')`)).getRowsJS().map((r) => [String(r[0]), String(r[1])]));
      for (const v of CATALOGUE_VARIABLES.persons) {
        const encodings = chunks.filter(([column]) => column === v.code).map(([, e]) => e);
        expect(encodings.length, v.code).toBeGreaterThan(0);
        for (const e of encodings) expect(e, v.code).toMatch(/DICTIONARY/);
        expect(schema.get(v.code), v.code).toBe('UTF8');
      }
      for (const column of TEXT_COLUMNS) expect(schema.get(column), column).toBe('UTF8');
      const types = new Map((await duck.runAndReadAll(`DESCRIBE SELECT * FROM '${path}'`)).getRowsJS().map((r) => [String(r[0]), String(r[1])]));
      for (const column of TEXT_COLUMNS) expect(types.get(column), column).toBe('VARCHAR');
      const first = (await duck.runAndReadAll(`SELECT selection, postcode, person_id FROM '${path}' LIMIT 1`)).getRowsJS()[0]!;
      expect(first).toEqual(['3121', '3121', expect.stringMatching(/^P\d{9}$/)]);
    } finally {
      duck.closeSync();
    }
  });

  it('xlsx: ids, postcodes and selection are text cells, never numbers', async () => {
    const path = await exportAs('xlsx');
    const files = unzipSync(new Uint8Array(await readFile(path)));
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!);
    const header = [...sheet.matchAll(/<c r="([A-Z]+)1"[^>]*><v>(\d+)<\/v><\/c>/g)];
    const shared = [...strFromU8(files['xl/sharedStrings.xml']!).matchAll(/<t[^>]*>([^<]*)<\/t>/g)].map((m) => m[1]!);
    const letterOf = new Map(header.map((m) => [shared[Number(m[2])]!, m[1]!]));
    for (const column of TEXT_COLUMNS) {
      const letter = letterOf.get(column);
      expect(letter, column).toBeDefined();
      const cells = [...sheet.matchAll(new RegExp(`<c r="${letter}(\\d+)"([^>]*)>`, 'g'))].filter((m) => m[1] !== '1');
      // Every non-empty cell (a person without a family has no family_id).
      expect(cells.length, column).toBeGreaterThan(column === 'family_id' ? 0 : 49);
      for (const cell of cells) expect(cell[2], `${column} row ${cell[1]}`).toMatch(/t="(s|inlineStr)"/);
    }
  });

  const python = ['/usr/bin/python3', 'python3'].find((exe) => spawnSync(exe, ['-c', 'import pandas, openpyxl'], { encoding: 'utf8' }).status === 0);
  it.skipIf(python === undefined)('pandas, as the READMEs say: read_csv and read_excel with dtype=str keep selection and postcode text; without it they become numbers', async () => {
    const csv = await exportAs('csv');
    const xlsx = await exportAs('xlsx');
    const script = `
import json, sys, pandas as pd
csv, xlsx = sys.argv[1], sys.argv[2]
out = {}
for name, frame in (("csv", pd.read_csv(csv, dtype=str, keep_default_na=False, na_values=[""])), ("xlsx", pd.read_excel(xlsx, sheet_name=0, dtype=str)),
                    ("csv_untyped", pd.read_csv(csv)), ("xlsx_untyped", pd.read_excel(xlsx, sheet_name=0))):
    out[name] = {c: type(frame[c].iloc[0]).__name__ + ":" + str(frame[c].iloc[0]) for c in ("selection", "postcode", "person_id")}
print(json.dumps(out))
`;
    const run = spawnSync(python!, ['-c', script, csv, xlsx], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as Record<string, Record<string, string>>;
    for (const typed of ['csv', 'xlsx']) expect(out[typed]).toMatchObject({ selection: 'str:3121', postcode: 'str:3121', person_id: expect.stringMatching(/^str:P\d{9}$/) });
    // What the instruction prevents: pandas guesses numbers.
    expect(out['csv_untyped']!['postcode']).toMatch(/^int64:3121$/);
  });

  const haveR = spawnSync('Rscript', ['--version'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!haveR)('R, as the READMEs say: read.csv with colClasses = "character" keeps them text', async () => {
    const csv = await exportAs('csv');
    const run = spawnSync('Rscript', ['-e', `d <- read.csv("${csv}", colClasses = "character", na.strings = ""); cat(class(d$postcode), d$selection[1], d$postcode[1], substr(d$person_id[1], 1, 1))`], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('character 3121 3121 P');
  });
});
