import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import readXlsxFile from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPoolRelease } from '../../../src/adapters/pools/release.ts';
import { dictionaryPathOf, measurementOf } from '../../../src/adapters/pools/dictionary.ts';
import type { PoolRelease, ResolvedSelection } from '../../../src/ports/pool-release.ts';
import { FIXTURE_SUBURBS, TINY_VARIABLES as FIXTURE_VARIABLES, FIXTURE_VERSION, buildFixtureRelease } from './fixture.ts';

let tmp: string;
let releaseDir: string;
let release: PoolRelease;
let duck: DuckDBConnection;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'spq-pools-'));
  releaseDir = await buildFixtureRelease(tmp, { variables: FIXTURE_VARIABLES });
  release = await openPoolRelease(releaseDir);
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(async () => {
  await release?.close();
  duck?.closeSync();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const rowsOf = async (sql: string): Promise<Record<string, unknown>[]> => (await duck.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
const resolved = (level: Parameters<PoolRelease['resolve']>[0], input: string): ResolvedSelection => {
  const r = release.resolve(level, input);
  if (!r.ok) throw new Error(`cannot resolve ${input}: ${JSON.stringify(r.error)}`);
  return r.value;
};
const personsOf = (id: string): number => FIXTURE_SUBURBS.find((s) => s.suburb.suburbId === id)!.persons;
const bySal = new Map(FIXTURE_SUBURBS.map((s) => [s.suburb.salCode, s.suburb]));

describe('openPoolRelease', () => {
  it('exposes version and checksum', () => {
    expect(release.version).toBe(FIXTURE_VERSION);
    expect(release.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a release whose files do not match the manifest, or another version', async () => {
    const copy = join(tmp, 'tampered');
    await cp(releaseDir, copy, { recursive: true });
    const catalogPath = join(copy, 'catalog.json');
    await writeFile(catalogPath, (await readFile(catalogPath, 'utf8')).replace('Fitzroy', 'Fitzroi'));
    await expect(openPoolRelease(copy)).rejects.toThrow(/catalog\.json does not match its manifest checksum/);
    await expect(openPoolRelease(releaseDir, { expectedVersion: '2021.9' })).rejects.toThrow(/not the expected "2021.9"/);
  });
});

describe('geography', () => {
  it('resolves every level and sizes pools', () => {
    expect(release.poolSize(resolved('suburb', 'richmond (vic)'), 'persons')).toBe(personsOf('Richmond (VIC)'));
    expect(release.poolSize(resolved('postcode', '3121'), 'persons')).toBe(personsOf('Richmond (VIC)') + personsOf('Burnley'));
    expect(resolved('lga', 'LGA27350').suburbs.map((s) => s.suburbId)).toEqual(['Richmond (VIC)', 'Burnley', 'Fitzroy']);
    expect(resolved('state', 'victoria').suburbs).toHaveLength(4);
    expect(release.poolSize(resolved('australia', 'Australia'), 'persons')).toBe(FIXTURE_SUBURBS.reduce((n, s) => n + s.persons, 0));
    expect(release.resolve('suburb', 'Richmond')).toEqual({ ok: false, error: { kind: 'ambiguous', choices: ['Richmond (NSW)', 'Richmond (VIC)'] } });
  });

  it('finds suburbs, searches, and reports coarsened variables per suburb', () => {
    const s = release.suburb('WANDILIGONG');
    expect(s.ok && s.value).toMatchObject({ suburbId: 'Wandiligong', smallSuburb: true, pools: { persons: 60 } });
    expect(release.search({ query: 'rich', level: 'suburb', limit: 10 }).total).toBe(2);
    const small = release.variables(resolved('suburb', 'Wandiligong'), 'persons');
    const big = release.variables(resolved('suburb', 'Fitzroy'), 'persons');
    expect(small.map((v) => [v.code, v.n_categories, v.coarse_areas])).toEqual([['AGE5P', 3, 1], ['SEXP', 2, 0], ['INCP', 5, 1]]);
    expect(big.map((v) => [v.n_categories, v.coarse_areas])).toEqual([[7, 0], [2, 0], [8, 0]]);
    // A selection of a coarse and a fine suburb holds the fine categories; it says how many areas are coarse.
    const state = release.variables(resolved('state', 'VIC'), 'persons');
    expect(state.map((v) => [v.n_categories, v.coarse_areas])).toEqual([[7, 1], [2, 0], [8, 1]]);
    // The codebook: categories in order, missing codes, coarse categories, whatever the area.
    const codebook = release.codebook('persons');
    expect(codebook.map((v) => v.code)).toEqual(['AGE5P', 'SEXP', 'INCP']);
    for (const v of codebook) expect(small.find((s) => s.code === v.code)).toMatchObject(v);
    expect(release.suburb('Nowhere').ok).toBe(false);
  });

  it('samples within the selection, reproducibly', () => {
    const sel = resolved('postcode', '3121');
    const rows = release.sample(sel, 'persons', 100, 42n);
    expect(release.sample(sel, 'persons', 100, 42n)).toEqual(rows);
    expect(release.sample(sel, 'persons', 100, 43n)).not.toEqual(rows);
    expect(new Set(rows).size).toBe(100);
  });
});

describe('export', () => {
  const parts = () => {
    const a = resolved('postcode', '3121');
    const b = resolved('suburb', 'Wandiligong');
    return [
      { selection: a, rows: release.sample(a, 'persons', 50, 1n) },
      { selection: b, rows: release.sample(b, 'persons', 50, 2n) },
    ];
  };
  const metadata = { version: FIXTURE_VERSION, seed: '12345', citation: 'spq test' };

  it('writes parquet with ids, labels, hierarchical geography, dictionary and metadata', async () => {
    const destPath = join(tmp, 'out.parquet');
    const p = parts();
    const result = await release.export({ dataset: 'persons', parts: p, format: 'parquet', includeGeography: 'hierarchical', metadata, destPath });
    expect(result.rows).toBe(100);
    expect(result.bytes).toBeGreaterThan(0);
    const rows = await rowsOf(`SELECT * FROM read_parquet('${destPath}')`);
    expect(rows).toHaveLength(100);
    // Wandiligong is small: AGE5P and INCP come with coarse companions, fine for no record of it.
    expect(Object.keys(rows[0]!)).toEqual(['person_id', 'family_id', 'dwelling_id', 'selection', 'suburb_code', 'AGE5P', 'AGE5P_coarse', 'SEXP', 'INCP', 'INCP_coarse', 'INCP_missing', 'suburb', 'postcode', 'lga', 'gccsa', 'state', 'sa2_code', 'sa2_name']);
    expect(rows.slice(0, 50).every((r) => r['selection'] === '3121')).toBe(true);
    expect(rows.slice(50).every((r) => r['selection'] === 'Wandiligong')).toBe(true);
    // Part order, then row order; ids are the sampled rows.
    expect(rows.map((r) => r['person_id'])).toEqual([...p[0]!.rows, ...p[1]!.rows].map((i) => `P${String(i).padStart(9, '0')}`));
    for (const [k, part] of [rows.slice(0, 50), rows.slice(50)].entries()) {
      expect(new Set(part.map((r) => r['person_id'])).size).toBe(50);
      for (const r of part) {
        const s = bySal.get(r['suburb_code'] as string)!;
        expect([r['suburb'], r['postcode'], r['lga'], r['gccsa'], r['state']]).toEqual([s.suburbId, s.postcode, s.lga, s.gccsa, s.state]);
        // The record's SA2: code and name where the release names them; a release before SA2 codes
        // (Burnley's entry) gives the name alone, and a suburb with none is empty (text, never null).
        expect([r['sa2_code'], r['sa2_name']]).toEqual([s.sa2Code ?? '', s.sa2 ?? '']);
        const age = FIXTURE_VARIABLES.persons[0]!;
        // Never a fine and a coarse label in one column: the small suburb's fine AGE5P is empty.
        if (k === 1) expect(r['AGE5P']).toBeNull();
        else {
          expect(age.categories).toContain(r['AGE5P']);
          expect(r['AGE5P_coarse']).toBe(age.coarse!.categories[age.coarse!.fromFine[age.categories.indexOf(r['AGE5P'] as string)]!]);
        }
        expect(age.coarse!.categories).toContain(r['AGE5P_coarse']);
        // A missing code is never a level of INCP or INCP_coarse: it is in INCP_missing, and only there.
        if (r['INCP_missing'] !== null) expect([r['INCP'], r['INCP_coarse'], r['INCP_missing']]).toEqual([null, null, expect.stringMatching(/^Not (stated|applicable)$/)]);
        else expect(r['INCP_coarse']).not.toBeNull();
      }
    }
    expect(rows.filter((r) => r['INCP_missing'] !== null).length).toBeGreaterThan(0);
    const kv = await rowsOf(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${destPath}')`);
    const meta = Object.fromEntries(kv.map((r) => [r['k'], r['v']]));
    expect(meta['seed']).toBe('12345');
    const dictionary = JSON.parse(meta['dictionary'] as string);
    expect(dictionary.variables.map((v: { code: string }) => v.code)).toEqual(['AGE5P', 'SEXP', 'INCP']);
    expect(dictionary.variables[0].coarse_categories).toEqual(['0-14 years', '15-64 years', '65 years and over']);
    expect(dictionary.variables[0]).toMatchObject({ coarse_column: 'AGE5P_coarse', empty_in_suburbs: ['Wandiligong'] });
    // The dictionary describes every column of the file, in file order.
    expect(dictionary.columns.map((c: { name: string }) => c.name)).toEqual(Object.keys(rows[0]!));
    expect(dictionary.columns.find((c: { name: string }) => c.name === 'postcode').description).toMatch(/leading zero/);
    expect(dictionary.columns.find((c: { name: string }) => c.name === 'AGE5P_coarse').kind).toBe('coarse');
    expect(dictionary.variables[1].coarse_column).toBeUndefined();
    // Missing-value codes marked, so a reader orders only the substantive levels.
    expect(dictionary.variables[2].missing).toEqual({ not_applicable: ['Not applicable'], non_response: ['Not stated'], partial_response: [] });
    expect(dictionary.variables[0].missing).toEqual({ not_applicable: [], non_response: [], partial_response: [] });
    expect(dictionary.variables[2].missing_column).toBe('INCP_missing');
    expect(dictionary.variables[0].missing_column).toBeUndefined();
    expect(dictionary.columns.find((c: { name: string }) => c.name === 'INCP_missing')).toMatchObject({ kind: 'missing', description: expect.stringMatching(/Not stated; Not applicable/) });
    // Measurement levels: readers build ordered factors for ordinal variables only.
    expect(dictionary.variables.map((v: { measurement: string }) => v.measurement)).toEqual(['ordinal', 'nominal', 'ordinal']);
  });

  it("reads a release written before measurement levels with the code's catalogue's levels", () => {
    expect(measurementOf({ code: 'HEAP', description: 'x', categories: [], labels: [] })).toBe('ordinal');
    expect(measurementOf({ code: 'BPLP', description: 'x', categories: [], labels: [] })).toBe('nominal');
    expect(measurementOf({ code: 'BPLP', description: 'x', measurement: 'ordinal', categories: [], labels: [] })).toBe('ordinal');
  });

  it('keeps fine columns alone when no suburb of the file is coarsened', async () => {
    const destPath = join(tmp, 'fine.parquet');
    const sel = resolved('postcode', '3121');
    await release.export({ dataset: 'persons', parts: [{ selection: sel, rows: release.sample(sel, 'persons', 40, 4n) }], format: 'csv', includeGeography: 'none', metadata, destPath });
    const rows = await rowsOf(`SELECT * FROM read_csv('${destPath}', header = true, all_varchar = true)`);
    expect(Object.keys(rows[0]!)).toEqual(['person_id', 'family_id', 'dwelling_id', 'suburb_code', 'AGE5P', 'SEXP', 'INCP', 'INCP_missing']);
    const dictionary = JSON.parse(await readFile(dictionaryPathOf(destPath), 'utf8'));
    expect(dictionary.variables[0].coarse_column).toBeUndefined();
  });

  it('exports exactly the records stored in pools.duckdb (column files and tables agree)', async () => {
    const destPath = join(tmp, 'agree.parquet');
    const sel = resolved('australia', 'Australia');
    await release.export({ dataset: 'persons', parts: [{ selection: sel, rows: release.sample(sel, 'persons', 500, 77n) }], format: 'parquet', includeGeography: 'none', metadata, destPath });
    await duck.run(`ATTACH '${join(releaseDir, 'pools.duckdb')}' AS stored (READ_ONLY)`);
    try {
      const cols = ['person_id', 'family_id', 'dwelling_id', 'suburb_code', 'AGE5P', 'SEXP', 'INCP'];
      const inFile = Object.keys((await rowsOf(`SELECT * FROM read_parquet('${destPath}') LIMIT 1`))[0]!);
      expect(inFile).toContain('AGE5P_coarse'); // the sample reaches Wandiligong
      // The pool stores a small suburb's coarse label and a missing code in the variable's own column; the file, in the companions.
      const value = (c: string) => `coalesce(${[c, `${c}_coarse`, `${c}_missing`].filter((name) => inFile.includes(name)).map((name) => `f.${name}::VARCHAR`).join(', ')})`;
      const differ = await rowsOf(
        `SELECT count(*)::INTEGER AS n FROM read_parquet('${destPath}') f LEFT JOIN stored.persons p USING (person_id) WHERE ` +
          cols.map((c) => `${value(c)} IS DISTINCT FROM p.${c}::VARCHAR`).join(' OR '),
      );
      expect(differ[0]!['n']).toBe(0);
    } finally {
      await duck.run('DETACH stored');
    }
  });

  it('joins each person\'s family and dwelling variables as family_* and dwelling_* columns (linked records)', async () => {
    const destPath = join(tmp, 'joined.parquet');
    const sel = resolved('postcode', '3121');
    await release.export({ dataset: 'persons', parts: [{ selection: sel, rows: release.sample(sel, 'persons', 200, 21n) }], format: 'parquet', includeGeography: 'none', linkedRecords: 'joined', metadata, destPath });
    const rows = await rowsOf(`SELECT * FROM read_parquet('${destPath}')`);
    expect(Object.keys(rows[0]!)).toEqual(['person_id', 'family_id', 'dwelling_id', 'suburb_code', 'AGE5P', 'SEXP', 'INCP', 'INCP_missing', 'family_FMCF', 'dwelling_TEND', 'dwelling_TEND_missing', 'dwelling_NPRD']);
    await duck.run(`ATTACH '${join(releaseDir, 'pools.duckdb')}' AS stored (READ_ONLY)`);
    try {
      // Every joined value is the stored family's or dwelling's own; no family, no family_* value.
      const wrong = await rowsOf(
        `SELECT count(*)::INTEGER AS n FROM read_parquet('${destPath}') p LEFT JOIN stored.families f USING (family_id) JOIN stored.dwellings d ON d.dwelling_id = p.dwelling_id ` +
          `WHERE p.family_FMCF::VARCHAR IS DISTINCT FROM f.FMCF::VARCHAR OR coalesce(p.dwelling_TEND, p.dwelling_TEND_missing)::VARCHAR IS DISTINCT FROM d.TEND::VARCHAR OR p.dwelling_NPRD::VARCHAR IS DISTINCT FROM d.NPRD::VARCHAR`,
      );
      expect(wrong[0]!['n']).toBe(0);
      const lone = await rowsOf(`SELECT count(*)::INTEGER AS n, count(family_FMCF)::INTEGER AS with_family FROM read_parquet('${destPath}') WHERE family_id IS NULL`);
      expect(lone[0]!['n']).toBeGreaterThan(0);
      expect(lone[0]!['with_family']).toBe(0);
    } finally {
      await duck.run('DETACH stored');
    }
    const kv = await rowsOf(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${destPath}')`);
    const dictionary = JSON.parse(kv.find((r) => r['k'] === 'dictionary')!['v'] as string);
    expect(dictionary.linked_variables.map((v: { column: string }) => v.column)).toEqual(['family_FMCF', 'dwelling_TEND', 'dwelling_NPRD']);
    expect(dictionary.columns.find((c: { name: string }) => c.name === 'family_FMCF')).toMatchObject({ kind: 'linked' });
    expect(dictionary.columns.find((c: { name: string }) => c.name === 'dwelling_TEND_missing')).toMatchObject({ kind: 'missing' });
    // Each linked variable carries the full dictionary, as a record's own: a client reads the joined file as a single-dataset file.
    expect(dictionary.linked_variables[1]).toEqual({
      column: 'dwelling_TEND',
      dataset_type: 'dwellings',
      code: 'TEND',
      description: 'Tenure type',
      measurement: 'nominal',
      categories: FIXTURE_VARIABLES.dwellings[0]!.categories,
      missing: { not_applicable: [], non_response: ['Not stated'], partial_response: [] },
      missing_column: 'dwelling_TEND_missing',
    });
    expect(dictionary.linked_variables[2]).toMatchObject({ column: 'dwelling_NPRD', measurement: 'ordinal', missing: { not_applicable: [], non_response: [], partial_response: [] } });
    expect(dictionary.linked_variables[2].missing_column).toBeUndefined();
  });

  it('writes a joined xlsx whose dictionary sheet gives the linked variables their missing codes and measurement, and whose data keeps the reasons', async () => {
    const destPath = join(tmp, 'joined.xlsx');
    const sel = resolved('postcode', '3121');
    await release.export({ dataset: 'persons', parts: [{ selection: sel, rows: release.sample(sel, 'persons', 200, 21n) }], format: 'xlsx', includeGeography: 'none', linkedRecords: 'joined', metadata, destPath });
    const sheets = await readXlsxFile(destPath);
    const [header, ...data] = sheets[0]!.data;
    const at = (name: string) => header!.indexOf(name);
    expect(at('dwelling_TEND_missing')).toBe(at('dwelling_TEND') + 1);
    const tenure = data.map((r) => [r[at('dwelling_TEND')], r[at('dwelling_TEND_missing')]]);
    expect(tenure.filter(([t, m]) => (t === null) === (m === null))).toEqual([]);
    expect(tenure.filter(([, m]) => m === 'Not stated').length).toBeGreaterThan(0);
    const rows = sheets[1]!.data.filter((r) => r[0] === 'dwelling_TEND');
    expect(rows.map((r) => r[3])).toEqual(FIXTURE_VARIABLES.dwellings[0]!.categories);
    expect(rows.find((r) => r[3] === 'Not stated')?.slice(4)).toEqual(['non_response', 'nominal']);
    expect(sheets[2]!.data.find((r) => r[0] === 'dwelling_TEND_missing')?.[1]).toBe('missing');
  });

  it('links persons to families and dwellings of the same release', async () => {
    const destPath = join(tmp, 'linked.parquet');
    const sel = resolved('suburb', 'Fitzroy');
    await release.export({ dataset: 'persons', parts: [{ selection: sel, rows: release.sample(sel, 'persons', 280, 5n) }], format: 'parquet', includeGeography: 'none', metadata, destPath });
    const fam = join(tmp, 'families.parquet');
    await release.export({ dataset: 'families', parts: [{ selection: sel, rows: release.sample(sel, 'families', release.poolSize(sel, 'families'), 5n) }], format: 'parquet', includeGeography: 'none', metadata, destPath: fam });
    const orphans = await rowsOf(`SELECT count(*)::INTEGER AS n FROM read_parquet('${destPath}') p LEFT JOIN read_parquet('${fam}') f USING (family_id) WHERE p.family_id IS NOT NULL AND f.dwelling_id IS DISTINCT FROM p.dwelling_id`);
    expect(orphans[0]!['n']).toBe(0);
    const lone = await rowsOf(`SELECT count(*)::INTEGER AS n FROM read_parquet('${destPath}') WHERE family_id IS NULL`);
    expect(lone[0]!['n']).toBeGreaterThan(0);
  });

  it('writes csv with a header and a separate dictionary', async () => {
    const destPath = join(tmp, 'out.csv');
    const result = await release.export({ dataset: 'dwellings', parts: [{ selection: resolved('state', 'NSW'), rows: release.sample(resolved('state', 'NSW'), 'dwellings', 30, 9n) }], format: 'csv', includeGeography: 'none', metadata, destPath });
    expect(result.rows).toBe(30);
    const rows = await rowsOf(`SELECT * FROM read_csv('${destPath}', header = true, all_varchar = true)`);
    expect(rows).toHaveLength(30);
    expect(Object.keys(rows[0]!)).toEqual(['dwelling_id', 'suburb_code', 'TEND', 'TEND_missing', 'NPRD']);
    // Empty, never "Not stated", in TEND; the reason in TEND_missing.
    expect(rows.every((r) => r['TEND'] !== 'Not stated' && (r['TEND_missing'] === null || (r['TEND'] === null && r['TEND_missing'] === 'Not stated')))).toBe(true);
    expect(new Set(rows.map((r) => r['suburb_code']))).toEqual(new Set(['SAL13327']));
    const dictionary = JSON.parse(await readFile(dictionaryPathOf(destPath), 'utf8'));
    expect(dictionary.variables[0]).toMatchObject({ code: 'TEND', categories: FIXTURE_VARIABLES.dwellings[0]!.categories });
    expect(dictionary.metadata.seed).toBe('12345');
  });

  it('writes xlsx that two independent readers read back exactly, with dictionary and metadata sheets', async () => {
    const destPath = join(tmp, 'out.xlsx');
    const p = parts();
    await release.export({ dataset: 'persons', parts: p, format: 'xlsx', includeGeography: 'hierarchical', metadata, destPath });
    const parquetPath = join(tmp, 'same.parquet');
    await release.export({ dataset: 'persons', parts: p, format: 'parquet', includeGeography: 'hierarchical', metadata, destPath: parquetPath });
    // An empty geography field (Burnley's sa2_code) is an empty cell: no cell holds empty text.
    const expected = (await duck.runAndReadAll(`SELECT * FROM read_parquet('${parquetPath}')`)).getRowsJS().map((r) => r.map((v) => (v === '' ? null : (v ?? null))));

    const sheets = await readXlsxFile(destPath);
    expect(sheets.map((s) => s.sheet)).toEqual(['persons', 'dictionary', 'columns', 'metadata']);
    const data = sheets[0]!.data;
    expect(data[0]).toEqual(['person_id', 'family_id', 'dwelling_id', 'selection', 'suburb_code', 'AGE5P', 'AGE5P_coarse', 'SEXP', 'INCP', 'INCP_coarse', 'INCP_missing', 'suburb', 'postcode', 'lga', 'gccsa', 'state', 'sa2_code', 'sa2_name']);
    // read-excel-file parses "3121" as text (it is a shared string), so rows compare exactly.
    expect(data.slice(1)).toEqual(expected);
    expect(sheets[3]!.data).toContainEqual(['seed', '12345']);
    expect(sheets[2]!.data.slice(1).map((r) => r[0])).toEqual(data[0]);
    const dictionaryRow = (code: string, label: string) => sheets[1]!.data.find((r) => r[0] === code && r[3] === label);
    expect(sheets[1]!.data[0]).toEqual(['code', 'description', 'category_index', 'label', 'missing', 'measurement']);
    expect(dictionaryRow('INCP', 'Not stated')?.[5]).toBe('ordinal');
    expect(dictionaryRow('INCP_coarse', 'Under $400')?.[5]).toBe('ordinal');
    expect(dictionaryRow('SEXP', 'Female')?.[5]).toBe('nominal');
    expect(dictionaryRow('INCP', '$1-$399')?.slice(0, 4)).toEqual(['INCP', 'Total personal income (weekly)', 3, '$1-$399']);
    expect(dictionaryRow('INCP', '$1-$399')?.[4] ?? '').toBe('');
    expect(dictionaryRow('INCP', 'Not stated')?.[4]).toBe('non_response');
    expect(dictionaryRow('INCP', 'Not applicable')?.[4]).toBe('not_applicable');
    expect(dictionaryRow('INCP_coarse', 'Under $400')?.slice(0, 4)).toEqual(['INCP_coarse', 'Total personal income (weekly) (coarse categories, every record; INCP is empty for small suburbs)', 1, 'Under $400']);

    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(destPath);
    const ws = book.getWorksheet('persons')!;
    expect(ws.rowCount).toBe(101);
    const second = (ws.getRow(2).values as unknown[]).slice(1);
    expect(second).toEqual(expected[0]!.map((v) => v ?? undefined));
  });

  // LibreOffice is an optional tool here (apt package libreoffice-calc-nogui); when it is
  // installed, the xlsx must open in it and convert to the same table as our csv export.
  const soffice = ['/usr/bin/soffice', '/usr/local/bin/soffice'].find((p) => existsSync(p));
  it.skipIf(!soffice)('opens in LibreOffice with the same records as the csv export', async () => {
    const sel = resolved('australia', 'AUS');
    const rows = release.sample(sel, 'persons', 300, 3n);
    const dir = join(tmp, 'libreoffice');
    await mkdir(dir);
    for (const format of ['xlsx', 'csv'] as const) {
      await release.export({ dataset: 'persons', parts: [{ selection: sel, rows }], format, includeGeography: 'hierarchical', metadata, destPath: join(dir, `out.${format}`) });
    }
    // Filter options 44,34,76,1,,0,false,true,false,false,false,-1: comma, quote, UTF-8, every sheet to its own file.
    execFileSync(soffice!, ['--headless', `-env:UserInstallation=file://${dir}/profile`, '--convert-to', 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1', '--outdir', join(dir, 'lo'), join(dir, 'out.xlsx')], { stdio: 'ignore', timeout: 60_000 });
    const read = async (path: string) => (await duck.runAndReadAll(`SELECT * FROM read_csv('${path}', header = true, all_varchar = true)`)).getRowsJS();
    const fromLibreOffice = await read(join(dir, 'lo', 'out-persons.csv'));
    expect(fromLibreOffice).toHaveLength(300);
    expect(fromLibreOffice).toEqual(await read(join(dir, 'out.csv')));
    expect(await read(join(dir, 'lo', 'out-metadata.csv'))).toContainEqual(['seed', '12345']);
  });

  it('fails cleanly when the file cannot be written, and keeps serving', async () => {
    const sel = resolved('suburb', 'Fitzroy');
    const rows = release.sample(sel, 'persons', 10, 1n);
    for (const format of ['parquet', 'csv', 'xlsx'] as const) {
      await expect(release.export({ dataset: 'persons', parts: [{ selection: sel, rows }], format, includeGeography: 'none', metadata, destPath: join(tmp, 'no-such-dir', `x.${format}`) })).rejects.toThrow();
    }
    const ok = await release.export({ dataset: 'persons', parts: [{ selection: sel, rows }], format: 'csv', includeGeography: 'none', metadata, destPath: join(tmp, 'after-failure.csv') });
    expect(ok.rows).toBe(10);
  });

  it('serves concurrent exports, each on its own connection', async () => {
    const sel = resolved('australia', 'AUS');
    const runs = await Promise.all(
      [1n, 2n, 3n, 4n].map((seed, k) =>
        release.export({ dataset: 'persons', parts: [{ selection: sel, rows: release.sample(sel, 'persons', 200, seed) }], format: k % 2 ? 'csv' : 'parquet', includeGeography: 'none', metadata, destPath: join(tmp, `c${k}.${k % 2 ? 'csv' : 'parquet'}`) }),
      ),
    );
    expect(runs.map((r) => r.rows)).toEqual([200, 200, 200, 200]);
    const n = await rowsOf(`SELECT count(DISTINCT person_id)::INTEGER AS n FROM read_parquet('${join(tmp, 'c2.parquet')}')`);
    expect(n[0]!['n']).toBe(200);
  });
});
