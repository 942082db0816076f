/**
 * The published counts of an area's persons by sex and age range that its persons' ages are
 * fitted to (structure/ages.ts places them top down).
 *
 * Every age × sex table the persons are dealt into (G05, G17, G18, G23, G46) has its strata at
 * G01's age groups, and the ABS publishes each group's subtotal as the same number in all of
 * them (the perturbation is keyed by the records counted). Each of those tables' cells, summed
 * over a group, is a second, independent measurement of the same persons, perturbed cell by
 * cell, and so is G04's single years summed. A group's size is the mean of all of them: the
 * records then sit as near every table's own cells as one count of persons can (on Tasmania's
 * postal areas of 500–4,999 persons, G18's median SRMSE 0.054 with the subtotal alone, 0.044
 * with the mean; G05 0.067 → 0.061, G17 0.133 → 0.119, G46 0.085 → 0.073). Summed cells count
 * only where they are reliable (borrow.ts isReliable: not a small area, and not far short of the
 * subtotal): where perturbation emptied them, their sum says nothing about the group but that
 * its cells were small, and the subtotal stands alone.
 */
import { controlOf, tableOf } from '../../census/controls/controls.ts';
import type { SuburbTargets } from '../../census/targets.ts';
import { INPUT_TABLES } from '../../census/tables.ts';
import type { CellSpec, TableSpec } from '../../census/table-spec.ts';
import { cellInside } from '../../census/gcp/table.ts';
import { isReliable } from '../borrow.ts';
import type { AgeFigure } from './ages.ts';

/** A group of persons of one sex in one age range, as a G01 aggregate names it. */
export interface AgeGroup {
  readonly sex: number;
  readonly lo: number;
  readonly hi: number;
  /** Index of the group's subtotal among G01's otherCells. */
  readonly subtotal: number;
  /**
   * Per persons table that publishes the same group as a stratum: the cells inside it, and the
   * index of its own subtotal of the group among its otherCells (-1 for G04, the age table).
   */
  readonly measurements: readonly { readonly tableId: string; readonly cells: readonly number[]; readonly subtotal: number }[];
}

const isSexAgeBox = (cell: CellSpec): boolean =>
  cell.age !== undefined && cell.where['SEXP']?.length === 1 && Object.keys(cell.where).length === 1;

const sameBox = (a: CellSpec, b: CellSpec): boolean => cellInside(a, b) && cellInside(b, a);

/** The tables of the structure step's rows for persons by sex (G01: its age groups) and by age (G04: single years). */
const ageTables = (): { groups: string; singles: string } => ({
  groups: tableOf(controlOf('structure', 'SEXP')),
  singles: tableOf(controlOf('structure', 'AGE5P')),
});

let groupsCache: readonly AgeGroup[] | undefined;

/** G01's sex × age groups and which tables measure each one (from the specs alone, computed once). */
export function ageGroups(): readonly AgeGroup[] {
  if (groupsCache) return groupsCache;
  const { groups, singles } = ageTables();
  const g01 = INPUT_TABLES.find((t) => t.id === groups);
  if (!g01) return (groupsCache = []);
  // Tables with a stratum of the same box (one of their aggregates is it), and G04 itself.
  const persons = INPUT_TABLES.filter((t) => t.universe === 'persons' && t.id !== groups);
  groupsCache = g01.otherCells.flatMap((box, subtotal) => {
    if (!isSexAgeBox(box)) return [];
    const measurements = persons.flatMap((table: TableSpec) => {
      const own = table.otherCells.findIndex((other) => sameBox(other, box));
      if (own < 0 && table.id !== singles) return [];
      const cells = table.cells.flatMap((cell, i) => (cellInside(cell, box) ? [i] : []));
      return cells.length > 0 ? [{ tableId: table.id, cells, subtotal: table.id === singles ? -1 : own }] : [];
    });
    return [{ sex: box.where['SEXP']![0]!, lo: box.age![0], hi: box.age![1], subtotal, measurements }];
  });
  return groupsCache;
}

const count = (v: number | undefined): number => (v !== undefined && Number.isFinite(v) ? Math.max(0, v) : 0);

/**
 * The figures the ages are fitted to, coarsest first: G01's age groups, each the mean of its
 * published measurements (the subtotal, and every table's cells summed over it where they are
 * reliable; in a small area the subtotal alone), then G04's
 * cells (single years 0–79, five-year groups 80–99, 100+). Each carries the parent area's count
 * of the same persons (its G04 cells summed over the range). G04's own five-year subtotals are
 * left out: they would split G01's ten-year groups nearer the truth but further from G04's
 * single years, which is what G04 is scored on (Tasmania, 500–4,999 persons: G04's median SRMSE
 * 0.107 with them, 0.086 without).
 */
export function ageFigures(targets: SuburbTargets, small = false): AgeFigure[] {
  const { groups: g01Id, singles: g04Id } = ageTables();
  const g04 = INPUT_TABLES.find((t) => t.id === g04Id);
  const g04Cells = targets.tables.get(g04Id);
  if (!g04 || !g04Cells) return [];
  const parentCells = targets.parent?.lga.get(g04Id) ?? targets.parent?.state.get(g04Id);
  const parentOf = (sex: number, lo: number, hi: number): number => {
    if (!parentCells || parentCells.length !== g04Cells.length) return 0;
    let sum = 0;
    g04.cells.forEach((cell, i) => {
      if (cell.age && cell.where['SEXP']?.[0] === sex && cell.age[0] >= lo && cell.age[1] <= hi) sum += count(parentCells[i]);
    });
    return sum;
  };
  const subtotals = targets.aggregates?.get(g01Id);
  const groups: AgeFigure[] = subtotals
    ? ageGroups().flatMap((group) => {
        const values: number[] = [];
        const subtotal = subtotals[group.subtotal];
        if (subtotal === undefined || !Number.isFinite(subtotal)) return [];
        values.push(Math.max(0, subtotal));
        for (const { tableId, cells, subtotal: own } of group.measurements) {
          const table = targets.tables.get(tableId);
          if (!table) continue;
          // A table counts the same persons only if it publishes the same subtotal: G27 counts
          // persons in private dwellings (and their visitors) under the same sex × age box.
          if (own >= 0 && targets.aggregates?.get(tableId)?.[own] !== subtotal) continue;
          let sum = 0;
          for (const i of cells) sum += count(table[i]);
          if (isReliable(sum, Math.max(0, subtotal), small)) values.push(sum);
        }
        const value = values.reduce((a, b) => a + b, 0) / values.length;
        return [{ sex: group.sex, lo: group.lo, hi: group.hi, value, parent: parentOf(group.sex, group.lo, group.hi) }];
      })
    : [];
  const singles = g04.cells.flatMap((cell, i) => {
    const sex = cell.where['SEXP'];
    if (!isSexAgeBox(cell)) return [];
    return [{ sex: sex![0]!, lo: cell.age![0], hi: cell.age![1], value: g04Cells[i] as number, parent: parentOf(sex![0]!, cell.age![0], cell.age![1]) }];
  });
  return [...groups, ...singles];
}
