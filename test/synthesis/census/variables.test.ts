import { describe, expect, it } from 'vitest';
import { INPUT_TABLES } from '../../../src/synthesis/census/tables.ts';
import { VARIABLES, age5pOfAge, agepOfAge, columnLabels, variableByCode, variablesOf } from '../../../src/synthesis/census/variables.ts';

describe('variables catalogue', () => {
  it('has at least 24 person, 10 family and 14 dwelling variables with unique codes', () => {
    expect(variablesOf('persons').length).toBeGreaterThanOrEqual(24);
    expect(variablesOf('families').length).toBeGreaterThanOrEqual(10);
    expect(variablesOf('dwellings').length).toBeGreaterThanOrEqual(14);
    expect(new Set(VARIABLES.map((v) => v.code)).size).toBe(VARIABLES.length);
  });

  it('keeps category indices within a Uint8Array and labels unique per variable', () => {
    for (const v of VARIABLES) {
      expect(v.categories.length).toBeGreaterThan(1);
      expect(columnLabels(v).length).toBeLessThan(256);
      expect(new Set(v.categories).size).toBe(v.categories.length);
    }
  });

  it('puts "Not stated" and "Not applicable" last, in that order', () => {
    for (const v of VARIABLES) {
      const special = v.categories.map((c, i) => [c, i] as const).filter(([c]) => c === 'Not stated' || c === 'Not applicable');
      const n = v.categories.length;
      special.forEach(([, i], k) => expect(i).toBe(n - special.length + k));
      if (special.length === 2) expect(special[0]![0]).toBe('Not stated');
    }
  });

  it('maps every fine category to a coarse one, and coarse categories are fewer and all used', () => {
    const coarse = VARIABLES.filter((v) => v.coarse);
    for (const code of ['AGE5P', 'INCP', 'FINF', 'HIND', 'RNTRD', 'MRERD', 'INDP', 'OCCP', 'BPLP', 'LANP', 'RELP']) {
      expect(coarse.map((v) => v.code)).toContain(code);
    }
    for (const v of coarse) {
      const { categories, fromFine } = v.coarse!;
      expect(fromFine.length).toBe(v.categories.length);
      expect(categories.length).toBeLessThan(v.categories.length);
      expect(new Set(fromFine)).toEqual(new Set(categories.map((_, i) => i)));
    }
  });

  it("AGEP's categories are G04's age cells: single years 0-79, five-year groups to 99, 100 and over", () => {
    const agep = variableByCode('AGEP');
    const g04 = INPUT_TABLES.find((t) => t.id === 'G04')!;
    const boxes = [...new Map(g04.cells.filter((c) => c.age).map((c) => [`${c.age![0]}-${c.age![1]}`, c.age!])).values()];
    expect(agep.categories).toHaveLength(boxes.length);
    boxes.forEach(([lo, hi], i) => {
      // A label's first three digits are its lowest age, and every age of the cell falls in it.
      expect(Number(agep.categories[i]!.slice(0, 3))).toBe(lo);
      for (let age = lo; age <= hi; age++) expect(agepOfAge(age)).toBe(i);
    });
    expect(agep.categories.slice(0, 2)).toEqual(['000 years', '001 years']);
    expect(agep.categories.slice(79)).toEqual(['079 years', '080-084 years', '085-089 years', '090-094 years', '095-099 years', '100 years and over']);
    expect(agep.measurement).toBe('ordinal');
  });

  it('AGEP labels sort as text in age order, fine and coarse (a reader that drops the order still sorts right)', () => {
    const agep = variableByCode('AGEP');
    for (const labels of [agep.categories, agep.coarse!.categories]) expect([...labels].sort()).toEqual(labels);
  });

  it('AGEP and AGE5P agree for every single-year age: the same group, fine and coarse', () => {
    const [agep, age5p] = [variableByCode('AGEP'), variableByCode('AGE5P')];
    const lowest = (label: string) => Number(/^\d+/.exec(label)![0]);
    for (let age = 0; age <= 115; age++) {
      const fine = agepOfAge(age);
      const group = age5pOfAge(age);
      // The AGEP category's lowest age lies in the person's AGE5P group, and its own range inside it.
      expect(age5pOfAge(lowest(agep.categories[fine]!))).toBe(group);
      // A small suburb's coarse AGEP is its coarse AGE5P, label for label (bar the padding).
      const coarseAgep = agep.coarse!.categories[agep.coarse!.fromFine[fine]!]!;
      const coarseAge5p = age5p.coarse!.categories[age5p.coarse!.fromFine[group]!]!;
      expect(coarseAgep.replace(/\b0+(\d)/g, '$1')).toBe(coarseAge5p);
    }
  });

  it('AGE5P coarsens to the census\'s ten-year groups from 15 (0-14, 15-24, …, 85 and over)', () => {
    const age = variableByCode('AGE5P');
    expect(age.categories[0]).toBe('0-4 years');
    expect(age.categories.at(-1)).toBe('100 years and over');
    const coarseOf = (fine: string) => age.coarse!.categories[age.coarse!.fromFine[age.categories.indexOf(fine)]!];
    expect(coarseOf('10-14 years')).toBe('0-14 years');
    expect(coarseOf('15-19 years')).toBe('15-24 years');
    expect(coarseOf('80-84 years')).toBe('75-84 years');
    expect(coarseOf('100 years and over')).toBe('85 years and over');
    expect(age.coarse!.categories).toHaveLength(9);
  });

  it('columnLabels lists fine labels then the coarse ones not already present', () => {
    const v = variableByCode('INCP');
    const labels = columnLabels(v);
    expect(labels.slice(0, v.categories.length)).toEqual(v.categories);
    expect(labels).toContain('$1-$299');
    expect(labels.filter((l) => l === 'Not stated')).toHaveLength(1);
  });

  it('throws on an unknown code (a programming error)', () => {
    expect(() => variableByCode('NOPE')).toThrow(/unknown variable/);
  });
});
