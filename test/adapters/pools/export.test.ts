/**
 * Exports larger than one DuckDB vector (2,048 rows), over more suburbs than a one-byte ENUM
 * holds (300 > 255 suburb codes), in every file format: each file holds exactly the sampled
 * records, in part order then row order, with the same values as the stored tables
 * (pools.duckdb's views, written by the release writer independently of the export path).
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import readXlsxFile from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuburbEntry } from '../../../src/adapters/pools/catalog.ts';
import { openPoolRelease } from '../../../src/adapters/pools/release.ts';
import { createPoolReleaseWriter } from '../../../src/adapters/pools/writer.ts';
import { STATES } from '../../../src/core/dataset.ts';
import { hasDictionaryBeside, OUTPUT_FORMAT_SPECS, OUTPUT_FORMATS } from '../../../src/core/formats.ts';
import type { PoolRelease, ResolvedSelection } from '../../../src/ports/pool-release.ts';
import { CATALOGUE_VARIABLES, fileColumnsOf, fixturePopulation } from './fixture.ts';

const SUBURBS = 300;
const PERSONS_PER_SUBURB = 30;

let tmp: string;
let releaseDir: string;
let release: PoolRelease;
let duck: DuckDBConnection;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'spq-export-'));
  releaseDir = join(tmp, 'many-1');
  const writer = await createPoolReleaseWriter({ dir: releaseDir, version: 'many-1', variables: CATALOGUE_VARIABLES });
  for (let i = 0; i < SUBURBS; i++) {
    const state = STATES[i % STATES.length]!;
    const suburb: SuburbEntry = {
      salCode: `SAL${50000 + i}`, suburbId: `Place ${i}`, name: `Place ${i}`, state, postcode: String(1000 + i), lga: `Shire ${i >> 2}`,
      lgaCode: `LGA${60000 + (i >> 2)}`, gccsa: `Rest of ${state}`, smallSuburb: false,
      // An SA2 of its own for two suburbs in three (more than 255 of them), none for the third.
      ...(i % 3 === 0 ? {} : { sa2Code: String(900000000 + i), sa2: `Area ${i}` }),
    };
    await writer.append({ suburb, population: fixturePopulation(PERSONS_PER_SUBURB, [], 700 + i, CATALOGUE_VARIABLES), coarsened: [] });
  }
  await writer.finish({ test: true }, 'Many small suburbs, for export tests.\n');
  release = await openPoolRelease(releaseDir, { threads: 2 });
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  await duck.run(`ATTACH '${join(releaseDir, 'pools.duckdb')}' AS stored (READ_ONLY)`);
}, 60_000);

afterAll(async () => {
  await release?.close();
  duck?.closeSync();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const resolved = (level: Parameters<PoolRelease['resolve']>[0], input: string): ResolvedSelection => {
  const r = release.resolve(level, input);
  if (!r.ok) throw new Error(`cannot resolve ${input}`);
  return r.value;
};
const metadata = { version: 'many-1', seed: '1', citation: 'test' };
const id = (row: number): string => `P${String(row).padStart(9, '0')}`;

/** Two parts (Australia, then VIC) of 5,000 and 700 rows: three full chunks and two partial ones. */
function twoParts() {
  const australia = resolved('australia', 'Australia');
  const vic = resolved('state', 'VIC');
  return [
    { selection: australia, rows: release.sample(australia, 'persons', 5000, 11n) },
    { selection: vic, rows: release.sample(vic, 'persons', 700, 12n) },
  ];
}

const personVariables = CATALOGUE_VARIABLES.persons.map((v) => v.code);
const personColumns = ['person_id', 'family_id', 'dwelling_id', 'suburb_code', ...CATALOGUE_VARIABLES.persons.flatMap((v) => fileColumnsOf(v, false))];
const hierarchy = ['suburb', 'postcode', 'lga', 'gccsa', 'state', 'sa2_code', 'sa2_name'];

/** Rows of the file that differ from the stored record of the same person (0 when the export is exact). */
async function differing(fileSql: string): Promise<number> {
  const r = await duck.runAndReadAll(
    `SELECT count(*)::INTEGER FROM ${fileSql} f LEFT JOIN stored.persons p USING (person_id) WHERE p.person_id IS NULL OR ` +
      ['person_id', 'family_id', 'dwelling_id', 'suburb_code'].map((c) => `f."${c}"::VARCHAR IS DISTINCT FROM p."${c}"::VARCHAR`).join(' OR ') +
      ' OR ' +
      // The stored label is the file's category, or else its missing code (one of the two, never both).
      personVariables.map((c) => (personColumns.includes(`${c}_missing`) ? `coalesce(f."${c}", f."${c}_missing")::VARCHAR IS DISTINCT FROM p."${c}"::VARCHAR OR (f."${c}" IS NOT NULL AND f."${c}_missing" IS NOT NULL)` : `f."${c}"::VARCHAR IS DISTINCT FROM p."${c}"::VARCHAR`)).join(' OR '),
  );
  return r.getRowsJS()[0]![0] as number;
}

describe('export of many rows over many suburbs', () => {
  it('writes parquet with every sampled record in order, hierarchical geography of its own suburb', async () => {
    const parts = twoParts();
    const destPath = join(tmp, 'many.parquet');
    const result = await release.export({ dataset: 'persons', parts, format: 'parquet', includeGeography: 'hierarchical', metadata, destPath });
    expect(result.rows).toBe(5700);
    const ids = (await duck.runAndReadAll(`SELECT person_id FROM read_parquet('${destPath}')`)).getColumnsJS()[0];
    expect(ids).toEqual([...parts[0]!.rows, ...parts[1]!.rows].map(id));
    expect(await differing(`read_parquet('${destPath}')`)).toBe(0);
    const suburbs = (await duck.runAndReadAll(`SELECT count(DISTINCT suburb_code)::INTEGER, count(*) FILTER (family_id IS NULL)::INTEGER FROM read_parquet('${destPath}')`)).getRowsJS()[0]!;
    expect(suburbs[0]).toBeGreaterThan(255);
    expect(suburbs[1]).toBeGreaterThan(0);
    // Suburb i of this release: SAL<50000 + i>, "Place i", postcode 1000 + i, "Shire <i / 4>", the i-th state in turn.
    const wrongPlace = await duck.runAndReadAll(
      `SELECT count(*)::INTEGER FROM (SELECT *, suburb_code[4:]::INTEGER - 50000 AS i FROM read_parquet('${destPath}')) f WHERE ` +
        `f.suburb IS DISTINCT FROM 'Place ' || i OR f.postcode IS DISTINCT FROM (1000 + i)::VARCHAR OR f.lga IS DISTINCT FROM 'Shire ' || (i // 4) ` +
        `OR f.state IS DISTINCT FROM ${JSON.stringify(STATES).replace(/"/g, "'")}[i % 8 + 1] OR f.gccsa IS DISTINCT FROM 'Rest of ' || f.state ` +
        `OR f.sa2_code IS DISTINCT FROM (CASE WHEN i % 3 = 0 THEN '' ELSE (900000000 + i)::VARCHAR END) OR f.sa2_name IS DISTINCT FROM (CASE WHEN i % 3 = 0 THEN '' ELSE 'Area ' || i END)`,
    );
    expect(wrongPlace.getRowsJS()[0]![0]).toBe(0);
    const vicRows = await duck.runAndReadAll(`SELECT count(*)::INTEGER FROM (SELECT * FROM read_parquet('${destPath}') OFFSET 5000) WHERE state <> 'VIC'`);
    expect(vicRows.getRowsJS()[0]![0]).toBe(0);
  });

  it('writes csv with the same records and columns as parquet', async () => {
    const parts = twoParts();
    const csv = join(tmp, 'many.csv');
    const parquet = join(tmp, 'same.parquet');
    await release.export({ dataset: 'persons', parts, format: 'csv', includeGeography: 'hierarchical', metadata, destPath: csv });
    await release.export({ dataset: 'persons', parts, format: 'parquet', includeGeography: 'hierarchical', metadata, destPath: parquet });
    // A reader of csv takes an empty text ("", a suburb with no SA2) for NULL, as it takes an empty field.
    const columns = [...personColumns, ...hierarchy].map((c) => `NULLIF("${c}"::VARCHAR, '')`).join(', ');
    const diff = await duck.runAndReadAll(
      `SELECT count(*)::INTEGER FROM ((SELECT ${columns} FROM read_csv('${csv}', header = true, all_varchar = true)) EXCEPT ALL (SELECT ${columns} FROM read_parquet('${parquet}')))`,
    );
    expect(diff.getRowsJS()[0]![0]).toBe(0);
    expect(await differing(`read_csv('${csv}', header = true, all_varchar = true)`)).toBe(0);
    const count = await duck.runAndReadAll(`SELECT count(*)::INTEGER FROM read_csv('${csv}', header = true, all_varchar = true)`);
    expect(count.getRowsJS()[0]![0]).toBe(5700);
  });

  it('writes csv byte for byte as DuckDB\'s own csv COPY writes the same rows', async () => {
    const parts = twoParts();
    const ours = join(tmp, 'ours.csv');
    const parquet = join(tmp, 'for-copy.parquet');
    const theirs = join(tmp, 'theirs.csv');
    await release.export({ dataset: 'persons', parts, format: 'csv', includeGeography: 'hierarchical', metadata, destPath: ours });
    await release.export({ dataset: 'persons', parts, format: 'parquet', includeGeography: 'hierarchical', metadata, destPath: parquet });
    await duck.run(`COPY (SELECT * FROM read_parquet('${parquet}')) TO '${theirs}' (FORMAT csv, HEADER true)`);
    const [a, b] = [await readFile(ours, 'utf8'), await readFile(theirs, 'utf8')];
    expect(a.split('\n')).toHaveLength(5702);
    // Labels with commas ("$1,000-$1,999") are quoted the same way.
    expect(a).toContain('"');
    expect(a === b).toBe(true);
  });

  it('writes xlsx with the same records as parquet', async () => {
    const parts = twoParts();
    const xlsx = join(tmp, 'many.xlsx');
    const parquet = join(tmp, 'again.parquet');
    await release.export({ dataset: 'persons', parts, format: 'xlsx', includeGeography: 'hierarchical', metadata, destPath: xlsx });
    await release.export({ dataset: 'persons', parts, format: 'parquet', includeGeography: 'hierarchical', metadata, destPath: parquet });
    const sheets = await readXlsxFile(xlsx);
    expect(sheets[0]!.sheet).toBe('persons');
    const [header, ...rows] = sheets[0]!.data;
    // Two parts (Australia, then VIC): the file says which selection each row answers.
    const fileColumns = [...personColumns.slice(0, 3), 'selection', ...personColumns.slice(3), ...hierarchy];
    const expected = (await duck.runAndReadAll(`SELECT ${fileColumns.map((c) => `"${c}"::VARCHAR`).join(', ')} FROM read_parquet('${parquet}')`)).getRowsJS();
    expect(header).toEqual(fileColumns);
    expect(new Set(rows.slice(0, 5000).map((r) => r[3]))).toEqual(new Set(['Australia']));
    // An empty text (a suburb with no SA2) is an empty cell: no cell holds empty text.
    expect(rows.map((r) => r.map((v) => (v === null ? null : String(v))))).toEqual(expected.map((r) => r.map((v) => (v === '' ? null : v))));
  });

  it('exports families and dwellings across chunks', async () => {
    const australia = resolved('australia', 'Australia');
    for (const dataset of ['families', 'dwellings'] as const) {
      const n = Math.min(release.poolSize(australia, dataset), 2500);
      const rows = release.sample(australia, dataset, n, 3n);
      const destPath = join(tmp, `${dataset}.parquet`);
      await release.export({ dataset, parts: [{ selection: australia, rows }], format: 'parquet', includeGeography: 'none', metadata, destPath });
      const key = dataset === 'families' ? 'family_id' : 'dwelling_id';
      const diff = await duck.runAndReadAll(
        `SELECT count(*)::INTEGER FROM read_parquet('${destPath}') f LEFT JOIN stored.${dataset} s USING (${key}) WHERE s.${key} IS NULL OR f.suburb_code::VARCHAR IS DISTINCT FROM s.suburb_code::VARCHAR`,
      );
      expect(diff.getRowsJS()[0]![0]).toBe(0);
      const ids = (await duck.runAndReadAll(`SELECT ${key} FROM read_parquet('${destPath}')`)).getColumnsJS()[0];
      expect(ids).toEqual([...rows].map((r) => `${dataset === 'families' ? 'F' : 'D'}${String(r).padStart(9, '0')}`));
    }
  });

  it.each(OUTPUT_FORMATS)('%s, as the format registry has it: a file, and the dictionary beside it only where the registry names it a companion', async (format) => {
    const destPath = join(tmp, `registry.${OUTPUT_FORMAT_SPECS[format].extension}`);
    const result = await release.export({ dataset: 'persons', parts: twoParts(), format, includeGeography: 'none', metadata, destPath });
    expect(result.rows).toBe(5700);
    expect(result.bytes).toBe((await stat(destPath)).size);
    const beside = hasDictionaryBeside(format);
    expect(result.dictionaryPath).toBe(beside ? `${destPath}.dictionary.json` : undefined);
    expect(existsSync(`${destPath}.dictionary.json`)).toBe(beside);
  });
});
