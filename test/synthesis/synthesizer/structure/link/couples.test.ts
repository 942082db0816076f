import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRng } from '../../../../../src/synthesis/synthesizer/rng.ts';
import { pairCouples, pickSingles, sameSexCouples } from '../../../../../src/synthesis/synthesizer/structure/link/couples.ts';
import { Role } from '../../../../../src/synthesis/synthesizer/structure/model.ts';
import { couple, drawnOf, familyHouse, handPlan, linkingOf } from './fixture.ts';

describe('sameSexCouples', () => {
  it('forms about 1.4% of couples, split evenly, where the sexes balance', () => {
    expect(sameSexCouples(1000, 1000)).toEqual({ male: 7, female: 7 });
    expect(sameSexCouples(100, 100)).toEqual({ male: 0, female: 0 });
  });

  it("pairs a surplus of one sex among itself, and never more than a sex's partners allow", () => {
    expect(sameSexCouples(6, 2)).toEqual({ male: 2, female: 0 });
    expect(sameSexCouples(1, 9)).toEqual({ male: 0, female: 4 });
    expect(sameSexCouples(0, 1)).toEqual({ male: 0, female: 0 });
  });

  it('leaves the rest of the partners within one of a balance of the sexes (property)', () => {
    fc.assert(
      fc.property(fc.nat(3000), fc.nat(3000), (men, women) => {
        const { male, female } = sameSexCouples(men, women);
        expect(male).toBeGreaterThanOrEqual(0);
        expect(female).toBeGreaterThanOrEqual(0);
        expect(2 * male).toBeLessThanOrEqual(men);
        expect(2 * female).toBeLessThanOrEqual(women);
        expect(Math.abs(men - 2 * male - (women - 2 * female))).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('pickSingles', () => {
  it('takes the partners whose partner is away from the sex in surplus first', () => {
    const sex = Uint8Array.of(0, 0, 0, 1);
    const singles = pickSingles([0, 1, 2, 3], sex, 2, createRng(3));
    expect([...singles].every((p) => sex[p] === 0)).toBe(true);
    expect(singles.size).toBe(2);
  });

  it('takes as many as asked, at most every partner, and evens the sexes left (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1 }), { maxLength: 40 }), fc.nat(50), fc.integer(), (sexes, count, seed) => {
        const sex = Uint8Array.from(sexes);
        const partners = sexes.map((_, i) => i);
        const singles = pickSingles(partners, sex, count, createRng(seed));
        expect(singles.size).toBe(Math.min(count, partners.length));
        const left = partners.filter((p) => !singles.has(p));
        const men = left.filter((p) => sex[p] === 0).length;
        const women = left.length - men;
        const before = Math.abs(sexes.filter((s) => s === 0).length - sexes.filter((s) => s === 1).length);
        // Each single from the surplus sex narrows the gap by one, down to its parity.
        expect(Math.abs(men - women)).toBe(Math.max(before - singles.size, (before - singles.size) % 2 === 0 ? 0 : 1));
      }),
    );
  });
});

describe('pairCouples', () => {
  // Three men and three women, thirty years apart between pairs: rank matching pairs each man
  // with the woman of his age, whatever the noise.
  const persons = [
    [20, 0, Role.Partner], [50, 0, Role.Partner], [80, 0, Role.Partner],
    [81, 1, Role.Partner], [21, 1, Role.Partner], [51, 1, Role.Partner],
  ] as const;
  const plan = handPlan([familyHouse(2, couple()), familyHouse(2, couple()), familyHouse(2, couple())]);

  it('pairs partners by age rank, one man with one woman', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const drawn = drawnOf(persons);
      const { couples, singles } = pairCouples(linkingOf(plan, drawn, seed).s);
      expect(singles.size).toBe(0);
      const pairs = couples.map(([a, b]) => [drawn.age[a], drawn.age[b]].sort()).sort((x, y) => x[0]! - y[0]!);
      expect(pairs).toEqual([[20, 21], [50, 51], [80, 81]]);
    }
  });

  it('leaves one partner single for each family whose partner is away, and pairs the rest', () => {
    const absentPlan = handPlan([familyHouse(2, couple()), familyHouse(2, couple(0, { absentPartner: 1 })), familyHouse(3, couple(0, { absentPartner: 2 }))]);
    const drawn = drawnOf([...persons.slice(0, 4), [30, 0, Role.Partner]]);
    const { couples, singles, absentFamilies } = pairCouples(linkingOf(absentPlan, drawn).s);
    expect(absentFamilies).toEqual([1, 2]);
    expect(singles.size).toBe(2);
    // Three men and one woman: the singles are men, so one man and the woman remain a couple, plus
    // no same-sex couple (the man left over has nobody).
    expect([...singles].every((p) => drawn.sex[p] === 0)).toBe(true);
    expect(couples).toHaveLength(1);
    expect(couples[0]!.map((p) => drawn.sex[p]).sort()).toEqual([0, 1]);
  });

  it('puts every partner in at most one couple and pairs all but one (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 15, max: 100 }), fc.integer({ min: 0, max: 1 })), { maxLength: 60 }), fc.integer(), (people, seed) => {
        const drawn = drawnOf(people.map(([age, sex]) => [age, sex, Role.Partner] as const));
        const { couples, singles } = pairCouples(linkingOf(handPlan([]), drawn, seed).s);
        const linked = couples.flat();
        expect(new Set(linked).size).toBe(linked.length);
        expect(singles.size).toBe(0);
        expect(people.length - linked.length).toBeLessThanOrEqual(1);
      }),
    );
  });
});
