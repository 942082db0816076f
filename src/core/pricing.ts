import type { IncludeGeography, LinkedRecords } from './dataset.ts';

export const OBSERVATIONS_PER_CREDIT = 500;

/**
 * credit_cost = ceil(billable × rate / 500), billable = n × selections, rate 1 or 1.5
 * (docs/spec/decisions.md, "Billing"); joined linked records (an extension) add 0.5 to the rate, as
 * hierarchical geography does: 1.5 alone, 2 with it. Integer arithmetic only: 1.5/500 = 3/1000.
 */
export function creditCost(nObservations: number, selections: number, includeGeography: IncludeGeography, linked: LinkedRecords = 'none'): number {
  if (!Number.isSafeInteger(nObservations) || nObservations < 1) throw new RangeError('n_observations must be a positive integer');
  if (!Number.isSafeInteger(selections) || selections < 1) throw new RangeError('selections must be a positive integer');
  return creditCostOfRecords(nObservations * selections, includeGeography, linked === 'joined');
}

/**
 * A household sample's billable records: per selection, the n dwellings with the families and
 * persons they hold on average in that selection's pools, n × (D + F + P) / D, rounded up; known
 * before the draw, so preview can show it (docs/spec/decisions.md's "billable = records" applied to all three).
 */
export function householdRecords(nDwellings: number, pools: readonly { readonly dwellings: number; readonly families: number; readonly persons: number }[]): number {
  return pools.reduce((sum, p) => sum + (p.dwellings > 0 ? Math.ceil((nDwellings * (p.dwellings + p.families + p.persons)) / p.dwellings) : 0), 0);
}

/** credit_cost of `records` billable records at the standard rate, plus 0.5 each for hierarchical geography and joined records. */
export function creditCostOfRecords(records: number, includeGeography: IncludeGeography, joined = false): number {
  if (!Number.isSafeInteger(records) || records < 1) throw new RangeError('billable records must be a positive integer');
  const billable = BigInt(records);
  const numerator = 2n + (includeGeography === 'hierarchical' ? 1n : 0n) + (joined ? 1n : 0n);
  const denominator = 1000n;
  const scaled = billable * numerator;
  const cost = (scaled + denominator - 1n) / denominator;
  return Number(cost);
}

/**
 * Records a sandbox (spq_test_) query delivers per selection unless the operator sets another
 * (SPQ_SANDBOX_RECORDS_PER_SELECTION, whose default this is; the caps are applied by
 * src/app/sandbox-caps.ts). The pages' hints quote it.
 */
export const SANDBOX_MAX_OBSERVATIONS = 100;
