/** Hand-built household layouts, so each planning step after the layout can be run on a known answer. */
import type { PlanLayout, PlannedSplit } from '../../../../../src/synthesis/synthesizer/structure/households/plan.ts';
import type { StructureTargets } from '../../../../../src/synthesis/synthesizer/structure/model.ts';

/** A layout from [kind, size, family types] per household. */
export function layoutOf(houses: readonly (readonly [number, number, readonly number[]])[]): PlanLayout {
  const familyStart = new Uint32Array(houses.length + 1);
  const familyType: number[] = [];
  const familyHousehold: number[] = [];
  houses.forEach(([, , types], h) => {
    familyStart[h + 1] = familyStart[h]! + types.length;
    for (const type of types) { familyType.push(type); familyHousehold.push(h); }
  });
  return {
    households: houses.length, kind: Uint8Array.from(houses.map((h) => h[0])), size: Uint16Array.from(houses.map((h) => h[1])), familyStart,
    families: familyType.length, familyType: Uint8Array.from(familyType), familyHousehold: Uint32Array.from(familyHousehold),
  };
}

export const plannedSplit = (present: number, visitors: number, nonPrivate: number, visitorsAtHome: number, awayAtHome: number): PlannedSplit => ({
  persons: present + visitors + nonPrivate, households: 0, present, visitors, nonPrivate, visitorsAtHome, awayAtHome,
});

export const noTables: StructureTargets = { persons: 0, personsByAgeSex: [], dwellings: 0, familyHouseholdsBySize: [], groupHouseholdsBySize: [], loneHouseholds: 0 };
