import type { Rng } from '../../rng.ts';
import type { HouseholdPlan } from '../households/index.ts';
import { DEFAULT_BANDS, type StructureDiagnostics, type StructureTargets } from '../model.ts';
import type { DrawnPersons } from '../persons.ts';

/**
 * What the linking steps share: where each person goes, filled in step by step (Linking), what
 * the assembly starts from once every person has a place (Links), and the helpers both use.
 */

/** Indices 0‥n−1 sorted by key descending (ties keep index order). */
export function orderByDesc(keys: Float64Array): Int32Array {
  const idx = Int32Array.from({ length: keys.length }, (_, i) => i);
  return idx.sort((a, b) => (keys[b] as number) - (keys[a] as number) || a - b);
}

/** What the linking steps share: the plan, the drawn persons, and where each person goes (filled in step by step). */
export interface Linking {
  readonly plan: HouseholdPlan;
  readonly drawn: DrawnPersons;
  readonly rng: Rng;
  readonly diag: StructureDiagnostics;
  readonly n: number;
  readonly age: Uint8Array;
  readonly role: Uint8Array;
  readonly household: Int32Array;
  readonly family: Int32Array;
  readonly union: Uint8Array;
  readonly familyType: Uint8Array;
  /** The persons whose role is `r` now, in person order. */
  readonly byRole: (r: number) => number[];
  /**
   * Persons ordered by age with noise of sd `sd`, eldest first (one normal draw each); with
   * `wide`, that share of persons draws their noise with the wide sd instead.
   */
  readonly jittered: (ids: number[], sd: number, wide?: { readonly share: number; readonly sd: number }) => number[];
}

export function startLinking(plan: HouseholdPlan, drawn: DrawnPersons, rng: Rng, diag: StructureDiagnostics): Linking {
  const n = drawn.count;
  const age = drawn.age; // ages may be raised by placeOtherRelated (infeasible inputs), in place
  const role = Uint8Array.from(drawn.role);
  const household = new Int32Array(n).fill(-1);
  const family = new Int32Array(n).fill(-1);
  const union = new Uint8Array(n);
  const familyType = Uint8Array.from(plan.familyType);
  const byRole = (r: number): number[] => {
    const out: number[] = [];
    for (let p = 0; p < n; p++) if (role[p] === r) out.push(p);
    return out;
  };

  const jittered = (ids: number[], sd: number, wide?: { readonly share: number; readonly sd: number }): number[] => {
    const keys = new Float64Array(ids.length);
    ids.forEach((p, i) => {
      const spread = wide && rng.next() < wide.share ? wide.sd : sd;
      keys[i] = (age[p] as number) + spread * rng.normal();
    });
    return Array.from(orderByDesc(keys), (i) => ids[i] as number);
  };
  return { plan, drawn, rng, diag, n, age, role, household, family, union, familyType, byRole, jittered };
}

export interface Links {
  age: Uint8Array;
  role: Uint8Array;
  household: Int32Array;
  family: Int32Array;
  union: Uint8Array;
  familyType: Uint8Array;
  parentA: Int32Array;
  parentB: Int32Array;
  couples: [number, number][];
}

/** The age band (of the role table, else DEFAULT_BANDS) an age falls in. */
export function bandsOf(t: StructureTargets): { bands: readonly (readonly [number, number])[]; bandOf: (a: number) => number } {
  const bands = t.roles?.bands ?? DEFAULT_BANDS;
  const bandOf = (a: number): number => Math.max(0, bands.findIndex(([lo, hi]) => a >= lo && a <= hi));
  return { bands, bandOf };
}
