import type { Population } from '../census/population.ts';
import type { SuburbTargets } from '../census/targets.ts';
import { assignAttributesWithDiagnostics, type AttributeDiagnostics } from './attributes/index.ts';
import type { FamilyStrengths } from '../shared/family-strengths.ts';
import { createRng } from './rng.ts';
import { buildStructure, type StructureDiagnostics } from './structure/index.ts';
import { structureTargetsFrom } from './structure/from-tables.ts';

export interface SynthesizeOptions {
  readonly seed: number | bigint;
  readonly smallSuburb: boolean;
  /**
   * Published table totals for this suburb (table id → total: G01 Tot_P_P, G35 Total_Total …).
   * They are the anchors the pool must equal; without them the tables' cell sums stand in.
   */
  readonly totals?: ReadonlyMap<string, number>;
  /** DLOD category of the suburb, passed to the attributes step. */
  readonly dwellingLocation?: number;
  /** How strongly families resemble each other, passed to the attributes step (default: the 2021 national figures). */
  readonly familyStrengths?: FamilyStrengths;
}

/** Flat numeric counters (the build report keeps the numeric fields) plus the attributes' detail. */
export type SynthesisDiagnostics = StructureDiagnostics & {
  /** Units the attributes step moved out of a forbidden category, all variables together. */
  attributesForced: number;
  /** Variables drawn from their prior alone (no table for this suburb). */
  attributesFromPriorOnly: number;
  attributes: AttributeDiagnostics;
};

/**
 * One suburb, end to end: household structure (dwellings, families, persons, links and the
 * structural variables), then every other variable on top. Deterministic in `seed`.
 */
export function synthesizeSuburb(
  targets: SuburbTargets,
  options: SynthesizeOptions,
): { population: Population; diagnostics: SynthesisDiagnostics } {
  const rng = createRng(options.seed);
  const structureTargets = structureTargetsFrom(targets, {
    smallSuburb: options.smallSuburb,
    ...(options.totals ? { totals: options.totals } : {}),
  });
  const structure = buildStructure(structureTargets, rng.fork(1));
  const attributes = assignAttributesWithDiagnostics(structure.population, targets, rng.fork(2), {
    smallSuburb: options.smallSuburb,
    ...(options.dwellingLocation !== undefined ? { dwellingLocation: options.dwellingLocation } : {}),
    ...(options.familyStrengths ? { familyStrengths: options.familyStrengths } : {}),
  });
  const forced = Object.values(attributes.diagnostics.forced).reduce((a, b) => a + b, 0);
  return {
    population: attributes.population,
    diagnostics: {
      ...structure.diagnostics,
      attributesForced: forced,
      attributesFromPriorOnly: attributes.diagnostics.fromPriorOnly.length,
      attributes: attributes.diagnostics,
    },
  };
}
