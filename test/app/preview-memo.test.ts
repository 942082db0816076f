/**
 * PreviewMemo: a query is checked and priced once per release, whatever the seed or the caller;
 * any field validation reads makes another entry; each release keeps its own; the oldest goes
 * first past the bound. Over a pool release reduced to what validation reads (as in
 * query-validation.test.ts), counting its look-ups.
 */
import { describe, expect, it } from 'vitest';
import { PreviewMemo } from '../../src/app/preview-memo.ts';
import { validateQuery, type QueryInput } from '../../src/app/query-validation.ts';
import { err, ok } from '../../src/core/result.ts';
import type { PoolRelease, ResolvedSelection } from '../../src/ports/pool-release.ts';

function countingPools(): { pools: PoolRelease; resolves: () => number } {
  let resolves = 0;
  const pools = {
    version: 'memo-test',
    resolve(level, selection) {
      resolves++;
      if (selection === 'Nowhere') return err({ kind: 'unknown', suggestions: [] });
      const suburb = { level: 'sal', salCode: `SAL_${selection}`, suburbId: selection, name: selection, state: 'VIC', postcode: '3000', lga: 'X', lgaCode: 'LGA1', gccsa: 'G', smallSuburb: false, pools: { persons: 1000, families: 400, dwellings: 300 } };
      return ok({ level, input: selection, canonical: selection, suburbs: [suburb] });
    },
    poolSize: (s: ResolvedSelection) => s.suburbs.length * 1000,
  } as Partial<PoolRelease> as PoolRelease;
  return { pools, resolves: () => resolves };
}

const limits = { maxRowsPerExecute: 1_000_000 };
const q = (over: Partial<QueryInput> = {}): QueryInput => ({ geography_level: 'suburb', geography_selections: ['Burnley'], dataset_type: 'persons', n_observations: 10, ...over });

describe('PreviewMemo', () => {
  it('checks a query once per release, the seed and the implicate aside, and answers as validateQuery does', () => {
    const { pools, resolves } = countingPools();
    const memo = new PreviewMemo(limits);
    const first = memo.priced(pools, q());
    expect(first.validated).toEqual(validateQuery(pools, limits, q()));
    const before = resolves();
    expect(memo.priced(pools, q({ seed: '42' }))).toBe(first);
    expect(memo.priced(pools, { ...q(), implicate: 1 })).toBe(first);
    // Defaults written out are the same query.
    expect(memo.priced(pools, q({ output_format: 'parquet', include_geography: 'none', linked_records: 'none' }))).toBe(first);
    expect(resolves()).toBe(before);
  });

  it('keeps apart every field validation reads, refusals too', () => {
    const { pools } = countingPools();
    const memo = new PreviewMemo(limits);
    const variants = [q(), q({ geography_level: 'postcode' }), q({ geography_selections: ['Burnley', 'Fitzroy'] }), q({ dataset_type: 'families' }), q({ n_observations: 11 }), q({ output_format: 'csv' }), q({ include_geography: 'hierarchical' }), q({ linked_records: 'joined' })];
    const priced = variants.map((v) => memo.priced(pools, v));
    expect(new Set(priced).size).toBe(variants.length);
    priced.forEach((p, i) => expect(p.validated).toEqual(validateQuery(pools, limits, variants[i]!)));
    const refused = memo.priced(pools, q({ geography_selections: ['Nowhere'] }));
    expect(refused.validated.ok).toBe(false);
    expect(memo.priced(pools, q({ geography_selections: ['Nowhere'] }))).toBe(refused);
    // The limits are the memo's: a query over them is refused as validateQuery refuses it.
    expect(new PreviewMemo({ maxRowsPerExecute: 5 }).priced(pools, q()).validated.ok).toBe(false);
  });

  it('keeps each release apart and drops the oldest query past its bound', () => {
    const a = countingPools();
    const b = countingPools();
    const memo = new PreviewMemo(limits, 2);
    const inA = memo.priced(a.pools, q());
    expect(memo.priced(b.pools, q())).not.toBe(inA);
    memo.priced(a.pools, q({ n_observations: 2 }));
    memo.priced(a.pools, q({ n_observations: 3 }));
    const resolvesBefore = a.resolves();
    expect(memo.priced(a.pools, q())).not.toBe(inA);
    expect(a.resolves()).toBe(resolvesBefore + 1);
  });
});
