import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { matchSuburbs, normalised, sharesThrough, type NamedSuburb } from '../../src/census-input/correspondence.ts';

const sal = (code: string, absName: string, state: NamedSuburb['state']): NamedSuburb => ({ code, absName, state });

describe('matchSuburbs (2021 suburbs to 2016 suburbs by name and state)', () => {
  it('matches the ABS name exactly within the state, not across states', () => {
    const m = matchSuburbs([sal('SAL22170', 'Richmond (Vic.)', 'VIC'), sal('SAL40001', 'Richmond (SA)', 'SA')], [sal('21166', 'Richmond (Vic.)', 'VIC'), sal('41234', 'Richmond (SA)', 'SA')]);
    expect(m.matched.get('SAL22170')).toEqual({ code: '21166', how: 'exact' });
    expect(m.matched.get('SAL40001')).toEqual({ code: '41234', how: 'exact' });
    expect(m.unmatched).toEqual([]);
  });

  it('matches a name disambiguated differently in the two editions when it is one suburb in each', () => {
    const m = matchSuburbs([sal('SAL1', 'Springvale (Vic.)', 'VIC')], [sal('2', 'Springvale', 'VIC')]);
    expect(m.matched.get('SAL1')).toEqual({ code: '2', how: 'name' });
  });

  it('tells same-state namesakes apart by the area in their qualifiers', () => {
    const m = matchSuburbs(
      [sal('SAL1', 'Ascot (Ballarat - Vic.)', 'VIC'), sal('SAL2', 'Ascot (Greater Bendigo - Vic.)', 'VIC')],
      [sal('7', 'Ascot (Greater Bendigo)', 'VIC'), sal('8', 'Ascot (Ballarat)', 'VIC')],
    );
    expect(m.matched.get('SAL1')).toEqual({ code: '8', how: 'qualifier' });
    expect(m.matched.get('SAL2')).toEqual({ code: '7', how: 'qualifier' });
  });

  it('lists a name that matches two suburbs as ambiguous, never guessing', () => {
    const m = matchSuburbs([sal('SAL1', 'Springvale (NSW)', 'NSW')], [sal('1', 'Springvale (Lithgow - NSW)', 'NSW'), sal('2', 'Springvale (Wagga Wagga - NSW)', 'NSW')]);
    expect(m.matched.size).toBe(0);
    expect(m.ambiguous).toHaveLength(1);
    expect(m.ambiguous[0]!.candidates.map((c) => c.code).sort()).toEqual(['1', '2']);
  });

  it('two 2021 suburbs of one 2016 name with nothing to tell them apart are both ambiguous', () => {
    const m = matchSuburbs([sal('SAL1', 'Wooroonooran (Cairns - Qld)', 'QLD'), sal('SAL2', 'Wooroonooran (Cassowary Coast - Qld)', 'QLD')], [sal('3', 'Wooroonooran', 'QLD')]);
    expect(m.matched.size).toBe(0);
    expect(m.ambiguous.map((a) => a.suburb.code)).toEqual(['SAL1', 'SAL2']);
  });

  it('a suburb new in 2021 is unmatched', () => {
    const m = matchSuburbs([sal('SAL1', 'Tallawong', 'NSW')], [sal('1', 'Rouse Hill', 'NSW')]);
    expect(m.unmatched.map((u) => u.code)).toEqual(['SAL1']);
  });

  it('every 2021 suburb is matched, unmatched or ambiguous, exactly once; no 2016 suburb is matched twice', () => {
    const names = fc.constantFrom('Ascot', 'Ascot (Ballarat - Vic.)', 'Ascot (Vic.)', 'Kew', 'Kew (NSW)', 'Hamilton', 'Hamilton (Newcastle)');
    const suburbs = (prefix: string) => fc.uniqueArray(fc.tuple(names, fc.constantFrom('VIC', 'NSW') as fc.Arbitrary<'VIC' | 'NSW'>), { maxLength: 8 }).map((list) => list.map(([n, st], i) => sal(`${prefix}${i}`, n, st)));
    fc.assert(
      fc.property(suburbs('SAL'), suburbs(''), (news, olds) => {
        const m = matchSuburbs(news, olds);
        const seen = [...m.matched.keys(), ...m.unmatched.map((u) => u.code), ...m.ambiguous.map((a) => a.suburb.code)];
        expect(seen.sort()).toEqual(news.map((s) => s.code).sort());
        const olds2016 = [...m.matched.values()].map((v) => v.code);
        expect(new Set(olds2016).size).toBe(olds2016.length);
        for (const [code, { code: old }] of m.matched) expect(news.find((s) => s.code === code)!.state).toBe(olds.find((s) => s.code === old)!.state);
      }),
    );
  });
});

describe('sharesThrough (suburb → area shares through SA1s)', () => {
  it('weights each SA1 by its share in the suburb and in the area', () => {
    const sa1Suburb = new Map([
      ['a', [{ code: 'S', ratio: 1 }]],
      ['b', [{ code: 'S', ratio: 0.5 }, { code: 'T', ratio: 0.5 }]],
    ]);
    const sa1Poa = new Map([
      ['a', [{ code: '3121', ratio: 1 }]],
      ['b', [{ code: '3000', ratio: 1 }]],
    ]);
    const shares = sharesThrough(sa1Suburb, sa1Poa);
    expect(shares.get('S')).toEqual([{ code: '3121', ratio: 0.6666667 }, { code: '3000', ratio: 0.3333333 }]);
    expect(shares.get('T')).toEqual([{ code: '3000', ratio: 1 }]);
  });

  it('normalised shares sum to 1 and come largest first', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ code: fc.string({ minLength: 1, maxLength: 3 }), ratio: fc.double({ min: 0, max: 1, noNaN: true }) }), { minLength: 1, maxLength: 6 }), (list) => {
        const n = normalised(list);
        // No return value: fast-check fails a property that returns anything but undefined or true (an Assertion is neither).
        if (list.every((s) => s.ratio === 0)) {
          expect(n).toEqual([]);
          return;
        }
        if (n.length > 0) expect(n.reduce((a, s) => a + s.ratio, 0)).toBeCloseTo(1, 5);
        for (let i = 1; i < n.length; i++) expect(n[i - 1]!.ratio).toBeGreaterThanOrEqual(n[i]!.ratio);
      }),
      // The all-zero list, which random ratios reach only now and then.
      { examples: [[[{ code: ' ', ratio: 0 }]]] },
    );
  });
});
