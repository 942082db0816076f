import { describe, expect, it } from 'vitest';
import { bandsOf, orderByDesc } from '../../../../../src/synthesis/synthesizer/structure/link/linking.ts';
import { DEFAULT_BANDS, Role, type StructureTargets } from '../../../../../src/synthesis/synthesizer/structure/model.ts';
import { drawnOf, handPlan, linkingOf } from './fixture.ts';

const base: StructureTargets = { persons: 0, personsByAgeSex: [], dwellings: 0, familyHouseholdsBySize: [], groupHouseholdsBySize: [], loneHouseholds: 0 };

describe('orderByDesc', () => {
  it('sorts indices by key, largest first, ties in index order', () => {
    expect(Array.from(orderByDesc(Float64Array.of(1, 3, 2, 3, -Infinity)))).toEqual([1, 3, 2, 0, 4]);
  });
});

describe('bandsOf', () => {
  it("uses the role table's bands, else G27's, an age outside them counting in the first", () => {
    expect(bandsOf(base).bands).toBe(DEFAULT_BANDS);
    expect(bandsOf(base).bandOf(40)).toBe(3);
    const own = bandsOf({ ...base, roles: { bands: [[0, 49], [50, 99]], byRoleSexBand: [] } });
    expect([own.bandOf(10), own.bandOf(60), own.bandOf(110)]).toEqual([0, 1, 0]);
  });
});

describe('startLinking', () => {
  const drawn = drawnOf([[30, 0, Role.Partner], [70, 1, Role.LonePerson], [50, 1, Role.Partner], [10, 0, Role.Child]]);

  it('starts every person without a household or family, and finds the persons of a role in person order', () => {
    const { s } = linkingOf(handPlan([]), drawn);
    expect(Array.from(s.household)).toEqual([-1, -1, -1, -1]);
    expect(Array.from(s.family)).toEqual([-1, -1, -1, -1]);
    expect(s.byRole(Role.Partner)).toEqual([0, 2]);
    s.role[3] = Role.OtherRelated;
    expect(s.byRole(Role.Child)).toEqual([]);
    // The drawn roles stay as drawn: linking changes its own copy.
    expect(drawn.role[3]).toBe(Role.Child);
  });

  it('orders persons by age with noise, eldest first', () => {
    const { s } = linkingOf(handPlan([]), drawn);
    // Twenty years apart with noise of sd 1: the order of the ages.
    expect(s.jittered([0, 1, 2, 3], 1)).toEqual([1, 2, 0, 3]);
  });
});
