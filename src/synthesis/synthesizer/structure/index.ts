import type { Population } from '../../census/population.ts';
import type { Rng } from '../rng.ts';
import { planHouseholds } from './households/index.ts';
import { linkPersons } from './link/index.ts';
import { emptyDiagnostics, type StructureDiagnostics, type StructureTargets } from './model.ts';
import { drawPersons } from './persons.ts';
import { encodeStructure } from './encode.ts';
import { splitResidents } from './residents.ts';

export * from './model.ts';
export { STRUCTURE_VARIABLES } from './encode.ts';

/**
 * Builds one suburb's dwellings, families and persons, linked, with the structural variables
 * filled: the persons split into residents of occupied private dwellings (at home or away
 * visiting) and of non-private dwellings, households planned from the household tables
 * (dwelling anchor exact), persons drawn by age × sex (person anchor exact) and given roles
 * that fit the households, then linked in a fixed order (couples, parents and children,
 * relatives, unrelated, group, lone, visitors, non-private residents).
 */
export function buildStructure(targets: StructureTargets, rng: Rng): { population: Population; diagnostics: StructureDiagnostics } {
  const diagnostics = emptyDiagnostics();
  const persons = Math.max(0, Math.round(targets.persons));
  const plan = planHouseholds(targets, splitResidents(targets, persons), rng.fork(1), diagnostics);
  const drawn = drawPersons(targets, persons, plan.roleTotals, rng.fork(2), diagnostics);
  const skeleton = linkPersons(targets, plan, drawn, rng.fork(3), diagnostics);
  const population = encodeStructure(skeleton, rng.fork(4));
  diagnostics.persons = population.persons.count;
  diagnostics.families = population.families.count;
  diagnostics.dwellings = population.dwellings.count;
  return { population, diagnostics };
}
