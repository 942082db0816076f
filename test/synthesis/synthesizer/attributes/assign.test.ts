import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Population } from '../../../../src/synthesis/census/population.ts';
import type { SuburbTargets } from '../../../../src/synthesis/census/targets.ts';
import { INPUT_TABLES } from '../../../../src/synthesis/census/tables.ts';
import { tabulate } from '../../../../src/synthesis/census/tabulate.ts';
import { VARIABLES } from '../../../../src/synthesis/census/variables.ts';
import { assignAttributes, assignAttributesWithDiagnostics } from '../../../../src/synthesis/synthesizer/attributes/index.ts';
import { checkCoherence } from '../../../../src/synthesis/synthesizer/coherence.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';
import { randomTargets, structureFor, toySuburb } from './fixture.ts';

/** Tables whose cells the attributes step deals (the income tables are reached by swaps, not dealt). */
const DEALT = INPUT_TABLES.map((t) => t.id).filter((id) => id !== 'G32' && id !== 'G33');

let suburb: ReturnType<typeof toySuburb>;
beforeAll(() => {
  suburb = toySuburb(800, 21);
});

function snapshot(pop: Population): string {
  const parts: string[] = [];
  for (const level of ['persons', 'families', 'dwellings'] as const) {
    for (const [code, col] of Object.entries(pop[level].variables)) parts.push(`${level}.${code}:${col.join('')}`);
  }
  return parts.join('|');
}

describe('assignAttributes', () => {
  it('reproduces every dealt table of a known answer exactly', () => {
    const pop = assignAttributes(suburb.structure, suburb.targets, createRng(5), { smallSuburb: false });
    for (const id of DEALT) {
      const table = INPUT_TABLES.find((t) => t.id === id)!;
      expect(Array.from(tabulate(pop, table)), id).toEqual(Array.from(suburb.targets.tables.get(id)!));
    }
  });

  it('fills every catalogue variable with valid categories and passes every coherence rule', () => {
    const pop = assignAttributes(suburb.structure, suburb.targets, createRng(6), { smallSuburb: false });
    for (const v of VARIABLES) {
      const level = pop[v.dataset];
      const col = level.variables[v.code];
      expect(col, v.code).toBeDefined();
      expect(col!.length, v.code).toBe(level.count);
      expect(Math.max(0, ...col!), v.code).toBeLessThan(v.categories.length);
    }
    expect(checkCoherence(pop).filter((r) => r.violations > 0)).toEqual([]);
  });

  it('leaves the structure untouched and keeps its links', () => {
    const before = snapshot(suburb.structure);
    const keys = Object.keys(suburb.structure.persons.variables);
    const pop = assignAttributes(suburb.structure, suburb.targets, createRng(7), { smallSuburb: false });
    expect(snapshot(suburb.structure)).toBe(before);
    expect(Object.keys(suburb.structure.persons.variables)).toEqual(keys);
    expect(pop.persons.dwelling).toBe(suburb.structure.persons.dwelling);
    expect(pop.persons.variables.RLHP).toBe(suburb.structure.persons.variables.RLHP);
  });

  it('income swaps bring household and family incomes closer to their tables', () => {
    const { diagnostics } = assignAttributesWithDiagnostics(suburb.structure, suburb.targets, createRng(8), { smallSuburb: false });
    const swaps = diagnostics.incomeSwaps!;
    expect(swaps.errorAfter).toBeLessThanOrEqual(swaps.errorBefore);
    expect(swaps.accepted).toBeGreaterThan(0);
  });

  it('same seed, same population', () => {
    const a = assignAttributes(suburb.structure, suburb.targets, createRng(9), { smallSuburb: false });
    const b = assignAttributes(suburb.structure, suburb.targets, createRng(9), { smallSuburb: false });
    expect(snapshot(a)).toBe(snapshot(b));
  });

  it('without some tables, draws those variables from their priors and stays coherent', () => {
    const tables = new Map(suburb.targets.tables);
    for (const id of ['G46', 'G17', 'G37', 'G15']) tables.delete(id);
    const { population, diagnostics } = assignAttributesWithDiagnostics(suburb.structure, { salCode: 'X', tables }, createRng(10), {
      smallSuburb: true,
    });
    expect(diagnostics.fromPriorOnly).toEqual(expect.arrayContaining(['LFSP', 'INCP', 'TEND', 'LLDD', 'TYPP']));
    expect(checkCoherence(population).filter((r) => r.violations > 0)).toEqual([]);
  });

  it('copes with empty and one-household suburbs', () => {
    for (const n of [0, 1, 2, 5]) {
      const structure = structureFor(n, 3);
      const pop = assignAttributes(structure, randomTargets(100, 1), createRng(1), { smallSuburb: true });
      expect(Object.keys(pop.persons.variables).sort()).toEqual(VARIABLES.filter((v) => v.dataset === 'persons').map((v) => v.code).sort());
      expect(checkCoherence(pop).filter((r) => r.violations > 0)).toEqual([]);
    }
  });

  it('property: perturbed, non-additive tables (and tiny parents) still give coherent records', () => {
    fc.assert(
      fc.property(fc.integer(), fc.boolean(), (seed, small) => {
        const rng = createRng(seed);
        const noisy = (values: Float64Array) => values.map((v) => (v <= 2 && rng.next() < 0.5 ? 0 : Math.max(0, v + rng.int(7) - 3)));
        const tables = new Map([...suburb.targets.tables].map(([id, v]) => [id, noisy(v)] as const));
        const parent = new Map([...suburb.targets.tables].map(([id, v]) => [id, v.map((x) => x * 10)] as const));
        const targets: SuburbTargets = { salCode: 'X', tables, parent: { lga: parent, state: parent } };
        const pop = assignAttributes(suburb.structure, targets, rng, { smallSuburb: small });
        expect(checkCoherence(pop).filter((r) => r.violations > 0)).toEqual([]);
      }),
      { numRuns: 8 },
    );
  });
});
