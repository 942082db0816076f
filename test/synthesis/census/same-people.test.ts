import { describe, expect, it } from 'vitest';
import { findSamePeople, SAME_PEOPLE_MIN_AREAS } from '../../../src/synthesis/census/same-people.ts';
import type { TableSpec } from '../../../src/synthesis/census/table-spec.ts';

const table = (id: string, cells: number, others: number): TableSpec => ({
  id,
  files: [id],
  universe: 'persons',
  population: { label: 'Persons', where: {} },
  description: id,
  cells: Array.from({ length: cells }, (_, i) => ({ header: `${id}_c${i}`, where: {} })),
  otherHeaders: Array.from({ length: others }, (_, i) => `${id}_o${i}`),
  otherCells: Array.from({ length: others }, (_, i) => ({ header: `${id}_o${i}`, where: {} })),
});

describe('findSamePeople', () => {
  const areas = Array.from({ length: SAME_PEOPLE_MIN_AREAS + 5 }, (_, i) => `A${i}`);
  const byArea = (f: (area: number) => number[]) => new Map(areas.map((a, i) => [a, Float64Array.from(f(i))]));
  const specs = [table('T1', 2, 1), table('T2', 3, 1)];

  it('finds figures of two tables published as the same number in every area', () => {
    // T1's subtotal and T2's first cell are the same people; T1's cell 0 and T2's cell 1 agree
    // everywhere but one area: different people.
    const tables = new Map([
      ['T1', byArea((a) => [a + 1, a * 2])],
      ['T2', byArea((a) => [a * 3 + 1, a === 7 ? 99 : a + 1, 4])],
    ]);
    const aggregates = new Map([
      ['T1', byArea((a) => [a * 3 + 1])],
      ['T2', byArea((a) => [a * 9])],
    ]);
    expect(findSamePeople(specs, tables, aggregates, areas)).toEqual([[{ tableId: 'T1', figure: 2 }, { tableId: 'T2', figure: 0 }]]);
  });

  it('does not take a coincidence among mostly empty figures for the same people', () => {
    const sparse = (a: number) => (a < SAME_PEOPLE_MIN_AREAS - 1 ? 3 : 0);
    const tables = new Map([
      ['T1', byArea((a) => [sparse(a), 1])],
      ['T2', byArea((a) => [sparse(a), 2, 5])],
    ]);
    expect(findSamePeople(specs, tables, new Map(), areas)).toEqual([]);
  });
});
