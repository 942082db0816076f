import type { Population } from '../synthesis/census/population.ts';
import type { SamePeople } from '../synthesis/census/same-people.ts';
import { INPUT_TABLES, VALIDATION_TABLES } from '../synthesis/census/tables.ts';
import { tabulate, tabulateCells } from '../synthesis/census/tabulate.ts';
import type { SuburbTargets } from '../synthesis/census/targets.ts';
import { coarsenPopulation } from '../synthesis/synthesizer/coarsen.ts';
import { checkCoherence } from '../synthesis/synthesizer/coherence.ts';
import { checkStructuralRules } from '../synthesis/synthesizer/rules.ts';
import { synthesizeSuburb } from '../synthesis/synthesizer/synthesize.ts';
import { noiseFloorSrmse } from '../synthesis/quality/floor.ts';
import { suburbRealismTally, type GroupTally } from '../synthesis/quality/realism.ts';
import { compareTable, type TableFit } from './report.ts';

/** Everything one suburb's synthesis needs; plain data, so it can cross to a worker thread. */
export interface SuburbJob {
  readonly index: number;
  readonly salCode: string;
  readonly seed: number;
  readonly small: boolean;
  /** The area's Remoteness Area class (DLOD category); undefined where the inputs allocate none. */
  readonly remoteness: number | undefined;
  /** The tables to fit: as published, with unpublished cells estimated from the parents. */
  readonly tables: readonly (readonly [string, Float64Array])[];
  /** As published (NaN where not), for the tables that had unpublished cells: what the fit is scored against. */
  readonly published: readonly (readonly [string, Float64Array])[];
  readonly totals: readonly (readonly [string, number])[];
  /** The tables' published totals and subtotals (spec otherCells order, NaN where not published). */
  readonly aggregates?: readonly (readonly [string, Float64Array])[];
  /** Figures of different tables that count the same people, read from the level's data. */
  readonly samePeople?: SamePeople;
  readonly lgaTables: readonly (readonly [string, Float64Array])[];
  readonly stateTables: readonly (readonly [string, Float64Array])[];
  /** Per table, the borrowing strength chosen for the area's size band (borrow-strength.ts); absent tables borrow with the default. */
  readonly borrowing?: readonly (readonly [string, number])[];
  /** Hidden-truth cross-tabs of this suburb (demo inputs only). */
  readonly truth: readonly (readonly [string, Float64Array])[];
}

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
  const inputs = INPUT_TABLES.flatMap((table) => {
    const target = published.get(table.id) ?? targets.tables.get(table.id);
    if (!target) return [];
    const recordsCells = tabulate(population, table);
    const subtotals = targets.aggregates?.get(table.id);
    // The census's own noise in this table here, from its subtotals (quality/floor.ts).
    const floor = subtotals
      ? noiseFloorSrmse(table, { published: target, subtotals, recordsCells, recordsSubtotals: tabulateCells(population, table.universe, table.otherCells, table.population.members) })
      : undefined;
    return [compareTable(table.id, recordsCells, target, floor)];
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

/** The distinct buffers of a population, to transfer (not copy) it between threads. */
export function populationBuffers(population: Population): ArrayBuffer[] {
  const arrays = [
    population.persons.age,
    population.persons.dwelling,
    population.persons.family,
    population.families.dwelling,
    ...Object.values(population.persons.variables),
    ...Object.values(population.families.variables),
    ...Object.values(population.dwellings.variables),
  ];
  return [...new Set(arrays.map((array) => array.buffer as ArrayBuffer))];
}
