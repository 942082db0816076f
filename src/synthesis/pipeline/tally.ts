/**
 * What the synthesis of a build's areas gathers for its report, area by area in release order:
 * each fitted area's scores, totals missed and realism tallies, the areas that failed, and the
 * unpublished cells estimated or structural.
 */
import type { AreaLevel, CensusInputs, SuburbGeography } from '../census/inputs.ts';
import type { Population } from '../census/population.ts';
import { categoryIndex } from '../census/variables.ts';
import { sizeBand } from '../quality/metrics.ts';
import { createRealismAccumulator } from '../quality/realism.ts';
import type { LevelInputs } from './level.ts';
import type { SuburbFit } from './report.ts';
import type { SuburbOutcome } from './run-job.ts';

/** What the synthesis of one level's areas gathered for the report and the summary. */
export interface LevelTally {
  readonly fits: SuburbFit[];
  readonly totalsMismatched: string[];
  readonly failed: { area: string; reason: string }[];
  readonly notPublished: { estimated: number; structural: number };
}

/** What the synthesis of every area gathered: each level's tally, and the realism of all. */
export interface AreaTally {
  readonly byLevel: ReadonlyMap<AreaLevel, LevelTally>;
  readonly realism: ReturnType<typeof createRealismAccumulator>;
}

const emptyLevelTally = (): LevelTally => ({ fits: [], totalsMismatched: [], failed: [], notPublished: { estimated: 0, structural: 0 } });

/** An empty tally for a build of these levels (release order: the levels' order). */
export function createAreaTally(levels: readonly AreaLevel[]): AreaTally {
  return { byLevel: new Map(levels.map((level) => [level, emptyLevelTally()])), realism: createRealismAccumulator() };
}

/** Every level's tally in one (release order: the levels' order). */
export function pooledTally(tally: AreaTally): LevelTally {
  const levels = [...tally.byLevel.values()];
  return {
    fits: levels.flatMap((l) => l.fits),
    totalsMismatched: levels.flatMap((l) => l.totalsMismatched),
    failed: levels.flatMap((l) => l.failed),
    notPublished: { estimated: levels.reduce((n, l) => n + l.notPublished.estimated, 0), structural: levels.reduce((n, l) => n + l.notPublished.structural, 0) },
  };
}

/** One fitted area's figures for the report: totals missed, realism tallies, its fit. */
export function tallyArea(tally: LevelTally, realism: AreaTally['realism'], level: LevelInputs, suburb: SuburbGeography, outcome: SuburbOutcome): void {
  const { population, small } = outcome;
  if (totalMissed(level.inputs, suburb.salCode, population.persons.count, occupiedPrivateDwellings(population))) tally.totalsMismatched.push(suburb.suburbId);
  realism.addTally(outcome.realism, sizeBand(outcome.realism.persons));
  tally.fits.push({
    salCode: suburb.salCode,
    suburbId: suburb.suburbId,
    persons: population.persons.count,
    families: population.families.count,
    dwellings: population.dwellings.count,
    small,
    inputs: outcome.inputs,
    truth: outcome.truth,
    structuralViolations: Object.values(outcome.violationsByRule).reduce((sum, n) => sum + n, 0),
    violationsByRule: outcome.violationsByRule,
    diagnostics: outcome.diagnostics,
  });
}

/** Dwelling records that are occupied private dwellings (the area's non-private dwelling is not one). */
export function occupiedPrivateDwellings(population: Population): number {
  const dwtd = population.dwellings.variables['DWTD'];
  if (!dwtd) return population.dwellings.count;
  const occupied = categoryIndex('DWTD', 'Occupied private dwelling');
  let n = 0;
  for (const k of dwtd) if (k === occupied) n++;
  return n;
}

/** Person total against G01's Tot_P_P; occupied private dwellings against G35's total. */
export function totalMissed(inputs: CensusInputs, salCode: string, persons: number, dwellings: number): boolean {
  const publishedPersonsTotal = inputs.totals.get('G01')?.get(salCode);
  const publishedDwellings = inputs.totals.get('G35')?.get(salCode);
  return (publishedPersonsTotal !== undefined && publishedPersonsTotal !== persons) || (publishedDwellings !== undefined && publishedDwellings !== dwellings);
}
