/**
 * docs/api.md "Reading the files with categories in their order": the DuckDB recipe, run on a
 * real export: the dictionary from the parquet metadata gives each column's categories, and a
 * cast to that ENUM sorts in ABS order (not alphabetically: "10-14 years" after "5-9 years").
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPoolRelease } from '../../src/adapters/pools/release.ts';
import type { PoolRelease } from '../../src/ports/pool-release.ts';
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

describe('reading a parquet file in category order with DuckDB', () => {
  it('casts a column to the ENUM of its dictionary\'s categories and sorts in ABS order', async () => {
    const selection = release.resolve('australia', 'Australia');
    if (!selection.ok) throw new Error('no Australia');
    const path = join(dir, 'persons.parquet');
    await release.export({ dataset: 'persons', parts: [{ selection: selection.value, rows: release.sample(selection.value, 'persons', 400, 3n) }], format: 'parquet', includeGeography: 'none', metadata: { test: 'reading' }, destPath: path });
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      const raw = (await duck.runAndReadAll(`SELECT decode(value) FROM parquet_kv_metadata('${path}') WHERE decode(key) = 'dictionary'`)).getRowsJS()[0]![0] as string;
      const age = (JSON.parse(raw) as { variables: { code: string; categories: string[] }[] }).variables.find((v) => v.code === 'AGE5P')!;
      expect(age.categories).toEqual(CATALOGUE_VARIABLES.persons.find((v) => v.code === 'AGE5P')!.categories);
      const enumType = `ENUM(${age.categories.map((c) => `'${c.replace(/'/g, "''")}'`).join(', ')})`;
      const sorted = (await duck.runAndReadAll(`SELECT DISTINCT AGE5P::${enumType} AS a FROM '${path}' WHERE AGE5P IS NOT NULL ORDER BY a`)).getRowsJS().map((r) => String(r[0]));
      const inOrder = age.categories.filter((c) => sorted.includes(c));
      expect(sorted).toEqual(inOrder);
      // Plain strings would sort otherwise: the cast is what gives the order.
      const plain = (await duck.runAndReadAll(`SELECT DISTINCT AGE5P::VARCHAR AS a FROM '${path}' WHERE AGE5P IS NOT NULL ORDER BY a`)).getRowsJS().map((r) => String(r[0]));
      expect(plain).not.toEqual(inOrder);
    } finally {
      duck.closeSync();
    }
  });
});
