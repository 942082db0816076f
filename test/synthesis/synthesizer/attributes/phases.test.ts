/**
 * The attribute phases one at a time, on a toy suburb whose targets are the exact tabulations of
 * a population built on the same structure (a known answer): each phase writes its own variables
 * only, fits their tables exactly, and the swaps that follow keep them so.
 */
import { describe, expect, it } from 'vitest';
import { INPUT_TABLES } from '../../../../src/synthesis/census/tables.ts';
import { tabulate } from '../../../../src/synthesis/census/tabulate.ts';
import type { Population } from '../../../../src/synthesis/census/population.ts';
import { categoryIndex } from '../../../../src/synthesis/census/variables.ts';
import { createAttributeContext, newLevel } from '../../../../src/synthesis/synthesizer/attributes/context.ts';
import {
  assignOrigin,
  assignPersonalIncome,
  assignSchooling,
  assignWork,
  byPrior,
  employedOf,
  heapFromSchool,
  matchPartners,
  personBasics,
  type PersonLevel,
} from '../../../../src/synthesis/synthesizer/attributes/persons.ts';
import { matrixPrior } from '../../../../src/synthesis/census/controls/priors.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';
import { toySuburb } from './fixture.ts';

const { structure, truth, targets } = toySuburb(1200, 40);
const table = (id: string) => INPUT_TABLES.find((t) => t.id === id)!;
/** The table as the persons written so far tabulate it, against its target. */
function offBy(persons: PersonLevel, id: string): number {
  const pop: Population = { ...truth, persons: { ...truth.persons, variables: { ...truth.persons.variables, ...persons.columns } } };
  const mine = tabulate(pop, table(id));
  const want = targets.tables.get(id)!;
  return mine.reduce((sum, v, i) => sum + Math.abs(v - want[i]!), 0);
}

function start() {
  const ctx = createAttributeContext(targets, createRng(7), { smallSuburb: false });
  const persons = newLevel(structure.persons.count, structure.persons.variables, structure.persons.age) as PersonLevel;
  return { ctx, persons, basics: personBasics(persons, ctx.rng) };
}

describe('attribute phases', () => {
  it('work writes LFSP, HRSP, OCCP, INDP, MTWP and fits G46 (age × sex), G60, G54 exactly', () => {
    const { ctx, persons, basics } = start();
    const before = new Set(Object.keys(persons.columns));
    const { employed } = assignWork(ctx, persons, basics);
    expect(Object.keys(persons.columns).filter((c) => !before.has(c)).sort()).toEqual(['HRSP', 'INDP', 'LFSP', 'MTWP', 'OCCP']);
    for (const id of ['G46', 'G60', 'G54']) expect(offBy(persons, id), id).toBe(0);
    expect(employed.reduce((a, b) => a + b, 0)).toBe(persons.columns.OCCP!.filter((v) => v !== categoryIndex('OCCP', 'Not applicable')).length);
  });

  it('schooling, income and the partners\' swaps keep G15, G16, G49 (by age × sex) and G17 exact', () => {
    const { ctx, persons, basics } = start();
    const { employed } = assignWork(ctx, persons, basics);
    assignSchooling(ctx, persons, basics);
    assignPersonalIncome(ctx, persons, basics, employed);
    const report = matchPartners(ctx, persons, structure.persons.family, employed);
    expect(report.distanceAfter).toBeLessThanOrEqual(report.distanceBefore);
    for (const id of ['G46', 'G60', 'G54', 'G15', 'G16', 'G49', 'G17']) expect(offBy(persons, id), id).toBe(0);
    // employed was brought up to date with the swapped labour force statuses.
    expect([...employed]).toEqual([...employedOf(persons.columns.LFSP!)]);
  });

  it('origin fits G01 and G14 exactly even after the families\' swaps, and brings families nearer their resemblance targets', () => {
    const { ctx, persons, basics } = start();
    const report = assignOrigin(ctx, persons, basics, structure.persons.family);
    expect(report.links).toBeGreaterThan(0);
    expect(report.distanceAfter).toBeLessThan(report.distanceBefore);
    for (const id of ['G01', 'G14', 'G05']) expect(offBy(persons, id), id).toBe(0);
  });

  it('byPrior draws within a cell\'s choice by the class\'s weights; heapFromSchool follows the year completed', () => {
    const prior = matrixPrior(Uint8Array.of(0, 1), [[0, 1, 3], [5, 0, 0]]);
    const pick = byPrior(prior, createRng(3));
    const counts = [0, 0, 0];
    for (let k = 0; k < 4000; k++) counts[pick(0, [0, 1, 2])]!++;
    expect(counts[0]).toBe(0);
    expect(counts[2]! / counts[1]!).toBeGreaterThan(2.5);
    expect(pick(1, [0, 2])).toBe(0);
    const hscp = Uint8Array.of(categoryIndex('HSCP', 'Year 12 or equivalent'), categoryIndex('HSCP', 'Year 8 or below'));
    const resolve = heapFromSchool(hscp);
    const school = [categoryIndex('HEAP', 'Secondary Education - Years 10 and above'), categoryIndex('HEAP', 'Secondary Education - Years 9 and below')];
    expect(resolve(0, school)).toBe(school[0]);
    expect(resolve(1, school)).toBe(school[1]);
  });
});
