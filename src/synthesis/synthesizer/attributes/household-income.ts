/**
 * Household and family incomes: summed from the persons' incomes, then brought toward G33 (HIND
 * by household composition) and G32 (FINF by family composition) by swapping person incomes
 * within strata that keep G17 exact (income.ts, docs/synthesis.md "Attributes"); then HIND,
 * HIED, FINF and the families' labour force (LFSF) are read off the result.
 */
import { controlOf, type Control } from '../../census/controls/controls.ts';
import type { Population } from '../../census/population.ts';
import type { SuburbTargets } from '../../census/targets.ts';
import { variableByCode } from '../../census/variables.ts';
import type { AttributeContext, Level } from './context.ts';
import { cellsFor, info } from './context.ts';
import { deriveLfsf } from './family.ts';
import {
  classifyAll,
  classifyEquivalised,
  familyIncomeMembers,
  householdIncomeMembers,
  incomeScale,
  makeObjective,
  personDollars,
  swapIncomes,
  tallyIncome,
  type IncomeTally,
  type SwapReport,
  type SwapTarget,
} from './income.ts';
import { cellValue, planTable, strataOf } from './plan.ts';
import { SECONDARY, type PersonBasics, type PersonLevel } from './persons.ts';
import * as priors from '../../census/controls/priors.ts';

/** Swap proposals per person aged 15+ (docs/synthesis.md: error vs time). */
export const INCOME_SWAPS_PER_PERSON = 6;

export interface HouseholdIncomes {
  /** Persons' incomes summed per dwelling (after the swaps): dollars, adults, members. */
  readonly dwellingTally: IncomeTally;
  readonly incomeSwaps?: SwapReport;
}

export function fitHouseholdIncomes(
  ctx: AttributeContext,
  structure: Population,
  persons: PersonLevel,
  families: Level,
  dwellings: Level,
  basics: PersonBasics,
  employed: Uint8Array,
): HouseholdIncomes {
  const { targets, rng } = ctx;
  const P = persons.count;
  const F = families.count;
  const D = dwellings.count;
  const { age } = persons;
  const incp = persons.columns.INCP!.slice(); // the swaps rewrite it
  persons.columns.INCP = incp;
  const typp = persons.columns.TYPP!;
  const dollars = personDollars(variableByCode('INCP').categories);
  const hindScale = incomeScale(variableByCode('HIND').categories);
  const finfScale = incomeScale(variableByCode('FINF').categories);
  const members = householdIncomeMembers(structure.persons.dwelling, persons.columns.RLHP!, dwellings.columns.DWTD!);
  const dwellingTally = tallyIncome(D, members.groupOf, age, incp, dollars, members.absentGroupOf);
  const familyMembers = familyIncomeMembers(structure.persons.family, persons.columns.RLHP!);
  const familyTally = tallyIncome(F, familyMembers.groupOf, age, incp, dollars, familyMembers.absentGroupOf);
  const swapTargets: SwapTarget[] = [];
  const hindObjective = incomeObjective(targets, controlOf('household-incomes', 'HIND'), D, dwellings, hindScale, dwellingTally);
  if (hindObjective) swapTargets.push({ objective: hindObjective, groupOf: members.groupOf });
  const finfObjective = incomeObjective(targets, controlOf('household-incomes', 'FINF'), F, families, finfScale, familyTally);
  if (finfObjective) swapTargets.push({ objective: finfObjective, groupOf: familyMembers.groupOf });
  let incomeSwaps: SwapReport | undefined;
  if (swapTargets.length > 0) {
    // Swap strata: G17's age band × sex, times employed / not employed and at school or not,
    // so G17 stays exact and income keeps its link with work and age while households get
    // room to move. (Adding degree / no degree made income × qualification worse: the ranked
    // deal links them more tightly than the census does, and the swaps loosen that.)
    const personal = controlOf('household-incomes', 'INCP');
    const g17 = targets.tables.get(personal.table!);
    const classes = 4;
    const swapClass = (i: number): number => employed[i]! * 2 + (typp[i] === SECONDARY ? 1 : 0);
    const stratum = new Int32Array(P).fill(-1);
    let strata = 0;
    if (g17) {
      const plan = planTable(personal.table!, cellsFor(personal.table!, g17), personal.variables, persons.known, info);
      const s = strataOf(plan, P, plan.conditionVars.map((v) => persons.columns[v]!), age, basics.adult);
      for (let i = 0; i < P; i++) if (s[i]! >= 0) stratum[i] = s[i]! * classes + swapClass(i);
      strata = plan.strata.length * classes;
    } else {
      const sexp = persons.columns.SEXP!;
      for (let i = 0; i < P; i++) if (basics.adult[i]) stratum[i] = (basics.band[i]! * 2 + sexp[i]!) * classes + swapClass(i);
      strata = priors.PRIOR_BANDS.length * 2 * classes;
    }
    incomeSwaps = swapIncomes(incp, dollars, stratum, strata, swapTargets, rng, INCOME_SWAPS_PER_PERSON);
  }
  dwellings.columns.HIND = classifyAll(hindScale, dwellingTally, members.applies);
  dwellings.columns.HIED = classifyEquivalised(incomeScale(variableByCode('HIED').categories), dwellingTally, members.applies);
  families.columns.FINF = classifyAll(finfScale, familyTally);
  families.columns.LFSF = deriveLfsf(F, structure.persons.family, persons.columns.RLHP!, persons.columns.LFSP!);
  return { dwellingTally, ...(incomeSwaps ? { incomeSwaps } : {}) };
}
/** The swap objective of an income table (G33 for HIND, G32 for FINF); undefined when the suburb lacks it. */
function incomeObjective(
  targets: SuburbTargets,
  control: Control,
  groups: number,
  level: Level,
  scale: ReturnType<typeof incomeScale>,
  tally: ReturnType<typeof tallyIncome>,
) {
  const { table: id, variables } = control;
  const values = targets.tables.get(id!);
  if (!values) return undefined;
  const code = variables[0]!;
  const plan = planTable(id!, cellsFor(id!, values), variables, level.known, info);
  const stratumOf = strataOf(plan, groups, plan.conditionVars.map((v) => level.columns[v]!), undefined);
  const categories = variableByCode(code).categories.length;
  const cells = plan.strata.reduce((n, st) => n + st.cells.length, 0);
  const cellOf = new Int32Array(plan.strata.length * categories).fill(-1);
  const target = new Float64Array(cells);
  const sizes = new Float64Array(plan.strata.length);
  for (let g = 0; g < groups; g++) if (stratumOf[g]! >= 0) sizes[stratumOf[g]!]!++;
  let base = 0;
  plan.strata.forEach((st, s) => {
    // The synthetic stratum size is the truth for the count; the cells are brought to it by an
    // equal share of the difference each (perturbation noise is the same size in every cell;
    // see nearestIntegers). Real-valued: integer targets leave the annealing flat plateaus.
    const own = st.cells.map((cell) => cellValue(cell, values));
    const total = own.reduce((a, b) => a + b, 0);
    st.cells.forEach((cell, j) => {
      for (const k of cell.pattern[0]!) cellOf[s * categories + k] = base + j;
      target[base + j] = Math.max(0, own[j]! + (sizes[s]! - total) / own.length);
    });
    base += st.cells.length;
  });
  return makeObjective(scale, tally, stratumOf, categories, cellOf, target);
}
