/**
 * A level prepared for its areas' jobs: the parents its areas borrow from (summed or as
 * published, unpublished cells resolved from the next parent up), the figures of different
 * tables that count the same people, and how strongly each table borrows per size band.
 */
import type { CensusInputs } from '../census/inputs.ts';
import { fillNotPublished } from '../census/published.ts';
import { findSamePeople, type SamePeople } from '../census/same-people.ts';
import { INPUT_TABLES } from '../census/tables.ts';
import { publishedPersons } from './area-inputs.ts';
import { levelStrengths, levelStrengthsBy, type BandStrengths, type LevelStrengths, type TableStrengthTask } from './borrowing.ts';
import { sumTablesByParent } from './parent-targets.ts';

type Tables = ReadonlyMap<string, Float64Array>;

/** One level's inputs and the parents its areas borrow from, as published (NaN where not) and filled. */
export interface LevelInputs {
  readonly inputs: CensusInputs;
  readonly published: { readonly lga: ReadonlyMap<string, Tables>; readonly state: ReadonlyMap<string, Tables>; readonly australia: Tables | undefined };
  /** The parents with their own unpublished cells resolved: what small areas are smoothed toward. */
  readonly lgaTables: ReadonlyMap<string, Tables>;
  readonly stateTables: ReadonlyMap<string, Tables>;
  /** Figures of different tables that count the same people in this level's data. */
  readonly samePeople: SamePeople;
  /** How strongly the level's areas borrow from their parents, per table and size band (borrowing.ts); absent: the default everywhere. */
  readonly borrowing?: LevelStrengths;
}

/**
 * The parents an area borrows from: its LGA (suburbs only: the suburbs' tables summed), its
 * state and Australia (as published when the inputs have the STE and AUS files, else summed),
 * each with its own unpublished cells estimated from the next parent up.
 */
export function prepareLevel(inputs: CensusInputs): LevelInputs {
  // A sum over areas is NaN in a cell any of them leaves unpublished: unpublished for the parent too.
  const summed = sumTablesByParent(inputs.suburbs, inputs.tables);
  const australia = inputs.parents.australia;
  const state = new Map<string, Tables>([...summed.byState].map(([s, tables]) => [s, inputs.parents.states.get(s) ?? tables]));
  const lga = inputs.level === 'sal' ? summed.byLga : new Map<string, Tables>();
  const fillAll = (tables: Tables, above: (tableId: string) => (Float64Array | undefined)[]) =>
    new Map([...tables].map(([id, cells]) => [id, fillNotPublished(cells, above(id)).cells]));
  const stateTables = new Map([...state].map(([s, tables]) => [s, fillAll(tables, (id) => [australia?.get(id)])]));
  const stateOfLga = new Map(inputs.suburbs.map((s) => [s.lgaCode, s.state]));
  const lgaTables = new Map([...lga].map(([code, tables]) => [code, fillAll(tables, (id) => [state.get(stateOfLga.get(code)!)?.get(id), australia?.get(id)])]));
  const samePeople = findSamePeople(INPUT_TABLES, inputs.tables, inputs.aggregates, inputs.suburbs.map((s) => s.salCode));
  return { inputs, published: { lga, state, australia }, lgaTables, stateTables, samePeople };
}

/** The level with its borrowing strengths chosen on its own published subtotals (borrowing.ts). */
export function withBorrowing(level: LevelInputs, smallThreshold: number, significance?: number): LevelInputs {
  const borrowing = levelStrengths(level.inputs, level, (code) => publishedPersons(level.inputs, code), smallThreshold, significance);
  return { ...level, borrowing };
}

/** withBorrowing with each table's choice handed to `choose` (the build's worker threads), so that it runs beside the loading of the next level. */
export async function withBorrowingBy(choose: (task: TableStrengthTask) => Promise<BandStrengths | undefined>, level: LevelInputs, smallThreshold: number): Promise<LevelInputs> {
  const borrowing = await levelStrengthsBy(choose, level.inputs, level, (code) => publishedPersons(level.inputs, code), smallThreshold);
  return { ...level, borrowing };
}
