import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRng } from '../../../../../src/synthesis/synthesizer/rng.ts';
import { planHouseholds } from '../../../../../src/synthesis/synthesizer/structure/households/index.ts';
import { linkPersons } from '../../../../../src/synthesis/synthesizer/structure/link/index.ts';
import {
  AGES, emptyDiagnostics, HouseholdKind, MIN_PARENT_GAP, TargetRole, type StructureTargets,
} from '../../../../../src/synthesis/synthesizer/structure/model.ts';
import { drawPersons } from '../../../../../src/synthesis/synthesizer/structure/persons.ts';
import { splitResidents } from '../../../../../src/synthesis/synthesizer/structure/residents.ts';

/** Small areas whose tables roughly agree: adults and children of every age, households of one to six. */
const smallArea = fc.record({
  adults: fc.integer({ min: 10, max: 120 }),
  children: fc.integer({ min: 0, max: 60 }),
  family: fc.array(fc.nat(12), { minLength: 7, maxLength: 7 }),
  group: fc.array(fc.nat(3), { minLength: 7, maxLength: 7 }),
  lone: fc.nat(15),
  types: fc.array(fc.nat(10), { minLength: 4, maxLength: 4 }),
  visitors: fc.nat(5),
  seed: fc.integer(),
});

type Area = typeof smallArea extends fc.Arbitrary<infer T> ? T : never;

function targetsOf(x: Area): StructureTargets {
  const ageSex = new Float64Array(2 * AGES);
  for (const sex of [0, 1]) {
    for (let a = 0; a < 15; a++) ageSex[sex * AGES + a] = x.children / 30;
    for (let a = 20; a < 80; a++) ageSex[sex * AGES + a] = x.adults / 120;
  }
  const persons = x.adults + x.children;
  return {
    persons, personsByAgeSex: ageSex, dwellings: x.family.reduce((a, b) => a + b, 0) + x.group.reduce((a, b) => a + b, 0) + x.lone,
    familyHouseholdsBySize: x.family, groupHouseholdsBySize: x.group, loneHouseholds: x.lone, familiesByType: x.types,
    privatePersons: persons, visitors: x.visitors,
  };
}

/** The linking inputs as buildStructure makes them, then the linked skeleton. */
function linked(t: StructureTargets, seed: number) {
  const rng = createRng(seed);
  const diag = emptyDiagnostics();
  const plan = planHouseholds(t, splitResidents(t, t.persons), rng.fork(1), diag);
  const drawn = drawPersons(t, t.persons, plan.roleTotals, rng.fork(2), diag);
  return { plan, skeleton: linkPersons(t, plan, drawn, rng.fork(3), diag) };
}

const CHILD_ROLES: readonly number[] = [TargetRole.ChildUnder15, TargetRole.DependentStudent, TargetRole.NonDependentChild];

describe('linkPersons (property)', () => {
  it('places every person once, fills each household to its planned size, and keeps each child within its parents’ age range', () => {
    fc.assert(
      fc.property(smallArea, (x) => {
        const t = targetsOf(x);
        const { plan, skeleton } = linked(t, x.seed);
        const { persons, families, dwellings } = skeleton;
        expect(persons.count).toBe(t.persons);
        // A dwelling's persons are contiguous and the dwellings in order.
        for (let i = 1; i < persons.count; i++) expect(persons.dwelling[i]!).toBeGreaterThanOrEqual(persons.dwelling[i - 1]!);
        const inDwelling = new Int32Array(dwellings.count);
        for (const d of persons.dwelling) inDwelling[d]!++;
        for (let h = 0; h < plan.households; h++) expect(inDwelling[h]).toBe(plan.size[h]);
        if (dwellings.count > plan.households) expect(dwellings.kind[plan.households]).toBe(HouseholdKind.NonPrivate);
        // Each child is younger than each parent at home by the least gap a parent has.
        for (let p = 0; p < persons.count; p++) {
          if (!CHILD_ROLES.includes(persons.role[p]!)) continue;
          const f = persons.family[p]!;
          expect(f).toBeGreaterThanOrEqual(0);
          expect(families.dwelling[f]).toBe(persons.dwelling[p]);
          for (let q = 0; q < persons.count; q++) {
            const parent = persons.role[q] === TargetRole.Partner || persons.role[q] === TargetRole.LoneParent;
            if (parent && persons.family[q] === f) expect(persons.age[q]! - persons.age[p]!).toBeGreaterThanOrEqual(MIN_PARENT_GAP);
          }
        }
        // Each family's reference person belongs to it.
        for (let f = 0; f < families.count; f++) expect(persons.family[families.reference[f]!]).toBe(f);
      }),
      { numRuns: 60 },
    );
  });
});
