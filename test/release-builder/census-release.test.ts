/**
 * A release fitted to the real ABS postcode tables the repository ships (census/2021-gcp:
 * Tasmania, the ACT and the NT), built and opened as `npm run start:census` does: postal-area
 * pools serve postcode selections, states and Australia are made of them, a suburb query names
 * the levels the release holds, and every answer says the pools were fitted to the census.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsvLine } from '../../src/census-input/csv.ts';
import { openPoolRelease } from '../../src/adapters/pools/release.ts';
import { buildRelease, type BuildSummary } from '../../src/release-builder/build-release.ts';
import { RESEMBLANCE_LINKS } from '../../src/synthesis/quality/resemblance.ts';
import type { PoolRelease } from '../../src/ports/pool-release.ts';

const SHIPPED = fileURLToPath(new URL('../../census/2021-gcp/', import.meta.url));

/** Bytes this process has read through read calls so far (Linux /proc/self/io, rchar): what start-up reads, whatever the page cache holds. */
const bytesRead = (): number => Number(/rchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  return total;
}

describe('a release fitted to the real postcode tables the repository ships', () => {
  let root: string;
  let summary: BuildSummary;
  let release: PoolRelease;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'spq-census-'));
    summary = await buildRelease({ inputsDir: SHIPPED, poolsDir: root, version: 'census-test', seed: 1, smallSuburbThreshold: 500, levels: ['poa'] });
    release = await openPoolRelease(summary.dir);
  }, 400_000);

  afterAll(async () => {
    await release?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('fits every postal area of the three states to its own tables, with the census totals', () => {
    expect(summary.fitted_to).toBe('census');
    expect(summary.levels).toEqual(['poa']);
    // 115 + 25 + 34 postal areas less those that could not be fitted, each named with its reason.
    expect(summary.areas['poa']! + summary.areas_failed.length).toBe(174);
    for (const failed of summary.areas_failed) expect(failed.reason.length).toBeGreaterThan(0);
    expect(summary.structural_violations).toBe(0);
    expect(summary.totals_mismatched).toBe(0);
    expect(summary.cells_not_published.structural).toBeGreaterThan(0);
    expect(Object.keys(summary.srmse_by_table)).toContain('G27');
    expect(summary.srmse_by_band['5000+'].pairs).toBeGreaterThan(0);
    // The census's own noise floor beside the fit (quality/floor.ts): real tables are perturbed.
    expect(summary.floor_srmse_by_band['5000+'].pairs).toBeGreaterThan(0);
    expect(summary.floor_srmse_by_table['G04']!.median).toBeGreaterThan(0);
    expect(summary.floor_srmse_by_band['<500'].median ?? Infinity).toBeGreaterThan(summary.floor_srmse_by_band['5000+'].median!);
    // Every family link against independence and its target, in the summary (--json) as in the report.
    expect(Object.keys(summary.family_links.links)).toEqual(RESEMBLANCE_LINKS.map((l) => l.name));
    for (const link of RESEMBLANCE_LINKS) {
      const figures = summary.family_links.links[link.name]!;
      expect(figures.pairs, link.name).toBeGreaterThan(0);
      expect(figures.independence, link.name).toBeDefined();
      expect(figures.source, link.name).toBe(link.source);
    }
    const citizens = summary.family_links.links['child-citizen-of-citizen-parent']!;
    expect(citizens.alike!).toBeGreaterThanOrEqual(citizens.independence!);
    expect(summary.report.realism.all.synthetic.resemblance).toEqual(summary.family_links);
  });

  it('serves postcode selections from the postal-area pools, states and Australia from them', () => {
    expect(release.fittedTo).toBe('census');
    expect(release.levels).toEqual(['postcode', 'state', 'australia']);
    const hobart = release.resolve('postcode', '7000');
    if (!hobart.ok) throw new Error(JSON.stringify(hobart.error));
    expect(hobart.value.suburbs.map((s) => [s.level, s.salCode, s.state])).toEqual([['poa', 'POA7000', 'TAS']]);
    // The census counts 15,645 usual residents in postcode 7000.
    expect(release.poolSize(hobart.value, 'persons')).toBe(15_645);
    const darwin = release.resolve('postcode', '0800');
    expect(darwin.ok && darwin.value.suburbs[0]!.state).toBe('NT');
    const tas = release.resolve('state', 'Tasmania');
    if (!tas.ok) throw new Error('TAS');
    expect(tas.value.suburbs.every((s) => s.level === 'poa' && s.state === 'TAS')).toBe(true);
    expect(tas.value.suburbs.length).toBeGreaterThan(100);
    const australia = release.resolve('australia', 'Australia');
    expect(australia.ok && new Set(australia.value.suburbs.map((s) => s.state))).toEqual(new Set(['TAS', 'ACT', 'NT']));
  });

  it('answers a level it holds no pools for with the levels it holds', () => {
    expect(release.resolve('suburb', 'Hobart')).toEqual({ ok: false, error: { kind: 'unavailable', held: ['postcode', 'state', 'australia'] } });
    expect(release.resolve('lga', 'Hobart')).toEqual({ ok: false, error: { kind: 'unavailable', held: ['postcode', 'state', 'australia'] } });
  });

  it('searches and lists variables on the postal areas it holds', () => {
    const found = release.search({ query: '700', level: 'postcode', limit: 50 });
    expect(found.results.map((s) => s.suburbId)).toContain('7000');
    expect(found.results.every((s) => s.suburbId.startsWith('700'))).toBe(true);
    const selection = release.resolve('postcode', '7000');
    expect(selection.ok).toBe(true);
    const variables = selection.ok ? release.variables(selection.value, 'dwellings') : [];
    expect(variables.map((v) => v.code)).toContain('DLOD');
  });

  it('writes files whose geography columns fit a postal area: no suburb, its main LGA and GCCSA, DLOD not allocated', async () => {
    const selection = release.resolve('postcode', '7000');
    if (!selection.ok) throw new Error('7000');
    const destPath = join(root, 'hobart.csv');
    const rows = release.sample(selection.value, 'dwellings', 50, 3n);
    await release.export({ dataset: 'dwellings', parts: [{ selection: selection.value, rows }], format: 'csv', includeGeography: 'hierarchical', metadata: {}, destPath });
    const [header, ...lines] = (await readFile(destPath, 'utf8')).trim().split('\n');
    const columns = parseCsvLine(header!);
    const at = (name: string) => columns.indexOf(name);
    for (const line of lines) {
      const fields = parseCsvLine(line);
      expect(fields[at('suburb_code')]).toBe('POA7000');
      expect(fields[at('suburb')]).toBe('');
      expect(fields[at('postcode')]).toBe('7000');
      expect(fields[at('lga')]).toBe('Hobart');
      expect(fields[at('gccsa')]).toBe('Greater Hobart');
      expect(fields[at('state')]).toBe('TAS');
      // A postal area's DLOD is "Not allocated", a missing code: empty in DLOD, the code in DLOD_missing.
      expect([fields[at('DLOD')], fields[at('DLOD_missing')]]).toEqual(['', 'Not allocated']);
      // The SA2 holding most of 7000's people (42%, West Hobart and Hobart among its suburbs).
      expect([fields[at('sa2_code')], fields[at('sa2_name')]]).toEqual(['601051027', 'Hobart']);
    }
    const dictionary = JSON.parse(await readFile(`${destPath}.dictionary.json`, 'utf8')) as { fitted_to: string };
    expect(dictionary.fitted_to).toMatch(/^census: fitted to the real ABS 2021 Census/);
  });

  // The national tier's CI size (docs/performance.md, "National scale"): the same release, opened
  // again as a server opens it. The shape is checked, not times: start-up reads a small part of
  // the release, and the columns stay out of the process's memory, whatever their size.
  it('opens reading less than a tenth of the release and keeping no column in memory; verify "full" reads every byte', async () => {
    const dir = summary.dir;
    const releaseBytes = await sizeOf(dir);
    const columnBytes = await sizeOf(join(dir, 'columns'));
    expect(columnBytes).toBeGreaterThan(50e6);
    const before = { read: bytesRead(), buffers: process.memoryUsage().arrayBuffers };
    const opened = await openPoolRelease(dir);
    const read = bytesRead() - before.read;
    const buffers = process.memoryUsage().arrayBuffers - before.buffers;
    try {
      expect(read).toBeLessThan(0.1 * releaseBytes);
      // Before 2026-11-27 every column file was read into an ArrayBuffer here (≥ columnBytes).
      expect(buffers).toBeLessThan(0.05 * columnBytes);
      const australia = opened.resolve('australia', 'Australia');
      if (!australia.ok) throw new Error('no Australia');
      const rows = opened.sample(australia.value, 'persons', 20_000, 7n);
      const destPath = join(root, 'persons.csv');
      await opened.export({ dataset: 'persons', parts: [{ selection: australia.value, rows }], format: 'csv', includeGeography: 'none', metadata: {}, destPath });
      expect((await readFile(destPath, 'utf8')).trim().split('\n')).toHaveLength(20_001);
    } finally {
      await opened.close();
    }
    const fullStart = bytesRead();
    const full = await openPoolRelease(dir, { verify: 'full' });
    await full.close();
    expect(bytesRead() - fullStart).toBeGreaterThanOrEqual(releaseBytes * 0.95);
  });
});
