import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/synthesis/synthesizer/rng.ts';
import { categoryIndex, variableByCode } from '../../src/synthesis/census/variables.ts';
import { buildDemoGeography } from '../../src/demo/geography.ts';
import { drawSuburbPopulation } from '../../src/demo/truth-model.ts';

const suburbs = buildDemoGeography('demo', 1).suburbs;
const NA = (code: string) => categoryIndex(code, 'Not applicable');

describe('hidden truth model', () => {
  it('property: linked records obey the structural rules', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: suburbs.length - 1 }), fc.integer(), (i, seed) => {
        const suburb = { ...suburbs[i]!, persons: 300 };
        const pop = drawSuburbPopulation(suburb, createRng(seed));
        const { persons, families, dwellings } = pop;
        expect(persons.count).toBeGreaterThanOrEqual(300);
        const perDwelling = new Array(dwellings.count).fill(0);
        const perFamily = new Array(families.count).fill(0);
        for (let p = 0; p < persons.count; p++) {
          perDwelling[persons.dwelling[p]!]++;
          const f = persons.family[p]!;
          if (f >= 0) {
            perFamily[f]++;
            expect(families.dwelling[f]).toBe(persons.dwelling[p]); // family members share the dwelling
          }
          const adult = persons.age[p]! >= 15;
          expect(persons.variables.INCP![p] === NA('INCP')).toBe(!adult);
          expect(persons.variables.LFSP![p] === NA('LFSP')).toBe(!adult);
          const employed = persons.variables.LFSP![p]! <= 3;
          expect(persons.variables.OCCP![p] === NA('OCCP')).toBe(!employed);
        }
        for (let d = 0; d < dwellings.count; d++) {
          expect(Math.min(perDwelling[d], 8) - 1).toBe(dwellings.variables.NPRD![d]); // NPRD = occupants
          const tend = dwellings.variables.TEND![d]!;
          expect(dwellings.variables.RNTRD![d] === NA('RNTRD')).toBe(tend !== 2); // rent only for renters
          expect(dwellings.variables.MRERD![d] === NA('MRERD')).toBe(tend !== 1);
          if (perDwelling[d] === 1) expect(dwellings.variables.HHCD![d]).toBe(1); // lone person
        }
        for (let f = 0; f < families.count; f++) {
          expect(perFamily[f]).toBeGreaterThanOrEqual(2);
          expect(Math.min(perFamily[f], 8) - 2).toBe(families.variables.NPRF![f]);
        }
        // Couples: exactly two partners per couple family.
        const partners = new Array(families.count).fill(0);
        for (let p = 0; p < persons.count; p++) if (persons.variables.RLHP![p]! <= 1) partners[persons.family[p]!]++;
        for (let f = 0; f < families.count; f++) {
          const couple = families.variables.FMCF![f]! <= 2;
          expect(partners[f]).toBe(couple ? 2 : 0);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('children are at least 18 years younger than the youngest parent', () => {
    const pop = drawSuburbPopulation({ ...suburbs[3]!, persons: 3000 }, createRng(5));
    const youngestParent = new Map<number, number>();
    const { persons } = pop;
    for (let p = 0; p < persons.count; p++) {
      if ([0, 1, 2].includes(persons.variables.RLHP![p]!)) {
        const f = persons.family[p]!;
        youngestParent.set(f, Math.min(youngestParent.get(f) ?? 200, persons.age[p]!));
      }
    }
    let children = 0;
    for (let p = 0; p < persons.count; p++) {
      if ([3, 4, 5].includes(persons.variables.RLHP![p]!)) {
        children++;
        expect(youngestParent.get(persons.family[p]!)! - persons.age[p]!).toBeGreaterThanOrEqual(18);
      }
    }
    expect(children).toBeGreaterThan(100);
  });

  it('every category index is within its variable', () => {
    const pop = drawSuburbPopulation({ ...suburbs[0]!, persons: 2000 }, createRng(9));
    for (const level of [pop.persons, pop.families, pop.dwellings]) {
      for (const [code, col] of Object.entries(level.variables)) {
        expect(Math.max(...col), code).toBeLessThan(variableByCode(code).categories.length);
      }
    }
  });
});
