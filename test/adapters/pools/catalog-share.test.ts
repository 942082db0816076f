import { describe, expect, it } from 'vitest';
import { shareRepeatedValues, type CatalogSuburb } from '../../../src/adapters/pools/catalog.ts';

describe('shareRepeatedValues: a parsed catalog keeps one copy of what repeats', () => {
  const text = JSON.stringify(
    ['SAL1', 'SAL2', 'SAL3'].map((salCode, i) => ({
      level: 'sal', salCode, suburbId: `Place ${i}`, name: `Place ${i}`, state: 'NSW', postcode: '2000', lga: 'Sydney City Council', lgaCode: 'LGA17200',
      gccsa: 'Greater Sydney', smallSuburb: i > 0, sa2: 'Sydney (North) - Millers Point', sa2Code: '117031337', postcodes: ['2000', '2001'],
      lgas: [{ code: 'LGA17200', name: 'Sydney City Council' }], offsets: { persons: i, families: i, dwellings: i }, pools: { persons: 1, families: 1, dwellings: 1 },
      coarsened: i > 0 ? ['AGEP', 'INCP'] : [],
    })),
  );

  it('leaves every value as it was and makes equal coarsened lists one array', () => {
    const suburbs = JSON.parse(text) as CatalogSuburb[];
    shareRepeatedValues(suburbs);
    expect(suburbs).toEqual(JSON.parse(text));
    expect(JSON.stringify(suburbs)).toBe(text);
    expect(suburbs[1]!.coarsened).toBe(suburbs[2]!.coarsened);
    expect(suburbs[0]!.coarsened).toEqual([]);
  });
});
