import { describe, expect, it } from 'vitest';
import { formatAbsName, lgaBaseName, lgaIdentifiers, normaliseName, parseAbsName, stateOfSa2, suburbIdentifiers } from '../../src/census-input/abs-names.ts';

describe('ABS names', () => {
  it('reads state and area qualifiers', () => {
    expect(parseAbsName('Richmond (Vic.)')).toEqual({ name: 'Richmond', state: 'VIC' });
    expect(parseAbsName('Ascot (Ballarat - Vic.)')).toEqual({ name: 'Ascot', state: 'VIC', area: 'Ballarat' });
    expect(parseAbsName('Kingston (ACT)')).toEqual({ name: 'Kingston', state: 'ACT' });
    expect(parseAbsName('Fitzroy Crossing')).toEqual({ name: 'Fitzroy Crossing' });
    expect(parseAbsName('Mount Pleasant (Greater Bendigo - Vic.)').area).toBe('Greater Bendigo');
  });

  it('writes what it reads', () => {
    expect(formatAbsName('Richmond', 'TAS')).toBe('Richmond (Tas.)');
    expect(formatAbsName('Ascot', 'VIC', 'Ballarat')).toBe('Ascot (Ballarat - Vic.)');
    expect(parseAbsName(formatAbsName('Ascot', 'QLD'))).toEqual({ name: 'Ascot', state: 'QLD' });
  });

  it('drops LGA type suffixes', () => {
    expect(lgaBaseName('Ballarat (C)')).toBe('Ballarat');
    expect(lgaBaseName('Campbelltown (NSW)')).toBe('Campbelltown');
    expect(lgaBaseName('Yarra')).toBe('Yarra');
  });
});

describe('SA2 codes', () => {
  it('takes the state from the first digit', () => {
    expect(stateOfSa2('601021004')).toBe('TAS');
    expect(stateOfSa2('801011001')).toBe('ACT');
    expect(stateOfSa2('901011001')).toBe('OT');
    expect(stateOfSa2('001011001')).toBeUndefined();
  });
});

describe('suburb identifiers', () => {
  const ids = suburbIdentifiers([
    { key: 'a', name: 'Richmond', state: 'VIC', area: 'Yarra' },
    { key: 'b', name: 'Richmond', state: 'NSW', area: 'Hawkesbury' },
    { key: 'c', name: 'Fitzroy', state: 'VIC', area: 'Yarra' },
    { key: 'd', name: 'Ascot', state: 'VIC', area: 'Ballarat' },
    { key: 'e', name: 'Ascot', state: 'VIC', area: 'Greater Bendigo' },
    { key: 'f', name: 'Ascot', state: 'QLD', area: 'Brisbane' },
    { key: 'g', name: 'Mount Pleasant', state: 'VIC', area: 'Ballarat' },
    { key: 'h', name: 'Mount Pleasant', state: 'VIC', area: 'Greater Bendigo' },
  ]);

  it('qualifies names shared by several states with the state', () => {
    expect(ids.get('a')).toBe('Richmond (VIC)');
    expect(ids.get('b')).toBe('Richmond (NSW)');
    expect(ids.get('f')).toBe('Ascot (QLD)');
  });

  it('leaves names unique to one state unqualified', () => {
    expect(ids.get('c')).toBe('Fitzroy');
  });

  it('adds the area to same-state namesakes, even when no other state has the name', () => {
    expect(ids.get('d')).toBe('Ascot (Ballarat, VIC)');
    expect(ids.get('e')).toBe('Ascot (Greater Bendigo, VIC)');
    expect(ids.get('g')).toBe('Mount Pleasant (Ballarat, VIC)');
  });

  it('never gives two suburbs the same identifier', () => {
    const twins = suburbIdentifiers([
      { key: 'SAL1', name: 'Springfield', state: 'QLD', area: 'Ipswich' },
      { key: 'SAL2', name: 'Springfield', state: 'QLD', area: 'Ipswich' },
    ]);
    expect(new Set(twins.values()).size).toBe(2);
    expect([...ids.values()].map(normaliseName).length).toBe(new Set([...ids.values()].map(normaliseName)).size);
  });

  it('qualifies LGA names shared by two states', () => {
    const l = lgaIdentifiers([
      { key: 'LGA1', name: 'Campbelltown', state: 'NSW' },
      { key: 'LGA4', name: 'Campbelltown', state: 'SA' },
      { key: 'LGA2', name: 'Yarra', state: 'VIC' },
    ]);
    expect(l.get('LGA1')).toBe('Campbelltown (NSW)');
    expect(l.get('LGA2')).toBe('Yarra');
  });

  it('normalises for matching: case and spaces', () => {
    expect(normaliseName('  richmond   (VIC) ')).toBe(normaliseName('Richmond (VIC)'));
  });
});
