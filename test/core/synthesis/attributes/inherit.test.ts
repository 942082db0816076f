import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inheritWithinFamilies, type InheritInput } from '../../../../src/core/synthesis/attributes/inherit.ts';
import { createRng } from '../../../../src/core/synthesis/rng.ts';

const allStated = new Uint8Array(256).fill(1);

/** The multiset of bundle tuples in each stratum: what every table by sex (and age group) sees. */
function tuplesByStratum(input: InheritInput): Map<number, string[]> {
  const out = new Map<number, string[]>();
  input.stratum.forEach((s, p) => {
    const key = input.bundle.map((col) => col[p]).join(',');
    out.set(s, [...(out.get(s) ?? []), key].sort());
  });
  return out;
}

describe('inheritWithinFamilies', () => {
  it('moves a mother\'s religion to her child by swapping the child\'s bundle with a stranger of the same stratum', () => {
    // Persons: 0 mother (religion 3), 1 her child (religion 1), 2 a stranger of the child's stratum (religion 3).
    const religion = Uint8Array.of(3, 1, 3);
    const language = Uint8Array.of(0, 5, 0);
    const input: InheritInput = {
      bundle: [religion, language],
      traits: [
        { column: 0, stated: allStated, child: 1, partner: 1 },
        { column: 1, stated: allStated, child: 1, partner: 1 },
      ],
      stratum: Int32Array.of(0, 1, 1),
      strata: 2,
      anchor: Int32Array.of(-1, 0, -1),
      asChild: Uint8Array.of(0, 1, 0),
      proposals: 20,
    };
    const report = inheritWithinFamilies(input, createRng(1));
    expect([...religion]).toEqual([3, 3, 1]);
    // The bundle moved whole: the child took the stranger's language with the religion.
    expect([...language]).toEqual([0, 0, 5]);
    expect(report).toMatchObject({ links: 1, scoreBefore: 0, scoreAfter: 2 });
  });

  it('counts a child born in Australia as resembling a migrant parent', () => {
    const birthplace = Uint8Array.of(4, 0);
    const input: InheritInput = {
      bundle: [birthplace],
      traits: [{ column: 0, stated: allStated, child: 1, partner: 1, childAlsoMatches: 0 }],
      stratum: Int32Array.of(0, 1),
      strata: 2,
      anchor: Int32Array.of(-1, 0),
      asChild: Uint8Array.of(0, 1),
      proposals: 1,
    };
    expect(inheritWithinFamilies(input, createRng(2)).scoreBefore).toBe(1);
  });

  it('compares groups of categories when a trait has them (partners at one level of education)', () => {
    // Levels 0 and 1 are one group (a degree), 2 another. Partner 1 holds 2; a stranger of its stratum holds 1.
    const heap = Uint8Array.of(0, 2, 1);
    const input: InheritInput = {
      bundle: [heap],
      traits: [{ column: 0, stated: allStated, child: 0, partner: 1, groupOf: [0, 0, 1] }],
      stratum: Int32Array.of(0, 1, 1),
      strata: 2,
      anchor: Int32Array.of(-1, 0, -1),
      asChild: Uint8Array.of(0, 0, 0),
      proposals: 20,
    };
    expect(inheritWithinFamilies(input, createRng(3))).toMatchObject({ scoreBefore: 0, scoreAfter: 1 });
    expect([...heap]).toEqual([0, 1, 2]);
  });

  it('keeps every stratum\'s bundles (so every table) and never lowers the resemblance (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 40 }).chain((n) =>
          fc.record({
            n: fc.constant(n),
            a: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: n, maxLength: n }),
            b: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: n, maxLength: n }),
            stratum: fc.array(fc.integer({ min: -1, max: 2 }), { minLength: n, maxLength: n }),
            anchor: fc.array(fc.integer({ min: -1, max: n - 1 }), { minLength: n, maxLength: n }),
            child: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
            seed: fc.integer(),
          }),
        ),
        (x) => {
          const input: InheritInput = {
            bundle: [Uint8Array.from(x.a), Uint8Array.from(x.b)],
            traits: [
              { column: 0, stated: Uint8Array.from({ length: 256 }, (_, k) => (k === 4 ? 0 : 1)), child: 2, partner: 1, childAlsoMatches: 0 },
              { column: 1, stated: allStated, child: 1, partner: 1 },
            ],
            stratum: Int32Array.from(x.stratum),
            strata: 3,
            anchor: Int32Array.from(x.anchor, (a, p) => (a === p ? -1 : a)),
            asChild: Uint8Array.from(x.child, (c) => (c ? 1 : 0)),
            proposals: 5,
          };
          const before = tuplesByStratum(input);
          const report = inheritWithinFamilies(input, createRng(x.seed));
          expect(tuplesByStratum(input)).toEqual(before);
          expect(report.scoreAfter).toBeGreaterThanOrEqual(report.scoreBefore);
        },
      ),
      { numRuns: 200 },
    );
  });
});
