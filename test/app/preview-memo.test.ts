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
    // A refusal is answered as validateQuery answers it, and never remembered (refusals vary without end).
    const held = memo.held(pools);
    const refused = memo.priced(pools, q({ geography_selections: ['Nowhere'] }));
    expect(refused.validated).toEqual(validateQuery(pools, limits, q({ geography_selections: ['Nowhere'] })));
    expect(memo.priced(pools, q({ geography_selections: ['Nowhere'] }))).not.toBe(refused);
    expect(memo.held(pools)).toEqual(held);
    // The limits are the memo's: a query over them is refused as validateQuery refuses it.
    expect(new PreviewMemo({ maxRowsPerExecute: 5 }).priced(pools, q()).validated.ok).toBe(false);
  });

  it('keeps each release apart, holds at most its bytes (least recently asked go first) and forgets what is not asked again', () => {
    const a = countingPools();
    const b = countingPools();
    let now = 0;
    const one = new PreviewMemo(limits).priced(a.pools, q());
    const probe = new PreviewMemo(limits);
    probe.priced(a.pools, q());
    const entryBytes = probe.held(a.pools).bytes;
    expect(one.validated.ok && entryBytes).toBeGreaterThan(0);
    const memo = new PreviewMemo(limits, { maxBytes: 2.5 * entryBytes, ttlMs: 60_000, now: () => now });
    const inA = memo.priced(a.pools, q());
    expect(memo.priced(b.pools, q())).not.toBe(inA);
    memo.priced(a.pools, q({ n_observations: 2 }));
    expect(memo.priced(a.pools, q())).toBe(inA); // asked again: now the most recent
    memo.priced(a.pools, q({ n_observations: 3 })); // past the bytes: n = 2 goes, not n = 10
    expect(memo.held(a.pools).queries).toBe(2);
    expect(memo.held(a.pools).bytes).toBeLessThanOrEqual(2.5 * entryBytes);
    expect(memo.priced(a.pools, q())).toBe(inA);
    const resolvesBefore = a.resolves();
    memo.priced(a.pools, q({ n_observations: 2 }));
    expect(a.resolves()).toBe(resolvesBefore + 1);
    // A minute unasked: forgotten.
    now += 60_000;
    expect(memo.priced(a.pools, q())).not.toBe(inA);
    expect(memo.held(a.pools).queries).toBe(1);
  });

  it('worst case: 10,000 distinct previews of 50 selections each stay within the byte bound', () => {
    const { pools } = countingPools();
    const maxBytes = 4 * 1024 * 1024;
    const memo = new PreviewMemo(limits, { maxBytes, ttlMs: 3_600_000, now: () => 0 });
    for (let k = 0; k < 10_000; k++) {
      const selections = Array.from({ length: 50 }, (_, i) => `Suburb ${k}-${i} ${'x'.repeat(150)}`);
      memo.priced(pools, q({ geography_selections: selections }));
      if (k % 7 === 0) memo.priced(pools, q({ geography_selections: [...selections.slice(1), 'Nowhere'] })); // refused: costs nothing
    }
    const held = memo.held(pools);
    expect(held.bytes).toBeLessThanOrEqual(maxBytes);
    expect(held.queries).toBeGreaterThan(10);
    expect(held.queries).toBeLessThan(10_000);
  });
});
