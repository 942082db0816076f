import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ClassPrior } from '../../../../src/synthesis/census/controls/priors.ts';
import { fitTable } from '../../../../src/synthesis/synthesizer/attributes/fit.ts';
import { planTable, type CellLike } from '../../../../src/synthesis/synthesizer/attributes/plan.ts';
import { largestRemainder, nearestIntegers } from '../../../../src/synthesis/synthesizer/integerise.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';

const K = 4; // categories of X; 3 = n/a
const info = (code: string) => (code === 'SEX' ? { count: 2, notApplicable: -1 } : { count: K, notApplicable: 3 });
/** X (0‥2) by sex: a complete table. */
const CELLS: CellLike[] = [0, 1].flatMap((s) => [0, 1, 2].map((x) => ({ where: { SEX: [s], X: [x] } })));
const plan = planTable('T', CELLS, ['X'], new Set(['SEX']), info);

function request(sex: Uint8Array, target: number[], prior?: ClassPrior) {
  return {
    plan,
    target,
    units: sex.length,
    conditionColumns: [sex],
    small: false,
    informative: [[true, true, true, false]],
    fallback: [3],
    prior,
  };
}

function counts(sex: Uint8Array, x: Uint8Array): number[] {
  const out = new Array<number>(6).fill(0);
  for (let i = 0; i < sex.length; i++) out[sex[i]! * 3 + x[i]!]!++;
  return out;
}

describe('fitTable', () => {
  it('reproduces a consistent table exactly (known answer)', () => {
    const sex = Uint8Array.from([0, 0, 0, 0, 0, 1, 1, 1]);
    const target = [3, 1, 1, 0, 2, 1];
    const { values } = fitTable(request(sex, target), createRng(1));
    expect(counts(sex, values[0]!)).toEqual(target);
  });

  it('property: per stratum, the dealt counts are the nearest integers to the table (nearestIntegers)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1 }), { maxLength: 120 }),
        fc.array(fc.double({ min: 0, max: 50, noNaN: true }), { minLength: 6, maxLength: 6 }),
        fc.integer(),
        (sexes, target, seed) => {
          const sex = Uint8Array.from(sexes);
          const { values } = fitTable(request(sex, target), createRng(seed));
          const got = counts(sex, values[0]!);
          for (const s of [0, 1]) {
            const size = sexes.filter((v) => v === s).length;
            const row = target.slice(s * 3, s * 3 + 3);
            const expected = row.some((v) => v > 0) ? Array.from(nearestIntegers(row, size)) : Array.from(largestRemainder([1, 1, 1], size));
            expect(got.slice(s * 3, s * 3 + 3)).toEqual(expected);
          }
        },
      ),
    );
  });

  it('property: a class prior keeps the table exact and its structural zeros when feasible', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 1, maxLength: 80 }), fc.integer(), (classes, seed) => {
        // Class 1 may only be X = 0; the table is built from a population that obeys it.
        const rng = createRng(seed);
        const sex = Uint8Array.from(classes, () => rng.int(2));
        const cls = Uint8Array.from(classes);
        const truth = Uint8Array.from(classes, (c) => (c === 1 ? 0 : rng.int(3)));
        const prior: ClassPrior = { classOf: cls, classes: 2, weight: (c, k) => (c === 1 ? (k === 0 ? 1 : 0) : k < 3 ? 1 : 0) };
        const target = counts(sex, truth);
        const result = fitTable(request(sex, target, prior), rng);
        expect(counts(sex, result.values[0]!)).toEqual(target);
        expect(result.forced).toBe(0);
        for (let i = 0; i < cls.length; i++) if (cls[i] === 1) expect(result.values[0]![i]).toBe(0);
      }),
    );
  });

  it('units outside the universe get the fallback, and a table of attendees fills the rest', () => {
    const attendees = planTable('A', [{ where: { X: [0] } }, { where: { X: [1] } }], ['X'], new Set(), info);
    const n = 10;
    const result = fitTable(
      {
        plan: attendees,
        target: [2, 3],
        units: n,
        conditionColumns: [],
        eligible: Uint8Array.from({ length: n }, (_, i) => (i < 8 ? 1 : 0)),
        small: false,
        informative: [[true, true, true, false]],
        fallback: [3],
        preferNotApplicable: true,
      },
      createRng(2),
    );
    const x = Array.from(result.values[0]!);
    expect(x.filter((v) => v === 0)).toHaveLength(2);
    expect(x.filter((v) => v === 1)).toHaveLength(3);
    expect(x.filter((v) => v === 3)).toHaveLength(5); // 3 non-attendees + 2 outside
  });

  it('an emptied stratum follows the parent area; a small area leans toward it; a reliable one stands alone', () => {
    const sex = new Uint8Array(100);
    const empty = fitTable({ ...request(sex, [0, 0, 0, 0, 0, 0]), parent: [10, 0, 90, 0, 0, 0] }, createRng(3));
    expect(counts(sex, empty.values[0]!).slice(0, 3)).toEqual([10, 0, 90]);
    // 100 · (100 + 1.5 · 0) / 101.5 = 98.5 and 100 · 1.5 / 101.5 = 1.5, rounded to 100.
    const small = fitTable({ ...request(sex, [100, 0, 0, 0, 0, 0]), parent: [0, 0, 1, 0, 0, 0], small: true }, createRng(3));
    expect(counts(sex, small.values[0]!).slice(0, 3)).toEqual([99, 0, 1]);
    const reliable = fitTable({ ...request(sex, [100, 0, 0, 0, 0, 0]), parent: [0, 0, 1, 0, 0, 0] }, createRng(3));
    expect(counts(sex, reliable.values[0]!).slice(0, 3)).toEqual([100, 0, 0]);
  });
});
