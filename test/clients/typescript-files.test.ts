/**
 * The TypeScript client offline: the hand-made files of fixtures/ (the C / C_missing
 * representation of docs/api.md and files written before it read to the same values, joined
 * columns as the record's own) and whole-model pooling against what mice::pool gave on the same
 * fits (fixtures/mice-pool-lm.json, which test/clients/r.test.ts re-derives with mice).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pool, readTable, type Dictionary, type Table } from '../../clients/typescript/src/index.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const read = (name: string, missing: 'na' | 'keep' = 'na'): Table =>
  readTable(readFileSync(join(FIXTURES, `${name}.csv`), 'utf8'), JSON.parse(readFileSync(join(FIXTURES, `${name}.csv.dictionary.json`), 'utf8')) as Dictionary, { missing });
const values = (t: Table, column: string) => t.rows.map((r) => r[column] ?? null);
const nulls = (t: Table, column: string) => values(t, column).filter((v) => v === null).length;
const maxOf = (t: Table, column: string) => values(t, column).reduce<string | null>((a, v) => (v !== null && (a === null || t.rank(column, v)! > t.rank(column, a)!) ? v : a), null);

describe('TypeScript client: files of either shape', () => {
  it.each(['new-shape', 'old-shape'])('%s: substantive levels in order, missing codes null, joined columns like own ones', (name) => {
    const t = read(name);
    expect(t.levels['HEAP']).toEqual(['Certificate Level', 'Advanced Diploma and Diploma Level', 'Bachelor Degree Level', 'Postgraduate Degree Level']);
    expect(t.measurement['HEAP']).toBe('ordinal');
    expect(nulls(t, 'HEAP')).toBe(3);
    expect(values(t, 'HEAP').filter((v) => (t.rank('HEAP', v) ?? -1) >= t.rank('HEAP', 'Bachelor Degree Level')!)).toHaveLength(2);
    expect(maxOf(t, 'HEAP')).toBe('Postgraduate Degree Level');
    expect(nulls(t, 'INCP')).toBe(4);
    expect(nulls(t, 'INCP_coarse')).toBe(3);
    expect(t.levels['INCP_coarse']).not.toContain('Not applicable');
    expect(t.measurement['dwelling_RNTRD']).toBe('ordinal');
    expect(t.levels['dwelling_RNTRD']).toEqual(['Nil payments', '$1-$199', '$200-$399', '$400 and over']);
    expect(nulls(t, 'dwelling_RNTRD')).toBe(2);
    expect(maxOf(t, 'dwelling_RNTRD')).toBe('$400 and over');
    expect(t.measurement['SEXP']).toBe('nominal');
    const kept = read(name, 'keep');
    expect(values(kept, 'HEAP').slice(0, 3)).toEqual(['Not applicable', 'Bachelor Degree Level', 'Not stated']);
    expect(values(kept, 'dwelling_RNTRD').slice(1, 3)).toEqual(['Not applicable', 'Not stated']);
  });

  it('reads C_missing as an unordered column of the missing codes', () => {
    const t = read('new-shape');
    for (const column of ['HEAP_missing', 'INCP_missing', 'dwelling_RNTRD_missing']) {
      expect(t.levels[column], column).toEqual(['Not applicable', 'Not stated']);
      expect(t.measurement[column], column).toBe('nominal');
      expect(t.rank(column, 'Not stated')).toBeUndefined();
    }
    expect(values(t, 'HEAP_missing')).toEqual(['Not applicable', null, 'Not stated', null, null, 'Not applicable']);
  });

  it('carries the provenance and the variable labels the dictionary gives', () => {
    const t = read('new-shape');
    expect(t.provenance).toEqual({
      query_id: 'qry_01TESTFIXTURE0000000000000',
      seed: '5619307297291908987',
      implicate: 2,
      release_version: 'test-1',
      fitted_to: 'demo',
      fitted_to_text: expect.stringMatching(/^demo: fitted to made-up demo tables/) as unknown as string,
    });
    expect(t.labels['HEAP']).toBe('Highest non-school qualification: level of education');
    expect(t.labels['dwelling_RNTRD']).toBe("Rent (weekly), of the record's dwelling");
    expect(Object.keys(t.labels)).toEqual(t.columns);
  });
});

describe('TypeScript client: pooling whole models', () => {
  const fixture = JSON.parse(readFileSync(join(FIXTURES, 'mice-pool-lm.json'), 'utf8')) as {
    terms: string[];
    coefficients: number[][];
    covariances: number[][][];
    df_residual: number;
    mice: Record<'estimate' | 'ubar' | 'b' | 't' | 'dfcom' | 'df' | 'riv' | 'lambda' | 'fmi', number[]>;
  };

  it('equals mice::pool on five lm fits to 1e-8 (estimates, variances, df, riv, lambda, fmi)', () => {
    const pooled = pool(fixture.coefficients, fixture.covariances, { dfComplete: fixture.df_residual, terms: fixture.terms });
    expect(pooled.m).toBe(5);
    expect(pooled.terms.map((t) => t.term)).toEqual(fixture.terms);
    let worst = 0;
    for (const key of ['estimate', 'ubar', 'b', 't', 'df', 'riv', 'lambda', 'fmi'] as const) pooled.terms.forEach((t, i) => (worst = Math.max(worst, Math.abs(t[key] - fixture.mice[key][i]!))));
    expect(worst).toBeLessThan(1e-8);
    console.log(`poolModel vs mice::pool: max abs difference ${worst.toExponential(2)}`);
    expect(pooled.covariance[1]![1]).toBeCloseTo(fixture.mice.t[1]!, 12);
    // Without the complete-data df: Rubin's (m − 1)/λ², as mice with dfcom = Inf.
    const classic = pool(fixture.coefficients, fixture.covariances);
    expect(classic.dfcom).toBe(Infinity);
    expect(classic.terms[0]!.df).toBeCloseTo(4 / classic.terms[0]!.lambda ** 2, 8);
  });

  it('refuses inputs of the wrong shape, saying what it needs', () => {
    const v = [1, 2];
    const c = [
      [1, 0],
      [0, 1],
    ];
    expect(() => pool([v, v], [c])).toThrow(/one covariance matrix per coefficient vector/);
    expect(() => pool([v, [1, 2, 3]], [c, c])).toThrow(/same length/);
    expect(() => pool([v, v], [c, [[1, 0]]])).toThrow(/must be 2 x 2/);
    expect(() => pool([v], [c])).toThrow(/at least 2/);
    expect(() => pool([1, 2] as number[], [[[0.1]], [[0.2]]] as unknown as number[])).toThrow(/variances must be numbers/);
    expect(() => pool([1, 2, 3], [0.1, 0.2])).toThrow(/one variance for each/);
  });
});
