/**
 * One area's job run: synthesized, checked against every rule, scored against its tables (and the
 * demo's hidden truth), and coarsened when small. Pure and plain data in and out, so the release
 * builder runs it inline or on a worker thread alike.
 */
import type { Population } from '../census/population.ts';
import { INPUT_TABLES, VALIDATION_TABLES } from '../census/tables.ts';
import { tabulate, tabulateCells } from '../census/tabulate.ts';
import type { SuburbTargets } from '../census/targets.ts';
import { coarsenPopulation } from '../synthesizer/coarsen.ts';
import { checkCoherence } from '../synthesizer/coherence.ts';
import { checkStructuralRules } from '../synthesizer/rules.ts';
import { synthesizeSuburb } from '../synthesizer/synthesize.ts';
import { noiseFloorSrmse } from '../quality/floor.ts';
import { suburbRealismTally, type GroupTally } from '../quality/realism.ts';
import type { SuburbJob } from './area-job.ts';
import { compareTable, type TableFit } from './compare.ts';

export interface SuburbOutcome {
  readonly index: number;
  readonly small: boolean;
  /** The records to serve: coarsened for small suburbs. */
  readonly population: Population;
  readonly coarsened: readonly string[];
  readonly inputs: readonly TableFit[];
  readonly truth: readonly TableFit[];
  readonly violationsByRule: Readonly<Record<string, number>>;
  readonly diagnostics: Readonly<Record<string, number>>;
  /** Implausible combinations, couples, Cramér's V and (demo inputs) error removed vs the truth, in fine categories. */
  readonly realism: GroupTally;
}

/** An area that could not be synthesized: the build reports it by name and leaves it out. */
export interface FailedSuburb {
  readonly index: number;
  readonly failure: string;
}

/** runSuburbJob, with a failure of this one area returned as a value so that no single area aborts a build. */
export function tryRunSuburbJob(job: SuburbJob): SuburbOutcome | FailedSuburb {
  try {
    return runSuburbJob(job);
  } catch (error) {
    return { index: job.index, failure: error instanceof Error ? error.message : String(error) };
  }
}

/** The synthesis of one job's area in fine categories, as the build makes it (before rules, scores and coarsening). */
export function synthesizeJob(job: SuburbJob): { readonly targets: SuburbTargets } & ReturnType<typeof synthesizeSuburb> {
  const targets: SuburbTargets = {
    salCode: job.salCode,
    tables: new Map(job.tables),
    ...(job.aggregates ? { aggregates: new Map(job.aggregates) } : {}),
    ...(job.samePeople ? { samePeople: job.samePeople } : {}),
    parent: { lga: new Map(job.lgaTables), state: new Map(job.stateTables) },
    ...(job.borrowing ? { borrowingStrength: new Map(job.borrowing) } : {}),
  };
  const synthesized = synthesizeSuburb(targets, {
    seed: job.seed,
    smallSuburb: job.small,
    totals: new Map(job.totals),
    ...(job.remoteness !== undefined ? { dwellingLocation: job.remoteness } : {}),
  });
  return { targets, ...synthesized };
}

/** Synthesizes one suburb, checks every rule, scores it against its tables, and coarsens it when small. */
export function runSuburbJob(job: SuburbJob): SuburbOutcome {
  const { targets, population, diagnostics } = synthesizeJob(job);

  const violationsByRule: Record<string, number> = { ...checkStructuralRules(population).byRule };
  for (const result of checkCoherence(population)) violationsByRule[result.rule] = (violationsByRule[result.rule] ?? 0) + result.violations;

  // Scored before coarsening: the tables are in fine categories. Against the published cells
  // only: an unpublished cell's estimate is no census figure.
  const published = new Map(job.published);
  const sources = new Map(job.cellSources ?? []);
  const inputs = INPUT_TABLES.flatMap((table) => {
    const target = published.get(table.id) ?? targets.tables.get(table.id);
    if (!target) return [];
    const recordsCells = tabulate(population, table);
    const subtotals = targets.aggregates?.get(table.id);
    // The census's own noise in this table here, from its subtotals (quality/floor.ts).
    const floor = subtotals
      ? noiseFloorSrmse(table, { published: target, subtotals, recordsCells, recordsSubtotals: tabulateCells(population, table.universe, table.otherCells, table.population.members) })
      : undefined;
    return [compareTable(table.id, recordsCells, target, floor, sources.get(table.id))];
  });
  const truthTables = new Map(job.truth);
  const truth = VALIDATION_TABLES.flatMap((table) => {
    const target = truthTables.get(table.id);
    return target ? [compareTable(table.id, tabulate(population, table), target)] : [];
  });

  const realism = suburbRealismTally({ synthetic: population, truthTables });

  const served = job.small ? coarsenPopulation(population) : { population, coarsened: [] as string[] };
  return {
    index: job.index,
    small: job.small,
    population: served.population,
    coarsened: served.coarsened,
    inputs,
    truth,
    violationsByRule,
    diagnostics: numericDiagnostics(diagnostics),
    realism,
  };
}

function numericDiagnostics(diagnostics: unknown): Record<string, number> {
  if (typeof diagnostics !== 'object' || diagnostics === null) return {};
  return Object.fromEntries(Object.entries(diagnostics).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
}
