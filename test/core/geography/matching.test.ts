import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildGeographyIndex,
  closestNames,
  editDistance,
  findArea,
  identifierKey,
  parseSa2Code,
  parseState,
  resolveGeography,
  searchGeography,
  searchKey,
  type MatchableSuburb,
} from '../../../src/core/geography/matching.ts';

const sub = (suburbId: string, name: string, state: MatchableSuburb['state'], postcode: string, lga: [string, string], extra: Partial<MatchableSuburb> = {}): MatchableSuburb => ({
  suburbId, name, state, postcode, postcodes: [postcode], lgas: [{ code: lga[0], name: lga[1] }], ...extra, salCode: extra.salCode ?? `SAL ${suburbId}`,
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

describe('SA2 codes', () => {
  it('reads the nine digits, with or without "SA2" before them, and nothing else', () => {
    expect(parseSa2Code('601021004')).toBe('601021004');
    expect(parseSa2Code(' sa2 601021004 ')).toBe('601021004');
    expect(parseSa2Code('SA2601021004')).toBe('601021004');
    for (const other of ['60102100', '6010210040', 'POA7000', 'Hobart', '601 021 004', '']) expect(parseSa2Code(other)).toBeUndefined();
  });
});

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

describe('a release of several levels', () => {
  const hobartSuburb = sub('Hobart', 'Hobart', 'TAS', '7000', ['LGA62810', 'Hobart'], { level: 'sal' });
  const sandy = sub('Sandy Bay', 'Sandy Bay', 'TAS', '7005', ['LGA62810', 'Hobart'], { level: 'sal' });
  const poa7000 = { ...sub('7000', '7000', 'TAS', '7000', ['', '']), level: 'poa' as const, lgas: [] };
  const lgaHobart = { ...sub('Hobart', 'Hobart', 'TAS', '', ['LGA62810', 'Hobart']), level: 'lga' as const, postcodes: [] };
  const mixed = buildGeographyIndex([hobartSuburb, sandy, poa7000, lgaHobart]);

  it('serves every level, postcodes from the postal-area pools and LGAs from the LGA pools', () => {
    expect(mixed.levels).toEqual(['suburb', 'postcode', 'lga', 'state', 'australia']);
    expect(resolveGeography(mixed, 'postcode', '7000')).toEqual({ ok: true, value: { canonical: '7000', suburbs: [poa7000] } });
    expect(resolveGeography(mixed, 'lga', 'Hobart')).toEqual({ ok: true, value: { canonical: 'Hobart', suburbs: [lgaHobart] } });
    expect(resolveGeography(mixed, 'suburb', 'Hobart')).toEqual({ ok: true, value: { canonical: 'Hobart', suburbs: [hobartSuburb] } });
    // States and Australia from the finest level only: nobody is counted twice.
    expect(ids(resolveGeography(mixed, 'state', 'TAS'))).toEqual(['Hobart', 'Sandy Bay']);
    expect(ids(resolveGeography(mixed, 'australia', 'Australia'))).toEqual(['Hobart', 'Sandy Bay']);
  });

  it('finds an area by identifier for its variables: the suburb first, then postal areas and LGAs', () => {
    expect(findArea(mixed, 'hobart')).toEqual({ ok: true, value: { canonical: 'Hobart', suburbs: [hobartSuburb] } });
    expect(findArea(mixed, '7000')).toEqual({ ok: true, value: { canonical: '7000', suburbs: [poa7000] } });
    const lgaOnly = buildGeographyIndex([lgaHobart]);
    expect(findArea(lgaOnly, 'Hobart')).toEqual({ ok: true, value: { canonical: 'Hobart', suburbs: [lgaHobart] } });
    expect(findArea(lgaOnly, 'Hobrat')).toEqual({ ok: false, error: { kind: 'unknown', suggestions: ['Hobart'] } });
  });

  const sa2 = (code: string, absName: string, name: string, state: MatchableSuburb['state']): MatchableSuburb => ({
    level: 'sa2', salCode: code, suburbId: absName, name, state, postcode: '', postcodes: [], lgas: [],
  });
  const hobartSa2 = sa2('601051027', 'Hobart', 'Hobart', 'TAS');
  const sandySa2 = sa2('601051031', 'Sandy Bay', 'Sandy Bay', 'TAS');
  const richmondSa = sa2('404031108', 'Richmond (SA)', 'Richmond', 'SA');
  const withSa2s = buildGeographyIndex([hobartSa2, sandySa2, richmondSa, poa7000, lgaHobart]);

  it('serves SA2s by nine-digit code or ABS name, and builds states from them when they are the finest level', () => {
    expect(withSa2s.levels).toEqual(['postcode', 'sa2', 'lga', 'state', 'australia']);
    for (const input of ['601051027', ' SA2 601051027 ', 'hobart', 'HOBART ']) {
      expect(resolveGeography(withSa2s, 'sa2', input)).toEqual({ ok: true, value: { canonical: 'Hobart', suburbs: [hobartSa2] } });
    }
    // The ABS name, spq's state qualifier, or the bare name where one state has it.
    for (const input of ['Richmond (SA)', 'richmond (south australia)', 'Richmond']) {
      expect(ids(resolveGeography(withSa2s, 'sa2', input))).toEqual(['Richmond (SA)']);
    }
    expect(resolveGeography(withSa2s, 'sa2', 'Richmond (VIC)')).toMatchObject({ ok: false, error: { kind: 'unknown' } });
    // An ABS qualifier ("(Vic.)") in the name, or spq's ("(VIC)").
    const newtown = sa2('203021046', 'Newtown (Vic.)', 'Newtown', 'VIC');
    const withNewtown = buildGeographyIndex([newtown, sa2('117031640', 'Newtown (NSW)', 'Newtown', 'NSW')]);
    for (const input of ['Newtown (Vic.)', 'newtown (vic)', 'Newtown (Victoria)', '203021046']) expect(ids(resolveGeography(withNewtown, 'sa2', input))).toEqual(['Newtown (Vic.)']);
    expect(resolveGeography(withNewtown, 'sa2', 'Newtown')).toEqual({ ok: false, error: { kind: 'ambiguous', choices: ['Newtown (NSW)', 'Newtown (Vic.)'] } });
    expect(resolveGeography(withSa2s, 'sa2', 'Sandy Bya')).toEqual({ ok: false, error: { kind: 'unknown', suggestions: ['Sandy Bay'] } });
    expect(resolveGeography(withSa2s, 'sa2', '601051028')).toEqual({ ok: false, error: { kind: 'unknown', suggestions: ['601051027', '601051031'] } });
    expect(ids(resolveGeography(withSa2s, 'state', 'TAS'))).toEqual(['Hobart', 'Sandy Bay']);
    expect(ids(resolveGeography(withSa2s, 'australia', 'Australia'))).toEqual(['Hobart', 'Sandy Bay', 'Richmond (SA)']);
    // Suburbs stay the finest level; an SA2 level is served beside them.
    const all = buildGeographyIndex([hobartSuburb, sandy, hobartSa2, poa7000]);
    expect(all.levels).toEqual(['suburb', 'postcode', 'sa2', 'lga', 'state', 'australia']);
    expect(ids(resolveGeography(all, 'state', 'TAS'))).toEqual(['Hobart', 'Sandy Bay']);
    expect(resolveGeography(buildGeographyIndex([hobartSuburb]), 'sa2', 'Hobart')).toMatchObject({ ok: false, error: { kind: 'unavailable' } });
  });

  it('finds SA2s by name or code in search and for their variables', () => {
    expect(searchGeography(withSa2s, { query: 'sandy', level: 'sa2', limit: 10 }).results).toEqual([sandySa2]);
    expect(searchGeography(withSa2s, { query: '60105', level: 'sa2', limit: 10 }).results).toEqual([hobartSa2, sandySa2]);
    expect(searchGeography(withSa2s, { query: 'rich', level: 'sa2', state: 'TAS', limit: 10 }).total).toBe(0);
    expect(findArea(withSa2s, '601051031')).toEqual({ ok: true, value: { canonical: 'Sandy Bay', suburbs: [sandySa2] } });
    // An SA2 and an LGA of one name: the SA2 (the finer area) is found first.
    expect(findArea(withSa2s, 'Hobart')).toEqual({ ok: true, value: { canonical: 'Hobart', suburbs: [hobartSa2] } });
    expect(() => buildGeographyIndex([hobartSa2, { ...sandySa2, salCode: '601051027' }])).toThrow(/two SA2s/);
  });

  it('names the levels it holds when asked for one it has no pools for', () => {
    const postcodes = buildGeographyIndex([poa7000]);
    expect(postcodes.levels).toEqual(['postcode', 'state', 'australia']);
    for (const level of ['suburb', 'lga'] as const) {
      expect(resolveGeography(postcodes, level, 'Hobart')).toEqual({ ok: false, error: { kind: 'unavailable', held: ['postcode', 'state', 'australia'] } });
    }
    expect(ids(resolveGeography(postcodes, 'state', 'Tasmania'))).toEqual(['7000']);
    expect(buildGeographyIndex([]).levels).toEqual([]);
  });
});
