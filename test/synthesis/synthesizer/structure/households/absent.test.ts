import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRng } from '../../../../../src/synthesis/synthesizer/rng.ts';
import { dealAbsentPlaces, placeAbsentPartners, placeOtherAbsent, roleSum } from '../../../../../src/synthesis/synthesizer/structure/households/absent.ts';
import {
  DEFAULT_BANDS, emptyDiagnostics, FamilyType, HouseholdKind, MAX_ABSENT_PER_DWELLING, TARGET_ROLE_COUNT, TargetRole,
} from '../../../../../src/synthesis/synthesizer/structure/model.ts';
import { layoutOf, noTables, plannedSplit } from './layout.ts';

const { Family, Group, LonePerson } = HouseholdKind;
const { CoupleNoChildren: CNC, CoupleWithChildren: CWC } = FamilyType;

describe('roleSum', () => {
  it('adds one role’s cells over sex and band, a negative cell counting none', () => {
    const cells = 2 * DEFAULT_BANDS.length;
    const table = new Float64Array(TARGET_ROLE_COUNT * cells);
    table[TargetRole.Partner * cells + 3] = 5;
    table[TargetRole.Partner * cells + 12] = 2;
    table[TargetRole.Partner * cells + 13] = -1;
    table[TargetRole.LoneParent * cells] = 9;
    expect(roleSum(table, TargetRole.Partner)).toBe(7);
  });
});

describe('dealAbsentPlaces', () => {
  const layout = layoutOf([[Family, 5, [CNC]], [Group, 3, []], [LonePerson, 1, []], [Family, 8, [CWC]]]);

  it('never gives a lone person’s household an absent resident, keeps someone at home in a group, and at most three a household', () => {
    const extra = Int32Array.of(3, 0, 0, 6);
    const [visitors] = dealAbsentPlaces(layout, extra, new Uint8Array(4), [20], createRng(1)) as [Uint8Array];
    expect(Array.from(visitors)).toEqual([3, 2, 0, MAX_ABSENT_PER_DWELLING]);
  });

  it('fills the households with a partner away first, up to three absent each', () => {
    const extra = Int32Array.of(3, 0, 0, 6);
    for (let seed = 1; seed <= 10; seed++) {
      const [visitors] = dealAbsentPlaces(layout, extra, Uint8Array.of(0, 0, 0, 1), [2], createRng(seed)) as [Uint8Array];
      expect(Array.from(visitors)).toEqual([0, 0, 0, 2]);
    }
  });

  it('deals the kinds in turn and never more than the places (property)', () => {
    fc.assert(
      fc.property(fc.nat(12), fc.nat(12), fc.integer(), (visitors, away, seed) => {
        const [v, a] = dealAbsentPlaces(layout, Int32Array.of(3, 0, 0, 6), new Uint8Array(4), [visitors, away], createRng(seed)) as [Uint8Array, Uint8Array];
        const placed = (x: Uint8Array) => x.reduce((s, n) => s + n, 0);
        expect(placed(v)).toBe(Math.min(visitors, 8));
        expect(placed(a)).toBe(Math.min(away, 8 - placed(v)));
        for (let h = 0; h < 4; h++) expect(v[h]! + a[h]!).toBeLessThanOrEqual(MAX_ABSENT_PER_DWELLING);
      }),
    );
  });
});

describe('placeAbsentPartners', () => {
  it("counts G29's couples less G27's partners at home as partners away, visitors first", () => {
    const layout = layoutOf([[Family, 2, [CNC]], [Family, 3, [CWC]], [Family, 2, [CNC]]]);
    const cells = 2 * DEFAULT_BANDS.length;
    const byRoleSexBand = new Float64Array(TARGET_ROLE_COUNT * cells);
    byRoleSexBand[TargetRole.Partner * cells + 4] = 4; // 4 partners at home for 3 couples: 2 away
    const partners = placeAbsentPartners({ ...noTables, roles: { bands: DEFAULT_BANDS, byRoleSexBand } }, layout, plannedSplit(10, 1, 3, 1, 2), createRng(1));
    expect(partners.partnersAway).toBe(2);
    expect(partners.visitorPartners).toBe(1);
    expect(partners.awayPartners).toBe(1);
    expect(Array.from(partners.absentPartner).sort()).toEqual([0, 1, 2]);
    expect(Array.from(partners.absentIn).reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('has every partner at home without a role table, and never more away than the absent places', () => {
    const layout = layoutOf([[Family, 2, [CNC]], [Family, 2, [CNC]]]);
    expect(placeAbsentPartners(noTables, layout, plannedSplit(4, 0, 0, 0, 0), createRng(1)).partnersAway).toBe(0);
    const cells = 2 * DEFAULT_BANDS.length;
    const none = { ...noTables, roles: { bands: DEFAULT_BANDS, byRoleSexBand: new Float64Array(TARGET_ROLE_COUNT * cells) } };
    expect(placeAbsentPartners(none, layout, plannedSplit(2, 1, 0, 1, 0), createRng(1)).partnersAway).toBe(1);
  });
});

describe('placeOtherAbsent', () => {
  it('sends a visitor with no place left to the non-private dwelling while a resident of it comes home', () => {
    // One place for absent residents; two visitors at home, and two residents of non-private dwellings.
    const layout = layoutOf([[Family, 3, [CNC]]]);
    const extra = Int32Array.of(1);
    const partners = { absentPartner: new Uint8Array(1), absentIn: new Uint8Array(1), partnersAway: 0, visitorPartners: 0, awayPartners: 0 };
    const diag = emptyDiagnostics();
    const absent = placeOtherAbsent(layout, plannedSplit(2, 2, 2, 2, 0), extra, partners, createRng(1), diag);
    expect(absent.visitorsPlaced).toBe(1);
    expect(Array.from(extra)).toEqual([0]);
    // The unplaced visitor lives in the non-private dwelling; one of its residents is at home instead.
    expect(absent.visitorsInNonPrivate).toBe(1);
    expect(absent.nonPrivate).toBe(1);
    expect(diag.nonPrivateMadeResidents).toBe(1);
    expect(diag.visitorsMadeResidents).toBe(0);
  });
});
