import { describe, expect, it } from 'vitest';
import { prepareLevel, withBorrowing } from '../../../src/synthesis/pipeline/level.ts';
import { demoInputs } from './fixture.ts';
import { cells, handMadeInputs } from './hand-made.ts';

const N = Number.NaN;

describe('prepareLevel: the parents a level borrows from', () => {
  const level = prepareLevel(handMadeInputs());

  it("sums a suburb level's LGAs from its areas, unpublished wherever one of them is", () => {
    expect(level.published.lga.get('L1')!.get('T1')).toEqual(cells(3, N, 9));
    expect(level.published.lga.get('L2')!.get('T1')).toEqual(cells(5, 5, N));
  });

  it('takes a state as published where the inputs have it, else sums its areas', () => {
    expect(level.published.state.get('VIC')!.get('T1')).toEqual(cells(10, 10, N));
    expect(level.published.state.get('NSW')!.get('T1')).toEqual(cells(3, N, 9));
    expect(level.published.australia!.get('T1')).toEqual(cells(100, 100, 50));
  });

  it("resolves each parent's unpublished cells from the next parent up that publishes them", () => {
    // NSW's second cell from Australia's share: 100 of the 150 both publish, times NSW's 12.
    expect(level.stateTables.get('NSW')!.get('T1')![1]).toBeCloseTo(8, 12);
    // L2's third cell: VIC leaves it out too, so Australia's: 50 / 200 × 10.
    expect(level.lgaTables.get('L2')!.get('T1')).toEqual(cells(5, 5, 2.5));
    expect(level.lgaTables.get('L1')!.get('T1')![1]).toBeCloseTo(8, 12);
  });

  it('has no LGA parents above postal areas, SA2s or LGAs themselves', () => {
    const poa = prepareLevel(handMadeInputs('poa'));
    expect(poa.published.lga.size).toBe(0);
    expect(poa.lgaTables.size).toBe(0);
    expect(poa.stateTables.get('NSW')!.get('T1')![0]).toBe(3);
  });

});

describe('withBorrowing: how strongly a level borrows, per table and size band', () => {
  it('chooses a strength for each input table in the bands its areas are in, over every area of the band', () => {
    const { inputs } = demoInputs(3);
    const persons = inputs.suburbs.map((s) => inputs.totals.get('G01')!.get(s.salCode)!);
    expect(persons.every((n) => n >= 500 && n < 5000)).toBe(true);
    const borrowing = withBorrowing(prepareLevel(inputs), 1000).borrowing!;
    expect(borrowing.size).toBeGreaterThan(5);
    for (const [tableId, byBand] of borrowing) {
      expect(Object.keys(byBand), tableId).toEqual(['500-5000']);
      expect(byBand['500-5000']!.areas, tableId).toBe(3);
    }
  });

  it('chooses none where no area publishes an input table', () => {
    expect(withBorrowing(prepareLevel(handMadeInputs()), 500).borrowing).toEqual(new Map());
  });
});
