import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { shareLandlords } from '../../../../src/synthesis/synthesizer/attributes/landlords.ts';
import { newLevel } from '../../../../src/synthesis/synthesizer/attributes/context.ts';
import { tableById } from '../../../../src/synthesis/census/tables.ts';
import { tabulate } from '../../../../src/synthesis/census/tabulate.ts';
import type { Population } from '../../../../src/synthesis/census/population.ts';
import { categoryIndex } from '../../../../src/synthesis/census/variables.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';

const AGENT = categoryIndex('LLDD', 'Real estate agent');
const PRIVATE_PERSON = categoryIndex('LLDD', 'Person not in same household');
const LANDLORD_NA = categoryIndex('LLDD', 'Not applicable');
const RENTED = categoryIndex('TEND', 'Rented');
const OWNED = categoryIndex('TEND', 'Owned outright');
const OCCUPIED = categoryIndex('DWTD', 'Occupied private dwelling');
const HOUSE = categoryIndex('STRD', 'Separate house');
const G40 = tableById('G40');
const G37 = tableById('G37');
/** A structure of G37's flats column. */
const FLAT = G37.cells.find((c) => c.header === 'R_RE_Agt_DS_Flat_apart')!.where['STRD']![0]!;

/** G40 counting `byLandlord[l]` renters of landlord l, spread over its rent cells. */
function g40Of(byLandlord: Record<number, number>): Float64Array {
  const g40 = new Float64Array(G40.cells.length);
  for (const [landlord, n] of Object.entries(byLandlord)) {
    const cells = G40.cells.flatMap((c, i) => (c.where['LLDD']?.length === 1 && c.where['LLDD'][0] === Number(landlord) ? [i] : []));
    cells.forEach((i, j) => (g40[i] = Math.floor(n / cells.length) + (j < n % cells.length ? 1 : 0)));
  }
  return g40;
}

/** G37 with the given renters cells by header, every other cell 0. */
function g37Of(byHeader: Record<string, number>): Float64Array {
  return Float64Array.from(G37.cells, (c) => byHeader[c.header] ?? 0);
}

/** Renters (landlord, structure) then `owners` owners of separate houses. */
function dwellingsOf(renters: readonly (readonly [number, number])[], owners: number) {
  const n = renters.length + owners;
  const level = newLevel(n, {
    DWTD: new Uint8Array(n).fill(OCCUPIED),
    STRD: Uint8Array.from({ length: n }, (_, d) => (d < renters.length ? renters[d]![1] : HOUSE)),
    TEND: Uint8Array.from({ length: n }, (_, d) => (d < renters.length ? RENTED : OWNED)),
    LLDD: Uint8Array.from({ length: n }, (_, d) => (d < renters.length ? renters[d]![0] : LANDLORD_NA)),
  });
  const renter = Uint8Array.from({ length: n }, (_, d) => (d < renters.length ? 1 : 0));
  return { level, renter };
}

const houses = (landlord: number, n: number) => Array.from({ length: n }, () => [landlord, HOUSE] as const);

/** The dwellings as a population with no persons, to tabulate G37 and G40's landlord totals. */
function asPopulation(columns: Record<string, Uint8Array>, n: number): Population {
  return {
    persons: { count: 0, age: new Uint8Array(0), dwelling: new Int32Array(0), family: new Int32Array(0), variables: {} },
    families: { count: 0, dwelling: new Int32Array(0), variables: {} },
    dwellings: { count: n, variables: { ...columns, RNTRD: new Uint8Array(n) } },
  } as unknown as Population;
}

const squaredError = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((e, x, i) => e + (x - b[i]!) ** 2, 0);

describe('landlords fitted to G37 and G40 together', () => {
  it("moves renters toward G40's count of each landlord as far as G37 has room, keeping the renters and the owners", () => {
    // G37 dealt 60 agents' and 40 private landlords' houses where it publishes 70 and 30; G40 counts 80 and 20.
    const { level, renter } = dwellingsOf([...houses(AGENT, 60), ...houses(PRIVATE_PERSON, 40)], 10);
    const tables = new Map([
      ['G40', g40Of({ [AGENT]: 80, [PRIVATE_PERSON]: 20 })],
      ['G37', g37Of({ R_RE_Agt_DS_Sep_house: 70, R_Psn_not_in_s_hh_DS_Sep_hous: 30 })],
    ]);
    const shift = shareLandlords({ salCode: 'x', tables }, level, renter, false, createRng(1));
    const lldd = level.columns.LLDD!;
    // Ten move: G37's cells are then met exactly; ten more would help G40 but cost G37 more.
    expect(shift.moved).toBe(10);
    expect(lldd.filter((k) => k === AGENT)).toHaveLength(70);
    expect(lldd.filter((k) => k === PRIVATE_PERSON)).toHaveLength(30);
    expect(Array.from(lldd.slice(100))).toEqual(Array(10).fill(LANDLORD_NA));
  });

  it('changes nothing where G37 has no room, in a small area, or without G40', () => {
    const cases = [
      { small: false, withG40: true, g37: { R_RE_Agt_DS_Sep_house: 50 } },
      { small: true, withG40: true, g37: { R_Psn_not_in_s_hh_DS_Sep_hous: 50 } },
      { small: false, withG40: false, g37: { R_Psn_not_in_s_hh_DS_Sep_hous: 50 } },
    ];
    for (const { small, withG40, g37 } of cases) {
      const { level, renter } = dwellingsOf(houses(AGENT, 50), 0);
      const tables = new Map([['G37', g37Of(g37)]]);
      if (withG40) tables.set('G40', g40Of({ [PRIVATE_PERSON]: 50 }));
      expect(shareLandlords({ salCode: 'x', tables }, level, renter, small, createRng(1)).moved).toBe(0);
      expect(level.columns.LLDD!.every((k) => k === AGENT)).toBe(true);
    }
  });

  it("property: G37's squared error never grows, each landlord comes no further from G40's count, and the renters stay renters", () => {
    const count = fc.integer({ min: 0, max: 40 });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(AGENT, PRIVATE_PERSON), fc.constantFrom(HOUSE, FLAT)), { maxLength: 80 }), count, count, count, count, count, count, fc.integer(), (renters, a40, p40, ah, af, ph, pf, seed) => {
        const { level, renter } = dwellingsOf(renters, 2);
        const n = renters.length + 2;
        const tables = new Map([
          ['G40', g40Of({ [AGENT]: a40, [PRIVATE_PERSON]: p40 })],
          ['G37', g37Of({ R_RE_Agt_DS_Sep_house: ah, R_RE_Agt_DS_Flat_apart: af, R_Psn_not_in_s_hh_DS_Sep_hous: ph, R_P_not_in_s_hh_DS_Flat_apart: pf })],
        ]);
        const before = tabulate(asPopulation({ ...level.columns, LLDD: level.columns.LLDD!.slice() }, n), G37);
        const agentsBefore = level.columns.LLDD!.filter((k) => k === AGENT).length;
        shareLandlords({ salCode: 'x', tables }, level, renter, false, createRng(seed));
        const after = tabulate(asPopulation(level.columns, n), G37);
        expect(squaredError(after, tables.get('G37')!)).toBeLessThanOrEqual(squaredError(before, tables.get('G37')!));
        const agents = level.columns.LLDD!.filter((k) => k === AGENT).length;
        const privates = level.columns.LLDD!.filter((k) => k === PRIVATE_PERSON).length;
        expect(agents + privates).toBe(renters.length);
        expect(Math.abs(agents - a40)).toBeLessThanOrEqual(Math.abs(agentsBefore - a40));
        expect(Math.abs(privates - p40)).toBeLessThanOrEqual(Math.abs(renters.length - agentsBefore - p40));
      }),
      { numRuns: 150 },
    );
  });
});
