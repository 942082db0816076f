import { describe, expect, it } from 'vitest';
import type { Population } from '../../../src/synthesis/census/population.ts';
import { categoryIndex, variableByCode } from '../../../src/synthesis/census/variables.ts';
import { rebuildLift, servedValue } from '../../../src/synthesis/quality/disclosure.ts';
import { createRng } from '../../../src/synthesis/synthesizer/rng.ts';
import { buildDemoGeography } from '../../../src/demo/geography.ts';
import { drawSuburbPopulation } from '../../../src/demo/truth-model.ts';

const persons = (columns: Record<string, number[]>): Population => {
  const count = Object.values(columns)[0]!.length;
  const variables = Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, Uint8Array.from(v)]));
  return {
    persons: { count, age: new Uint8Array(count).fill(30), dwelling: new Int32Array(count), family: new Int32Array(count).fill(-1), variables },
    families: { count: 0, dwelling: new Int32Array(0), variables: {} },
    dwellings: { count: 1, variables: {} },
  } as unknown as Population;
};

describe('rebuild lift: what the other columns give back of a coarsened variable', () => {
  const ft = categoryIndex('LFSP', 'Employed, worked full-time');
  const pt = categoryIndex('LFSP', 'Employed, worked part-time');
  const h40 = categoryIndex('HRSP', '40 hours');
  const h20 = categoryIndex('HRSP', '16-24 hours');
  const age = (label: string) => categoryIndex('AGE5P', label);

  it('is the share of records the columns add to the best guess, counted on records whose coarse category hides several fine ones', () => {
    // Half full-time, half part-time: from "Employed" alone the best guess is right half the time.
    const pop = persons({ LFSP: [ft, ft, pt, pt], HRSP: [h40, h40, h20, h20], AGE5P: [age('30-34 years'), age('30-34 years'), age('30-34 years'), age('30-34 years')] });
    const served = rebuildLift([pop], 'persons', 'LFSP', ['HRSP']);
    expect(served.records).toBe(4);
    expect(served.alone).toBe(0.5);
    // Served coarse, the hours say nothing more.
    expect(served.lift).toBe(0);
    // An uninformative companion (SEXP-like: the same for everyone) adds nothing either.
    expect(rebuildLift([pop], 'persons', 'LFSP', ['AGE5P']).lift).toBe(0);
  });

  it('serves coarsenable companions coarse and the others fine', () => {
    expect(servedValue('HRSP', h40)).toBe(servedValue('HRSP', h20));
    expect(servedValue('SEXP', 1)).toBe(1);
  });

  it('on hidden-truth suburbs: the linked groups give nothing back (LFSP/HRSP, HEAP/HSCP, HIND/HIED with household size)', () => {
    const pops = buildDemoGeography('demo', 5, 40).suburbs.map((s) => drawSuburbPopulation(s, createRng(5).fork(s.index)));
    expect(rebuildLift(pops, 'persons', 'LFSP', ['HRSP']).lift).toBeLessThan(0.005);
    expect(rebuildLift(pops, 'persons', 'HEAP', ['HSCP']).lift).toBeLessThan(0.005);
    expect(rebuildLift(pops, 'dwellings', 'HIND', ['HIED', 'NPRD']).lift).toBeLessThan(0.03);
    // The coarse age groups start at 15, where every 15+ variable draws its own line: what
    // marital status still adds is its correlation with age within ten years (about 3 points),
    // not a boundary given back (10-19-year groups gave 14 from 15 back to every record).
    expect(variableByCode('AGE5P').coarse!.categories[0]).toBe('0-14 years');
    expect(rebuildLift(pops, 'persons', 'AGE5P', ['MSTP']).lift).toBeLessThan(0.05);
    expect(variableByCode('RLHP').coarse).toBeUndefined();
  });

  it("on hidden-truth suburbs: a small suburb's AGEP and AGE5P give each other nothing back (the same coarse groups)", () => {
    const pops = buildDemoGeography('demo', 5, 40).suburbs.map((s) => drawSuburbPopulation(s, createRng(5).fork(s.index)));
    // Served coarse, AGE5P is AGEP's own coarse group: neither a five-year group nor a single year comes back.
    expect(rebuildLift(pops, 'persons', 'AGEP', ['AGE5P']).lift).toBe(0);
    expect(rebuildLift(pops, 'persons', 'AGE5P', ['AGEP']).lift).toBe(0);
    // What the other person columns give back of the single year is no more than they give of the five-year group.
    const others = ['SEXP', 'MSTP', 'LFSP', 'TYPP'];
    expect(rebuildLift(pops, 'persons', 'AGEP', ['AGE5P', ...others]).lift).toBeLessThanOrEqual(rebuildLift(pops, 'persons', 'AGE5P', others).lift + 0.01);
  });
});
