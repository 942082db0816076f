import { describe, expect, it } from 'vitest';
import { columnsRead, columnsReadLine } from '../../../src/synthesis/pipeline/columns-read.ts';
import { renderReport } from '../../../src/synthesis/pipeline/render-report.ts';
import { summariseReport } from '../../../src/synthesis/pipeline/report.ts';
import { GCP_PART_HEADERS } from '../../../src/synthesis/census/gcp/layout.generated.ts';
import { INPUT_TABLES, VALIDATION_TABLES } from '../../../src/synthesis/census/tables.ts';
import { tabulate } from '../../../src/synthesis/census/tabulate.ts';
import { summarizeRealism, withReference } from '../../../src/synthesis/quality/realism.ts';
import { RESEMBLANCE_LINKS } from '../../../src/synthesis/quality/resemblance.ts';
import { createRng } from '../../../src/synthesis/synthesizer/rng.ts';
import { buildDemoGeography } from '../../../src/demo/geography.ts';
import { drawSuburbPopulation } from '../../../src/demo/truth-model.ts';

describe('the build report', () => {
  it('says which real DataPack columns each input table reads, out of how many its part files have', () => {
    const read = columnsRead();
    expect(read.map((t) => t.tableId)).toEqual(INPUT_TABLES.map((t) => t.id));
    const g46 = read.find((t) => t.tableId === 'G46')!;
    expect(g46.parts).toEqual(['G46A', 'G46B']);
    expect(g46.columns).toBe(360);
    // Read whole, by age × sex (gcpTable): 9 age groups × 2 sexes × 8 statuses, the rest totals.
    expect(g46.fitted).toHaveLength(144);
    expect(g46.readOnly).toHaveLength(216);
    expect(g46.readOnly).toContain('P_Tot_Tot');
    for (const t of read) {
      const real = new Set(t.parts.flatMap((p) => GCP_PART_HEADERS[p]!));
      expect(t.columns).toBe(real.size);
      expect(new Set([...t.fitted, ...t.readOnly]).size, t.tableId).toBe(t.fitted.length + t.readOnly.length);
      for (const h of [...t.fitted, ...t.readOnly]) expect(real.has(h), `${t.tableId} ${h}`).toBe(true);
    }
  });

  it('carries the columns read in the JSON report as data, and prints one short line per table', () => {
    const report = summariseReport('v-test', [], [], summarizeRealism([]));
    const json = JSON.parse(JSON.stringify(report)) as typeof report;
    expect(json.columnsRead).toEqual(columnsRead());
    expect(json.columnsRead.find((t) => t.tableId === 'G17')).toMatchObject({ parts: ['G17A', 'G17B', 'G17C'], columns: 510 });
    const text = renderReport(report, 1);
    const read = columnsRead();
    const fitted = read.reduce((n, t) => n + t.fitted.length, 0);
    const totals = read.reduce((n, t) => n + t.readOnly.length, 0);
    const columns = read.reduce((n, t) => n + t.columns, 0);
    expect(text).toContain(`DataPack columns read: ${fitted + totals} of ${columns} in ${read.length} tables`);
    expect(text).toContain('\n  G46: 360 of 360 columns read (G46A, G46B): 144 fitted, 216 totals\n');
    for (const t of read) expect(text).toContain(columnsReadLine(t));
  });

  it("pools each (area, table)'s census noise floor by band and by table, and prints it beside the fit", () => {
    const fit = (tableId: string, srmse: number, floor?: number) => ({ tableId, srmse, totalAbsoluteError: 0, targetTotal: 1, syntheticTotal: 1, ...(floor !== undefined ? { floor } : {}) });
    const area = (salCode: string, persons: number, inputs: ReturnType<typeof fit>[]) => ({
      salCode, suburbId: salCode, persons, families: 0, dwellings: 0, small: persons < 500, inputs, truth: [], structuralViolations: 0, violationsByRule: {}, diagnostics: {},
    });
    const report = summariseReport('v-floor', [
      area('A', 100, [fit('G04', 0.3, 0.6), fit('G17', 0.5)]),
      area('B', 200, [fit('G04', 0.2, 0.4), fit('G17', 0.4, 1.0)]),
      area('C', 9000, [fit('G04', 0.01, 0.02)]),
    ], [], summarizeRealism([]));
    expect(report.noiseFloor.overall.pairs).toBe(4);
    expect(report.noiseFloor.bySizeBand['<500']).toMatchObject({ pairs: 3 });
    expect(report.noiseFloor.bySizeBand['>=5000']).toMatchObject({ pairs: 1, median: 0.02 });
    expect(report.tables.find((t) => t.tableId === 'G17')!.floor).toMatchObject({ pairs: 1, median: 1.0 });
    const text = renderReport(report, 1);
    expect(text).toContain('census noise floor');
    expect(text).toMatch(/>=5000 +persons: floor median 0\.0200, p95 0\.0200; fit \/ floor 0\.50×, 0\.50×/);
  });

  it('has a realism section: the records alone for real inputs, against the truth and an oracle for demo inputs', () => {
    const suburb = buildDemoGeography('demo', 3, 4).suburbs[1]!;
    const truth = drawSuburbPopulation(suburb, createRng(3).fork(1));
    const synthetic = drawSuburbPopulation(suburb, createRng(3).fork(2));
    const oracle = drawSuburbPopulation(suburb, createRng(3).fork(3));

    const real = summariseReport('v-real', [], [], summarizeRealism([{ synthetic }]));
    expect(real.realism.all.truth).toBeUndefined();
    expect(Object.keys(real.realism.all.errorRemoved)).toEqual([]);
    const realText = renderReport(real, 1);
    expect(realText).toMatch(/\| partner-15-17 \(\d+\/\d+\) \| [\d.]+% \| — \| — \|/);
    expect(realText).not.toContain('share of the independence error removed');

    // A demo build knows the truth's cross-tabs; the generator's reference adds the truth's and an oracle's own figures.
    const truthTables = new Map(VALIDATION_TABLES.map((t) => [t.id, tabulate(truth, t)]));
    const build = summarizeRealism([{ synthetic, truthTables }]);
    const reference = summarizeRealism([{ synthetic: truth, truth, oracle }]);
    const demo = summariseReport('v-demo', [], [], withReference(build, reference));
    const lfs = demo.realism.all.errorRemoved['V_AGE_SEX_LFS']!;
    expect(lfs.cells.synthetic).toBe(build.all.errorRemoved['V_AGE_SEX_LFS']!.cells.synthetic);
    expect(lfs.cells.oracle).toBe(reference.all.errorRemoved['V_AGE_SEX_LFS']!.cells.oracle);
    expect(lfs.cells.oracle).toBeDefined();
    expect(demo.realism.all.truth).toEqual(reference.all.synthetic);
    const text = renderReport(demo, 1);
    expect(text).toContain('share of the independence error removed');
    expect(text).toMatch(/\| V_AGE_SEX_LFS \| -?\d+% \/ -?\d+% \|/);
  });

  it("carries families' resemblance against independence in report.json and report.txt, with the truth's beside it for demo inputs", () => {
    const suburb = buildDemoGeography('demo', 3, 4).suburbs[1]!;
    const truth = drawSuburbPopulation(suburb, createRng(3).fork(1));
    const synthetic = drawSuburbPopulation(suburb, createRng(3).fork(2));
    const reference = summarizeRealism([{ synthetic: truth, truth }]);
    const report = summariseReport('v-demo', [], [], withReference(summarizeRealism([{ synthetic }]), reference));
    const json = JSON.parse(JSON.stringify(report)) as typeof report;
    const families = json.realism.all.synthetic.resemblance;
    expect(Object.keys(families.links)).toEqual(RESEMBLANCE_LINKS.map((l) => l.name));
    const birthplace = families.links['partners-born-in-australia-or-overseas']!;
    expect(birthplace.pairs).toBeGreaterThan(50);
    for (const share of [birthplace.alike, birthplace.independence, birthplace.target, birthplace.published]) expect(share).toBeGreaterThan(0.3);
    expect(birthplace.source).toContain('G30');
    expect(families.degreeOverChance.published).toBe(1.85);
    expect(json.realism.all.synthetic.couples.gap10PlusShare).toBeGreaterThanOrEqual(0);

    const text = renderReport(report, 1);
    expect(text).toContain('families: share of pairs alike');
    const row = (name: string) => text.split('\n').find((l) => l.startsWith(`| ${name} (`));
    // synthetic, independence, target, published, truth, oracle (none here), source.
    expect(row('partners-born-in-australia-or-overseas')).toMatch(/\| [\d.]+% \| [\d.]+% \| [\d.]+% \| 82\.8% \| [\d.]+% \| — \| G30/);
    expect(row('partners-qualification')).toMatch(/\| [\d.]+% \| [\d.]+% \| [\d.]+% \| — \|/);
    expect(text).toMatch(/\| opposite-sex couples 10 or more years apart \| [\d.]+% \| — \| — \| 8% \|/);
    expect(text).toMatch(/\| parents of dependent children born in Australia or overseas alike \(\d+\) \| [\d.]+% \| [\d.]+% \| — \| 82\.8% \|/);
    expect(json.realism.all.synthetic.resemblance.parentsOfDependentChildren.published.oddsRatio).toBeCloseTo(21.48, 2);
  });
});
