import type { Archetype } from './places.ts';

/**
 * How the demo's suburb archetypes (inner city, established middle suburb, family outer suburb,
 * retirement coast, regional town, remote) lean away from their state's real mix. These are
 * made up — the tables say nothing of archetypes — and only relative: truth-params.ts rebalances
 * them (balance.ts) so that a state's suburbs together keep the state's real shares, whatever
 * mix of archetypes a geography has.
 */

export const ARCHETYPES: readonly Archetype[] = ['I', 'M', 'F', 'R', 'T', 'X'];

/**
 * Household kinds [lone person, group, family], families [couple without children, couple with
 * children, one parent, other] and the chance of a second family: the shares the demo's
 * archetypes had before calibration, kept as leans.
 */
export const HOUSEHOLD_LEAN: Readonly<Record<Archetype, { kinds: readonly number[]; families: readonly number[]; secondFamily: number }>> = {
  I: { kinds: [0.38, 0.15, 0.47], families: [0.25, 0.14, 0.06, 0.02], secondFamily: 0.04 },
  M: { kinds: [0.24, 0.03, 0.73], families: [0.26, 0.36, 0.1, 0.01], secondFamily: 0.03 },
  F: { kinds: [0.14, 0.03, 0.83], families: [0.2, 0.49, 0.13, 0.01], secondFamily: 0.05 },
  R: { kinds: [0.32, 0.02, 0.66], families: [0.4, 0.16, 0.08, 0.02], secondFamily: 0.015 },
  T: { kinds: [0.28, 0.03, 0.69], families: [0.28, 0.28, 0.12, 0.01], secondFamily: 0.03 },
  X: { kinds: [0.2, 0.03, 0.77], families: [0.16, 0.39, 0.18, 0.04], secondFamily: 0.12 },
};

/**
 * Age lean of the adults, per decade from 45: weights × exp(lean · (age − 45) / 10). Inner city
 * young, retirement coast old; mothers lean half as much (families are everywhere).
 */
export const AGE_LEAN: Readonly<Record<Archetype, number>> = { I: -0.35, M: 0.05, F: -0.15, R: 0.3, T: 0.12, X: -0.2 };
export const MOTHERS_AGE_LEAN = 0.5;

/**
 * Labour force status LFSP 0‥7 (full-time, part-time, away, hours not stated, unemployed
 * looking for full-time or part-time work, not in the labour force, not stated).
 */
export const LABOUR_LEAN: Readonly<Record<Archetype, readonly number[]>> = {
  I: [1.05, 1.05, 1, 1, 0.9, 0.9, 0.85, 1],
  M: [1.02, 1, 1, 1, 0.9, 0.9, 0.95, 1],
  F: [1, 1, 1, 1, 1.05, 1.05, 1, 1],
  R: [0.95, 1, 1, 1, 1, 1, 1.1, 1],
  T: [0.97, 1, 1, 1, 1.15, 1.15, 1.1, 1.05],
  X: [0.85, 0.9, 1, 1.2, 1.8, 1.8, 1.3, 1.8],
};

/**
 * Highest attainment (HEAP in the ABS's code order, 0‥9) of adults 25+: postgrad, grad dip, bachelor, adv dip, cert,
 * sec 10+, sec ≤9, none, inadequately described, not stated. Not calibrated (the demo's
 * education tables are not among the calibration's); qualification also ranks incomes.
 */
export const ATTAINMENT: Readonly<Record<Archetype, readonly number[]>> = {
  I: [0.16, 0.05, 0.3, 0.1, 0.11, 0.19, 0.03, 0.003, 0.012, 0.045],
  M: [0.1, 0.04, 0.25, 0.1, 0.17, 0.22, 0.06, 0.003, 0.012, 0.045],
  F: [0.05, 0.02, 0.17, 0.09, 0.24, 0.29, 0.08, 0.005, 0.012, 0.045],
  R: [0.04, 0.03, 0.13, 0.09, 0.24, 0.28, 0.13, 0.005, 0.012, 0.05],
  T: [0.03, 0.02, 0.12, 0.08, 0.27, 0.29, 0.13, 0.006, 0.012, 0.05],
  X: [0.02, 0.01, 0.06, 0.04, 0.2, 0.3, 0.22, 0.04, 0.02, 0.09],
};
/** Past 70, schooling to year 9 or 10 and no more is this much more common. */
export const OLD_SCHOOLING_LIFT = 1.8;
export const attainmentWeights = (archetype: Archetype, age: number): number[] =>
  ATTAINMENT[archetype].map((w, i) => (age > 70 && (i === 5 || i === 6) ? w * OLD_SCHOOLING_LIFT : w));
