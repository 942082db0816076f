/**
 * Household samples (issue 11, item 1a): n dwellings drawn without replacement, returned with all
 * their families and persons, one file per dataset in one zip, so every person's family_id and
 * dwelling_id resolve inside the download.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { unzipSync } from 'fflate';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { householdRecords } from '../../src/core/pricing.ts';
import { FIXTURE_VERSION } from '../adapters/pools/fixture.ts';
import { download } from './files.ts';
import { query, serverWithAccount } from './harness.ts';

const ctx = serverWithAccount(50);

const household = (format: string, n = 40, selections = ['3065', '3068']) =>
  query({ geography_level: 'postcode', geography_selections: selections, dataset_type: 'dwellings', n_observations: n, output_format: format, linked_records: 'household' });

describe('household samples', () => {
  it('return the dwellings with all their families and persons, one file each in a zip; ids resolve inside; counts agree with NPRD', async () => {
    const res = await ctx.s.call('/query/execute', { key: ctx.key, body: household('parquet') });
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    expect(json.metadata.linked_records).toBe('household');
    expect(json.dictionary_url).toBeUndefined();
    const file = await download(json.download_url, ctx.s.dataDir, 'household.zip');
    expect(file.response.headers.get('content-type')).toBe('application/zip');
    expect(file.response.headers.get('content-disposition')).toContain(`spq-${json.query_id}-household.zip`);
    const entries = unzipSync(new Uint8Array(await readFile(file.path)));
    expect(Object.keys(entries).sort()).toEqual(['dwellings', 'families', 'persons'].map((d) => `spq-${json.query_id}-${d}.parquet`).sort());
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    for (const [name, bytes] of Object.entries(entries)) await writeFile(join(ctx.s.dataDir, name), bytes);
    const path = (d: string) => join(ctx.s.dataDir, `spq-${json.query_id}-${d}.parquet`);
    const one = async (sql: string) => (await duck.runAndReadAll(sql)).getRowsJS()[0]!;
    // 40 dwellings per postcode, none twice although both postcodes hold Fitzroy.
    expect(await one(`SELECT count(*)::INTEGER, count(DISTINCT dwelling_id)::INTEGER FROM '${path('dwellings')}'`)).toEqual([80, 80]);
    // Every person's and family's dwelling, and every person's family, is in the download.
    expect(await one(`SELECT count(*)::INTEGER FROM '${path('persons')}' p LEFT JOIN '${path('dwellings')}' d USING (dwelling_id) WHERE d.dwelling_id IS NULL`)).toEqual([0]);
    expect(await one(`SELECT count(*)::INTEGER FROM '${path('families')}' f LEFT JOIN '${path('dwellings')}' d USING (dwelling_id) WHERE d.dwelling_id IS NULL`)).toEqual([0]);
    expect(await one(`SELECT count(*)::INTEGER FROM '${path('persons')}' p LEFT JOIN '${path('families')}' f USING (family_id) WHERE p.family_id IS NOT NULL AND f.family_id IS NULL`)).toEqual([0]);
    // All the occupants: as many persons and families as the release stores for those dwellings.
    // (The fixture's NPRD labels are drawn at random, so "counts agree with NPRD" is checked on a
    // synthesized release in test/build.)
    await duck.run(`ATTACH '${join(ctx.s.dataDir, 'pools', FIXTURE_VERSION, 'pools.duckdb')}' AS stored (READ_ONLY)`);
    for (const d of ['persons', 'families']) {
      const stored = await one(`SELECT count(*)::INTEGER FROM stored.${d} WHERE dwelling_id IN (SELECT dwelling_id FROM '${path('dwellings')}')`);
      expect(await one(`SELECT count(*)::INTEGER FROM '${path(d)}'`), d).toEqual(stored);
    }
    expect(await one(`SELECT count(*)::INTEGER FROM '${path('persons')}' WHERE selection NOT IN ('3065', '3068')`)).toEqual([0]);
    duck.closeSync();
  });

  it('is priced by the records it returns on average, shown by preview, and refuses other datasets', async () => {
    const body = household('csv', 10, ['3121']);
    const preview = await (await ctx.s.call('/query/preview', { key: ctx.key, body })).json();
    const pools = { dwellings: 0, families: 0, persons: 0 };
    const selection = ctx.s.pools.resolve('postcode', '3121');
    if (!selection.ok) throw new Error('3121 does not resolve');
    for (const d of ['dwellings', 'families', 'persons'] as const) pools[d] = ctx.s.pools.poolSize(selection.value, d);
    expect(preview.credit_cost).toBe(Math.ceil(householdRecords(10, [pools]) / 500));
    const wrong = await ctx.s.call('/query/execute', { key: ctx.key, body: { ...household('csv'), dataset_type: 'persons' } });
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).detail).toMatch(/set dataset_type to "dwellings"/);
  });

  it('zips csv files with their dictionaries, and history names the zip', async () => {
    const json = await (await ctx.s.call('/query/execute', { key: ctx.key, body: household('csv', 5, ['3121']) })).json();
    const file = await download(json.download_url, ctx.s.dataDir, 'household-csv.zip');
    const names = Object.keys(unzipSync(new Uint8Array(await readFile(file.path)))).sort();
    expect(names).toEqual(
      ['dwellings', 'families', 'persons'].flatMap((d) => [`spq-${json.query_id}-${d}-dictionary.json`, `spq-${json.query_id}-${d}.csv`]).sort(),
    );
    const item = await (await ctx.s.call(`/query/${json.query_id}`, { key: ctx.key })).json();
    expect(decodeURIComponent(item.download_url)).toContain('household.zip');
    expect(item.dictionary_url).toBeUndefined();
  });
});

describe('householdRecords', () => {
  it('bills each selection its n dwellings with the families and persons they hold on average, rounded up', () => {
    expect(householdRecords(10, [{ dwellings: 100, families: 60, persons: 250 }])).toBe(41);
    expect(householdRecords(3, [{ dwellings: 7, families: 3, persons: 15 }, { dwellings: 0, families: 0, persons: 0 }])).toBe(Math.ceil((3 * 25) / 7));
  });
});
