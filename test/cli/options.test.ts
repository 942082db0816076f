import { describe, expect, it } from 'vitest';
import { parseLevels, populationOption } from '../../src/cli/options.ts';

describe('--levels', () => {
  it('takes a comma list of the fitted levels, sa2 among them, in any case and spacing', () => {
    expect(parseLevels('sa2')).toEqual(['sa2']);
    expect(parseLevels('poa, LGA,sa2 ,sal')).toEqual(['poa', 'lga', 'sa2', 'sal']);
  });
  it('refuses anything else, naming what it takes', () => {
    for (const bad of ['', ',', 'sa3', 'suburb', 'poa,sa1']) expect(() => parseLevels(bad)).toThrow('--levels takes a comma list of sal, sa2, poa, lga');
  });
});

describe('--population and --population-year', () => {
  it('a file, with or without a year', () => {
    expect(populationOption({ inputs: 'in', population: 'erp.csv' })).toEqual({ file: 'erp.csv' });
    expect(populationOption({ inputs: 'in', population: 'erp.csv', populationYear: '2023' })).toEqual({ file: 'erp.csv', year: 2023 });
    expect(populationOption({ inputs: 'in' })).toBeUndefined();
  });
  it('refuses a year without a file, a file without census inputs, a year that is not one', () => {
    expect(() => populationOption({ inputs: 'in', populationYear: '2023' })).toThrow('--population-year needs --population FILE');
    expect(() => populationOption({ population: 'erp.csv' })).toThrow('--population needs --inputs');
    for (const bad of ['23', '2023p', 'twenty', '1900']) expect(() => populationOption({ inputs: 'in', population: 'erp.csv', populationYear: bad })).toThrow(`--population-year must be a year such as 2023, got "${bad}"`);
  });
});
