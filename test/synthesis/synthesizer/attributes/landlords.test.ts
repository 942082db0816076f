import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { controlOf } from '../../../../src/synthesis/census/controls/controls.ts';
import { shareLandlords } from '../../../../src/synthesis/synthesizer/attributes/landlords.ts';
import { newLevel } from '../../../../src/synthesis/synthesizer/attributes/context.ts';
import { tableById } from '../../../../src/synthesis/census/tables.ts';
import { tabulate } from '../../../../src/synthesis/census/tabulate.ts';
import type { Population } from '../../../../src/synthesis/census/population.ts';
import { categoryIndex } from '../../../../src/synthesis/census/variables.ts';
import { createRng } from '../../../../src/synthesis/synthesizer/rng.ts';

const LANDLORDS = controlOf('dwellings', 'LLDD');

const AGENT = categoryIndex('LLDD', 'Real estate agent');
const PRIVATE_PERSON = categoryIndex('LLDD', 'Person not in same household');
const LANDLORD_NA = categoryIndex('LLDD', 'Not applicable');
const RENTED = categoryIndex('TEND', 'Rented');
const OWNED = categoryIndex('TEND', 'Owned outright');
const MORTGAGE = categoryIndex('TEND', 'Owned with a mortgage');
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

/** Renters (landlord, structure) then `owners` owners outright of dwellings of `ownerStructure`. */
function dwellingsOf(renters: readonly (readonly [number, number])[], owners: number, ownerStructure = HOUSE) {
  const n = renters.length + owners;
  const level = newLevel(n, {
    DWTD: new Uint8Array(n).fill(OCCUPIED),
    STRD: Uint8Array.from({ length: n }, (_, d) => (d < renters.length ? renters[d]![1] : ownerStructure)),
    TEND: Uint8Array.from({ length: n }, (_, d) => (d < renters.length ? RENTED : OWNED)),
    LLDD: Uint8Array.from({ length: n }, (_, d) => (d < renters.length ? renters[d]![0] : LANDLORD_NA)),
  });
  // Every dwelling here is an occupied private one.
  return { level, renter: new Uint8Array(n).fill(1) };
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
    // G37 dealt 60 agents' and 40 private landlords' houses where it publishes 70 and 30, and 10
    // flats owned outright as it publishes; G40 counts 80 and 20.
    const { level, renter } = dwellingsOf([...houses(AGENT, 60), ...houses(PRIVATE_PERSON, 40)], 10, FLAT);
    const tables = new Map([
      ['G40', g40Of({ [AGENT]: 80, [PRIVATE_PERSON]: 20 })],
      ['G37', g37Of({ R_RE_Agt_DS_Sep_house: 70, R_Psn_not_in_s_hh_DS_Sep_hous: 30, O_OR_DS_Flat_apart: 10 })],
    ]);
    const shift = shareLandlords({ salCode: 'x', tables }, LANDLORDS, level, renter, false, createRng(1));
    const lldd = level.columns.LLDD!;
    // Ten move: G37's cells are then met exactly; ten more would help G40 but cost G37 more.
    expect(shift.moved).toBe(10);
    expect(lldd.filter((k) => k === AGENT)).toHaveLength(70);
    expect(lldd.filter((k) => k === PRIVATE_PERSON)).toHaveLength(30);
    expect(Array.from(lldd.slice(100))).toEqual(Array(10).fill(LANDLORD_NA));
    expect(level.columns.TEND!.filter((t) => t === RENTED)).toHaveLength(100);
  });

  it('lets a dwelling owned outright become rented where G40 counts more renters and G37 has room for it', () => {
    // G37 dealt 40 agents' houses and 20 owned outright where it publishes 45 and 15; G40 counts 50 agents' renters.
    const { level, renter } = dwellingsOf(houses(AGENT, 40), 20);
    const tables = new Map([
      ['G40', g40Of({ [AGENT]: 50 })],
      ['G37', g37Of({ R_RE_Agt_DS_Sep_house: 45, O_OR_DS_Sep_house: 15 })],
    ]);
    expect(shareLandlords({ salCode: 'x', tables }, LANDLORDS, level, renter, false, createRng(3)).moved).toBe(5);
    expect(level.columns.TEND!.filter((t) => t === RENTED)).toHaveLength(45);
    expect(level.columns.LLDD!.filter((k) => k === AGENT)).toHaveLength(45);
    expect(level.columns.TEND!.filter((t) => t === OWNED)).toHaveLength(15);
  });

  it('changes nothing where G37 has no room, in a small area, or without G40', () => {
    const cases: { small: boolean; withG40: boolean; g37: Record<string, number> }[] = [
      { small: false, withG40: true, g37: { R_RE_Agt_DS_Sep_house: 50 } },
      { small: true, withG40: true, g37: { R_Psn_not_in_s_hh_DS_Sep_hous: 50 } },
      { small: false, withG40: false, g37: { R_Psn_not_in_s_hh_DS_Sep_hous: 50 } },
    ];
    for (const { small, withG40, g37 } of cases) {
      const { level, renter } = dwellingsOf(houses(AGENT, 50), 0);
      const tables = new Map([['G37', g37Of(g37)]]);
      if (withG40) tables.set('G40', g40Of({ [PRIVATE_PERSON]: 50 }));
      expect(shareLandlords({ salCode: 'x', tables }, LANDLORDS, level, renter, small, createRng(1)).moved).toBe(0);
      expect(level.columns.LLDD!.every((k) => k === AGENT)).toBe(true);
    }
  });

  it("property: G37's squared error never grows, each landlord comes no further from G40's count, owners and renters trade only through spare tenures", () => {
    const count = fc.integer({ min: 0, max: 40 });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(AGENT, PRIVATE_PERSON), fc.constantFrom(HOUSE, FLAT)), { maxLength: 80 }), count, count, count, count, count, count, count, fc.integer(), (renters, a40, p40, ah, af, ph, pf, oh, seed) => {
        const { level, renter } = dwellingsOf(renters, 2);
        const n = renters.length + 2;
        const tables = new Map([
          ['G40', g40Of({ [AGENT]: a40, [PRIVATE_PERSON]: p40 })],
          ['G37', g37Of({ R_RE_Agt_DS_Sep_house: ah, R_RE_Agt_DS_Flat_apart: af, R_Psn_not_in_s_hh_DS_Sep_hous: ph, R_P_not_in_s_hh_DS_Flat_apart: pf, O_OR_DS_Sep_house: oh })],
        ]);
        const before = tabulate(asPopulation({ ...level.columns, LLDD: level.columns.LLDD!.slice() }, n), G37);
        const agentsBefore = level.columns.LLDD!.filter((k) => k === AGENT).length;
        shareLandlords({ salCode: 'x', tables }, LANDLORDS, level, renter, false, createRng(seed));
        const after = tabulate(asPopulation(level.columns, n), G37);
        expect(squaredError(after, tables.get('G37')!)).toBeLessThanOrEqual(squaredError(before, tables.get('G37')!));
        const agents = level.columns.LLDD!.filter((k) => k === AGENT).length;
        const privates = level.columns.LLDD!.filter((k) => k === PRIVATE_PERSON).length;
        const tend = level.columns.TEND!;
        // Renters and owners together are the dwellings; landlords only for renters.
        expect(tend.filter((t) => t === RENTED)).toHaveLength(agents + privates);
        // The others hold tenures no other table counts (owned outright, other, not stated), never a mortgage.
        expect(tend.filter((t) => t === MORTGAGE)).toHaveLength(0);
        expect(Array.from(level.columns.LLDD!).every((k, d) => (tend[d] === RENTED) === (k !== LANDLORD_NA))).toBe(true);
        expect(Math.abs(agents - a40)).toBeLessThanOrEqual(Math.abs(agentsBefore - a40));
        expect(Math.abs(privates - p40)).toBeLessThanOrEqual(Math.abs(renters.length - agentsBefore - p40));
      }),
      { numRuns: 150 },
    );
  });
});
