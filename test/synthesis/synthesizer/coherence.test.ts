import { beforeAll, describe, expect, it } from 'vitest';
import type { Population } from '../../../src/synthesis/census/population.ts';
import { categoryIndex } from '../../../src/synthesis/census/variables.ts';
import { assignAttributes } from '../../../src/synthesis/synthesizer/attributes/index.ts';
import { checkCoherence, checkCoherenceRules, COHERENCE_RULES } from '../../../src/synthesis/synthesizer/coherence.ts';
import { createRng } from '../../../src/synthesis/synthesizer/rng.ts';
import { toySuburb } from './attributes/fixture.ts';

let pop: Population;
beforeAll(() => {
  const suburb = toySuburb(400, 33);
  pop = assignAttributes(suburb.structure, suburb.targets, createRng(1), { smallSuburb: false });
});

/** A copy of the population with one column changed at one record. */
function broken(level: 'persons' | 'families' | 'dwellings', code: string, index: number, value: number): Population {
  const column = pop[level].variables[code]!.slice();
  column[index] = value;
  return { ...pop, [level]: { ...pop[level], variables: { ...pop[level].variables, [code]: column } } };
}

const violated = (p: Population) => checkCoherence(p).filter((r) => r.violations > 0).map((r) => r.rule);
const first = (test: (i: number) => boolean, n: number) => Array.from({ length: n }, (_, i) => i).find(test)!;

describe('coherence rules', () => {
  it('a synthesized population passes them all', () => {
    expect(violated(pop)).toEqual([]);
    expect(checkCoherenceRules(pop).violations).toBe(0);
    expect(new Set(COHERENCE_RULES.map((r) => r.name)).size).toBe(COHERENCE_RULES.length);
  });

  it('each rule catches a planted violation', () => {
    const P = pop.persons.count;
    const age = pop.persons.age;
    const lfsp = pop.persons.variables.LFSP!;
    const child = first((i) => age[i]! < 15, P);
    const worker = first((i) => lfsp[i]! <= 3, P);
    const idle = first((i) => lfsp[i] === categoryIndex('LFSP', 'Not in the labour force'), P);
    // Household sums read persons 15+ only, so a child's income breaks the age rule alone.
    expect(violated(broken('persons', 'INCP', child, 3))).toEqual(['incp-for-15-and-over-only']);
    expect(violated(broken('persons', 'OCCP', idle, 0))).toEqual(['occp-for-employed-only']);
    expect(violated(broken('persons', 'HRSP', worker, categoryIndex('HRSP', 'Not applicable')))).toEqual(['hrsp-for-employed-only', 'hours-match-labour-force']);
    const fullTime = first((i) => lfsp[i] === categoryIndex('LFSP', 'Employed, worked full-time'), P);
    expect(violated(broken('persons', 'HRSP', fullTime, categoryIndex('HRSP', '1-15 hours')))).toEqual(['hours-match-labour-force']);
    const adult = first((i) => age[i]! >= 30, P);
    // A 30-year-old at secondary school breaks the school age and (having an HSCP) the G16 universe.
    expect(violated(broken('persons', 'TYPP', adult, categoryIndex('TYPP', 'Secondary')))).toEqual(['hscp-for-15-and-over-not-at-school', 'school-fits-age']);
    expect(violated(broken('persons', 'HSCP', child, categoryIndex('HSCP', 'Year 9 or equivalent')))).toEqual(['hscp-for-15-and-over-not-at-school']);
    const registered = first((i) => pop.persons.variables.MDCP![i] === categoryIndex('MDCP', 'Married in a registered marriage'), P);
    expect(violated(broken('persons', 'MSTP', registered, categoryIndex('MSTP', 'Never married')))).toEqual(['registered-marriage-is-married']);
    const english = first((i) => pop.persons.variables.LANP![i] === categoryIndex('LANP', 'English only'), P);
    expect(violated(broken('persons', 'ENGLP', english, 0))).toEqual(['english-proficiency-for-other-languages']);

    const D = pop.dwellings.count;
    const tend = pop.dwellings.variables.TEND!;
    const owner = first((d) => tend[d] === categoryIndex('TEND', 'Owned outright'), D);
    expect(violated(broken('dwellings', 'RNTRD', owner, 3))).toEqual(['landlord-and-rent-for-renters-only']);
    expect(violated(broken('dwellings', 'MRERD', owner, 3))).toEqual(['mortgage-for-mortgagors-only']);
    const hind = pop.dwellings.variables.HIND![0]!;
    expect(violated(broken('dwellings', 'HIND', 0, hind === 5 ? 6 : 5))).toEqual(['hind-from-members']);
    const lfsf = pop.families.variables.LFSF![0]!;
    expect(violated(broken('families', 'LFSF', 0, lfsf === 0 ? 1 : 0))).toEqual(['lfsf-from-parents']);
  });
});
