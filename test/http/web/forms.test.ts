import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inFormWords, splitPlaces } from '../../../src/app/web/builder.ts';
import { queryFromForm } from '../../../src/http/web/pages/forms.ts';

describe("the query builder's form", () => {
  it('reads n_observations as plain digits only: "1e2", "0x10", "7.0", "" are no number (the use case then refuses them)', () => {
    for (const text of ['1e2', '0x10', '7.0', '', '-5', '1,000', 'Infinity']) expect(queryFromForm({ n_observations: text }).n_observations, text).toBe(-1);
    expect(queryFromForm({ n_observations: ' 250 ' }).n_observations).toBe(250);
  });

  it('property: any whole number written in digits comes through as itself', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e12 }), (n) => queryFromForm({ n_observations: String(n) }).n_observations === n));
  });

  it('separates places with ";" or a line break only, never ","', () => {
    expect(splitPlaces('Richmond (VIC); 3121')).toEqual(['Richmond (VIC)', '3121']);
    expect(splitPlaces(' Fitzroy ;;\nBurnley; ')).toEqual(['Fitzroy', 'Burnley']);
    expect(splitPlaces('Richmond (VIC), Fitzroy')).toEqual(['Richmond (VIC), Fitzroy']);
    expect(queryFromForm({ geography_level: 'australia', geography: 'anything' }).geography_selections).toEqual(['Australia']);
  });

  it('takes a seed and implicate from a query page\'s "same records" form only when they are plain digits', () => {
    expect(queryFromForm({ seed: '18446744073709551615', implicate: '2' })).toMatchObject({ seed: '18446744073709551615', implicate: 2 });
    for (const seed of ['1e3', '-1', 'abc', '0x10', '123456789012345678901']) expect(queryFromForm({ seed }).seed, seed).toBeUndefined();
    expect(queryFromForm({ implicate: '0' }).implicate).toBeUndefined();
  });

  it("retells the API's sentences with the form's labels", () => {
    expect(inFormWords('n_observations (900) exceeds the persons pool of Fitzroy: 400 records. Ask for at most 400.')).toBe('“Records per place” (900) exceeds the persons pool of Fitzroy: 400 records. Ask for at most 400.');
    expect(inFormWords('This query asks for 2000000 records, more than an xlsx sheet holds (1048575); use output_format "parquet" or "csv".')).toBe(
      'This query asks for 2000000 records, more than an xlsx sheet holds (1048575); choose “parquet” or “csv” under “File format”.',
    );
    expect(inFormWords('The selection "Fitzroy" is listed twice in geography_selections; list each geography once.')).toBe('The place "Fitzroy" is listed twice in “Places”; list each geography once.');
  });
});
