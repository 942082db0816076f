/**
 * The quality pages' charts (census/quality-charts.ts): each bar is a union of its table's cells,
 * and the records' bar counted from the served columns equals the census tabulation (tabulate(),
 * what the build fits and scores by) of the same records summed over those cells — fine, and
 * coarse where an area's records are served coarsened.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DatasetType } from '../../../src/core/dataset.ts';
import type { Population } from '../../../src/synthesis/census/population.ts';
import { barsOf, chartUniverse, chartVariables, coarseBarsOf, publishedBars, QUALITY_CHARTS, syntheticBars, toCoarse, type ServedRecords } from '../../../src/synthesis/census/quality-charts.ts';
import { tableById } from '../../../src/synthesis/census/tables.ts';
import { tabulate } from '../../../src/synthesis/census/tabulate.ts';
import { columnLabels, variableByCode } from '../../../src/synthesis/census/variables.ts';

const band = (age: number) => Math.min(Math.floor(age / 5), 20);
const codesOf = (dataset: DatasetType) => [...new Set(QUALITY_CHARTS.filter((c) => chartUniverse(c) === dataset).flatMap(chartVariables))];

/** A population of random records holding every variable the charts read (AGE5P from the single-year age). */
const population = fc
  .record({ persons: fc.integer({ min: 1, max: 120 }), families: fc.integer({ min: 1, max: 40 }), dwellings: fc.integer({ min: 1, max: 60 }), seed: fc.integer() })
  .map(({ persons, families, dwellings, seed }): Population => {
    let state = seed >>> 0 || 1;
    const next = (n: number) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return (state >>> 8) % n;
    };
    const columns = (dataset: DatasetType, n: number) =>
      Object.fromEntries(codesOf(dataset).filter((c) => c !== 'AGE5P').map((code) => [code, Uint8Array.from({ length: n }, () => next(variableByCode(code).categories.length))]));
    const age = Uint8Array.from({ length: persons }, () => next(116));
    return {
      persons: { count: persons, age, dwelling: Uint32Array.from({ length: persons }, () => next(dwellings)), family: new Int32Array(persons).fill(-1), variables: { ...columns('persons', persons), AGE5P: Uint8Array.from(age, band) } },
      families: { count: families, dwelling: Uint32Array.from({ length: families }, () => next(dwellings)), variables: columns('families', families) },
      dwellings: { count: dwellings, variables: columns('dwellings', dwellings) },
    };
  });

/** The records as a release serves them: each variable's ENUM label index (fine, or its coarse label where coarsened). */
function served(pop: Population, dataset: DatasetType, coarsened: ReadonlySet<string>): ServedRecords {
  const records = pop[dataset];
  const codes = codesOf(dataset);
  return {
    count: records.count,
    labels: Object.fromEntries(codes.map((code) => [code, columnLabels(variableByCode(code))])),
    columns: Object.fromEntries(
      codes.map((code) => {
        const v = variableByCode(code);
        const labels = columnLabels(v);
        const fine = records.variables[code]!;
        return [code, coarsened.has(code) && v.coarse ? Uint8Array.from(fine, (f) => labels.indexOf(v.coarse!.categories[v.coarse!.fromFine[f]!]!)) : fine];
      }),
    ),
  };
}

const sumCells = (cells: Float64Array, indices: readonly number[]) => indices.reduce((s, i) => s + cells[i]!, 0);

describe('quality charts', () => {
  it("each chart's bars partition its table's cells: every cell in one bar, one category run (and sex) per bar, distinct labels", () => {
    for (const chart of QUALITY_CHARTS) {
      const bars = barsOf(chart);
      const cells = bars.flatMap((b) => b.cells).sort((a, b) => a - b);
      expect(cells, chart.id).toEqual(tableById(chart.tableId).cells.map((_, i) => i));
      expect(new Set(bars.map((b) => b.label)).size, chart.id).toBe(bars.length);
      // Each bar's categories are the variable's, in order.
      for (const b of bars) expect(b.fine.every((f, k) => f < variableByCode(chart.variable).categories.length && (k === 0 || f > b.fine[k - 1]!)), `${chart.id} ${b.label}`).toBe(true);
    }
    expect(barsOf(QUALITY_CHARTS.find((c) => c.id === 'age-sex')!)).toHaveLength(42);
    expect(barsOf(QUALITY_CHARTS.find((c) => c.id === 'household-size')!).map((b) => b.label)).toEqual(['One person', 'Two persons', 'Three persons', 'Four persons', 'Five persons', 'Six persons to Eight or more persons']);
  });

  it("the records' bars are the table tabulated from the same records, summed over each bar's cells", () => {
    fc.assert(
      fc.property(population, (pop) => {
        for (const chart of QUALITY_CHARTS) {
          const cells = tabulate(pop, tableById(chart.tableId));
          const bars = syntheticBars(chart, served(pop, chartUniverse(chart), new Set()), new Set());
          expect(bars.view).toBe('fine');
          expect(bars.values, chart.id).toEqual(barsOf(chart).map((b) => sumCells(cells, b.cells)));
          expect(publishedBars(chart, cells), chart.id).toEqual(bars.values);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("a coarse bar holds the fine bars whose categories fold into its coarse category (same sex), and is named by it", () => {
    for (const chart of QUALITY_CHARTS.filter((c) => coarseBarsOf(c) !== undefined)) {
      const coarse = variableByCode(chart.variable).coarse!;
      const fine = barsOf(chart);
      for (const bar of coarseBarsOf(chart)!) {
        const members = fine.flatMap((b, i) => (b.split === bar.split && b.fine.every((f) => coarse.fromFine[f] === bar.coarse) ? [i] : []));
        expect(bar.fineBars, `${chart.id} ${bar.label}`).toEqual(members);
        expect(bar.label.endsWith(coarse.categories[bar.coarse]!), bar.label).toBe(true);
      }
      expect(coarseBarsOf(chart)!.flatMap((b) => b.fineBars).sort((a, b) => a - b), chart.id).toEqual(fine.map((_, i) => i));
    }
  });

  it("served coarsened, the records' bars are the fine ones folded into the coarse categories", () => {
    fc.assert(
      fc.property(population, (pop) => {
        for (const chart of QUALITY_CHARTS.filter((c) => coarseBarsOf(c) !== undefined)) {
          const dataset = chartUniverse(chart);
          const coarsened = new Set(codesOf(dataset).filter((code) => variableByCode(code).coarse !== undefined));
          const fine = syntheticBars(chart, served(pop, dataset, new Set()), new Set()).values;
          const coarse = syntheticBars(chart, served(pop, dataset, coarsened), coarsened);
          expect(coarse.view).toBe('coarse');
          expect(coarse.values, chart.id).toEqual(toCoarse(chart, fine));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a published bar is the sum of its cells, and unknown (null) where one of them is not published', () => {
    const chart = QUALITY_CHARTS.find((c) => c.id === 'household-size')!;
    const cells = Float64Array.from(tableById('G35').cells, (_, i) => i + 1);
    const bars = publishedBars(chart, cells);
    expect(bars).toEqual(barsOf(chart).map((b) => b.cells.reduce((s, i) => s + i + 1, 0)));
    cells[barsOf(chart)[2]!.cells[0]!] = Number.NaN;
    expect(publishedBars(chart, cells)[2]).toBeNull();
    expect(publishedBars(chart, cells).filter((v) => v === null)).toHaveLength(1);
  });
});
