import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../../src/adapters/pools/catalog.ts';
import { createPoolReleaseWriter } from '../../../src/adapters/pools/writer.ts';
import { columnLabels } from '../../../src/synthesis/census/variables.ts';
import { DATASET_TYPES } from '../../../src/core/dataset.ts';
import { CATALOGUE_VARIABLES, FIXTURE_SUBURBS, TINY_VARIABLES, buildFixtureRelease, fixturePopulation } from './fixture.ts';

let tmp: string;
let releaseDir: string;
let db: DuckDBInstance;
let duck: DuckDBConnection;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'spq-writer-'));
  releaseDir = await buildFixtureRelease(tmp);
  db = await DuckDBInstance.create(join(releaseDir, 'pools.duckdb'), { access_mode: 'READ_ONLY' });
  duck = await db.connect();
});
afterAll(async () => {
  duck?.closeSync();
  db?.closeSync();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const rows = async (sql: string) => (await duck.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];

describe('pool release writer (real variable catalogue)', () => {
  it('writes the release files and nothing else', async () => {
    expect((await readdir(releaseDir)).sort()).toEqual(['catalog.json', 'columns', 'manifest.json', 'pools.duckdb', 'report.json', 'report.txt']);
  });

  it('creates one ENUM column per variable with the catalogue labels in order', async () => {
    for (const dataset of DATASET_TYPES) {
      const cols = await rows(`SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_name = '${dataset}' ORDER BY ordinal_position`);
      const vars = CATALOGUE_VARIABLES[dataset];
      const ids = { persons: ['person_id', 'family_id', 'dwelling_id'], families: ['family_id', 'dwelling_id'], dwellings: ['dwelling_id'] }[dataset];
      expect(cols.map((c) => c['name'])).toEqual(['row_index', ...ids, 'suburb_code', ...vars.map((v) => v.code)]);
      for (const v of vars) {
        const labels = await rows(`SELECT enum_range(arg_min("${v.code}", row_index))::VARCHAR[] AS l FROM ${dataset}`);
        expect(labels[0]!['l']).toEqual(columnLabels(v));
      }
    }
  });

  it('orders rows by suburb with row_index = position, and ids unique', async () => {
    const persons = await rows(`SELECT suburb_code, min(row_index)::INTEGER AS lo, max(row_index)::INTEGER AS hi, count(*)::INTEGER AS n, count(DISTINCT person_id)::INTEGER AS ids FROM persons GROUP BY suburb_code ORDER BY lo`);
    let at = 0;
    expect(persons.map((r) => r['suburb_code'])).toEqual(FIXTURE_SUBURBS.map((s) => s.suburb.salCode));
    for (const [k, r] of persons.entries()) {
      expect(r).toMatchObject({ lo: at, hi: at + FIXTURE_SUBURBS[k]!.persons - 1, n: FIXTURE_SUBURBS[k]!.persons, ids: FIXTURE_SUBURBS[k]!.persons });
      at += FIXTURE_SUBURBS[k]!.persons;
    }
    const catalog = JSON.parse(await readFile(join(releaseDir, 'catalog.json'), 'utf8')) as Catalog;
    expect(catalog.suburbs.map((s) => s.offsets.persons)).toEqual(persons.map((r) => r['lo']));
    expect(catalog.totals.persons).toBe(at);
  });

  it('links every person to a family and a dwelling of the same suburb', async () => {
    const broken = await rows(`
      SELECT count(*)::INTEGER AS n FROM persons p
      LEFT JOIN dwellings d ON d.dwelling_id = p.dwelling_id
      LEFT JOIN families f ON f.family_id = p.family_id
      WHERE d.suburb_code IS DISTINCT FROM p.suburb_code
         OR (p.family_id IS NOT NULL AND (f.dwelling_id IS DISTINCT FROM p.dwelling_id OR f.suburb_code <> p.suburb_code))`);
    expect(broken[0]!['n']).toBe(0);
  });

  it('stores coarse labels only in the small suburb, and says so in the catalog', async () => {
    const catalog = JSON.parse(await readFile(join(releaseDir, 'catalog.json'), 'utf8')) as Catalog;
    const small = catalog.suburbs.find((s) => s.smallSuburb)!;
    expect(small.coarsened).toContain('AGE5P');
    const age = CATALOGUE_VARIABLES.persons.find((v) => v.code === 'AGE5P')!;
    const labels = await rows(`SELECT DISTINCT suburb_code = '${small.salCode}' AS small, AGE5P::VARCHAR AS l FROM persons`);
    for (const r of labels) expect((r['small'] ? age.coarse!.categories : age.categories).includes(r['l'] as string)).toBe(true);
    expect(catalog.suburbs.find((s) => s.suburbId === 'Fitzroy')!.postcodes).toEqual(['3065', '3068']);
  });
});

describe('pool release writer without the SQL copy (what a census build writes by default)', () => {
  it('writes the same column files and catalog, and no pools.duckdb, in the manifest or the directory', async () => {
    const without = await buildFixtureRelease(join(tmp, 'no-sql'), { sqlCopy: false });
    expect((await readdir(without)).sort()).toEqual(['catalog.json', 'columns', 'manifest.json', 'report.json', 'report.txt']);
    const manifest = JSON.parse(await readFile(join(without, 'manifest.json'), 'utf8')) as { files: Record<string, unknown> | { path: string }[] };
    expect(JSON.stringify(manifest)).not.toContain('pools.duckdb');
    for (const dataset of DATASET_TYPES) {
      const names = (await readdir(join(releaseDir, 'columns', dataset))).sort();
      expect((await readdir(join(without, 'columns', dataset))).sort()).toEqual(names);
      for (const name of names) expect(await readFile(join(without, 'columns', dataset, name))).toEqual(await readFile(join(releaseDir, 'columns', dataset, name)));
    }
    expect(await readFile(join(without, 'catalog.json'), 'utf8')).toBe(await readFile(join(releaseDir, 'catalog.json'), 'utf8'));
  });
});

describe('pool release writer refuses bad input', () => {
  const suburb = FIXTURE_SUBURBS[1]!.suburb;
  const open = async (name: string) => createPoolReleaseWriter({ dir: join(tmp, name), version: 'x', variables: TINY_VARIABLES });

  it('refuses a non-empty directory', async () => {
    await expect(createPoolReleaseWriter({ dir: releaseDir, version: 'x', variables: TINY_VARIABLES })).rejects.toThrow(/not empty/);
  });

  it('refuses a category index outside the variable, and a dangling link', async () => {
    const w = await open('bad-values');
    const pop = fixturePopulation(10, [], 1, TINY_VARIABLES);
    (pop.persons.variables['SEXP'] as Uint8Array)[3] = 2;
    await expect(w.append({ suburb, population: pop, coarsened: [] })).rejects.toThrow(/SEXP value 2 outside/);
    const pop2 = fixturePopulation(10, [], 1, TINY_VARIABLES);
    (pop2.persons.dwelling as Uint32Array)[0] = 999;
    await expect(w.append({ suburb: { ...suburb, salCode: 'SAL1' }, population: pop2, coarsened: [] })).rejects.toThrow(/missing dwelling/);
    await w.abort();
    await expect(readdir(join(tmp, 'bad-values'))).rejects.toThrow(/ENOENT/);
  });
});
