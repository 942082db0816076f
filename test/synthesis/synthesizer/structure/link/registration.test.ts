import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRng } from '../../../../../src/synthesis/synthesizer/rng.ts';
import type { Links } from '../../../../../src/synthesis/synthesizer/structure/link/linking.ts';
import { registerCouples } from '../../../../../src/synthesis/synthesizer/structure/link/registration.ts';
import { DEFAULT_BANDS, MAX_AGE, Role, type StructureTargets } from '../../../../../src/synthesis/synthesizer/structure/model.ts';
import { drawnOf } from './fixture.ts';

const NB = DEFAULT_BANDS.length;
const band = (age: number) => DEFAULT_BANDS.findIndex(([lo, hi]) => age >= lo && age <= hi);

/** Opposite-sex couples at home from [man's age, woman's age] pairs, with the links registration reads. */
function couplesOf(pairs: readonly (readonly [number, number])[]): { drawn: ReturnType<typeof drawnOf>; links: Links } {
  const drawn = drawnOf(pairs.flatMap(([m, w]) => [[m, 0, Role.Partner], [w, 1, Role.Partner]] as const));
  const n = drawn.count;
  const links: Links = {
    age: drawn.age, role: Uint8Array.from(drawn.role), household: new Int32Array(n), family: new Int32Array(n), union: new Uint8Array(n),
    familyType: new Uint8Array(0), parentA: new Int32Array(0), parentB: new Int32Array(0),
    couples: pairs.map((_, i) => [2 * i, 2 * i + 1] as [number, number]),
  };
  return { drawn, links };
}

/** G27-style registered and de facto partners per sex × band from [sex, age, registered, de facto]. */
function partnerCounts(cells: readonly (readonly [number, number, number, number])[]): Pick<StructureTargets, 'registeredPartnersBySexBand' | 'deFactoPartnersBySexBand'> {
  const registered = new Float64Array(2 * NB);
  const deFacto = new Float64Array(2 * NB);
  for (const [sex, age, r, d] of cells) {
    registered[sex * NB + band(age)]! += r;
    deFacto[sex * NB + band(age)]! += d;
  }
  return { registeredPartnersBySexBand: registered, deFactoPartnersBySexBand: deFacto };
}

const base: StructureTargets = { persons: 0, personsByAgeSex: [], dwellings: 0, familyHouseholdsBySize: [], groupHouseholdsBySize: [], loneHouseholds: 0 };
const registeredCouples = (links: Links) => links.couples.filter(([a]) => links.union[a] === 1).length;

describe('registerCouples', () => {
  it("fills both partners' cells by the plan: the two couples across the bands, whatever their keys", () => {
    // Men of 30 and 40, women of 30 and 40; one registered partner per sex × band. Registering
    // the couple of two 30-year-olds spends both 30s' quota and leaves the 40s none to pair with:
    // only the two couples across the bands fill all four.
    const t = { ...base, ...partnerCounts([[0, 30, 1, 1], [1, 30, 1, 1], [0, 40, 1, 0], [1, 40, 1, 0]]) };
    for (let seed = 1; seed <= 40; seed++) {
      const { drawn, links } = couplesOf([[30, 30], [30, 40], [40, 30]]);
      registerCouples(t, drawn, links, createRng(seed));
      expect(Array.from(links.union)).toEqual([2, 2, 1, 1, 1, 1]);
    }
  });

  it("registers each sex × band's share of the partners it holds", () => {
    const t = { ...base, ...partnerCounts([[0, 40, 30, 10], [1, 40, 30, 10]]) };
    const { drawn, links } = couplesOf(Array.from({ length: 8 }, () => [40, 40] as const));
    registerCouples(t, drawn, links, createRng(7));
    expect(registeredCouples(links)).toBe(6);
    // Both partners of a couple share its union, and every couple has one.
    links.couples.forEach(([a, b]) => {
      expect(links.union[a]).toBe(links.union[b]);
      expect([1, 2]).toContain(links.union[a]);
    });
  });

  it("registers no more partners than G05's married persons of their sex and age allow", () => {
    const caps = (men: number, women: number) => ({ ranges: [[15, MAX_AGE]] as const, bySexRange: [men, women] });
    const { drawn, links } = couplesOf([[30, 28], [50, 49], [70, 69]]);
    registerCouples({ ...base, registeredPartnerCap: caps(0, 3) }, drawn, links, createRng(1));
    expect(registeredCouples(links)).toBe(0);
    fc.assert(
      fc.property(fc.nat(3), fc.nat(3), fc.integer(), (men, women, seed) => {
        const c = couplesOf([[30, 28], [50, 49], [70, 69], [24, 23]]);
        registerCouples({ ...base, registeredPartnerCap: caps(men, women) }, c.drawn, c.links, createRng(seed));
        expect(registeredCouples(c.links)).toBeLessThanOrEqual(Math.min(men, women));
      }),
    );
  });

  it('without G27, registers about as many couples as the de facto shares leave', () => {
    const { drawn, links } = couplesOf(Array.from({ length: 100 }, () => [40, 40] as const));
    const t = { ...base, deFactoShareByBand: DEFAULT_BANDS.map(() => 0.25) };
    registerCouples(t, drawn, links, createRng(3));
    expect(registeredCouples(links)).toBe(75);
  });
});
