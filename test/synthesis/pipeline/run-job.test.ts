import { beforeAll, describe, expect, it } from 'vitest';
import type { SuburbGeography } from '../../../src/synthesis/census/inputs.ts';
import { INPUT_TABLES, VALIDATION_TABLES } from '../../../src/synthesis/census/tables.ts';
import { tabulate } from '../../../src/synthesis/census/tabulate.ts';
import { quantile } from '../../../src/synthesis/quality/metrics.ts';
import { areaJob, type SuburbJob } from '../../../src/synthesis/pipeline/area-job.ts';
import { prepareLevel, type LevelInputs } from '../../../src/synthesis/pipeline/level.ts';
import { runSuburbJob, tryRunSuburbJob, type SuburbOutcome } from '../../../src/synthesis/pipeline/run-job.ts';
import { occupiedPrivateDwellings } from '../../../src/synthesis/pipeline/tally.ts';
import { demoInputs } from './fixture.ts';

/** Three demo suburbs published without noise; the jobs run the smallest (571 persons). */
describe("runSuburbJob: one area's synthesis, rules, scores and coarsening", () => {
  const { inputs, truths } = demoInputs(3);
  let level: LevelInputs;
  let area: SuburbGeography;
  let job: SuburbJob;
  let outcome: SuburbOutcome;
  const persons = (code: string) => inputs.totals.get('G01')!.get(code)!;

  beforeAll(() => {
    level = prepareLevel(inputs);
    area = [...inputs.suburbs].sort((a, b) => persons(a.salCode) - persons(b.salCode))[0]!;
    job = areaJob(level, area, 7, { seed: 1, smallSuburbThreshold: 500 }).job;
    outcome = runSuburbJob(job);
  }, 60_000);

  it('fits the anchors exactly and breaks no structural or coherence rule', () => {
    expect(outcome.index).toBe(7);
    expect(outcome.small).toBe(false);
    expect(outcome.population.persons.count).toBe(persons(area.salCode));
    expect(occupiedPrivateDwellings(outcome.population)).toBe(inputs.totals.get('G35')!.get(area.salCode));
    expect(Object.keys(outcome.violationsByRule).length).toBeGreaterThan(20);
    expect(Object.entries(outcome.violationsByRule).filter(([, n]) => n > 0)).toEqual([]);
  });

  it('scores every input table against its published cells, with the noise floor of those with subtotals', () => {
    expect(outcome.inputs.map((f) => f.tableId)).toEqual(INPUT_TABLES.map((t) => t.id));
    const scores = outcome.inputs.map((f) => f.srmse!);
    expect(quantile(scores, 0.5)!).toBeLessThan(0.02);
    expect(Math.max(...scores)).toBeLessThan(0.2);
    const g01 = outcome.inputs.find((f) => f.tableId === 'G01')!;
    expect(g01.targetTotal).toBe(g01.syntheticTotal);
    // Published without noise: the subtotals add up, so the census's own floor is nil here.
    expect(outcome.inputs.filter((f) => f.floor !== undefined).every((f) => f.floor === 0)).toBe(true);
    expect(outcome.inputs.some((f) => f.floor !== undefined)).toBe(true);
    expect(outcome.truth).toEqual([]);
  });

  it('scores a table against its published cells alone where some were estimated for the fit', () => {
    const g04 = new Map(job.tables).get('G04')!;
    const published = Float64Array.from(g04);
    const left = published.findIndex((v) => v > 0);
    published[left] = Number.NaN;
    const scored = runSuburbJob({ ...job, published: [['G04', published]] }).inputs.find((f) => f.tableId === 'G04')!;
    const whole = outcome.inputs.find((f) => f.tableId === 'G04')!;
    expect(scored.targetTotal).toBe(whole.targetTotal - g04[left]!);
  }, 60_000);

  it("scores the hidden truth's validation tables when the job carries them", () => {
    const truth = truths.get(area.salCode)!;
    const withTruth = runSuburbJob({ ...job, truth: VALIDATION_TABLES.map((t) => [t.id, tabulate(truth, t)] as const) });
    expect(withTruth.truth.map((f) => f.tableId)).toEqual(VALIDATION_TABLES.map((t) => t.id));
    expect(withTruth.truth.every((f) => f.targetTotal > 0 && f.srmse !== undefined)).toBe(true);
    // The same records: the truth is scored against, never fitted to.
    expect(withTruth.population.persons.age).toEqual(outcome.population.persons.age);
  }, 60_000);

  it("coarsens a small area's records before they are served", () => {
    expect(outcome.coarsened).toEqual([]);
    const small = runSuburbJob(areaJob(level, area, 7, { seed: 1, smallSuburbThreshold: 1000 }).job);
    expect(small.small).toBe(true);
    expect(small.coarsened.length).toBeGreaterThan(0);
    expect(small.population.persons.count).toBe(outcome.population.persons.count);
  }, 60_000);

  it('gives the same records for the same job, and an area that cannot be fitted as a failure of its own', () => {
    const again = runSuburbJob(job);
    expect(again.population.persons.age).toEqual(outcome.population.persons.age);
    expect(again.population.persons.variables['INCP']).toEqual(outcome.population.persons.variables['INCP']);
    const broken = tryRunSuburbJob({ ...job, tables: [['G04', new Float64Array(3)]] });
    expect(broken).toEqual({ index: 7, failure: expect.stringContaining('cell counts differ') });
  }, 60_000);
});
