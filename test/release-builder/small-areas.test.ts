import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCensusInputs } from '../../src/census-input/load-inputs.ts';
import type { CensusInputs } from '../../src/synthesis/census/inputs.ts';
import { INPUT_TABLES } from '../../src/synthesis/census/tables.ts';
import { AGES } from '../../src/synthesis/synthesizer/structure/model.ts';
import { buildRelease, type BuildSummary } from '../../src/release-builder/build-release.ts';
import { areaJob } from '../../src/synthesis/pipeline/area-job.ts';
import { prepareLevel } from '../../src/synthesis/pipeline/level.ts';
import { runSuburbJob } from '../../src/synthesis/pipeline/run-job.ts';
import { BORROWING_PSEUDO_COUNT } from '../../src/synthesis/synthesizer/borrow.ts';
import { STRENGTH_CANDIDATES } from '../../src/synthesis/synthesizer/borrow-strength.ts';

/**
 * Small areas borrow strength, on real 2021 DataPack rows: three Tasmanian postal areas cut from
 * the Australia-wide POA files (as a state pack), with the real STE and AUS files as parents.
 * POA7466 has 32 persons and G04 cells that all read 0 (perturbation zeroed every single year);
 * POA7119 has 47 persons and G04 cells adding up to 3.
 */
const PACK = fileURLToPath(new URL('../../../shared/abs/2021-gcp/datapack/2021 Census GCP All Geographies for AUS/', import.meta.url));
const present = existsSync(join(PACK, 'POA', 'AUS', '2021Census_G01_AUST_POA.csv'));
const POSTCODES = ['POA7466', 'POA7119', 'POA7170'];

async function writeStatePack(dir: string): Promise<void> {
  await mkdir(join(dir, 'POA'), { recursive: true });
  for (const part of new Set(INPUT_TABLES.flatMap((t) => t.files))) {
    const lines = (await readFile(join(PACK, 'POA', 'AUS', `2021Census_${part}_AUST_POA.csv`), 'utf8')).split('\n');
    const rows = lines.slice(1).filter((line) => POSTCODES.includes(line.slice(0, line.indexOf(','))));
    await writeFile(join(dir, 'POA', `2021Census_${part}_TAS_POA.csv`), `${[lines[0], ...rows].join('\n')}\n`);
  }
  await symlink(join(PACK, 'STE'), join(dir, 'STE'));
  await symlink(join(PACK, 'AUS'), join(dir, 'AUS'));
}

describe.skipIf(!present)('small areas on real postal areas (../shared/abs)', () => {
  let root: string;
  let summary: BuildSummary;
  let inputs: CensusInputs;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'spq-small-'));
    await writeStatePack(join(root, 'inputs'));
    summary = await buildRelease({ inputsDir: join(root, 'inputs'), poolsDir: join(root, 'pools'), version: 'small-1', seed: 3, smallSuburbThreshold: 500, levels: ['poa'], threads: 0 });
    const loaded = await loadCensusInputs(join(root, 'inputs'), undefined, { level: 'poa' });
    if (!loaded.ok) throw new Error(loaded.error.map((e) => e.message).join('; '));
    inputs = loaded.value;
  }, 120_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('fits every area to its anchors exactly: persons = G01 total, dwellings = G35 total', () => {
    expect(summary.areas).toEqual({ poa: 3 });
    expect(summary.areas_failed).toEqual([]);
    expect(summary.totals_mismatched).toBe(0);
    expect(summary.structural_violations).toBe(0);
    const published = (id: string, code: string) => inputs.totals.get(id)!.get(code)!;
    // totals_mismatched (0 above) compares occupied private dwellings with G35; the dwelling
    // records also hold the area's one non-private dwelling, where it has residents outside households.
    for (const fit of summary.report.perSuburb) {
      expect(fit.persons).toBe(published('G01', fit.salCode));
      expect(fit.dwellings - published('G35', fit.salCode)).toBeGreaterThanOrEqual(0);
      expect(fit.dwellings - published('G35', fit.salCode)).toBeLessThanOrEqual(1);
    }
  });

  it("gives a postal area whose single years of age were all zeroed persons at the ages G01's age groups publish", () => {
    const g04 = INPUT_TABLES.find((t) => t.id === 'G04')!;
    expect(inputs.tables.get('G04')!.get('POA7466')!.every((v) => v === 0)).toBe(true);
    const level = prepareLevel(inputs);
    const suburb = inputs.suburbs.find((s) => s.salCode === 'POA7466')!;
    const { population } = runSuburbJob(areaJob(level, suburb, 0, { seed: 3, smallSuburbThreshold: 500 }).job);
    expect(population.persons.count).toBe(32);
    const byAge = new Float64Array(2 * AGES);
    const sex = population.persons.variables['SEXP']!;
    for (let i = 0; i < population.persons.count; i++) byAge[sex[i]! * AGES + population.persons.age[i]!]!++;
    const g01 = INPUT_TABLES.find((t) => t.id === 'G01')!;
    const subtotals = inputs.aggregates.get('G01')!.get('POA7466')!;
    let groups = 0;
    g01.otherCells.forEach((cell, j) => {
      const s = cell.where['SEXP'];
      if (!cell.age || s?.length !== 1 || Object.keys(cell.where).length !== 1) return;
      let synthetic = 0;
      for (let a = cell.age[0]; a <= Math.min(cell.age[1], AGES - 1); a++) synthetic += byAge[s[0]! * AGES + a]!;
      // Each group as published, but for its share of the difference between the groups and the sex total.
      expect(Math.abs(synthetic - subtotals[j]!), cell.header).toBeLessThanOrEqual(2);
      if (subtotals[j]! > 0) groups++;
    });
    expect(groups).toBeGreaterThanOrEqual(4);
    // Within a group the single years follow the state's, not one age: nobody is piled on a single year.
    expect(Math.max(...byAge)).toBeLessThanOrEqual(3);
    expect(g04.cells.length).toBe(170);
  });

  it('chooses how strongly each table borrows per size band on held-out subtotals, and reports it (--json, report.txt)', async () => {
    const poa = summary.borrowing_strength.poa!;
    const g17 = poa['G17']!['<500']!;
    expect(g17.areas).toBe(2); // POA7466 and POA7119
    expect(g17.held_out).toBeGreaterThan(0);
    expect([...STRENGTH_CANDIDATES, BORROWING_PSEUDO_COUNT]).toContain(g17.k);
    if (g17.decided) expect(g17.rmse!).toBeLessThanOrEqual(Math.min(g17.rmse_without!, g17.rmse_default!));
    const text = await readFile(join(root, 'pools', 'small-1', 'report.txt'), 'utf8');
    expect(text).toContain('borrowing strength per table and size band');
    expect(text).toMatch(new RegExp(`poa G17 +<500 k=${g17.k} `));
    // Each area's job carries its band's strengths.
    const level = { ...prepareLevel(inputs), borrowing: new Map([['G17', { '<500': { k: 7, decided: true, areas: 2, checks: 9, rmse: 1, rmseWithout: 2, rmseDefault: 1.5 } }]]) };
    const small = inputs.suburbs.find((s) => s.salCode === 'POA7466')!;
    expect(areaJob(level, small, 0, { seed: 3, smallSuburbThreshold: 500 }).job.borrowing).toEqual([['G17', 7]]);
  });

  it('reports the fit of every area and table against the published cells', () => {
    expect(summary.report.perSuburb).toHaveLength(3);
    const large = summary.report.perSuburb.find((f) => f.salCode === 'POA7170')!;
    const g18 = large.inputs.find((t) => t.tableId === 'G18')!;
    // 5,734 persons: G18's age groups are G01's, so only the cells' own perturbation is left.
    expect(g18.srmse!).toBeLessThan(0.03);
  });
});
