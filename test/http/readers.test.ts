/**
 * Issue 38, items 1–3: one answer in every reader. The same query (same seed) executed over HTTP
 * as parquet and as csv, alone and with linked records joined, read here as an Arrow reader
 * (pyarrow, R arrow) reads the parquet: the Arrow schema (apache-arrow) says which columns are
 * ordered dictionaries, the parquet dictionary pages (hyparquet's page reader) are their levels,
 * hyparquet the values; the csv as the clients read it, with its dictionary; and DuckDB. Every
 * ordinal comparison, every maximum and every NA count agrees, and the reason a value is missing
 * is kept in its CODE_missing column.
 */
import { MessageReader, type Dictionary, type Schema } from 'apache-arrow';
import { parquetMetadata, parquetReadObjects, type FileMetaData } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { readPlain } from 'hyparquet/src/plain.js';
import { readFile } from 'node:fs/promises';
import { zstdDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { download, readTable } from './files.ts';
import { query, serverWithAccount } from './harness.ts';

const ctx = serverWithAccount(60);
const SEED = '5619307297291908987';

interface DictionaryVariable {
  code: string;
  column?: string;
  measurement: 'nominal' | 'ordinal';
  categories: string[];
  missing: Record<'not_applicable' | 'non_response' | 'partial_response', string[]>;
  missing_column?: string;
  coarse_categories?: string[];
  coarse_column?: string;
}
interface FileDictionary {
  variables: DictionaryVariable[];
  linked_variables?: DictionaryVariable[];
  columns: { name: string; kind: string }[];
}

/** Executes the query and downloads its file (and, for csv, its dictionary). */
async function run(body: Record<string, unknown>, name: string): Promise<{ path: string; dictionary?: FileDictionary }> {
  const res = await ctx.s.call('/query/execute', { key: ctx.key, body });
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(200);
  const file = await download(json.download_url, ctx.s.dataDir, name);
  return { path: file.path, ...(json.dictionary_url ? { dictionary: (await (await fetch(json.dictionary_url)).json()) as FileDictionary } : {}) };
}

const missingOf = (v: DictionaryVariable): string[] => [...v.missing.not_applicable, ...v.missing.non_response, ...v.missing.partial_response];
/** What a client makes the levels of a column: its categories without the missing codes, in order. */
const substantive = (labels: readonly string[], v: DictionaryVariable): string[] => labels.filter((c) => !missingOf(v).includes(c));

const utf8 = new TextDecoder();

/** Every column chunk's dictionary page, as an Arrow reader takes it for the column's dictionary (the same page in every row group). */
function dictionaryPages(bytes: Buffer, metadata: FileMetaData): Map<string, string[]> {
  const pages = new Map<string, string[]>();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) {
      const meta = chunk.meta_data!;
      if (meta.dictionary_page_offset === undefined) continue;
      const reader = { view, offset: Number(meta.dictionary_page_offset) };
      const header = parquetHeader(reader);
      expect(header.type).toBe('DICTIONARY_PAGE');
      const body = zstdDecompressSync(bytes.subarray(reader.offset, reader.offset + header.compressed_page_size));
      const values = readPlain({ view: new DataView(body.buffer, body.byteOffset, body.byteLength), offset: 0 }, 'BYTE_ARRAY', header.dictionary_page_header!.num_values, undefined) as Uint8Array[];
      const labels = values.map((v) => utf8.decode(v));
      const name = meta.path_in_schema.join('.');
      if (pages.has(name)) expect(labels, name).toEqual(pages.get(name));
      pages.set(name, labels);
    }
  }
  return pages;
}

/** A parquet file as an Arrow reader sees it: fields (ordered or not) with their dictionaries, the schema's own metadata, the rows. */
async function readAsArrow(path: string) {
  const bytes = await readFile(path);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const metadata = parquetMetadata(file);
  const keyValue = new Map((metadata.key_value_metadata ?? []).map((kv) => [kv.key, kv.value ?? '']));
  const schema = new MessageReader(Buffer.from(keyValue.get('ARROW:schema')!, 'base64')).readMessage()!.header() as Schema;
  const pages = dictionaryPages(bytes, metadata);
  const fields = new Map(schema.fields.map((f) => [f.name, { ordered: (f.type as Dictionary).isOrdered, levels: pages.get(f.name) }]));
  const rows = (await parquetReadObjects({ file, compressors: { ZSTD: (input: Uint8Array) => new Uint8Array(zstdDecompressSync(input)) } })) as Record<string, string | null>[];
  return { keyValue, schemaMetadata: schema.metadata, fields, rows, dictionary: JSON.parse(keyValue.get('dictionary')!) as FileDictionary };
}

type Arrow = Awaited<ReturnType<typeof readAsArrow>>;

/** What an ordered reader answers for a column: the count at or above a level, the maximum, the NA count. */
function arrowAnswers(arrow: Arrow, column: string, threshold: string) {
  const { levels, ordered } = arrow.fields.get(column)!;
  expect(ordered, column).toBe(true);
  const ranks = arrow.rows.map((r) => (r[column] === null ? -1 : levels!.indexOf(r[column]!)));
  expect(ranks.every((k) => k >= -1) && !ranks.some((k, i) => k === -1 && arrow.rows[i]![column] !== null), column).toBe(true);
  const at = levels!.indexOf(threshold);
  expect(at, `${threshold} is a level of ${column}`).toBeGreaterThanOrEqual(0);
  return { atLeast: ranks.filter((k) => k >= at).length, max: levels![Math.max(...ranks)] ?? null, na: ranks.filter((k) => k < 0).length };
}

/** The same from the csv, read as the clients read it: the dictionary's substantive categories in order, the empty field NA. */
function csvAnswers(rows: readonly Record<string, string | null>[], column: string, v: DictionaryVariable, threshold: string) {
  const levels = substantive(v.categories, v);
  const ranks = rows.map((r) => (r[column] === null ? -1 : levels.indexOf(r[column]!)));
  expect(ranks.filter((k, i) => k < 0 && rows[i]![column] !== null), `${column}: every csv value is a substantive level`).toEqual([]);
  const at = levels.indexOf(threshold);
  return { atLeast: ranks.filter((k) => k >= at).length, max: levels[Math.max(...ranks)] ?? null, na: ranks.filter((k) => k < 0).length };
}

const count = (values: readonly (string | null)[]) => Object.fromEntries([...new Set(values)].map((x) => [String(x), values.filter((y) => y === x).length]));

describe('one answer in every reader (issue 38)', () => {
  // Victoria: Yarra's three suburbs and the small Wandiligong, so coarse companions too.
  const persons = query({ geography_level: 'state', geography_selections: ['VIC'], n_observations: 600, seed: SEED });

  it('parquet: ordinal columns are ordered dictionaries of exactly their substantive categories, nominal ones of what can occur, missing codes apart', async () => {
    const arrow = await readAsArrow((await run({ ...persons, output_format: 'parquet' }, 'readers.parquet')).path);
    // pyarrow shows the Arrow schema's own metadata: it holds the dictionary, as the file's key-value metadata does.
    expect(arrow.schemaMetadata.get('dictionary')).toBe(arrow.keyValue.get('dictionary'));
    expect(arrow.schemaMetadata.get('seed')).toBe(SEED);
    const byCode = new Map(arrow.dictionary.variables.map((v) => [v.code, v]));
    for (const code of ['HEAP', 'AGE5P']) {
      const v = byCode.get(code)!;
      expect(v.measurement).toBe('ordinal');
      expect(arrow.fields.get(code)).toEqual({ ordered: true, levels: substantive(v.categories, v) });
      if (v.coarse_column) expect(arrow.fields.get(v.coarse_column)).toEqual({ ordered: true, levels: substantive(v.coarse_categories!, v) });
    }
    const heap = byCode.get('HEAP')!;
    expect(heap.missing_column).toBe('HEAP_missing');
    expect(arrow.fields.get('HEAP_missing')!.ordered).toBe(false);
    expect(arrow.fields.get('HEAP_missing')!.levels!.toSorted()).toEqual(missingOf(heap).toSorted());
    expect(arrow.fields.get('AGE5P')!.levels).toContain('5-9 years');
    expect(arrow.fields.get('AGE5P')!.levels!.indexOf('10-14 years')).toBeGreaterThan(arrow.fields.get('AGE5P')!.levels!.indexOf('5-9 years'));
    // A nominal column: unordered, only its categories (no empty coarse levels, no missing codes).
    const ingp = byCode.get('INGP')!;
    expect(arrow.fields.get('INGP')).toEqual({ ordered: false, levels: substantive(ingp.categories, ingp) });
    // No dictionary of any column holds a label that cannot occur in it.
    for (const v of arrow.dictionary.variables) {
      const missing = missingOf(v);
      for (const [column, labels] of [[v.code, v.categories], [v.coarse_column, v.coarse_categories ?? []], [v.missing_column, missing]] as const) {
        if (!column) continue;
        const levels = arrow.fields.get(column)!.levels!;
        expect(levels.every((l) => labels.includes(l) && (column === v.missing_column) === missing.includes(l)), column).toBe(true);
      }
    }
    // A maximum never lands on a missing code.
    expect(missingOf(heap)).not.toContain(arrowAnswers(arrow, 'HEAP', 'Bachelor Degree Level').max);
  });

  it('the parquet read with its ordered dictionaries, the csv read with its dictionary and DuckDB with the documented ENUM give the same counts, NAs and reasons', async () => {
    const parquet = (await run({ ...persons, output_format: 'parquet' }, 'same.parquet')).path;
    const arrow = await readAsArrow(parquet);
    const csv = await run({ ...persons, output_format: 'csv' }, 'same.csv');
    const rows = (await readTable(csv.path, 'csv')).rows;
    expect(rows.map((r) => r['person_id'])).toEqual(arrow.rows.map((r) => r['person_id']));
    const heap = csv.dictionary!.variables.find((v) => v.code === 'HEAP')!;
    const fromArrow = arrowAnswers(arrow, 'HEAP', 'Bachelor Degree Level');
    expect(csvAnswers(rows, 'HEAP', heap, 'Bachelor Degree Level')).toEqual(fromArrow);
    expect(fromArrow.atLeast).toBeGreaterThan(0);
    expect(fromArrow.na).toBeGreaterThan(0);
    const age = csv.dictionary!.variables.find((v) => v.code === 'AGE5P')!;
    expect(csvAnswers(rows, 'AGE5P', age, '65-69 years')).toEqual(arrowAnswers(arrow, 'AGE5P', '65-69 years'));
    // The reason is kept: the same missing codes, row for row, in csv and parquet, never beside a category.
    expect(rows.map((r) => r['HEAP_missing'])).toEqual(arrow.rows.map((r) => r['HEAP_missing']));
    const reasons = count(rows.map((r) => r['HEAP_missing'] ?? null));
    expect(Object.keys(reasons).filter((k) => k !== 'null').sort()).toEqual(missingOf(heap).filter((m) => reasons[m]).sort());
    expect(Object.keys(reasons).length).toBeGreaterThan(1);
    for (const r of rows) expect(r['HEAP'] !== null && r['HEAP_missing'] !== null, String(r['person_id'])).toBe(false);

    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      const levels = substantive(heap.categories, heap).map((c) => `'${c.replace(/'/g, "''")}'`);
      // Both sides of the comparison in the ENUM: an ENUM against a plain string compares as text.
      await duck.run(`CREATE TYPE heap AS ENUM (${levels.join(', ')})`);
      const [enumCount, positionCount, na] = (
        await duck.runAndReadAll(
          `SELECT count(*) FILTER (HEAP::heap >= 'Bachelor Degree Level'::heap)::INTEGER, ` +
            `count(*) FILTER (list_position([${levels.join(', ')}], HEAP) >= list_position([${levels.join(', ')}], 'Bachelor Degree Level'))::INTEGER, ` +
            `count(*) FILTER (HEAP IS NULL)::INTEGER FROM read_parquet('${parquet}')`,
        )
      ).getRowsJS()[0]!;
      expect([enumCount, positionCount, na]).toEqual([fromArrow.atLeast, fromArrow.atLeast, fromArrow.na]);
    } finally {
      duck.closeSync();
    }
  });

  it('a joined file: linked columns carry their full dictionary, so an ordered reader of the parquet and a reader of the csv agree', async () => {
    const joined = { ...persons, linked_records: 'joined' };
    const arrow = await readAsArrow((await run({ ...joined, output_format: 'parquet' }, 'joined.parquet')).path);
    const csv = await run({ ...joined, output_format: 'csv' }, 'joined.csv');
    const rows = (await readTable(csv.path, 'csv')).rows;
    for (const column of ['dwelling_RNTRD', 'family_FINF']) {
      const v = csv.dictionary!.linked_variables!.find((l) => l.column === column)!;
      const levels = substantive(v.categories, v);
      const threshold = levels[Math.floor(levels.length / 2)]!;
      expect(v).toMatchObject({ measurement: 'ordinal', missing_column: `${column}_missing` });
      expect(missingOf(v).length, column).toBeGreaterThan(0);
      expect(arrow.dictionary.linked_variables!.find((l) => l.column === column)).toEqual(v);
      expect(arrow.fields.get(column)).toEqual({ ordered: true, levels: substantive(v.categories, v) });
      expect(arrow.fields.get(`${column}_missing`)!.ordered).toBe(false);
      expect(arrow.fields.get(`${column}_missing`)!.levels!.toSorted()).toEqual(missingOf(v).toSorted());
      const fromArrow = arrowAnswers(arrow, column, threshold);
      expect(csvAnswers(rows, column, v, threshold)).toEqual(fromArrow);
      expect(missingOf(v)).not.toContain(fromArrow.max);
      // Each NA has one cause: a missing code (its reason kept), no family at all (the id is empty too), or a small suburb's coarse value.
      const reasons = rows.filter((r) => r[`${column}_missing`] !== null).length;
      const idColumn = column.startsWith('family_') ? 'family_id' : 'dwelling_id';
      const causes = (r: Record<string, string | null>) => [r[`${column}_missing`] !== null, r[idColumn] === null, (r[`${column}_coarse`] ?? null) !== null].filter(Boolean).length;
      expect(rows.filter((r) => r[column] === null && causes(r) !== 1), column).toEqual([]);
      expect(fromArrow.na).toBe(rows.filter((r) => r[column] === null).length);
      expect(reasons, column).toBeGreaterThan(0);
      expect(rows.map((r) => r[`${column}_missing`])).toEqual(arrow.rows.map((r) => r[`${column}_missing`]));
    }
  });
});
