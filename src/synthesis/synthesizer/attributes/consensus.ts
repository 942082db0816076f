/**
 * How many people a stratum's cells, and groups of them, hold when other tables count the same
 * people (census/same-people.ts). Every such figure is measured several times: by the figure
 * itself, by the table's own cells summed under it, and by each other table's cells summed under
 * its copy (employed males aged 15–19: G46's subtotal, G46's four employed cells, G54's twenty
 * industry cells, G60's nine occupation cells). Their mean is the estimate: the records then sit
 * as near every one of those tables as one count of people can, as the ages do for the age × sex
 * tables (structure/age-figures.ts). In a small area, or where cells were emptied, the published
 * figure stands alone: a robust margin the cells are fitted within.
 */
import type { SuburbTargets } from '../../census/targets.ts';
import { tableById } from '../../census/tables.ts';
import type { TableSpec } from '../../census/table-spec.ts';
import { cellInside } from '../../census/gcp/table.ts';
import type { FigureRef } from '../../census/same-people.ts';
import { isReliable } from '../borrow.ts';
import type { CellGroup } from '../nested.ts';
import type { TablePlan } from './plan.ts';

/** A stratum's estimates: published cells (by their index in the table) and groups of its cells. */
export interface StratumConsensus {
  /** Table cell index → estimated units, for cells that other tables count too. */
  readonly cells: ReadonlyMap<number, number>;
  /** Groups of the stratum's cells (by table cell index) with their estimated units. */
  readonly groups: readonly CellGroup[];
}

const leavesCache = new Map<string, readonly (readonly number[])[]>();

/** For each of a table's otherCells, the indices of its cells inside it. */
function leavesOf(spec: TableSpec): readonly (readonly number[])[] {
  let leaves = leavesCache.get(spec.id);
  if (!leaves) {
    leaves = spec.otherCells.map((box) => spec.cells.flatMap((cell, i) => (cellInside(cell, box) ? [i] : [])));
    leavesCache.set(spec.id, leaves);
  }
  return leaves;
}

/** The published value of a figure, or its cells summed (undefined when any is unpublished or missing). */
function measure(targets: SuburbTargets, ref: FigureRef, summed: boolean): number | undefined {
  const spec = tableById(ref.tableId);
  const cells = targets.tables.get(ref.tableId);
  if (ref.figure < spec.cells.length) return summed ? undefined : cells?.[ref.figure];
  if (!summed) return targets.aggregates?.get(ref.tableId)?.[ref.figure - spec.cells.length];
  const leaves = leavesOf(spec)[ref.figure - spec.cells.length]!;
  if (!cells || leaves.length === 0) return undefined;
  let sum = 0;
  for (const i of leaves) sum += cells[i]!;
  return sum;
}

/**
 * Mean of a figure's measurements: itself, its own cells summed, and each copy's cells summed,
 * the sums only where they are reliable (isReliable: not a small area, not far short of the
 * figure): emptied cells say only that they were small. Undefined when the figure itself is not
 * published.
 */
function estimate(targets: SuburbTargets, self: FigureRef, copies: readonly FigureRef[], small: boolean): number | undefined {
  const published = measure(targets, self, false);
  if (published === undefined || !Number.isFinite(published)) return undefined;
  const figure = Math.max(0, published);
  const sums = [measure(targets, self, true), ...copies.map((c) => measure(targets, c, true))].filter(
    (v): v is number => v !== undefined && Number.isFinite(v) && isReliable(Math.max(0, v), figure, small),
  );
  return (figure + sums.reduce((a, b) => a + Math.max(0, b), 0)) / (1 + sums.length);
}

/**
 * Per stratum of the plan (undefined where nothing is shared): the estimates of its cells and
 * groups that other tables count too. Empty without same-people figures or subtotals.
 */
export function stratumConsensus(plan: TablePlan, targets: SuburbTargets, small = false): (StratumConsensus | undefined)[] {
  const classes = targets.samePeople;
  if (!classes || !targets.aggregates?.get(plan.tableId)) return plan.strata.map(() => undefined);
  const spec = tableById(plan.tableId);
  const copiesOf = new Map<number, FigureRef[]>();
  for (const members of classes) {
    for (const ref of members) {
      if (ref.tableId !== plan.tableId) continue;
      copiesOf.set(ref.figure, [...(copiesOf.get(ref.figure) ?? []), ...members.filter((m) => m.tableId !== plan.tableId)]);
    }
  }
  if (copiesOf.size === 0) return plan.strata.map(() => undefined);
  const leaves = leavesOf(spec);
  return plan.strata.map((stratum) => {
    const own = stratum.cells.filter((c) => c.source >= 0 && !c.minus && c.source < spec.cells.length).map((c) => c.source);
    const cells = new Map<number, number>();
    for (const i of own) {
      const copies = copiesOf.get(i);
      if (!copies) continue;
      const value = estimate(targets, { tableId: plan.tableId, figure: i }, copies, small);
      if (value !== undefined) cells.set(i, value);
    }
    const groups: CellGroup[] = [];
    for (const [figure, copies] of copiesOf) {
      if (figure < spec.cells.length) continue;
      const members = leaves[figure - spec.cells.length]!;
      if (members.length < 2 || members.length >= own.length || !members.every((i) => own.includes(i))) continue;
      const value = estimate(targets, { tableId: plan.tableId, figure }, copies, small);
      if (value !== undefined) groups.push({ members, value });
    }
    return cells.size > 0 || groups.length > 0 ? { cells, groups } : undefined;
  });
}
