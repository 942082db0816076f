import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inheritWithinFamilies, type InheritInput, type LinkTrait } from '../../../../src/synthesis/synthesizer/attributes/inherit.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';

const allStated = new Uint8Array(256).fill(1);

/** The multiset of bundle tuples in each stratum: what every table by sex and age group sees. */
function tuplesByStratum(input: InheritInput): Map<number, string[]> {
  const out = new Map<number, string[]>();
  input.stratum.forEach((s, p) => {
    const key = input.bundle.map((col) => col[p]).join(',');
    out.set(s, [...(out.get(s) ?? []), key].sort());
  });
  return out;
}

const trait = (column: Uint8Array, link: 'partners' | 'children', targetShare: number, extra: Partial<LinkTrait> = {}): LinkTrait => ({
  name: `${link}-${targetShare}`,
  link,
  column,
  stated: allStated,
  targetShare,
  ...extra,
});

describe('inheritWithinFamilies', () => {
  it("moves a parent's religion to the child by swapping the child's whole bundle with a stranger of its stratum", () => {
    // Persons: 0 mother (religion 3), 1 her child (religion 1), 2 a stranger of the child's stratum (religion 3).
    const religion = Uint8Array.of(3, 1, 3);
    const language = Uint8Array.of(0, 5, 0);
    const input: InheritInput = {
      bundle: [religion, language],
      traits: [trait(religion, 'children', 1)],
      stratum: Int32Array.of(0, 1, 1),
      strata: 2,
      links: { partners: new Int32Array(0), children: Int32Array.of(1, 0, -1) },
      proposals: 20,
    };
    const report = inheritWithinFamilies(input, createRng(1));
    expect([...religion]).toEqual([3, 3, 1]);
    // The bundle moved whole: the child took the stranger's language with the religion.
    expect([...language]).toEqual([0, 0, 5]);
    expect(report.traits[0]).toMatchObject({ counted: 1, alikeBefore: 0, alikeAfter: 1 });
    expect(report).toMatchObject({ distanceBefore: 1, distanceAfter: 0 });
  });

  it("counts a child alike either parent (following both where they share), and born in Australia alike a migrant's", () => {
    // 0 and 1 partners (birthplaces 4 and 6), 2 their child born in 6 (the father's), 3 a child born in Australia (0).
    const birthplace = Uint8Array.of(4, 6, 6, 0);
    const input: InheritInput = {
      bundle: [birthplace],
      traits: [trait(birthplace, 'children', 1, { childAlsoMatches: 0 })],
      stratum: Int32Array.of(-1, -1, -1, -1),
      strata: 1,
      links: { partners: Int32Array.of(0, 1), children: Int32Array.of(2, 0, 1, 3, 0, 1) },
      proposals: 1,
    };
    expect(inheritWithinFamilies(input, createRng(2)).traits[0]).toMatchObject({ counted: 2, alikeBefore: 2 });
  });

  it('counts only children of a parent in the named group where a trait is among them (children of Indigenous parents)', () => {
    // Group 1 = Indigenous. Family A: parent 0 Indigenous, child 1 not. Family B: parents non-Indigenous, child non-Indigenous.
    const ingp = Uint8Array.of(1, 0, 0, 0, 0);
    const input: InheritInput = {
      bundle: [ingp],
      traits: [trait(ingp, 'children', 1, { groupOf: [0, 1], amongParentGroup: 1 })],
      stratum: new Int32Array(5).fill(-1),
      strata: 1,
      links: { partners: new Int32Array(0), children: Int32Array.of(1, 0, -1, 4, 2, 3) },
      proposals: 1,
    };
    expect(inheritWithinFamilies(input, createRng(3)).traits[0]).toMatchObject({ counted: 1, alikeBefore: 0 });
  });

  it("counts only children holding the condition's category in another bundle column (citizens born in Australia), and moves both together", () => {
    // Columns: citizenship (0 citizen, 1 not), birthplace (0 Australia, 5 overseas). Parent 0 a citizen;
    // child 1 born here, not a citizen; child 2 born overseas, not a citizen (not counted);
    // person 3 a stranger of child 1's stratum, born here and a citizen.
    const citizenship = Uint8Array.of(0, 1, 1, 0);
    const birthplace = Uint8Array.of(0, 0, 5, 0);
    const input: InheritInput = {
      bundle: [citizenship, birthplace],
      traits: [trait(citizenship, 'children', 1, { amongParentGroup: 0, childCountedWhen: { column: birthplace, categories: Uint8Array.from({ length: 256 }, (_, k) => (k === 0 ? 1 : 0)) } })],
      stratum: Int32Array.of(-1, 0, -1, 0),
      strata: 1,
      links: { partners: new Int32Array(0), children: Int32Array.of(1, 0, -1, 2, 0, -1) },
      proposals: 20,
    };
    const report = inheritWithinFamilies(input, createRng(5));
    expect(report.traits[0]).toMatchObject({ counted: 1, alikeBefore: 0, alikeAfter: 1 });
    expect([...citizenship]).toEqual([0, 0, 1, 1]);
  });

  it("lets a child cross another trait's condition for free: overseas-born children given Australian-born bundles become counted citizens without cost", () => {
    // Columns: birthplace (0 Australia, 7 overseas), citizenship (0 citizen, 1 not). Ten
    // families: a parent born here, a citizen; a child born in 7, not a citizen (unlike for
    // birthplace; for citizenship counted but for being born overseas); and a stranger of the
    // children's stratum, born here, a citizen.
    const families = 10;
    const birthplace = Uint8Array.from({ length: 3 * families }, (_, p) => [0, 7, 0][p % 3]!);
    const citizenship = Uint8Array.from({ length: 3 * families }, (_, p) => [0, 1, 0][p % 3]!);
    const bornHere = Uint8Array.from({ length: 256 }, (_, k) => (k === 0 ? 1 : 0));
    const input: InheritInput = {
      bundle: [birthplace, citizenship],
      traits: [
        { ...trait(birthplace, 'children', 1, { childAlsoMatches: 0 }), name: 'birthplace' },
        { ...trait(citizenship, 'children', 0.99, { amongParentGroup: 0, childCountedWhen: { column: birthplace, categories: bornHere } }), name: 'citizen' },
      ],
      stratum: Int32Array.from({ length: 3 * families }, (_, p) => (p % 3 === 0 ? -1 : 0)),
      strata: 1,
      links: { partners: new Int32Array(0), children: Int32Array.from({ length: 3 * families }, (_, k) => [3 * Math.floor(k / 3) + 1, 3 * Math.floor(k / 3), -1][k % 3]!) },
      proposals: 20,
    };
    const report = inheritWithinFamilies(input, createRng(6));
    // Children take strangers' Australian-born citizen bundles, alike for both, though each such
    // swap adds a counted citizenship link: every link was eligible from the start (the climb may
    // stall a link or two short, having stopped after a run of proposals without gain).
    const [birth, citizen] = report.traits;
    expect([birth!.countedBefore, birth!.alikeBefore, citizen!.countedBefore]).toEqual([families, 0, 0]);
    expect(birth!.alikeAfter).toBeGreaterThanOrEqual(families - 2);
    expect([citizen!.counted, citizen!.alikeAfter]).toEqual([birth!.alikeAfter, birth!.alikeAfter]);
  });

  it('compares groups of categories when a trait has them (partners at one level of education)', () => {
    // Levels 0 and 1 are one group (a degree), 2 another. Partner 1 holds 2; a stranger of its stratum holds 1.
    const heap = Uint8Array.of(0, 2, 1);
    const input: InheritInput = {
      bundle: [heap],
      traits: [trait(heap, 'partners', 1, { groupOf: [0, 0, 1] })],
      stratum: Int32Array.of(0, 1, 1),
      strata: 2,
      links: { partners: Int32Array.of(0, 1), children: new Int32Array(0) },
      proposals: 20,
    };
    expect(inheritWithinFamilies(input, createRng(4)).traits[0]).toMatchObject({ alikeBefore: 0, alikeAfter: 1 });
    expect([...heap]).toEqual([0, 1, 2]);
  });

  /** A toy population: `couples` couples (men stratum 0, women stratum 1) and as many single persons of each sex, categories at random. */
  function toyCouples(couples: number, categories: number, seed: number) {
    const rng = createRng(seed);
    const n = 4 * couples;
    const column = Uint8Array.from({ length: n }, () => rng.int(categories));
    const stratum = Int32Array.from({ length: n }, (_, p) => p % 2);
    const partners = Int32Array.from({ length: 2 * couples }, (_, k) => k);
    return { column, stratum, partners };
  }

  it.each([0.2, 0.5, 0.85])('stops at its target share of alike couples (%s), from above or below', (target) => {
    const { column, stratum, partners } = toyCouples(300, 4, 5);
    const input: InheritInput = { bundle: [column], traits: [trait(column, 'partners', target)], stratum, strata: 2, links: { partners, children: new Int32Array(0) }, proposals: 16 };
    const report = inheritWithinFamilies(input, createRng(6));
    const t = report.traits[0]!;
    expect(t.counted).toBe(300);
    // Independence gives about 1/4 alike: the climb goes up to the target, or down to it.
    expect(Math.abs(t.alikeBefore / t.counted - 0.25)).toBeLessThan(0.08);
    expect(Math.abs(t.alikeAfter / t.counted - target)).toBeLessThanOrEqual(1 / 300);
  });

  it('reaches two targets at once on one bundle: couples alike on one column, children on the other', () => {
    const rng = createRng(7);
    // 200 families: man, woman, child; 400 strangers of each of the three strata.
    const families = 200;
    const n = 3 * families + 1200;
    const stratum = Int32Array.from({ length: n }, (_, p) => (p < 3 * families ? p % 3 : (p - 3 * families) % 3));
    const a = Uint8Array.from({ length: n }, () => rng.int(5));
    const b = Uint8Array.from({ length: n }, () => rng.int(5));
    const partners = Int32Array.from({ length: 2 * families }, (_, k) => 3 * (k >> 1) + (k & 1));
    const children = Int32Array.from({ length: 3 * families }, (_, k) => 3 * Math.floor(k / 3) + [2, 0, 1][k % 3]!);
    const input: InheritInput = {
      bundle: [a, b],
      traits: [trait(a, 'partners', 0.6), trait(b, 'children', 0.9)],
      stratum,
      strata: 3,
      links: { partners, children },
      proposals: 24,
    };
    const report = inheritWithinFamilies(input, createRng(8));
    const [couples, kids] = report.traits;
    expect(Math.abs(couples!.alikeAfter / couples!.counted - 0.6)).toBeLessThan(0.02);
    expect(Math.abs(kids!.alikeAfter / kids!.counted - 0.9)).toBeLessThan(0.02);
  });

  it("keeps every stratum's bundles (so every table by sex × age group) and never moves away from the targets (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 40 }).chain((n) =>
          fc.record({
            n: fc.constant(n),
            a: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: n, maxLength: n }),
            b: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: n, maxLength: n }),
            stratum: fc.array(fc.integer({ min: -1, max: 2 }), { minLength: n, maxLength: n }),
            couples: fc.array(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 })), { maxLength: 8 }),
            children: fc.array(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: -1, max: n - 1 })), { maxLength: 8 }),
            targets: fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
            seed: fc.integer(),
          }),
        ),
        (x) => {
          const a = Uint8Array.from(x.a);
          const b = Uint8Array.from(x.b);
          const input: InheritInput = {
            bundle: [a, b],
            traits: [
              trait(a, 'partners', x.targets[0], { stated: Uint8Array.from({ length: 256 }, (_, k) => (k === 4 ? 0 : 1)) }),
              trait(a, 'children', x.targets[1], { childAlsoMatches: 0 }),
              trait(b, 'children', x.targets[2], { groupOf: [0, 1, 1, 0], amongParentGroup: 1 }),
              // Counted only where the child's other column holds 0 or 2: a swap that changes only
              // that column still changes which links count.
              trait(b, 'children', x.targets[0], { amongParentGroup: 2, childCountedWhen: { column: a, categories: Uint8Array.from({ length: 256 }, (_, k) => (k === 0 || k === 2 ? 1 : 0)) } }),
            ],
            stratum: Int32Array.from(x.stratum),
            strata: 3,
            links: { partners: Int32Array.from(x.couples.flat()), children: Int32Array.from(x.children.flat()) },
            proposals: 5,
          };
          const before = tuplesByStratum(input);
          const report = inheritWithinFamilies(input, createRng(x.seed));
          expect(tuplesByStratum(input)).toEqual(before);
          expect(report.distanceAfter).toBeLessThanOrEqual(report.distanceBefore + 1e-9);
          // The tallies kept as the swaps went are the links' states counted afresh.
          const recount = inheritWithinFamilies({ ...input, proposals: 0 }, createRng(0));
          expect(recount.traits.map((t) => [t.countedBefore, t.alikeBefore])).toEqual(report.traits.map((t) => [t.counted, t.alikeAfter]));
        },
      ),
      { numRuns: 300 },
    );
  });
});
