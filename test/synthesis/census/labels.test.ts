import { describe, expect, it } from 'vitest';
import { band, bandingOf, notApplicableIndex, ordinalRanks, parseDollarBand, representativeDollars } from '../../../src/synthesis/census/labels.ts';
import { variableByCode } from '../../../src/synthesis/census/variables.ts';

describe('labels', () => {
  it('parses the ABS band labels', () => {
    expect(parseDollarBand('$1-$149')).toEqual({ lo: 1, hi: 149 });
    expect(parseDollarBand('$1,000-$1,249')).toEqual({ lo: 1000, hi: 1249 });
    expect(parseDollarBand('$3,500 or more')).toEqual({ lo: 3500, hi: Infinity });
    expect(parseDollarBand('$950 and over')).toEqual({ lo: 950, hi: Infinity });
    expect(parseDollarBand('Negative/Nil income')).toEqual({ lo: -Infinity, hi: 0 });
    expect(parseDollarBand('Partial income stated')).toBeUndefined();
    expect(parseDollarBand('Not stated')).toBeUndefined();
  });

  it('bands every representative amount back into its own category', () => {
    for (const code of ['INCP', 'HIND', 'FINF', 'RNTRD', 'MRERD', 'HIED']) {
      const labels = variableByCode(code).categories;
      const dollars = representativeDollars(labels);
      const banding = bandingOf(labels);
      labels.forEach((_, k) => {
        if (!Number.isNaN(dollars[k]!)) expect(band(banding, dollars[k]!)).toBe(k);
      });
    }
    const hind = bandingOf(variableByCode('HIND').categories);
    expect(band(hind, 0)).toBe(0);
    expect(band(hind, 149.4)).toBe(1);
    expect(band(hind, 150)).toBe(2);
    expect(band(hind, 99_999)).toBe(16);
  });

  it('ranks ordinal categories and leaves the uninformative unranked', () => {
    const hscp = ordinalRanks(variableByCode('HSCP').categories);
    expect(Array.from(hscp.slice(0, 6))).toEqual([0, 8, 9, 10, 11, 12]);
    expect(Number.isNaN(hscp[6]!)).toBe(true);
    const bedrooms = ordinalRanks(variableByCode('BEDRD').categories);
    expect(Array.from(bedrooms.slice(0, 7))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const vehicles = ordinalRanks(variableByCode('VEHRD').categories);
    expect(Array.from(vehicles.slice(0, 5))).toEqual([0, 1, 2, 3, 4]);
    const heap = ordinalRanks(variableByCode('HEAP').categories);
    // Low to high in the catalogue, as the ranks: every level outranks the one before it.
    for (let k = 1; k < 8; k++) expect(heap[k]!, variableByCode('HEAP').categories[k]).toBeGreaterThan(heap[k - 1]!);
    expect(notApplicableIndex(variableByCode('LFSP').categories)).toBe(8);
  });
});
