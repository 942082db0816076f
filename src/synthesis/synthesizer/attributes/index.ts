/**
 * The attributes step of the sample-free synthesizer: given the linked structure (ages, sexes,
 * relationships, families, households), give every person, family and dwelling the rest of
 * its variables, fitted to the suburb's tables and coherent across levels. The method is in
 * docs/synthesis.md ("Attributes", "Joint realism"). A fixed sequence of named phases, each
 * reading what the earlier ones wrote:
 *   work → schooling → personal income → partners matched on education → marital status and
 *   origin (families made to resemble each other) → care → household and family incomes →
 *   dwellings.
 * Each variable is dealt within the strata of the table that carries it (exact by
 * construction), split by a prior where the table ignores age or another attribute, ranked where
 * attributes go together; links no table carries are made by swaps that keep every table exact.
 */
import type { Population } from '../../census/population.ts';
import type { SuburbTargets } from '../../census/targets.ts';
import type { Rng } from '../rng.ts';
import { createAttributeContext, newLevel, type AttributeOptions } from './context.ts';
import { assignDwellings } from './dwellings.ts';
import { fitHouseholdIncomes, INCOME_SWAPS_PER_PERSON } from './household-income.ts';
import type { SwapReport } from './income.ts';
import type { InheritReport } from './inherit.ts';
import { assignCare, assignOrigin, assignPersonalIncome, assignSchooling, assignWork, matchPartners, personBasics, type PersonLevel } from './persons.ts';

export type { AttributeOptions } from './context.ts';
export { INCOME_SWAPS_PER_PERSON };

export interface AttributeDiagnostics {
  /** Per variable: units moved out of a category their class forbids (infeasible inputs). */
  readonly forced: Record<string, number>;
  /** Variables with no table for this suburb, drawn from their prior alone. */
  readonly fromPriorOnly: string[];
  readonly incomeSwaps?: SwapReport;
  /** Families' resemblance in origin (couples, children): each trait's alike links before and after the swaps, and its target. */
  readonly culture?: InheritReport;
  /** Couples alike in their level of qualification before and after the work bundles' swaps, and the target. */
  readonly education?: InheritReport;
}

export function assignAttributes(structure: Population, targets: SuburbTargets, rng: Rng, options: AttributeOptions): Population {
  return assignAttributesWithDiagnostics(structure, targets, rng, options).population;
}

export function assignAttributesWithDiagnostics(
  structure: Population,
  targets: SuburbTargets,
  rng: Rng,
  options: AttributeOptions,
): { population: Population; diagnostics: AttributeDiagnostics } {
  const ctx = createAttributeContext(targets, rng, options);
  const persons = newLevel(structure.persons.count, structure.persons.variables, structure.persons.age) as PersonLevel;
  const families = newLevel(structure.families.count, structure.families.variables);
  const dwellings = newLevel(structure.dwellings.count, structure.dwellings.variables);
  const family = structure.persons.family;

  const basics = personBasics(persons, rng);
  const { employed } = assignWork(ctx, persons, basics);
  assignSchooling(ctx, persons, basics);
  assignPersonalIncome(ctx, persons, basics, employed);
  const education = matchPartners(ctx, persons, family, employed);
  const culture = assignOrigin(ctx, persons, basics, family);
  assignCare(ctx, persons, basics);
  const incomes = fitHouseholdIncomes(ctx, structure, persons, families, dwellings, basics, employed);
  assignDwellings(ctx, dwellings, persons.age, structure.persons.dwelling, incomes.dwellingTally);

  const population: Population = {
    persons: { ...structure.persons, variables: persons.columns },
    families: { ...structure.families, variables: families.columns },
    dwellings: { ...structure.dwellings, variables: dwellings.columns },
  };
  return {
    population,
    diagnostics: {
      forced: ctx.forced,
      fromPriorOnly: ctx.fromPriorOnly,
      culture,
      education,
      ...(incomes.incomeSwaps ? { incomeSwaps: incomes.incomeSwaps } : {}),
    },
  };
}
