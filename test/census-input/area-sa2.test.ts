/**
 * The SA2 an area's records are placed in (the hierarchical geography's sa2_code and sa2_name),
 * from the ABS correspondences the repository ships (reference/sal-links-2021.csv) and the 2021
 * SA2 names (reference/sa2-2021.csv): real ABS figures, so the expectations are real places.
 */
import { describe, expect, it } from 'vitest';
import { mainSa2Of } from '../../src/census-input/area-sa2.ts';
import { realParentLinks } from '../../src/census-input/sal-links-reference.ts';
import type { SuburbGeography } from '../../src/synthesis/census/inputs.ts';

const area = (fields: Pick<SuburbGeography, 'level' | 'salCode'> & Partial<SuburbGeography>): SuburbGeography => ({
  absName: '',
  name: '',
  suburbId: '',
  state: 'TAS',
  postcodes: [],
  lgas: [],
  postcode: '',
  lgaCode: '',
  lgaName: '',
  gccsa: '',
  remoteness: undefined,
  areaSqkm: 1,
  ...fields,
});

describe('the SA2 of an area', () => {
  it('an SA2 is its own, named as the ABS names it', () => {
    expect(mainSa2Of(area({ level: 'sa2', salCode: '601021004' }))).toEqual({ code: '601021004', name: 'Bellerive - Rosny' });
  });

  it('a suburb: the SA2 holding most of its people, from the links it was built with, else the shipped ones', () => {
    // Built through the 2016 correspondences, the suburb carries its SA2 shares: the largest wins.
    const linked = area({ level: 'sal', salCode: 'SAL60001', sa2s: [{ code: '601051033', ratio: 0.3 }, { code: '601051027', ratio: 0.7 }] });
    expect(mainSa2Of(linked)).toEqual({ code: '601051027', name: 'Hobart' });
    // Built from the ASGS files (the demo's suburbs too), it has none: the shipped links give it.
    expect(mainSa2Of(area({ level: 'sal', salCode: 'SAL20394' }))).toEqual({ code: '205051101', name: 'Maffra' });
    // Richmond (Vic.)'s 2016 SA2 was split in 2021: no 2021 SA2 of that code, so none rather than a guess.
    expect(mainSa2Of(area({ level: 'sal', salCode: 'SAL22170' }))).toBeUndefined();
  });

  it('a postal area or an LGA: the SA2 holding most of its people by its suburbs\' links, as its LGA and GCCSA are found', () => {
    const hobart = realParentLinks('postcodes').get('7000')!;
    // 7000's people: 42% in the Hobart SA2, 41% in the next; the largest is the postal area's.
    expect(hobart.sa2s[0]!.ratio).toBeGreaterThan(hobart.sa2s[1]!.ratio);
    expect(mainSa2Of(area({ level: 'poa', salCode: 'POA7000', postcode: '7000' }))).toEqual({ code: hobart.sa2s[0]!.code, name: 'Hobart' });
    expect(mainSa2Of(area({ level: 'poa', salCode: 'POA0800', postcode: '0800', state: 'NT' }))).toEqual({ code: '701011002', name: 'Darwin City' });
    expect(mainSa2Of(area({ level: 'lga', salCode: 'LGA62810', lgaCode: 'LGA62810' }))).toEqual({ code: '601051031', name: 'Sandy Bay' });
    // 7139 (Strathgordon): no linked suburb lies in it, so it has no SA2, as it has no LGA.
    expect(mainSa2Of(area({ level: 'poa', salCode: 'POA7139', postcode: '7139' }))).toBeUndefined();
  });
});
