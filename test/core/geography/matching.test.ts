import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildGeographyIndex,
  closestNames,
  editDistance,
  identifierKey,
  parseState,
  resolveGeography,
  searchGeography,
  searchKey,
  type MatchableSuburb,
} from '../../../src/core/geography/matching.ts';

const sub = (suburbId: string, name: string, state: MatchableSuburb['state'], postcode: string, lga: [string, string], extra: Partial<MatchableSuburb> = {}): MatchableSuburb => ({
  suburbId, name, state, postcode, postcodes: [postcode], lgas: [{ code: lga[0], name: lga[1] }], ...extra,
});

const SUBURBS: MatchableSuburb[] = [
  sub('Richmond (VIC)', 'Richmond', 'VIC', '3121', ['LGA27350', 'Yarra']),
  sub('Burnley', 'Burnley', 'VIC', '3121', ['LGA27350', 'Yarra']),
  sub('Fitzroy', 'Fitzroy', 'VIC', '3065', ['LGA27350', 'Yarra'], { postcodes: ['3065', '3068'] }),
  sub('Richmond (NSW)', 'Richmond', 'NSW', '2753', ['LGA14100', 'Hawkesbury']),
  sub('Mount Pleasant (Ballarat, VIC)', 'Mount Pleasant', 'VIC', '3350', ['LGA20570', 'Ballarat']),
  sub('Mount Pleasant (Ararat, VIC)', 'Mount Pleasant', 'VIC', '3377', ['LGA20110', 'Ararat']),
  sub('Campbelltown (NSW)', 'Campbelltown', 'NSW', '2560', ['LGA11500', 'Campbelltown']),
  sub('Campbelltown (SA)', 'Campbelltown', 'SA', '5074', ['LGA40700', 'Campbelltown']),
  sub('Mt Évelyn', 'Mt Évelyn', 'VIC', '3796', ['LGA27450', 'Yarra Ranges']),
];
const index = buildGeographyIndex(SUBURBS);
const ids = (r: ReturnType<typeof resolveGeography>): string[] => (r.ok ? r.value.suburbs.map((s) => s.suburbId) : []);

describe('normalisation', () => {
  it('folds case and spaces for identifiers, and accents for search', () => {
    expect(identifierKey('  richmond   (vic) ')).toBe('richmond (vic)');
    expect(searchKey(' Mt  ÉVELYN')).toBe('mt evelyn');
  });
  it('parses states by abbreviation or full name', () => {
    expect(parseState('vic')).toBe('VIC');
    expect(parseState(' new  south wales ')).toBe('NSW');
    expect(parseState('Australian Capital Territory')).toBe('ACT');
    expect(parseState('Victory')).toBeUndefined();
  });
  it('edit distance counts a transposition as one edit and is a metric', () => {
    expect(editDistance('richmond', 'rihcmond')).toBe(1);
    expect(editDistance('fitzroy', 'fitzroy')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    fc.assert(fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
      expect(editDistance(a, b)).toBe(editDistance(b, a));
      expect(editDistance(a, b)).toBeLessThanOrEqual(Math.max(a.length, b.length));
      expect(editDistance(a, b) === 0).toBe(a === b);
    }));
  });
  it('suggests the closest names first', () => {
    expect(closestNames('Richmnod', ['Richmond (VIC)', 'Richmond', 'Burnley'])[0]).toBe('Richmond');
    expect(closestNames('zzzzzz', ['Richmond', 'Burnley'])).toEqual([]);
  });
});

describe('resolveGeography', () => {
  it('resolves suburb identifiers case- and space-insensitively to the canonical spelling', () => {
    const r = resolveGeography(index, 'suburb', '  richmond   (vic)');
    expect(r.ok && r.value.canonical).toBe('Richmond (VIC)');
    expect(ids(resolveGeography(index, 'suburb', 'FITZROY'))).toEqual(['Fitzroy']);
    expect(ids(resolveGeography(index, 'suburb', 'Fitzroy (Victoria)'))).toEqual(['Fitzroy']);
  });
  it('calls an unqualified name shared by several suburbs ambiguous, with the qualified choices', () => {
    expect(resolveGeography(index, 'suburb', 'richmond')).toEqual({ ok: false, error: { kind: 'ambiguous', choices: ['Richmond (NSW)', 'Richmond (VIC)'] } });
    const mp = resolveGeography(index, 'suburb', 'Mount Pleasant (VIC)');
    expect(mp.ok).toBe(false);
    if (!mp.ok) expect(mp.error).toEqual({ kind: 'ambiguous', choices: ['Mount Pleasant (Ararat, VIC)', 'Mount Pleasant (Ballarat, VIC)'] });
  });
  it('suggests close names for an unknown suburb', () => {
    const r = resolveGeography(index, 'suburb', 'Fitzroi');
    expect(r).toEqual({ ok: false, error: { kind: 'unknown', suggestions: ['Fitzroy'] } });
  });
  it('resolves postcodes to every member suburb', () => {
    expect(ids(resolveGeography(index, 'postcode', '3121'))).toEqual(['Richmond (VIC)', 'Burnley']);
    expect(ids(resolveGeography(index, 'postcode', '3068'))).toEqual(['Fitzroy']);
    const bad = resolveGeography(index, 'postcode', '3122');
    expect(bad.ok === false && bad.error.kind).toBe('unknown');
  });
  it('resolves LGAs by name, qualified name or ABS code', () => {
    expect(ids(resolveGeography(index, 'lga', 'yarra'))).toEqual(['Richmond (VIC)', 'Burnley', 'Fitzroy']);
    expect(ids(resolveGeography(index, 'lga', 'LGA27350'))).toEqual(['Richmond (VIC)', 'Burnley', 'Fitzroy']);
    const q = resolveGeography(index, 'lga', 'campbelltown (sa)');
    expect(q.ok && q.value.canonical).toBe('Campbelltown (SA)');
    expect(resolveGeography(index, 'lga', 'Campbelltown')).toEqual({ ok: false, error: { kind: 'ambiguous', choices: ['Campbelltown (NSW)', 'Campbelltown (SA)'] } });
  });
  it('resolves states and Australia', () => {
    const vic = resolveGeography(index, 'state', 'Victoria');
    expect(vic.ok && vic.value.canonical).toBe('VIC');
    expect(ids(vic)).toHaveLength(6);
    expect(ids(resolveGeography(index, 'australia', 'aus'))).toHaveLength(SUBURBS.length);
    expect(resolveGeography(index, 'australia', 'Oz').ok).toBe(false);
    expect(resolveGeography(index, 'state', 'TAS').ok).toBe(false);
  });
});

describe('searchGeography', () => {
  it('matches partially, accent-insensitively, prefix matches first, total counts all', () => {
    const r = searchGeography(index, { query: 'mo', level: 'suburb', limit: 10 });
    // "Mount Pleasant" ×2 start with "mo"; the Richmonds only contain it.
    expect(r.results.map((s) => s.suburbId)).toEqual(['Mount Pleasant (Ararat, VIC)', 'Mount Pleasant (Ballarat, VIC)', 'Richmond (NSW)', 'Richmond (VIC)']);
    expect(searchGeography(index, { query: 'mo', level: 'suburb', limit: 1 })).toMatchObject({ total: 4 });
    expect(searchGeography(index, { query: 'evel', level: 'suburb', limit: 10 }).results.map((s) => s.name)).toEqual(['Mt Évelyn']);
  });
  it('filters by state and searches postcodes, LGAs and states', () => {
    expect(searchGeography(index, { query: 'richmond', state: 'NSW', level: 'suburb', limit: 10 }).results.map((s) => s.suburbId)).toEqual(['Richmond (NSW)']);
    expect(searchGeography(index, { query: '312', level: 'postcode', limit: 10 }).total).toBe(2);
    expect(searchGeography(index, { query: 'yarra', level: 'lga', limit: 10 }).total).toBe(4);
    expect(searchGeography(index, { query: 'south', level: 'state', limit: 10 }).results.map((s) => s.state).sort()).toEqual(['NSW', 'NSW', 'SA']);
  });
});
