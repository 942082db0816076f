/**
 * Landlords fitted to the two tables that count renters by landlord: G37 (tenure and landlord by
 * dwelling structure, five cells per landlord) and G40 (rent by landlord, fifteen small cells
 * per landlord). G37 deals the landlords; G40 then deals rents within each landlord's renters,
 * so every renter G37 gave a landlord beyond what G40's cells hold is spread over G40's cells
 * (and a shortfall taken from them). The two tables are perturbed apart: on Tasmania's SA2s of
 * 5,000 persons and more, a landlord's renters differed from the sum of its G40 cells by 4-8
 * dwellings, about half of G40's SRMSE.
 *
 * A renter changes landlord, from one holding more renters than G40 counts to one holding fewer,
 * only in a dwelling structure where G37 has room for it: its cell of the landlord it leaves
 * above the published value by at least one more than the cell it joins (so G37's squared error
 * does not grow). Both tables then come closer to their published cells, or G37 stays where it
 * was. The renters' total (G37's tenure) does not move.
 */
import type { SuburbTargets } from '../../census/targets.ts';
import { tableById } from '../../census/tables.ts';
import type { Rng } from '../rng.ts';
import { cellsFor, info, type Level } from './context.ts';
import { cellValue, planTable, strataOf, type TablePlan } from './plan.ts';

export interface LandlordShift {
  /** Renters that changed landlord. */
  readonly moved: number;
}

/**
 * Moves renters between landlords (the dwellings' LLDD column, in place) toward G40's count of
 * each, where G37 allows (see above); `renter[d]` 1 for the occupied private dwellings G37 made
 * rented. No change without both tables, in a small area (its cells are borrowed, not its own),
 * or where G40's strata are not one landlord each.
 */
export function shareLandlords(targets: SuburbTargets, dwellings: Level, renter: Uint8Array, small: boolean, rng: Rng): LandlordShift {
  const g40 = targets.tables.get('G40');
  const g37 = targets.tables.get('G37');
  const lldd = dwellings.columns.LLDD;
  const strd = dwellings.columns.STRD;
  if (!g40 || !g37 || !lldd || !strd || small) return { moved: 0 };
  const plan = planTable('G40', cellsFor('G40', g40), ['RNTRD'], dwellings.known, info);
  const landlordOf = landlordsOfStrata(plan);
  if (!landlordOf) return { moved: 0 };
  const stratumOf = strataOf(plan, lldd.length, plan.conditionVars.map((v) => dwellings.columns[v]!), undefined, renter);
  // need[s] > 0: G40 counts more renters of stratum s's landlord than the dwellings hold.
  const need = Float64Array.from(plan.strata, (st) => st.cells.reduce((n, cell) => n + cellValue(cell, g40), 0));
  for (const s of stratumOf) if (s >= 0) need[s]!--;
  const tenure = tenureCells(g37, landlordOf, Math.max(...strd) + 1);
  // dwellingsIn[s][k]: renters of stratum s in structure k, to move from (shuffled: any may go).
  const dwellingsIn = plan.strata.map(() => Array.from({ length: tenure.structures }, () => [] as number[]));
  for (let d = 0; d < lldd.length; d++) {
    const s = stratumOf[d]!;
    if (s < 0) continue;
    dwellingsIn[s]![strd[d]!]!.push(d);
    const cell = tenure.cellOf[s * tenure.structures + strd[d]!]!;
    if (cell >= 0) tenure.excess[cell]!++;
  }
  for (const lists of dwellingsIn) for (const list of lists) rng.shuffle(list);
  let moved = 0;
  for (let move = bestMove(need, dwellingsIn, tenure); move; move = bestMove(need, dwellingsIn, tenure)) {
    const d = dwellingsIn[move.from]![move.structure]!.pop()!;
    lldd[d] = landlordOf[move.to]!;
    dwellingsIn[move.to]![move.structure]!.push(d);
    need[move.from]!++;
    need[move.to]!--;
    tenure.excess[tenure.cellOf[move.from * tenure.structures + move.structure]!]!--;
    tenure.excess[tenure.cellOf[move.to * tenure.structures + move.structure]!]!++;
    moved++;
  }
  return { moved };
}

/** The landlord category of each G40 stratum; undefined unless each is exactly one. */
function landlordsOfStrata(plan: TablePlan): number[] | undefined {
  const axis = plan.conditionVars.indexOf('LLDD');
  if (axis < 0 || plan.strata.length === 0) return undefined;
  const landlords = plan.strata.map((st) => {
    const cats = [...st.masks[axis]!.keys()].filter((k) => st.masks[axis]![k]);
    return cats.length === 1 ? cats[0]! : -1;
  });
  return landlords.every((k) => k >= 0) ? landlords : undefined;
}

/** G37's renters cells by (G40 stratum, structure category): cell index (-1 none), and the synthetic − published excess of each. */
interface TenureCells {
  readonly structures: number;
  readonly cellOf: Int32Array;
  readonly excess: Float64Array;
}

function tenureCells(g37: ArrayLike<number>, landlordOf: readonly number[], structures: number): TenureCells {
  const spec = tableById('G37');
  const cellOf = new Int32Array(landlordOf.length * structures).fill(-1);
  const excess = new Float64Array(spec.cells.length);
  spec.cells.forEach((cell, i) => {
    const landlord = cell.where['LLDD'];
    if (landlord?.length !== 1) return;
    const s = landlordOf.indexOf(landlord[0]!);
    if (s < 0) return;
    for (const k of cell.where['STRD'] ?? []) if (k < structures) cellOf[s * structures + k] = i;
    excess[i] = -Math.max(0, g37[i] ?? 0);
  });
  return { structures, cellOf, excess };
}

interface Move {
  readonly from: number;
  readonly to: number;
  readonly structure: number;
}

/**
 * The move that helps G37 most (largest excess of the cell left less the excess of the cell
 * joined, at least 1) among landlords with renters beyond G40's count and those short of it.
 */
function bestMove(need: Float64Array, dwellingsIn: readonly (readonly number[][])[], tenure: TenureCells): Move | undefined {
  let best: Move | undefined;
  let bestGain = 0;
  for (let from = 0; from < need.length; from++) {
    if (need[from]! > -1) continue;
    for (let to = 0; to < need.length; to++) {
      if (need[to]! < 1) continue;
      for (let k = 0; k < tenure.structures; k++) {
        const left = tenure.cellOf[from * tenure.structures + k]!;
        const joined = tenure.cellOf[to * tenure.structures + k]!;
        if (left < 0 || joined < 0 || dwellingsIn[from]![k]!.length === 0) continue;
        const gain = tenure.excess[left]! - tenure.excess[joined]!;
        if (gain >= 1 && gain > bestGain) {
          bestGain = gain;
          best = { from, to, structure: k };
        }
      }
    }
  }
  return best;
}
