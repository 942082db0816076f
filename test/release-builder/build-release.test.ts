import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { unzipSync } from 'fflate';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoInputs } from '../../src/demo/generate.ts';
import { BuildAborted, buildImplicate, buildRelease, type BuildSummary } from '../../src/release-builder/build-release.ts';
import { implicateSeed } from '../../src/synthesis/pipeline/seeds.ts';
import { openImplicates } from '../../src/adapters/pools/implicates.ts';
import { existsSync, readdirSync } from 'node:fs';
import { openPoolRelease } from '../../src/adapters/pools/release.ts';
import { loadCensusInputs } from '../../src/census-input/load-inputs.ts';
import { parseCsvLine } from '../../src/census-input/csv.ts';
import { age5pOfAge, variableByCode } from '../../src/synthesis/census/variables.ts';
import { mainSa2Of } from '../../src/census-input/area-sa2.ts';
import type { SuburbGeography } from '../../src/synthesis/census/inputs.ts';

describe('buildRelease on generated demo inputs', () => {
  let root: string;
  let inline: BuildSummary;
  let threaded: BuildSummary;
  let multi: BuildSummary;
  const rootDir = () => root;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'spq-build-'));
    await generateDemoInputs({ outDir: join(root, 'inputs'), scale: 'demo', seed: 7, suburbs: 30 }); // 30: the first very remote place is among them
    const common = { inputsDir: join(root, 'inputs'), seed: 11, smallSuburbThreshold: 500 };
    inline = await buildRelease({ ...common, poolsDir: join(root, 'inline'), version: 'test-1', threads: 0 });
    threaded = await buildRelease({ ...common, poolsDir: join(root, 'threaded'), version: 'test-1', threads: 2 });
    multi = await buildRelease({ ...common, poolsDir: join(root, 'multi'), version: 'test-1', threads: 2, implicates: 3 });
  }, 900_000); // five syntheses of 30 suburbs; minutes on a loaded two-core machine

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('builds every suburb with linked records and no broken rule', () => {
    expect(inline.suburbs).toBe(30);
    expect(inline.persons).toBeGreaterThan(0);
    expect(inline.families).toBeGreaterThan(0);
    expect(inline.dwellings).toBeGreaterThan(0);
    expect(inline.structural_violations).toBe(0);
    expect(inline.totals_mismatched).toBe(0);
    expect(inline.variables).toEqual({ persons: expect.any(Number), families: expect.any(Number), dwellings: expect.any(Number) });
    expect(inline.variables['persons']).toBeGreaterThanOrEqual(24);
    expect(inline.variables['families']).toBeGreaterThanOrEqual(10);
    expect(inline.variables['dwellings']).toBeGreaterThanOrEqual(14);
  });

  it('reports each phase: wall and main-thread CPU, and per worker thread its CPU, busy share and areas, with what an area costs (issue 42)', () => {
    const { load, synthesize, write } = threaded.phases;
    for (const phase of [load, synthesize, write]) {
      expect(phase.seconds).toBeGreaterThan(0);
      expect(phase.main_cpu_seconds).toBeGreaterThanOrEqual(0);
    }
    expect(synthesize.workers).toHaveLength(2);
    expect(synthesize.workers.reduce((n, w) => n + w.jobs, 0)).toBe(30);
    for (const w of synthesize.workers) {
      expect(w.cpu_seconds).toBeGreaterThan(0);
      expect(w.busy_share).toBeGreaterThan(0);
      expect(w.busy_share).toBeLessThanOrEqual(1);
    }
    // Fitted over the smaller half of the areas.
    expect(synthesize.area_cost!.areas).toBe(15);
    expect(synthesize.area_cost!.per_person_us).toBeGreaterThan(0);
    // Inline, no worker threads: the synthesis is the main thread's.
    expect(inline.phases.synthesize.workers).toEqual([]);
    expect(inline.phases.synthesize.main_cpu_seconds).toBeGreaterThan(threaded.phases.synthesize.main_cpu_seconds);
  });

  it('reports fit against the input tables and the hidden truth', () => {
    expect(inline.srmse_median).not.toBeNull();
    expect(inline.srmse_median!).toBeLessThan(0.2);
    expect(inline.srmse_p95!).toBeGreaterThanOrEqual(inline.srmse_median!);
    expect(inline.truth_srmse_median).not.toBeNull();
    // The perturbation floor the demo generator measured: the truth itself misses the published tables.
    expect(inline.floor_srmse_median).toBeGreaterThan(0);
    expect(inline.floor_srmse_p95!).toBeGreaterThanOrEqual(inline.floor_srmse_median!);
    expect(inline.report.perSuburb).toHaveLength(30);
    expect(inline.report.tables.some((t) => t.kind === 'truth')).toBe(true);
  });

  it('builds M implicates: the first is the one-implicate build, each other an independent synthesis with its own seed in <release>/implicates/<k>', async () => {
    expect(multi.implicates.map((i) => i.implicate)).toEqual([1, 2, 3]);
    expect(multi.implicates.map((i) => i.seed)).toEqual([11, implicateSeed(11, 2), implicateSeed(11, 3)]);
    expect(new Set(multi.implicates.map((i) => i.seed)).size).toBe(3);
    // Implicate 1 holds what a build without implicates writes (same seed): catalog and columns byte for byte.
    for (const file of ['catalog.json', 'columns/persons/AGE5P.bin', 'columns/dwellings/TEND.bin', 'columns/persons/family_row.bin']) {
      expect((await readFile(join(multi.dir, file))).equals(await readFile(join(inline.dir, file))), file).toBe(true);
    }
    expect(multi.implicates[1]!.dir).toBe(join(multi.dir, 'implicates', '2'));
    const first = await openPoolRelease(multi.dir);
    const implicates = openImplicates(multi.dir, first);
    try {
      expect(implicates.available()).toEqual([1, 2, 3]);
      expect(await implicates.open(4)).toBeUndefined();
      const opened = await Promise.all([1, 2, 3].map(async (k) => (await implicates.open(k))!));
      expect(opened.map((i) => i.synthesisSeed)).toEqual(multi.implicates.map((i) => String(i.seed)));
      expect(new Set(opened.map((i) => i.pools.checksum)).size).toBe(3);
      // The same published totals: each suburb has as many persons in every implicate (G01), but other records.
      const fitzroyish = first.search({ query: '', level: 'suburb', limit: 50 }).results;
      for (const suburb of fitzroyish) {
        const selection = first.resolve('suburb', suburb.suburbId);
        expect(selection.ok).toBe(true);
        if (!selection.ok) continue;
        expect(opened.map((i) => i.pools.poolSize(selection.value, 'persons'))).toEqual(Array(3).fill(first.poolSize(selection.value, 'persons')));
      }
      const ages = await Promise.all([1, 2, 3].map((k) => readFile(join(k === 1 ? multi.dir : join(multi.dir, 'implicates', String(k)), 'columns', 'persons', 'AGE5P.bin'))));
      expect(ages[1]!.equals(ages[0]!)).toBe(false);
      expect(ages[2]!.equals(ages[1]!)).toBe(false);
      // Each fits its tables as well as the first (an independent synthesis, not a worse one).
      for (const i of multi.implicates) expect(i.srmse_median!).toBeLessThan(0.2);
    } finally {
      await implicates.close();
      await first.close();
    }
  });

  it('a stopped implicate build leaves nothing behind', async () => {
    const stop = new AbortController();
    stop.abort();
    const common = { inputsDir: join(root, 'inputs'), seed: 11, smallSuburbThreshold: 500, version: 'test-1', threads: 1, signal: stop.signal };
    await expect(buildImplicate(common, inline.dir, 2)).rejects.toBeInstanceOf(BuildAborted);
    expect(existsSync(join(inline.dir, 'implicates', '2'))).toBe(false);
    expect(readdirSync(join(inline.dir, 'implicates'))).toEqual([]);
  });

  it('gives the same records on worker threads as inline', async () => {
    expect(threaded.persons).toBe(inline.persons);
    expect(threaded.srmse_median).toBe(inline.srmse_median);
    const catalog = async (dir: string) => JSON.parse(await readFile(join(dir, 'catalog.json'), 'utf8')) as { suburbs: unknown[] };
    expect((await catalog(threaded.dir)).suburbs).toEqual((await catalog(inline.dir)).suburbs);
  });

  it('stores families and persons dwelling by dwelling: a household sample gets every occupant, as many as NPRD says', async () => {
    const release = await openPoolRelease(inline.dir);
    try {
      const resolved = release.resolve('australia', 'Australia');
      if (!resolved.ok) throw new Error('Australia does not resolve');
      const dwellings = release.sample(resolved.value, 'dwellings', 300, 5n);
      const persons = release.members('persons', dwellings);
      const families = release.members('families', dwellings);
      expect(families.length).toBeGreaterThan(0);
      const root = join(rootDir(), 'household');
      await release.exportBundle({
        files: [
          { name: 'dwellings.parquet', dataset: 'dwellings', parts: [{ selection: resolved.value, rows: dwellings }] },
          { name: 'persons.parquet', dataset: 'persons', parts: [{ selection: resolved.value, rows: persons }] },
        ],
        format: 'parquet',
        includeGeography: 'none',
        metadata: { test: 'household' },
        destPath: `${root}.zip`,
      });
      const entries = unzipSync(new Uint8Array(await readFile(`${root}.zip`)));
      const duck = await (await DuckDBInstance.create(':memory:')).connect();
      try {
        for (const [name, bytes] of Object.entries(entries)) await writeFile(join(rootDir(), name), bytes);
        // NPRD ("One person" … "Eight or more persons") against the occupants in the file, for
        // occupied private dwellings (a non-private dwelling's NPRD is "Not applicable").
        const mismatched = await duck.runAndReadAll(
          `SELECT count(*)::INTEGER FROM (SELECT d.dwelling_id, any_value(d.NPRD)::VARCHAR AS nprd, count(p.person_id) AS n FROM '${join(rootDir(), 'dwellings.parquet')}' d ` +
            `LEFT JOIN '${join(rootDir(), 'persons.parquet')}' p USING (dwelling_id) WHERE d.DWTD = 'Occupied private dwelling' GROUP BY d.dwelling_id) ` +
            `WHERE list_position(${JSON.stringify(variableByCode('NPRD').categories).replace(/"/g, "'")}, nprd) IS DISTINCT FROM least(n, 8)`,
        );
        expect(mismatched.getRowsJS()[0]![0]).toBe(0);
        expect((await duck.runAndReadAll(`SELECT count(*)::INTEGER FROM '${join(rootDir(), 'dwellings.parquet')}'`)).getRowsJS()[0]![0]).toBe(300);
      } finally {
        duck.closeSync();
      }
    } finally {
      await release.close();
    }
  });

  it('writes a release that opens for serving and samples every dataset', async () => {
    const release = await openPoolRelease(inline.dir);
    try {
      expect(release.version).toBe('test-1');
      const state = release.resolve('australia', 'Australia');
      expect(state.ok).toBe(true);
      if (!state.ok) return;
      for (const dataset of ['persons', 'families', 'dwellings'] as const) {
        const pool = release.poolSize(state.value, dataset);
        expect(pool).toBe(dataset === 'persons' ? inline.persons : dataset === 'families' ? inline.families : inline.dwellings);
        const rows = release.sample(state.value, dataset, Math.min(50, pool), 99n);
        expect(new Set(rows).size).toBe(rows.length);
      }
    } finally {
      await release.close();
    }
  });

  it("serves every person's AGEP inside their AGE5P group, and coarse AGEP as coarse AGE5P in small suburbs; places records in their suburb's real SA2", async () => {
    const inputs = await loadCensusInputs(join(root, 'inputs'));
    if (!inputs.ok) throw new Error(inputs.error.map((e) => e.message).join('; '));
    const release = await openPoolRelease(inline.dir);
    try {
      const all = release.resolve('australia', 'Australia');
      if (!all.ok) throw new Error('no Australia');
      const rows = release.sample(all.value, 'persons', release.poolSize(all.value, 'persons'), 1n);
      const destPath = join(root, 'ages.csv');
      await release.export({ dataset: 'persons', parts: [{ selection: all.value, rows }], format: 'csv', includeGeography: 'hierarchical', metadata: {}, destPath });
      const [header, ...lines] = (await readFile(destPath, 'utf8')).trim().split('\n');
      const at = Object.fromEntries(parseCsvLine(header!).map((name, i) => [name, i]));
      const [agep, age5p] = [variableByCode('AGEP'), variableByCode('AGE5P')];
      const sa2Of = new Map(inputs.value.suburbs.map((s) => [s.salCode, mainSa2Of(s)]));
      // Every record checked, the ones that disagree listed (an expect per record would take minutes).
      const wrong: string[] = [];
      let small = 0;
      for (const line of lines) {
        const r = parseCsvLine(line);
        const [fine, group, coarse, coarseGroup] = [r[at['AGEP']!]!, r[at['AGE5P']!]!, r[at['AGEP_coarse']!]!, r[at['AGE5P_coarse']!]!];
        // A small suburb's record: both fine columns empty, the coarse ones the same group (bar AGEP's padding).
        if (fine === '') small++;
        const agrees = fine === '' ? group === '' && coarse.replace(/\b0+(\d)/g, '$1') === coarseGroup : agep.categories.includes(fine) && age5p.categories[age5pOfAge(Number(fine.slice(0, 3)))] === group;
        const sa2 = sa2Of.get(r[at['suburb_code']!]!);
        if (!agrees || r[at['sa2_code']!] !== (sa2?.code ?? '') || r[at['sa2_name']!] !== (sa2?.name ?? '')) wrong.push(line);
      }
      expect(wrong.slice(0, 5)).toEqual([]);
      expect(small).toBeGreaterThan(0);
      expect(small).toBeLessThan(lines.length);
      // The demo's places are real suburbs: the correspondences place nearly all of them in an SA2.
      expect([...sa2Of.values()].filter(Boolean).length).toBeGreaterThanOrEqual(0.8 * sa2Of.size);
      // The variables endpoint's list: AGEP after AGE5P, G04's 85 categories, AGE5P's 9 coarse groups in a small suburb.
      const listed = (suburb: SuburbGeography) => {
        const found = release.resolve('suburb', suburb.suburbId);
        if (!found.ok) throw new Error(suburb.suburbId);
        return release.variables(found.value, 'persons').slice(0, 2).map((v) => [v.code, v.n_categories, v.measurement]);
      };
      const isSmall = (s: SuburbGeography) => {
        const found = release.suburb(s.suburbId);
        return found.ok && found.value.smallSuburb;
      };
      const smallOnes = inputs.value.suburbs.filter(isSmall);
      const large = inputs.value.suburbs.find((s) => !smallOnes.includes(s))!;
      expect(listed(large)).toEqual([['AGE5P', 21, 'ordinal'], ['AGEP', 85, 'ordinal']]);
      expect(listed(smallOnes[0]!)).toEqual([['AGE5P', 9, 'ordinal'], ['AGEP', 9, 'ordinal']]);
    } finally {
      await release.close();
    }
  }, 300_000);

  it("labels every dwelling with its suburb's Remoteness Area (remote suburbs are never Major Cities)", async () => {
    const inputs = await loadCensusInputs(join(root, 'inputs'));
    if (!inputs.ok) throw new Error(inputs.error.map((e) => e.message).join('; '));
    expect(inputs.value.suburbs.some((s) => (s.remoteness ?? 0) >= 3)).toBe(true);
    const release = await openPoolRelease(inline.dir);
    try {
      for (const suburb of inputs.value.suburbs) {
        const selection = release.resolve('suburb', suburb.suburbId);
        if (!selection.ok) throw new Error(suburb.suburbId);
        const rows = release.sample(selection.value, 'dwellings', release.poolSize(selection.value, 'dwellings'), 1n);
        const destPath = join(root, `dlod-${suburb.salCode}.csv`);
        await release.export({ dataset: 'dwellings', parts: [{ selection: selection.value, rows }], format: 'csv', includeGeography: 'none', metadata: {}, destPath });
        const [header, ...lines] = (await readFile(destPath, 'utf8')).trim().split('\n');
        const at = parseCsvLine(header!).indexOf('DLOD');
        const labels = new Set(lines.map((l) => parseCsvLine(l)[at]));
        expect([...labels], suburb.suburbId).toEqual([variableByCode('DLOD').categories[suburb.remoteness!]]);
      }
    } finally {
      await release.close();
    }
  });
});
