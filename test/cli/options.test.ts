import { describe, expect, it } from 'vitest';
import { parseLevels } from '../../src/cli/options.ts';

describe('--levels', () => {
  it('takes a comma list of the fitted levels, sa2 among them, in any case and spacing', () => {
    expect(parseLevels('sa2')).toEqual(['sa2']);
    expect(parseLevels('poa, LGA,sa2 ,sal')).toEqual(['poa', 'lga', 'sa2', 'sal']);
  });
  it('refuses anything else, naming what it takes', () => {
    for (const bad of ['', ',', 'sa3', 'suburb', 'poa,sa1']) expect(() => parseLevels(bad)).toThrow('--levels takes a comma list of sal, sa2, poa, lga');
  });
});
