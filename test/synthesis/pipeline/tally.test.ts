import { describe, expect, it } from 'vitest';
import { suburbRealismTally } from '../../../src/synthesis/quality/realism.ts';
import type { CensusInputs } from '../../../src/synthesis/census/inputs.ts';
import { prepareLevel } from '../../../src/synthesis/pipeline/level.ts';
import { fitFiguresOf, levelFigures, releaseReport } from '../../../src/synthesis/pipeline/release-report.ts';
import type { SuburbOutcome } from '../../../src/synthesis/pipeline/run-job.ts';
import { createAreaTally, occupiedPrivateDwellings, pooledTally, tallyArea, totalMissed } from '../../../src/synthesis/pipeline/tally.ts';
import { population } from '../quality/fixture.ts';
import { area } from './hand-made.ts';

/** Three persons in one occupied private dwelling, and the area's non-private dwelling. */
const records = population(
  [{ age: 40, dwelling: 0 }, { age: 38, dwelling: 0 }, { age: 80, dwelling: 1 }],
  [{ DWTD: 'Occupied private dwelling' }, { DWTD: 'Non-private dwelling or non-classifiable household' }],
);

const outcome = (index: number, srmse: number): SuburbOutcome => ({
  index,
  small: true,
  population: records,
  coarsened: [],
  inputs: [{ tableId: 'G04', srmse, totalAbsoluteError: 1, targetTotal: 3, syntheticTotal: 3, floor: srmse / 2 }],
  truth: [],
  violationsByRule: { 'links-valid': 0, 'role-fits-age': 2 },
  diagnostics: {},
  realism: suburbRealismTally({ synthetic: records }),
});

const inputsWith = (level: CensusInputs['level'], code: string, persons: number, dwellings: number): CensusInputs => ({
  level,
  suburbs: [{ ...area(code, 'L1', 'NSW'), level }],
  tables: new Map(),
  totals: new Map([
    ['G01', new Map([[code, persons]])],
    ['G35', new Map([[code, dwellings]])],
  ]),
  aggregates: new Map(),
  parents: { states: new Map(), australia: undefined },
  notes: [`${code} note`],
});

describe("the tally of a build's areas", () => {
  it('counts occupied private dwellings, not the non-private one', () => {
    expect(records.dwellings.count).toBe(2);
    expect(occupiedPrivateDwellings(records)).toBe(1);
  });

  it("finds an area whose persons miss G01's total or whose occupied private dwellings miss G35's", () => {
    expect(totalMissed(inputsWith('sal', 'A', 3, 1), 'A', 3, 1)).toBe(false);
    expect(totalMissed(inputsWith('sal', 'A', 4, 1), 'A', 3, 1)).toBe(true);
    expect(totalMissed(inputsWith('sal', 'A', 3, 2), 'A', 3, 1)).toBe(true);
    expect(totalMissed(inputsWith('sal', 'A', 3, 1), 'B', 99, 99)).toBe(false);
  });

  it("keeps each level's areas apart and pools them in the levels' order", () => {
    const sal = prepareLevel(inputsWith('sal', 'A', 3, 1));
    const poa = prepareLevel(inputsWith('poa', 'P', 4, 1));
    const tally = createAreaTally(['sal', 'poa']);
    tallyArea(tally.byLevel.get('poa')!, tally.realism, poa, poa.inputs.suburbs[0]!, outcome(1, 0.2));
    tallyArea(tally.byLevel.get('sal')!, tally.realism, sal, sal.inputs.suburbs[0]!, outcome(0, 0.1));
    tally.byLevel.get('sal')!.failed.push({ area: 'B', reason: 'no fit' });
    const pooled = pooledTally(tally);
    expect(pooled.fits.map((f) => f.salCode)).toEqual(['A', 'P']);
    expect(pooled.fits[0]).toMatchObject({ suburbId: 'A (NSW)', persons: 3, families: 0, dwellings: 2, small: true, structuralViolations: 2 });
    expect(pooled.totalsMismatched).toEqual(['P (NSW)']);
    expect(pooled.failed).toEqual([{ area: 'B', reason: 'no fit' }]);

    const report = releaseReport('v', { loadedLevels: [sal, poa], notes: ['whole'], reference: undefined, floor: { median: 0.5, p95: 0.6 } }, tally);
    expect(report.suburbs).toBe(2);
    expect(report.inputNotes).toEqual(['whole', 'sal: A note', 'poa: P note']);
    expect(report.realism.all.suburbs).toBe(2);
    const figures = fitFiguresOf(report, pooled);
    expect(figures).toMatchObject({ persons: 6, structural_violations: 4, totals_mismatched: 1 });
    expect(figures.srmse_median).toBeCloseTo(0.15, 12);
    expect(figures.floor_srmse_by_table['G04']!.median).toBeCloseTo(0.075, 12);
    expect(figures.srmse_by_band['<500']).toMatchObject({ pairs: 2 });
    const byLevel = levelFigures('v', tally, () => undefined);
    expect(byLevel.sal).toMatchObject({ areas: 1, srmse_median: 0.1, totals_mismatched: 0, areas_failed: [{ area: 'B', reason: 'no fit' }] });
    expect(byLevel.poa).toMatchObject({ areas: 1, srmse_median: 0.2, totals_mismatched: 1 });
  });
});
