import { describe, expect, it } from 'vitest';
import { VALIDATION_TABLES } from '../../../src/synthesis/census/tables.ts';
import { areaJob } from '../../../src/synthesis/pipeline/area-job.ts';
import { prepareLevel, type LevelInputs } from '../../../src/synthesis/pipeline/level.ts';
import { suburbSeed } from '../../../src/synthesis/pipeline/seeds.ts';
import { cells, handMadeInputs } from './hand-made.ts';

const N = Number.NaN;

describe("areaJob: one area's job from its level", () => {
  const inputs = handMadeInputs();
  const level = prepareLevel(inputs);
  const [a, b, c] = inputs.suburbs as [typeof inputs.suburbs[0], typeof inputs.suburbs[0], typeof inputs.suburbs[0]];
  const options = { seed: 9, smallSuburbThreshold: 500 };

  it("fits an unpublished cell estimated from the nearest parent that publishes it, and is scored against the published cells", () => {
    const { job, estimated, structural } = areaJob(level, a, 4, options);
    const t1 = new Map(job.tables).get('T1')!;
    // L1 and NSW leave the cell out as A does; Australia's share: 100 of 150, times A's 1 + 3.
    expect(t1[0]).toBe(1);
    expect(t1[1]).toBeCloseTo(400 / 150, 12);
    expect(t1[2]).toBe(3);
    expect(new Map(job.published).get('T1')).toEqual(cells(1, N, 3));
    // T2's first cell is published at no level: a structural zero.
    expect(new Map(job.tables).get('T2')).toEqual(cells(0, 4));
    expect(estimated).toBe(1);
    expect(structural).toBe(1);
  });

  it("hands a fully published table over as it is, with nothing to score apart", () => {
    const { job, estimated, structural } = areaJob(level, b, 1, options);
    expect(new Map(job.tables).get('T1')).toBe(inputs.tables.get('T1')!.get('B'));
    expect(job.published).toEqual([]);
    expect([estimated, structural]).toEqual([0, 0]);
  });

  it("carries the area's own seed, size, totals, subtotals, parents and same-people figures", () => {
    const { job } = areaJob(level, a, 4, options);
    expect(job.index).toBe(4);
    expect(job.salCode).toBe('A');
    expect(job.seed).toBe(suburbSeed(9, 'A'));
    expect(job.seed).not.toBe(areaJob(level, b, 4, options).job.seed);
    expect(job.persons).toBe(120);
    expect(job.small).toBe(true);
    expect(areaJob(level, b, 1, options).job.small).toBe(false);
    expect(job.remoteness).toBe(1);
    expect(job.totals).toEqual([['G01', 120]]);
    expect(job.aggregates).toEqual([['T1', cells(4)]]);
    expect(new Map(job.lgaTables)).toEqual(level.lgaTables.get('L1'));
    expect(new Map(job.stateTables)).toEqual(level.stateTables.get('NSW'));
    expect(job.samePeople).toBe(level.samePeople);
    const vic = areaJob(level, c, 2, options).job;
    expect(new Map(vic.lgaTables).get('T1')).toEqual(cells(5, 5, 2.5));
  });

  it("takes the hidden truth's validation tables of this area alone", () => {
    const validation = VALIDATION_TABLES[0]!.id;
    const truth = new Map([
      [validation, new Map([['A', cells(7)], ['B', cells(8)]])],
      ['T1', new Map([['A', cells(9)]])],
    ]);
    expect(areaJob(level, a, 0, options, truth).job.truth).toEqual([[validation, cells(7)]]);
    expect(areaJob(level, c, 0, options, truth).job.truth).toEqual([]);
  });

  it("borrows with its size band's strength per table, and with the default where the level chose none", () => {
    const choice = { k: 7, decided: true, areas: 2, checks: 9, rmse: 1, rmseWithout: 2, rmseDefault: 1.5 };
    const borrowing: LevelInputs = { ...level, borrowing: new Map([['T1', { '<500': choice }]]) };
    expect(areaJob(borrowing, a, 0, options).job.borrowing).toEqual([['T1', 7]]);
    expect(areaJob(borrowing, b, 0, options).job.borrowing).toEqual([]);
    expect(areaJob(level, a, 0, options).job.borrowing).toBeUndefined();
  });
});
