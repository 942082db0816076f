/**
 * One release of two levels fitted to the real ABS tables the repository ships (census/2021-gcp),
 * on the Northern Territory's rows (68 SA2s, 34 postal areas) to keep it small: each SA2 and postal
 * area fitted to its own tables, the build's figures overall and per level (`by_level`), SA2s
 * served by code and by ABS name, states and Australia made of the SA2s (the finer level, which
 * nests in states), each area with its ABS code.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsvLine } from '../../src/census-input/csv.ts';
import { openPoolRelease } from '../../src/adapters/pools/release.ts';
import { buildRelease, type BuildSummary } from '../../src/release-builder/build-release.ts';
import type { PoolRelease } from '../../src/ports/pool-release.ts';

const SHIPPED = fileURLToPath(new URL('../../census/2021-gcp/', import.meta.url));

/** The shipped Northern Territory state packs of some levels, beside the STE and AUS parents. */
async function territoryInputs(dir: string, levels: readonly string[]): Promise<string> {
  for (const level of levels) {
    await mkdir(join(dir, level), { recursive: true });
    for (const name of await readdir(join(SHIPPED, level))) if (name.endsWith(`_NT_${level}.csv`)) await symlink(join(SHIPPED, level, name), join(dir, level, name));
  }
  for (const parent of ['STE', 'AUS']) await symlink(join(SHIPPED, parent), join(dir, parent));
  return dir;
}

describe('a release of SA2s and postal areas fitted to the real tables of the Northern Territory', () => {
  let root: string;
  let summary: BuildSummary;
  let release: PoolRelease;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'spq-sa2-'));
    const inputsDir = await territoryInputs(join(root, 'inputs'), ['SA2', 'POA']);
    summary = await buildRelease({ inputsDir, poolsDir: join(root, 'pools'), version: 'sa2-test', seed: 1, smallSuburbThreshold: 500, levels: ['poa', 'sa2'] });
    release = await openPoolRelease(summary.dir);
  }, 900_000);

  afterAll(async () => {
    await release?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('fits every SA2 and postal area to its own tables, with figures per level that add up to the whole', () => {
    expect(summary.fitted_to).toBe('census');
    // Finest first, whatever order --levels gave.
    expect(summary.levels).toEqual(['sa2', 'poa']);
    const { sa2, poa } = summary.by_level;
    if (!sa2 || !poa) throw new Error(`by_level: ${Object.keys(summary.by_level).join()}`);
    // 68 spatial SA2s (the no-usual-address and migratory ones are no place) and 34 postal areas, less any named as failed.
    expect(sa2.areas + sa2.areas_failed.length).toBe(68);
    expect(poa.areas + poa.areas_failed.length).toBe(34);
    expect(summary.areas).toEqual({ sa2: sa2.areas, poa: poa.areas });
    expect(summary.areas_failed).toEqual([...sa2.areas_failed, ...poa.areas_failed]);
    for (const failed of summary.areas_failed) expect(failed.reason.length).toBeGreaterThan(0);
    // Every SA2's persons are its G01 total: the territory's SA2 rows add up to 229,018 usual residents.
    expect(sa2.totals_mismatched).toBe(0);
    if (sa2.areas_failed.length === 0) expect(sa2.persons).toBe(229_018);
    expect(sa2.persons + poa.persons).toBe(summary.persons);
    expect(sa2.families + poa.families).toBe(summary.families);
    expect(sa2.cells_not_published.structural + poa.cells_not_published.structural).toBe(summary.cells_not_published.structural);
    expect(sa2.cells_not_published.structural).toBeGreaterThan(0);
    for (const figures of [summary, sa2, poa]) {
      expect(figures.structural_violations).toBe(0);
      expect(Object.keys(figures.srmse_by_table)).toContain('G27');
      expect(figures.srmse_median).toBeGreaterThan(0);
    }
    expect(summary.srmse_by_band['5000+'].pairs).toBe(sa2.srmse_by_band['5000+'].pairs + poa.srmse_by_band['5000+'].pairs);
    expect(sa2.srmse_by_band['5000+'].pairs).toBeGreaterThan(0);
  });

  it('serves SA2s by nine-digit code or ABS name, postcodes from the postal areas, the territory and Australia from the SA2s', () => {
    expect(release.levels).toEqual(['postcode', 'sa2', 'state', 'australia']);
    const darwin = release.resolve('sa2', '701011002');
    if (!darwin.ok) throw new Error(JSON.stringify(darwin.error));
    expect(darwin.value.canonical).toBe('Darwin City');
    expect(darwin.value.suburbs.map((s) => [s.level, s.salCode, s.state])).toEqual([['sa2', '701011002', 'NT']]);
    // The census counts 7,149 usual residents in SA2 701011002.
    expect(release.poolSize(darwin.value, 'persons')).toBe(7_149);
    expect(release.resolve('sa2', ' darwin  CITY ')).toMatchObject({ ok: true, value: { canonical: 'Darwin City' } });
    expect(release.resolve('postcode', '0800')).toMatchObject({ ok: true, value: { suburbs: [{ level: 'poa', salCode: 'POA0800' }] } });
    const territory = release.resolve('state', 'NT');
    if (!territory.ok) throw new Error('NT');
    expect(territory.value.suburbs.every((s) => s.level === 'sa2')).toBe(true);
    expect(release.poolSize(territory.value, 'persons')).toBe(summary.by_level.sa2!.persons);
    expect(release.resolve('suburb', 'Darwin City')).toEqual({ ok: false, error: { kind: 'unavailable', held: ['postcode', 'sa2', 'state', 'australia'] } });
  });

  it("places every record in an SA2 with hierarchical geography: an SA2's own, a postal area's the one holding most of its people", async () => {
    const parts = (['sa2', 'postcode'] as const).map((level) => {
      const selection = release.resolve(level, level === 'sa2' ? '701011002' : '0800');
      if (!selection.ok) throw new Error(level);
      return { selection: selection.value, rows: release.sample(selection.value, 'persons', 30, 5n) };
    });
    const destPath = join(root, 'darwin.csv');
    await release.export({ dataset: 'persons', parts, format: 'csv', includeGeography: 'hierarchical', metadata: {}, destPath });
    const [header, ...lines] = (await readFile(destPath, 'utf8')).trim().split('\n');
    const columns = parseCsvLine(header!);
    const rows = lines.map((line) => Object.fromEntries(parseCsvLine(line).map((v, i) => [columns[i]!, v])));
    expect(columns.slice(-2)).toEqual(['sa2_code', 'sa2_name']);
    expect(new Set(rows.map((r) => `${r['suburb_code']} ${r['sa2_code']} ${r['sa2_name']}`))).toEqual(new Set(['701011002 701011002 Darwin City', 'POA0800 701011002 Darwin City']));
  });

  it('finds SA2s by name or code, and lists an SA2\'s variables by its code', () => {
    const found = release.search({ query: 'darwin', level: 'sa2', limit: 50 });
    expect(found.results.map((s) => s.suburbId)).toEqual(expect.arrayContaining(['Darwin City', 'Darwin Airport', 'Charles Darwin']));
    expect(found.results.every((s) => s.level === 'sa2' && /^7\d{8}$/.test(s.salCode))).toBe(true);
    expect(release.search({ query: '70101100', level: 'sa2', limit: 50 }).results.map((s) => s.salCode).sort()).toEqual(
      expect.arrayContaining(['701011001', '701011002']),
    );
    expect(release.suburb('701011002')).toMatchObject({ ok: true, value: { suburbId: 'Darwin City', level: 'sa2' } });
    const selection = release.resolve('sa2', '701011002');
    expect(selection.ok).toBe(true);
    expect(selection.ok && release.variables(selection.value, 'persons').length).toBeGreaterThan(10);
  });
});
