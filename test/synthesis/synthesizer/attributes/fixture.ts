/**
 * A toy suburb for the attribute tests: structure built by the structure step from
 * made-up tables, then a "truth" population from them, whose own tabulations are targets
 * with a known answer.
 */
import type { Population } from '../../../../src/synthesis/census/population.ts';
import type { SuburbTargets } from '../../../../src/synthesis/census/targets.ts';
import { INPUT_TABLES } from '../../../../src/synthesis/census/tables.ts';
import { tabulate } from '../../../../src/synthesis/census/tabulate.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';
import { buildStructure } from '../../../../src/synthesis/synthesizer/structure/index.ts';
import { assignAttributes } from '../../../../src/synthesis/synthesizer/attributes/index.ts';

/** Made-up tables: every cell a random count scaled so the tables roughly describe `persons` people. */
export function randomTargets(persons: number, seed: number): SuburbTargets {
  const rng = createRng(seed);
  const tables = new Map<string, Float64Array>();
  for (const t of INPUT_TABLES) {
    const perCell = (t.universe === 'persons' ? persons : persons / 2.5) / Math.max(1, t.cells.length / (t.id === 'G04' ? 2 : 1));
    tables.set(t.id, Float64Array.from(t.cells, () => Math.round(perCell * (0.3 + 1.4 * rng.next()))));
  }
  return { salCode: 'SAL99999', tables };
}

/** A plausible suburb's structure: an Australian-ish age pyramid and household mix. */
export function structureFor(persons: number, seed: number): Population {
  const personsByAgeSex = new Float64Array(2 * 116);
  for (let sex = 0; sex < 2; sex++) {
    for (let a = 0; a <= 100; a++) personsByAgeSex[sex * 116 + a] = (persons / 2) * (a < 60 ? 1 : Math.max(0, 1 - (a - 60) / 40)) / 75;
  }
  const dwellings = Math.round(persons / 2.55);
  const family = dwellings * 0.7;
  const size = (shares: number[], total: number) => [0, ...shares.map((s) => s * total)];
  return buildStructure(
    {
      persons,
      personsByAgeSex,
      dwellings,
      familyHouseholdsBySize: size([0, 0.35, 0.22, 0.25, 0.12, 0.06], family),
      groupHouseholdsBySize: size([0, 0.7, 0.2, 0.1, 0, 0], dwellings * 0.04),
      loneHouseholds: dwellings * 0.26,
      familiesByType: [0.38 * family, 0.44 * family, 0.16 * family, 0.02 * family],
    },
    createRng(seed),
  ).population;
}

/** Targets = the exact tabulations of a population (no perturbation): a known answer. */
export function targetsOf(pop: Population): SuburbTargets {
  return { salCode: 'SAL99999', tables: new Map(INPUT_TABLES.map((t) => [t.id, tabulate(pop, t)])) };
}

export function toySuburb(persons: number, seed: number): { structure: Population; truth: Population; targets: SuburbTargets } {
  const structure = structureFor(persons, seed + 1);
  const truth = assignAttributes(structure, randomTargets(persons, seed + 2), createRng(seed + 3), { smallSuburb: false });
  return { structure, truth, targets: targetsOf(truth) };
}
