import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRng } from '../../../../../src/synthesis/synthesizer/rng.ts';
import { householdsBySize, reconcilePlaces, spreadTail } from '../../../../../src/synthesis/synthesizer/structure/households/sizes.ts';
import { emptyDiagnostics, MAX_TAIL_SIZE, type StructureTargets } from '../../../../../src/synthesis/synthesizer/structure/model.ts';
import type { ResidentSplit } from '../../../../../src/synthesis/synthesizer/structure/residents.ts';

const sumOf = (a: ArrayLike<number>) => Array.from(a).reduce((x, y) => x + y, 0);

/** G35-style targets: family and group households by size 1‥6 (index 0 unused), lone households. */
const g35 = (family: number[], group: number[], lone: number, more: Partial<StructureTargets> = {}): StructureTargets => ({
  persons: 0, personsByAgeSex: [], dwellings: 0, familyHouseholdsBySize: [0, ...family], groupHouseholdsBySize: [0, ...group], loneHouseholds: lone, ...more,
});

const split = (households: number, present: number, visitors = 0, nonPrivate = 0): ResidentSplit => ({ persons: present + visitors + nonPrivate, households, present, visitors, nonPrivate });

/** Places Σ size × households of a plan's histograms. */
const placesOf = (b: { fam: Int32Array; grp: Int32Array; lone: number }) => b.lone + Array.from(b.fam, (n, s) => n * s).reduce((x, y) => x + y, 0) + Array.from(b.grp, (n, s) => n * s).reduce((x, y) => x + y, 0);

describe('spreadTail', () => {
  it('spreads "6 or more" over 6‥12 with the mean asked for, every household kept', () => {
    const tail = spreadTail(100, 7);
    expect(tail).toHaveLength(MAX_TAIL_SIZE - 5);
    expect(sumOf(tail)).toBe(100);
    const mean = Array.from(tail, (n, j) => n * (6 + j)).reduce((a, b) => a + b, 0) / 100;
    expect(mean).toBeGreaterThan(6.8);
    expect(mean).toBeLessThan(7.1);
    // A mean of 6 or less puts them all at 6.
    expect(Array.from(spreadTail(5, 4))).toEqual([5, 0, 0, 0, 0, 0, 0]);
  });
});

describe('householdsBySize', () => {
  it('keeps G35 cells that already sum to the dwellings, a household of one family built as one of two', () => {
    const b = householdsBySize(g35([1, 4, 3, 0, 0, 0], [0, 2, 0, 0, 0, 0], 5), split(15, 30));
    expect(b.fam[2]).toBe(5);
    expect(b.fam[3]).toBe(3);
    expect(b.grp[2]).toBe(2);
    expect(b.lone).toBe(5);
  });

  it('integerises the cells to the dwelling anchor (property)', () => {
    const cells = fc.array(fc.double({ min: 0, max: 30, noNaN: true }), { minLength: 6, maxLength: 6 });
    fc.assert(
      fc.property(cells, cells, fc.double({ min: 0, max: 30, noNaN: true }), fc.nat(200), (family, group, lone, households) => {
        const b = householdsBySize(g35(family, group, lone), split(households, 3 * households));
        expect(sumOf(b.fam) + sumOf(b.grp) + b.lone).toBe(households);
        expect(b.fam[1]).toBe(0);
        expect(b.grp[1]).toBe(0);
      }),
    );
  });
});

describe('reconcilePlaces', () => {
  it('shrinks the largest households while places exceed the persons', () => {
    const t = g35([0, 2, 0, 0, 1, 0], [0, 0, 0, 0, 0, 0], 0);
    const s = split(3, 7);
    const b = householdsBySize(t, s);
    const diag = emptyDiagnostics();
    expect(reconcilePlaces(s, b, createRng(1), diag)).toEqual({ visitorsAtHome: 0, awayAtHome: 0 });
    expect(placesOf(b)).toBe(7);
    expect(b.fam[3]).toBe(1);
    expect(diag.placesRemoved).toBe(2);
    expect(diag.householdPlacesBefore).toBe(9);
  });

  it('gives the places beyond those at home to visitors first, then to residents away in a non-private dwelling', () => {
    const b = householdsBySize(g35([0, 0, 2, 0, 0, 0], [0, 0, 0, 0, 0, 0], 0), split(2, 4, 1, 5));
    expect(reconcilePlaces(split(2, 4, 1, 5), b, createRng(1), emptyDiagnostics())).toEqual({ visitorsAtHome: 1, awayAtHome: 1 });
    expect(placesOf(b)).toBe(6);
  });

  it('leaves as many places as persons to fill them, and the household count, whatever the tables (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(10), { minLength: 6, maxLength: 6 }), fc.array(fc.nat(3), { minLength: 6, maxLength: 6 }), fc.nat(10),
        fc.nat(5), fc.nat(10), fc.nat(5), fc.integer(),
        (family, group, lone, extra, visitors, nonPrivate, seed) => {
          const households = sumOf(family) + sumOf(group) + lone;
          const s = split(households, households === 0 ? 0 : households + extra, visitors, nonPrivate);
          const b = householdsBySize(g35(family, group, lone), s);
          const { visitorsAtHome, awayAtHome } = reconcilePlaces(s, b, createRng(seed), emptyDiagnostics());
          expect(sumOf(b.fam) + sumOf(b.grp) + b.lone).toBe(households);
          if (households > 0) expect(placesOf(b)).toBe(s.present + visitorsAtHome + awayAtHome);
          expect(visitorsAtHome).toBeLessThanOrEqual(visitors);
          expect(awayAtHome).toBeLessThanOrEqual(nonPrivate);
        },
      ),
    );
  });
});
