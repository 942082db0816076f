import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BORROWING_PSEUDO_COUNT } from '../../../src/synthesis/synthesizer/borrow.ts';
import {
  chooseStrength,
  chooseStrengths,
  heldOutDesign,
  heldOutScorer,
  sexOnlySubtotals,
  STRENGTH_CANDIDATES,
  type StrengthArea,
} from '../../../src/synthesis/synthesizer/borrow-strength.ts';
import { cellsWithinSubtotals } from '../../../src/synthesis/quality/floor.ts';
import { INPUT_TABLES } from '../../../src/synthesis/census/tables.ts';
import { createRng } from '../../../src/synthesis/synthesizer/rng.ts';

/**
 * A 2 × 4 table (sex × four categories) as the census publishes it: cells 0–3 males, 4–7
 * females; subtotals: males, females (the strata), then each category over both sexes (held out).
 */
const WITHIN: readonly (readonly number[])[] = [[0, 1, 2, 3], [4, 5, 6, 7], [0, 4], [1, 5], [2, 6], [3, 7]];
const SEX_ONLY = [true, true, false, false, false, false];
const CELLS = 8;

/** Areas drawn around `truthShares` (per sex), published with noise `noise` per figure (cells and subtotals alike). */
function areasOf(seed: number, count: number, persons: number, truthShares: (area: number) => number[], noise: number, parent: number[]): StrengthArea[] {
  const rng = createRng(seed);
  const perturb = (v: number) => Math.max(0, Math.round(v + noise * rng.normal()));
  return Array.from({ length: count }, (_, a) => {
    const shares = truthShares(a);
    const truth = [...shares, ...shares].map((s) => (s * persons) / 2);
    const published = truth.map(perturb);
    const subtotals = WITHIN.map((cells) => perturb(cells.reduce((sum, i) => sum + truth[i]!, 0)));
    return { published, subtotals, parent, small: true };
  });
}

describe('heldOutDesign', () => {
  it("takes one sex's subtotals as strata and holds out the categories across both sexes", () => {
    const design = heldOutDesign(WITHIN, CELLS, SEX_ONLY);
    expect(design.strata).toEqual([0, 1]);
    expect(design.heldOut).toEqual([2, 3, 4, 5]);
  });

  it('strata are disjoint, and every held-out subtotal lies within them and cuts across one (any subtotals)', () => {
    const subtotal = fc.uniqueArray(fc.integer({ min: 0, max: 11 }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(fc.array(subtotal, { maxLength: 12 }), fc.array(fc.boolean(), { maxLength: 12 }), (within, sexOnly) => {
        const design = heldOutDesign(within, 12, sexOnly);
        const seen = new Set<number>();
        for (const j of design.strata) {
          expect(within[j]!.length).toBeGreaterThanOrEqual(2);
          for (const i of within[j]!) {
            expect(seen.has(i)).toBe(false);
            seen.add(i);
          }
        }
        for (const j of design.heldOut) {
          expect(design.strata).not.toContain(j);
          expect(within[j]!.every((i) => design.stratumOfCell[i]! >= 0)).toBe(true);
          const partial = design.strata.some((s) => {
            const inside = within[s]!.filter((i) => within[j]!.includes(i)).length;
            return inside > 0 && inside < within[s]!.length;
          });
          expect(partial).toBe(true);
        }
      }),
    );
  });

  it('finds held-out subtotals in the real persons tables, with age × sex strata where the table has them', () => {
    for (const id of ['G04', 'G05', 'G17', 'G27', 'G46', 'G54']) {
      const spec = INPUT_TABLES.find((t) => t.id === id)!;
      const design = heldOutDesign(cellsWithinSubtotals(spec), spec.cells.length, sexOnlySubtotals(spec));
      expect(design.heldOut.length, id).toBeGreaterThan(0);
    }
    const g17 = INPUT_TABLES.find((t) => t.id === 'G17')!;
    const design = heldOutDesign(cellsWithinSubtotals(g17), g17.cells.length, sexOnlySubtotals(g17));
    // G17's strata are its persons of one sex and age group, as the fit's are.
    expect(design.strata.map((j) => g17.otherHeaders[j])).toContain('M_Tot_15_19_yrs');
  });
});

describe('chooseStrength', () => {
  const PARENT = [40, 30, 20, 10, 40, 30, 20, 10];
  const parentShares = () => [0.4, 0.3, 0.2, 0.1];

  it("borrows strongly where areas are like the parent and their cells are noise", () => {
    const areas = areasOf(1, 60, 30, parentShares, 3, PARENT);
    const choice = chooseStrength(heldOutDesign(WITHIN, CELLS, SEX_ONLY), WITHIN, areas);
    expect(choice.decided).toBe(true);
    expect(choice.k).toBeGreaterThanOrEqual(8);
    expect(choice.rmse!).toBeLessThan(choice.rmseWithout!);
  });

  it("does not borrow where areas differ from the parent and their cells are exact", () => {
    // Each area has its own shape, far from the parent's; cells and subtotals unperturbed.
    const own = (a: number) => (a % 2 === 0 ? [0.05, 0.05, 0.1, 0.8] : [0.7, 0.1, 0.1, 0.1]);
    const areas = areasOf(2, 40, 200, own, 0, PARENT);
    const choice = chooseStrength(heldOutDesign(WITHIN, CELLS, SEX_ONLY), WITHIN, areas);
    expect(choice.decided).toBe(true);
    expect(choice.k).toBe(0);
  });

  it('keeps the default where nothing is borrowed: large areas with complete cells', () => {
    const areas = areasOf(3, 20, 20_000, parentShares, 2, PARENT).map((a) => ({ ...a, small: false }));
    const choice = chooseStrength(heldOutDesign(WITHIN, CELLS, SEX_ONLY), WITHIN, areas);
    expect(choice.decided).toBe(false);
    expect(choice.k).toBe(BORROWING_PSEUDO_COUNT);
    expect(choice.rmse).toBe(choice.rmseWithout);
  });

  it('keeps the default without a parent to borrow from, or without areas', () => {
    const areas = areasOf(4, 10, 30, parentShares, 3, PARENT).map((a) => ({ ...a, parent: undefined }));
    expect(chooseStrength(heldOutDesign(WITHIN, CELLS, SEX_ONLY), WITHIN, areas)).toMatchObject({ k: BORROWING_PSEUDO_COUNT, decided: false });
    expect(chooseStrength(heldOutDesign(WITHIN, CELLS, SEX_ONLY), WITHIN, [])).toMatchObject({ k: BORROWING_PSEUDO_COUNT, decided: false, checks: 0, rmse: null });
  });

  it('chooses a candidate whose held-out error no other candidate beats (any areas)', () => {
    const area = fc.record({
      published: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: CELLS, maxLength: CELLS }),
      subtotals: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: WITHIN.length, maxLength: WITHIN.length }),
      parent: fc.array(fc.integer({ min: 0, max: 500 }), { minLength: CELLS, maxLength: CELLS }),
      small: fc.boolean(),
    });
    const candidates = [0, 1, 4, 20];
    fc.assert(
      fc.property(fc.array(area, { minLength: 1, maxLength: 8 }), (areas) => {
        const design = heldOutDesign(WITHIN, CELLS, SEX_ONLY);
        const choice = chooseStrength(design, WITHIN, areas, candidates);
        const total = (k: number) => areas.reduce((sum, a) => sum + heldOutScorer(design, WITHIN, a).error(k).squared, 0);
        if (!choice.decided) {
          expect(choice.k).toBe(BORROWING_PSEUDO_COUNT);
          return;
        }
        expect(candidates).toContain(choice.k);
        for (const k of candidates) expect(total(choice.k)).toBeLessThanOrEqual(total(k) * (1 + 1e-9) + 1e-9);
        expect(choice.rmse!).toBeLessThanOrEqual(choice.rmseWithout! * (1 + 1e-9) + 1e-9);
      }),
      { numRuns: 60 },
    );
  });
});

describe('the guard against chance', () => {
  it('keeps the default unless the gain is beyond chance; what it lets through is the best k (any areas)', () => {
    const design = heldOutDesign(WITHIN, CELLS, SEX_ONLY);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 2, max: 12 }), fc.integer({ min: 10, max: 400 }), (seed, count, persons) => {
        const shares = (a: number) => (a % 3 === 0 ? [0.25, 0.25, 0.25, 0.25] : [0.4, 0.3, 0.2, 0.1]);
        const areas = areasOf(seed, count, persons, shares, 2, [40, 30, 20, 10, 40, 30, 20, 10]);
        const guarded = chooseStrength(design, WITHIN, areas);
        const unguarded = chooseStrength(design, WITHIN, areas, STRENGTH_CANDIDATES, BORROWING_PSEUDO_COUNT, 0);
        if (guarded.decided) expect(guarded.k).toBe(unguarded.k);
        else expect(guarded.k).toBe(BORROWING_PSEUDO_COUNT);
        expect(chooseStrength(design, WITHIN, areas, STRENGTH_CANDIDATES, BORROWING_PSEUDO_COUNT, Number.POSITIVE_INFINITY).k).toBe(BORROWING_PSEUDO_COUNT);
      }),
      { numRuns: 40 },
    );
  });
});

describe('chooseStrengths', () => {
  it('chooses per table and band, for the tables with held-out subtotals, from the areas of each band', () => {
    const g14 = INPUT_TABLES.find((t) => t.id === 'G14')!;
    const cells = g14.cells.length;
    const parent = Array.from({ length: cells }, (_, i) => 100 + 10 * i);
    const area = (persons: number) => ({
      band: persons < 500 ? ('<500' as const) : ('>=5000' as const),
      figures: (id: string) =>
        id === 'G14' ? { published: new Array(cells).fill(1), subtotals: new Array(g14.otherCells.length).fill(persons / 10), parent, small: persons < 500 } : undefined,
    });
    const chosen = chooseStrengths(INPUT_TABLES, [area(40), area(60), area(9000)]);
    expect([...chosen.keys()]).toEqual(['G14']);
    const byBand = chosen.get('G14')!;
    expect(Object.keys(byBand).sort()).toEqual(['<500', '>=5000']);
    expect(byBand['<500']!.areas).toBe(2);
    expect([...STRENGTH_CANDIDATES, BORROWING_PSEUDO_COUNT]).toContain(byBand['<500']!.k);
  });
});
