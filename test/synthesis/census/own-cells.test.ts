import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ageTiling, baseCells, bindings, externalWholes, ownFirst, partWholes, rake, SOURCE, type AreaFigures, type TableSources } from '../../../src/synthesis/census/own-cells.ts';
import { INPUT_TABLES, tableById } from '../../../src/synthesis/census/tables.ts';
import { GCP_PART_HEADERS } from '../../../src/synthesis/census/gcp/layout.generated.ts';
import type { TableSpec } from '../../../src/synthesis/census/table-spec.ts';

const G01 = tableById('G01');
const G04 = tableById('G04');
const G17 = tableById('G17');
const G27 = tableById('G27');

/** The sources a SAL pack holding `parts` gives each input table (whole tables own, the listed headers of a partial one own). */
function sourcesOf(parts: readonly string[]): Map<string, TableSources> {
  const held = new Set(parts);
  return new Map(
    INPUT_TABLES.map((spec) => {
      const whole = spec.files.every((f) => held.has(f));
      const listed = new Set(spec.files.filter((f) => held.has(f)).flatMap((f) => GCP_PART_HEADERS[f] ?? []));
      const of = (h: string) => (whole || listed.has(h) ? SOURCE.own : SOURCE.derived);
      return [spec.id, { cells: Uint8Array.from(spec.cells, (c) => of(c.header)), others: Uint8Array.from(spec.otherHeaders, of) }];
    }),
  );
}
/** The real pack's SAL part files of the input tables (../shared/abs: 19 of them). */
const SAL_PARTS = ['G04B', 'G14', 'G15', 'G16B', 'G17C', 'G29', 'G32', 'G33', 'G34', 'G35', 'G36', 'G37', 'G38', 'G40', 'G41', 'G49B', 'G54D', 'G60B', 'G62'];
const figure = (spec: TableSpec, header: string) => {
  const i = spec.cells.findIndex((c) => c.header === header);
  return i >= 0 ? i : spec.cells.length + spec.otherHeaders.indexOf(header);
};
const valueOf = (spec: TableSpec, f: AreaFigures, header: string) => {
  const i = figure(spec, header);
  return i < spec.cells.length ? f.cells[i]! : f.others[i - spec.cells.length]!;
};

/** G04 of one suburb: every cell from `cell(sex, lo, hi)`, every total and subtotal the sum of its cells. */
function g04Figures(cell: (sex: number, lo: number, hi: number) => number): AreaFigures {
  const cells = Float64Array.from(G04.cells, (c) => cell(c.where['SEXP']![0]!, c.age![0], c.age![1]));
  const others = Float64Array.from(G04.otherCells, (box) =>
    G04.cells.reduce((a, c, i) => a + ((!box.where['SEXP'] || box.where['SEXP'][0] === c.where['SEXP']![0]) && c.age![0] >= (box.age?.[0] ?? 0) && c.age![1] <= (box.age?.[1] ?? 200) ? cells[i]! : 0), 0),
  );
  return { cells, others };
}

describe('ageTiling', () => {
  it("tiles G01's males 55–64 with G04's figures of males: two five-year groups (coarse) or ten single years (fine)", () => {
    const target = G01.otherCells[G01.otherHeaders.indexOf('Age_55_64_yr_M')]!;
    const figures = [...G04.cells, ...G04.otherCells];
    const coarse = ageTiling(target, figures, () => true, 'coarse')!;
    expect(coarse.map((i) => figures[i]!.header)).toEqual(['Age_yr_55_59_M', 'Age_yr_60_64_M']);
    expect(ageTiling(target, figures, () => true, 'fine')!.map((i) => figures[i]!.header)).toEqual([55, 56, 57, 58, 59, 60, 61, 62, 63, 64].map((y) => `Age_yr_${y}_M`));
  });

  it('does not tile where a year is missing', () => {
    const target = G01.otherCells[G01.otherHeaders.indexOf('Age_55_64_yr_M')]!;
    const figures = [...G04.cells, ...G04.otherCells];
    const no57 = (i: number) => !['Age_yr_57_M', 'Age_yr_55_59_M'].includes(figures[i]!.header);
    expect(ageTiling(target, figures, no57, 'coarse')).toBeUndefined();
  });
});

describe('bindings (own figures of a table counting the same people)', () => {
  const sources = sourcesOf(SAL_PARTS);

  it("binds G01's age groups from 55 to G04B's own figures, and those under 55 only once G04 is resolved", () => {
    const own = bindings(G01, INPUT_TABLES, sources);
    expect(own.get(figure(G01, 'Age_55_64_yr_M'))).toEqual({ tableId: 'G04', figures: [figure(G04, 'Age_yr_55_59_M'), figure(G04, 'Age_yr_60_64_M')] });
    expect(own.get(figure(G01, 'Tot_P_M'))?.tableId).toBe('G04');
    expect(own.has(figure(G01, 'Age_25_34_yr_M'))).toBe(false);
    const resolved = bindings(G01, INPUT_TABLES, sources, new Set(['G04']));
    expect(resolved.get(figure(G01, 'Age_25_34_yr_M'))?.tableId).toBe('G04');
  });

  it("binds G04's persons aged 15–19 to G17C's own persons aged 15–19 (persons aged 15 and over are persons there)", () => {
    const b = bindings(G04, INPUT_TABLES, sources);
    expect(b.get(figure(G04, 'Age_yr_15_19_P'))).toEqual({ tableId: 'G17', figures: [figure(G17, 'P_Tot_15_19_yrs')] });
    // G17's figures without an age count persons of 15 and over: not all persons.
    expect(b.get(figure(G04, 'Tot_P'))).toBeUndefined();
  });

  it('binds a table of part of the people (G27: persons in private dwellings) by proportion to a resolved table of all persons', () => {
    const b = bindings(G27, INPUT_TABLES, sources, new Set(['G01']));
    expect(b.get(figure(G27, 'M_Tot_55_64'))).toMatchObject({ tableId: 'G01', ratio: true });
    expect(bindings(G27, INPUT_TABLES, sources).size).toBe(0);
  });

  it("G17C's own persons aged 25–34 are a whole G04's single years 25…34 must add up to", () => {
    const ext = externalWholes(G04, INPUT_TABLES, sources).find((e) => e.tableId === 'G17' && e.figure === figure(G17, 'P_Tot_25_34_yrs'))!;
    expect(ext.parts).toEqual([25, 26, 27, 28, 29, 30, 31, 32, 33, 34].map((y) => figure(G04, `Age_yr_${y}_P`)));
  });
});

describe('rake', () => {
  it('gives the free parts what the fixed parts leave of a fixed whole, in their proportions', () => {
    const values = Float64Array.of(100, 30, 10, 30);
    rake(values, Uint8Array.of(1, 1, 0, 0), [{ whole: 0, parts: [1, 2, 3] }]);
    expect([...values]).toEqual([100, 30, 17.5, 52.5]);
  });

  it('gives what summing every part each pass gave, to the last bit (issue 42: fixed sums found once)', () => {
    // The raking as written before: every part's finiteness and fixedness looked at each pass.
    const rakeEveryPart = (values: Float64Array, fixed: Uint8Array, relations: readonly { whole: number; parts: readonly number[] }[], passes = 50) => {
      for (let pass = 0; pass < passes; pass++) {
        let moved = 0;
        for (const { whole, parts } of relations) {
          const target = values[whole]!;
          if (!fixed[whole] || !Number.isFinite(target)) continue;
          let fixedSum = 0;
          let freeSum = 0;
          for (const p of parts) {
            const v = values[p]!;
            if (!Number.isFinite(v)) continue;
            if (fixed[p]) fixedSum += v;
            else freeSum += v;
          }
          const need = Math.max(0, target - fixedSum);
          if (!(freeSum > 0) || Math.abs(need - freeSum) < 1e-9) continue;
          const factor = need / freeSum;
          for (const p of parts) if (!fixed[p] && Number.isFinite(values[p]!)) values[p]! *= factor;
          moved = Math.max(moved, Math.abs(need - freeSum));
        }
        if (moved < 0.01) return;
      }
    };
    const size = 8;
    const figure = fc.oneof(fc.constant(Number.NaN), fc.constant(0), fc.double({ min: 0, max: 500, noNaN: true }));
    const relation = fc.record({ whole: fc.integer({ min: 0, max: size - 1 }), parts: fc.array(fc.integer({ min: 0, max: size - 1 }), { minLength: 1, maxLength: 5 }) });
    fc.assert(
      fc.property(
        fc.array(figure, { minLength: size, maxLength: size }),
        fc.array(fc.integer({ min: 0, max: 1 }), { minLength: size, maxLength: size }),
        fc.array(relation, { maxLength: 6 }),
        fc.integer({ min: 1, max: 60 }),
        (figures, fixedFlags, relations, passes) => {
          const fast = Float64Array.from(figures);
          const oracle = Float64Array.from(figures);
          const fixed = Uint8Array.from(fixedFlags);
          rake(fast, fixed, relations, passes);
          rakeEveryPart(oracle, fixed, relations, passes);
          expect(Array.from(fast)).toEqual(Array.from(oracle));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a free whole is no constraint on its parts', () => {
    const values = Float64Array.of(100, 30, 10);
    rake(values, Uint8Array.of(0, 0, 0), [{ whole: 0, parts: [1, 2] }]);
    expect([...values]).toEqual([100, 30, 10]);
  });
});

describe('ownFirst (a suburb of 1,000 persons: its own ages from 55, its parents younger)', () => {
  const sources = sourcesOf(SAL_PARTS);
  const relations = partWholes(G04, [g04Figures(() => 10)]);
  // The parents: 10 persons a year of each sex below 55, 2 a year above. The suburb's own G04B: 8 a year of each sex from 55 (5-year groups 40), 1,000 in all (500 per sex).
  const parents = g04Figures((_, lo, hi) => (hi < 55 ? 10 : 2) * (hi - lo + 1));
  const own = g04Figures((_, lo, hi) => (lo >= 55 ? 8 * (hi - lo + 1) : 0));
  const area: AreaFigures = { cells: parents.cells.slice(), others: parents.others.slice() };
  const s = sources.get('G04')!;
  G04.cells.forEach((_, i) => s.cells[i] === SOURCE.own && (area.cells[i] = own.cells[i]!));
  G04.otherCells.forEach((_, j) => s.others[j] === SOURCE.own && (area.others[j] = own.others[j]!));
  area.others[figure(G04, 'Tot_M') - G04.cells.length] = 500;
  area.others[figure(G04, 'Tot_F') - G04.cells.length] = 500;
  area.others[figure(G04, 'Tot_P') - G04.cells.length] = 1000;
  const { figures } = ownFirst(G04, area, s, relations, new Map(), () => undefined);

  it('keeps every own cell and fills what the own total leaves under 55 with the parents\' shares', () => {
    G04.cells.forEach((c, i) => s.cells[i] === SOURCE.own && expect(figures.cells[i]).toBe(area.cells[i]));
    const males = G04.cells.reduce((a, c, i) => a + (c.where['SEXP']![0] === 0 ? figures.cells[i]! : 0), 0);
    expect(males).toBe(500);
    const own55 = G04.cells.reduce((a, c, i) => a + (c.where['SEXP']![0] === 0 && c.age![0] >= 55 ? figures.cells[i]! : 0), 0);
    // 500 less the own 55 and over, spread evenly over the 55 younger years as the parents have them.
    const young = G04.cells.flatMap((c, i) => (c.where['SEXP']![0] === 0 && c.age![1] < 55 ? [figures.cells[i]!] : []));
    expect(young.reduce((a, b) => a + b, 0)).toBe(500 - own55);
    expect(Math.max(...young) - Math.min(...young)).toBeLessThanOrEqual(1);
    expect(valueOf(G04, figures, 'Age_yr_0_4_M')).toBe(young.slice(0, 5).reduce((a, b) => a + b, 0));
  });

  it('every figure is a whole number of people', () => {
    for (const v of [...figures.cells, ...figures.others]) expect(Number.isInteger(v)).toBe(true);
  });

  it('property: own cells stay, derived cells are whole and non-negative, and each sex adds up to its own total when that covers its own cells', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { minLength: G04.cells.length, maxLength: G04.cells.length }), fc.integer({ min: 0, max: 3000 }), (draw, extra) => {
        const a: AreaFigures = { cells: Float64Array.from(draw), others: new Float64Array(G04.otherCells.length) };
        let ownMales = 0;
        G04.cells.forEach((c, i) => {
          if (s.cells[i] === SOURCE.own && c.where['SEXP']![0] === 0) ownMales += a.cells[i]!;
        });
        a.others[figure(G04, 'Tot_M') - G04.cells.length] = ownMales + extra;
        G04.otherCells.forEach((_, j) => {
          if (s.others[j] === SOURCE.own && G04.otherHeaders[j] !== 'Tot_M') a.others[j] = Number.NaN;
        });
        const out = ownFirst(G04, a, s, relations, new Map(), () => undefined).figures;
        G04.cells.forEach((_, i) => {
          if (s.cells[i] === SOURCE.own) expect(out.cells[i]).toBe(a.cells[i]);
          else expect(Number.isInteger(out.cells[i]) && out.cells[i]! >= 0).toBe(true);
        });
        const youngMales = G04.cells.reduce((acc, c, i) => acc + (c.where['SEXP']![0] === 0 && s.cells[i] !== SOURCE.own ? a.cells[i]! : 0), 0);
        const males = G04.cells.reduce((acc, c, i) => acc + (c.where['SEXP']![0] === 0 ? out.cells[i]! : 0), 0);
        if (youngMales > 0) expect(males).toBe(ownMales + extra);
      }),
      { numRuns: 40 },
    );
  });
});

describe('baseCells', () => {
  it("a subtotal's cells, and none for G01's age groups (its cells cross other characteristics)", () => {
    const g04 = baseCells(G04, partWholes(G04, [g04Figures(() => 10)]));
    expect(g04[figure(G04, 'Age_yr_55_59_M')]).toEqual([55, 56, 57, 58, 59].map((y) => figure(G04, `Age_yr_${y}_M`)));
    const g01Figures: AreaFigures = { cells: new Float64Array(G01.cells.length).fill(10), others: new Float64Array(G01.otherCells.length).fill(10) };
    expect(baseCells(G01, partWholes(G01, [g01Figures]))[figure(G01, 'Age_55_64_yr_M')]).toBeUndefined();
  });
});
