import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRng } from '../../../../../src/synthesis/synthesizer/rng.ts';
import { planHouseholds } from '../../../../../src/synthesis/synthesizer/structure/households/index.ts';
import { emptyDiagnostics, FamilyType, HouseholdKind, Role, type StructureTargets } from '../../../../../src/synthesis/synthesizer/structure/model.ts';
import { splitResidents } from '../../../../../src/synthesis/synthesizer/structure/residents.ts';

const sumOf = (a: ArrayLike<number>) => Array.from(a).reduce((x, y) => x + y, 0);

const area = fc.record({
  persons: fc.integer({ min: 0, max: 300 }),
  family: fc.array(fc.double({ min: 0, max: 20, noNaN: true }), { minLength: 7, maxLength: 7 }),
  group: fc.array(fc.double({ min: 0, max: 4, noNaN: true }), { minLength: 7, maxLength: 7 }),
  lone: fc.double({ min: 0, max: 20, noNaN: true }),
  types: fc.option(fc.array(fc.double({ min: 0, max: 20, noNaN: true }), { minLength: 4, maxLength: 4 }), { nil: undefined }),
  byFamilies: fc.option(fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { minLength: 3, maxLength: 3 }), { nil: undefined }),
  visitors: fc.nat(10),
  nonPrivate: fc.nat(10),
  seed: fc.integer(),
});

describe('planHouseholds (property)', () => {
  it('keeps the dwelling anchor, fills each household with the members its slots name, and needs every resident once', () => {
    fc.assert(
      fc.property(area, (x) => {
        const households = Math.round(sumOf(x.family) + sumOf(x.group) + x.lone);
        const t: StructureTargets = {
          persons: x.persons, personsByAgeSex: [], dwellings: households,
          familyHouseholdsBySize: x.family, groupHouseholdsBySize: x.group, loneHouseholds: x.lone,
          privatePersons: Math.max(0, x.persons - x.nonPrivate), visitors: x.visitors,
          ...(x.types ? { familiesByType: x.types } : {}),
          ...(x.byFamilies ? { familyHouseholdsByFamilies: x.byFamilies } : {}),
        };
        const split = splitResidents(t, x.persons);
        const plan = planHouseholds(t, split, createRng(x.seed), emptyDiagnostics());
        expect(plan.households).toBe(split.households);
        expect(sumOf(plan.roleTotals)).toBe(x.persons);
        for (let h = 0; h < plan.households; h++) {
          let members = (plan.unrelatedSlots[h] as number) + (plan.visitorSlots[h] as number) + (plan.awaySlots[h] as number);
          for (let f = plan.familyStart[h]!; f < plan.familyStart[h + 1]!; f++) {
            const type = plan.familyType[f]!;
            members += (type === FamilyType.CoupleNoChildren || type === FamilyType.CoupleWithChildren ? 2 : type === FamilyType.OneParent ? 1 : 0) + plan.childSlots[f]! + plan.otherSlots[f]!;
            expect(plan.familyHousehold[f]).toBe(h);
            if (type === FamilyType.CoupleWithChildren || type === FamilyType.OneParent) expect(plan.childSlots[f]).toBeGreaterThanOrEqual(1);
            if (type === FamilyType.Other) expect(plan.otherSlots[f]).toBeGreaterThanOrEqual(2);
          }
          if (plan.kind[h] === HouseholdKind.Family) expect(members).toBe(plan.size[h]);
          if (plan.kind[h] === HouseholdKind.LonePerson) expect(plan.size[h]).toBe(1);
          expect((plan.visitorSlots[h] as number) + (plan.awaySlots[h] as number) + (plan.absentPartner.slice(plan.familyStart[h]!, plan.familyStart[h + 1]!).filter((a) => a > 0).length)).toBeLessThanOrEqual(3);
        }
        const lone = Array.from(plan.kind).filter((k) => k === HouseholdKind.LonePerson).length;
        expect(plan.roleTotals[Role.LonePerson]).toBe(lone);
      }),
      { numRuns: 200 },
    );
  });
});
