/**
 * Landlords fitted to the two tables that count renters by landlord: G37 (tenure and landlord by
 * dwelling structure, five cells per landlord) and G40 (rent by landlord, fifteen small cells
 * per landlord). G37 deals the landlords; G40 then deals rents within each landlord's renters,
 * so every renter G37 gave a landlord beyond what G40's cells hold is spread over G40's cells
 * (and a shortfall taken from them). The two tables are perturbed apart: on Tasmania's SA2s of
 * 5,000 persons and more, a landlord's renters differed from the sum of its G40 cells by 4-8
 * dwellings, about half of G40's SRMSE.
 *
 * A renter changes landlord, from one holding more renters than G40 counts to one holding fewer;
 * and where G40 counts more (or fewer) renters of a landlord than G37 dealt in all, a dwelling
 * owned outright, of another tenure or tenure not stated (tenures no other table counts) becomes
 * rented (or the other way). Each move happens only in a dwelling structure where G37 has room
 * for it: its cell left above the published value by at least one more than the cell it joins
 * (so G37's squared error does not grow). G40 then comes closer to its published cells, and G37
 * stays where it was or comes closer too.
 */
import type { Control } from '../../census/controls/controls.ts';
import type { SuburbTargets } from '../../census/targets.ts';
import { tableById } from '../../census/tables.ts';
import { categoryIndex, variableByCode } from '../../census/variables.ts';
import type { Rng } from '../rng.ts';
import { cellsFor, info, type Level } from './context.ts';
import { cellValue, planTable, strataOf, type TablePlan } from './plan.ts';

export interface LandlordShift {
  /** Renters that changed landlord. */
  readonly moved: number;
}

const RENTED = categoryIndex('TEND', 'Rented');
const LANDLORD_NA = categoryIndex('LLDD', 'Not applicable');
/** Tenures no table but G37 counts: a dwelling may leave or join them for G40's renters. */
const SPARE_TENURES = ['Owned outright', 'Other tenure type', 'Not stated'].map((label) => categoryIndex('TEND', label));

/**
 * Moves dwellings between landlords and tenures (the dwellings' LLDD and TEND columns, in place)
 * toward the count of each landlord's renters in the control's table (G40), where the table it
 * keeps (G37) allows (see above); `privateDwelling[d]` 1 for occupied private dwellings. No change without both tables, in a small area (its cells are
 * borrowed, not its own), or where G40's strata are not one landlord each.
 */
export function shareLandlords(targets: SuburbTargets, control: Control, dwellings: Level, privateDwelling: Uint8Array, small: boolean, rng: Rng): LandlordShift {
  const landlords = control.table!;
  const tenures = control.keeping!;
  const g40 = targets.tables.get(landlords);
  const g37 = targets.tables.get(tenures);
  const { LLDD: lldd, STRD: strd, TEND: tend } = dwellings.columns;
  if (!g40 || !g37 || !lldd || !strd || !tend || small) return { moved: 0 };
  // Planned on its rents, G40's strata are its landlords.
  const plan = planTable(landlords, cellsFor(landlords, g40), ['RNTRD'], dwellings.known, info);
  const landlordOf = landlordsOfStrata(plan);
  if (!landlordOf) return { moved: 0 };
  const renter = Uint8Array.from(tend, (t, d) => (t === RENTED ? privateDwelling[d]! : 0));
  const stratumOf = strataOf(plan, lldd.length, plan.conditionVars.map((v) => dwellings.columns[v]!), undefined, renter);
  // Groups: G40's strata, then the spare tenures. need[g] > 0: G40 counts more renters of
  // stratum g's landlord than the dwellings hold (0 for a spare tenure: G40 does not count it).
  const strata = plan.strata.length;
  const groupOf = Int32Array.from(stratumOf, (s, d) => (s >= 0 ? s : privateDwelling[d] ? spareGroup(tend[d]!, strata) : -1));
  const need = new Float64Array(strata + SPARE_TENURES.length);
  plan.strata.forEach((st, s) => (need[s] = st.cells.reduce((n, cell) => n + cellValue(cell, g40), 0)));
  for (const s of stratumOf) if (s >= 0) need[s]!--;
  const tenure = tenureCells(tenures, g37, landlordOf, variableByCode('STRD').categories.length);
  // dwellingsIn[g][k]: dwellings of group g in structure k, to move from (shuffled: any may go).
  const dwellingsIn = Array.from(need, () => Array.from({ length: tenure.structures }, () => [] as number[]));
  for (let d = 0; d < lldd.length; d++) {
    const g = groupOf[d]!;
    if (g < 0) continue;
    dwellingsIn[g]![strd[d]!]!.push(d);
    const cell = tenure.cellOf[g * tenure.structures + strd[d]!]!;
    if (cell >= 0) tenure.excess[cell]!++;
  }
  for (const lists of dwellingsIn) for (const list of lists) rng.shuffle(list);
  let moved = 0;
  for (let move = bestMove(need, strata, dwellingsIn, tenure); move; move = bestMove(need, strata, dwellingsIn, tenure)) {
    const d = dwellingsIn[move.from]![move.structure]!.pop()!;
    if (move.to < strata) {
      tend[d] = RENTED;
      lldd[d] = landlordOf[move.to]!;
    } else {
      tend[d] = SPARE_TENURES[move.to - strata]!;
      lldd[d] = LANDLORD_NA;
    }
    dwellingsIn[move.to]![move.structure]!.push(d);
    if (move.from < strata) need[move.from]!++;
    if (move.to < strata) need[move.to]!--;
    tenure.excess[tenure.cellOf[move.from * tenure.structures + move.structure]!]!--;
    tenure.excess[tenure.cellOf[move.to * tenure.structures + move.structure]!]!++;
    moved++;
  }
  return { moved };
}

const spareGroup = (tenure: number, strata: number): number => {
  const j = SPARE_TENURES.indexOf(tenure);
  return j < 0 ? -1 : strata + j;
};

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

/** G37's cells by (group: G40 stratum or spare tenure, structure category): cell index (-1 none), and the synthetic − published excess of each. */
interface TenureCells {
  readonly structures: number;
  readonly cellOf: Int32Array;
  readonly excess: Float64Array;
}

function tenureCells(id: string, g37: ArrayLike<number>, landlordOf: readonly number[], structures: number): TenureCells {
  const spec = tableById(id);
  const strata = landlordOf.length;
  const cellOf = new Int32Array((strata + SPARE_TENURES.length) * structures).fill(-1);
  const excess = new Float64Array(spec.cells.length);
  spec.cells.forEach((cell, i) => {
    const landlord = cell.where['LLDD'];
    const tenures = cell.where['TEND'];
    const g = landlord?.length === 1 ? landlordOf.indexOf(landlord[0]!) : !landlord && tenures?.length === 1 ? spareGroup(tenures[0]!, strata) : -1;
    if (g < 0) return;
    for (const k of cell.where['STRD'] ?? []) if (k < structures) cellOf[g * structures + k] = i;
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
 * joined, at least 1) among those that bring G40 closer: from a landlord with renters beyond
 * G40's count, or a spare tenure, to a landlord short of it, or a spare tenure (groups from
 * `strata` on are spare tenures).
 */
function bestMove(need: Float64Array, strata: number, dwellingsIn: readonly (readonly number[][])[], tenure: TenureCells): Move | undefined {
  let best: Move | undefined;
  let bestGain = 0;
  for (let from = 0; from < need.length; from++) {
    if (from < strata && need[from]! > -1) continue;
    for (let to = 0; to < need.length; to++) {
      if (to < strata ? need[to]! < 1 : from >= strata) continue;
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
