/**
 * One area's job: everything its synthesis needs from the level, as plain data that can cross to
 * a worker thread.
 */
import type { SuburbGeography } from '../census/inputs.ts';
import { fillNotPublished, hasUnpublished } from '../census/published.ts';
import type { SamePeople } from '../census/same-people.ts';
import { VALIDATION_TABLES } from '../census/tables.ts';
import { aggregatesOf, publishedPersons, tablesOf, totalsOf } from './area-inputs.ts';
import { areaStrengths } from './borrowing.ts';
import type { LevelInputs } from './level.ts';
import { suburbSeed } from './seeds.ts';

/** Everything one suburb's synthesis needs; plain data, so it can cross to a worker thread. */
export interface SuburbJob {
  readonly index: number;
  readonly salCode: string;
  readonly seed: number;
  /** Persons the census publishes for the area (G01, else G04): what makes it small, its borrowing band, and how long its synthesis takes. */
  readonly persons: number;
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
  /** Per table, the borrowing strength chosen for the area's size band (borrowing.ts, synthesizer/borrow-strength.ts); absent tables borrow with the default. */
  readonly borrowing?: readonly (readonly [string, number])[];
  /** Per table partly taken from parents, each cell's source (census/own-cells.ts SOURCE): what the fit to own cells is scored on. */
  readonly cellSources?: readonly (readonly [string, Uint8Array])[];
  /** Hidden-truth cross-tabs of this suburb (demo inputs only). */
  readonly truth: readonly (readonly [string, Float64Array])[];
}

/** What an area's job takes from the build: its seed, and the persons under which an area is small. */
export interface JobOptions {
  readonly seed: number;
  readonly smallSuburbThreshold: number;
}

/** An area's tables to fit, unpublished cells resolved from its parents as published, with how many were estimated and how many are structural zeros. */
function resolvedTables(level: LevelInputs, suburb: SuburbGeography) {
  const parents = [level.published.lga.get(suburb.lgaCode), level.published.state.get(suburb.state), level.published.australia];
  const tables: [string, Float64Array][] = [];
  const published: [string, Float64Array][] = [];
  let estimated = 0;
  let structural = 0;
  for (const [tableId, cells] of tablesOf(level.inputs, suburb.salCode)) {
    if (!hasUnpublished(cells)) {
      tables.push([tableId, cells]);
      continue;
    }
    const filled = fillNotPublished(cells, parents.map((p) => p?.get(tableId)));
    estimated += filled.estimated;
    structural += filled.structural;
    tables.push([tableId, filled.cells]);
    published.push([tableId, cells]);
  }
  return { tables, published, estimated, structural };
}

/**
 * One area's synthesis job: its tables with unpublished cells resolved from its parents as
 * published (and how many were estimated, and how many are structural zeros), its published
 * totals and subtotals, the level's same-people figures and the parents' tables it borrows from.
 */
export function areaJob(
  level: LevelInputs,
  suburb: SuburbGeography,
  index: number,
  options: JobOptions,
  truth: ReadonlyMap<string, ReadonlyMap<string, Float64Array>> = new Map(),
): { readonly job: SuburbJob; readonly estimated: number; readonly structural: number } {
  const { inputs } = level;
  const lga = level.lgaTables.get(suburb.lgaCode);
  const state = level.stateTables.get(suburb.state);
  const { tables, published, estimated, structural } = resolvedTables(level, suburb);
  const persons = publishedPersons(inputs, suburb.salCode);
  const job: SuburbJob = {
    index,
    salCode: suburb.salCode,
    seed: suburbSeed(options.seed, suburb.salCode),
    persons,
    small: persons < options.smallSuburbThreshold,
    remoteness: suburb.remoteness,
    tables,
    published,
    totals: [...totalsOf(inputs, suburb.salCode)],
    aggregates: [...aggregatesOf(inputs, suburb.salCode)],
    samePeople: level.samePeople,
    lgaTables: [...(lga ?? [])],
    stateTables: [...(state ?? [])],
    ...(level.borrowing ? { borrowing: areaStrengths(level.borrowing, persons) } : {}),
    ...(inputs.figureSources ? { cellSources: [...inputs.figureSources].map(([id, s]) => [id, s.cells] as const) } : {}),
    truth: VALIDATION_TABLES.flatMap((table) => {
      const cells = truth.get(table.id)?.get(suburb.salCode);
      return cells ? [[table.id, cells] as const] : [];
    }),
  };
  return { job, estimated, structural };
}
