/** Hand-built household plans and drawn persons, so each linking step can be run on a known answer. */
import { createRng } from '../../../../../src/synthesis/synthesizer/rng.ts';
import type { HouseholdPlan } from '../../../../../src/synthesis/synthesizer/structure/households/index.ts';
import { startLinking, type Linking } from '../../../../../src/synthesis/synthesizer/structure/link/linking.ts';
import { emptyDiagnostics, FamilyType, HouseholdKind, ROLE_COUNT, type StructureDiagnostics } from '../../../../../src/synthesis/synthesizer/structure/model.ts';
import type { DrawnPersons } from '../../../../../src/synthesis/synthesizer/structure/persons.ts';

export interface FamilySpec {
  readonly type: number;
  readonly children?: number;
  readonly others?: number;
  /** 1 the second partner is a visitor elsewhere, 2 in a non-private dwelling. */
  readonly absentPartner?: number;
  /** 1 at least one child under 15, 2 only children 15 and over. */
  readonly childAges?: number;
}

export interface HouseSpec {
  readonly kind: number;
  readonly size: number;
  readonly families?: readonly FamilySpec[];
  readonly unrelated?: number;
  readonly visitors?: number;
  readonly away?: number;
}

/**
 * A household plan from a list of households. Linking reads no role totals (the persons were
 * drawn to them already), so they are left at zero.
 */
export function handPlan(houses: readonly HouseSpec[], nonPrivateDwelling = false): HouseholdPlan {
  const families = houses.flatMap((h) => h.families ?? []);
  const familyStart = new Uint32Array(houses.length + 1);
  const familyHousehold: number[] = [];
  houses.forEach((h, i) => {
    familyStart[i + 1] = familyStart[i]! + (h.families?.length ?? 0);
    for (const _ of h.families ?? []) familyHousehold.push(i);
  });
  const perFamily = (f: (x: FamilySpec) => number) => families.map(f);
  const perHouse = (f: (x: HouseSpec) => number) => houses.map(f);
  return {
    households: houses.length,
    visitorSlots: Uint8Array.from(perHouse((h) => h.visitors ?? 0)),
    awaySlots: Uint8Array.from(perHouse((h) => h.away ?? 0)),
    absentPartner: Uint8Array.from(perFamily((f) => f.absentPartner ?? 0)),
    nonPrivateDwelling,
    kind: Uint8Array.from(perHouse((h) => h.kind)),
    size: Uint16Array.from(perHouse((h) => h.size)),
    familyStart,
    unrelatedSlots: Uint16Array.from(perHouse((h) => h.unrelated ?? 0)),
    families: families.length,
    familyType: Uint8Array.from(perFamily((f) => f.type)),
    familyHousehold: Uint32Array.from(familyHousehold),
    childSlots: Uint16Array.from(perFamily((f) => f.children ?? 0)),
    otherSlots: Uint16Array.from(perFamily((f) => f.others ?? 0)),
    roleTotals: new Int32Array(ROLE_COUNT),
    childAges: Uint8Array.from(perFamily((f) => f.childAges ?? 0)),
  };
}

/** Drawn persons from [age, sex (0 male, 1 female), building role] triples. */
export function drawnOf(persons: readonly (readonly [number, number, number])[]): DrawnPersons {
  return {
    count: persons.length,
    age: Uint8Array.from(persons.map((p) => p[0])),
    sex: Uint8Array.from(persons.map((p) => p[1])),
    role: Uint8Array.from(persons.map((p) => p[2])),
  };
}

/** The linking state of a plan and its persons, with a seeded stream and fresh diagnostics. */
export function linkingOf(plan: HouseholdPlan, drawn: DrawnPersons, seed = 1): { s: Linking; diag: StructureDiagnostics } {
  const diag = emptyDiagnostics();
  return { s: startLinking(plan, drawn, createRng(seed), diag), diag };
}

/** A family household of `size` holding one family. */
export const familyHouse = (size: number, family: FamilySpec, more: Partial<HouseSpec> = {}): HouseSpec => ({ kind: HouseholdKind.Family, size, families: [family], ...more });

export const couple = (children = 0, more: Partial<FamilySpec> = {}): FamilySpec =>
  ({ type: children > 0 ? FamilyType.CoupleWithChildren : FamilyType.CoupleNoChildren, children, ...more });
