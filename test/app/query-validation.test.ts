import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateQuery } from '../../src/app/query-validation.ts';
import { OUTPUT_FORMAT_SPECS } from '../../src/core/formats.ts';
import { creditCost } from '../../src/core/pricing.ts';
import { err, ok } from '../../src/core/result.ts';
import type { PoolRelease, ResolvedSelection, SuburbInfo } from '../../src/ports/pool-release.ts';

/** Excel's sheet limit, as the format registry holds it. */
const XLSX_MAX_DATA_ROWS = OUTPUT_FORMAT_SPECS.xlsx.maxRows!.rows;

/** A pool release reduced to what validation reads: resolve and poolSize (the small tier: ports faked). */
function poolsOf(sizes: Record<string, number>): PoolRelease {
  const suburb = (id: string): SuburbInfo => ({
    level: 'sal', salCode: `SAL_${id}`, suburbId: id, name: id, state: 'VIC', postcode: '3000', lga: 'X', lgaCode: 'LGA1', gccsa: 'G',
    smallSuburb: sizes[id]! < 100, pools: { persons: sizes[id]!, families: sizes[id]!, dwellings: sizes[id]! },
  });
  return {
    resolve(level, selection) {
      const id = Object.keys(sizes).find((k) => k.toLowerCase() === selection.trim().replace(/\s+/g, ' ').toLowerCase());
      if (id === undefined) return err({ kind: 'unknown', suggestions: Object.keys(sizes).slice(0, 1) });
      return ok({ level, input: selection, canonical: id, suburbs: [suburb(id)] });
    },
    poolSize: (s: ResolvedSelection) => s.suburbs.reduce((n, x) => n + x.pools.persons, 0),
  } as Partial<PoolRelease> as PoolRelease;
}

const q = (over: Record<string, unknown> = {}) => ({
  geography_level: 'suburb' as const,
  geography_selections: ['Big'],
  dataset_type: 'persons' as const,
  n_observations: 10,
  ...over,
});

describe('validateQuery', () => {
  const pools = poolsOf({ Big: 3_000_000, Other: 2_000_000, Tiny: 50 });
  const limits = { maxRowsPerExecute: 5_000_000 };

  it('xlsx above 1,048,575 rows is a 422 that suggests parquet or csv; at the limit it passes', () => {
    const over = validateQuery(pools, limits, q({ n_observations: XLSX_MAX_DATA_ROWS + 1, output_format: 'xlsx' }));
    expect(over.ok).toBe(false);
    if (!over.ok) {
      expect(over.error.code).toBe('validation_error');
      expect(over.error.detail).toBe('This query asks for 1048576 records, more than an xlsx sheet holds (1048575); use output_format "parquet" or "csv".');
    }
    expect(validateQuery(pools, limits, q({ n_observations: XLSX_MAX_DATA_ROWS, output_format: 'xlsx' })).ok).toBe(true);
    expect(validateQuery(pools, limits, q({ n_observations: XLSX_MAX_DATA_ROWS + 1, output_format: 'csv' })).ok).toBe(true);
  });

  it('the server-wide row cap counts all selections', () => {
    const capped = validateQuery(pools, { maxRowsPerExecute: 3_000_000 }, q({ geography_selections: ['Big', 'Other'], n_observations: 1_500_001 }));
    expect(capped.ok).toBe(false);
    if (!capped.ok) expect(capped.error.detail).toContain('at most 3000000');
    expect(validateQuery(pools, { maxRowsPerExecute: 3_000_000 }, q({ geography_selections: ['Big', 'Other'], n_observations: 1_500_000 })).ok).toBe(true);
  });

  it('names the smallest pool that n exceeds', () => {
    const r = validateQuery(pools, limits, q({ geography_selections: ['Big', 'Tiny'], n_observations: 51 }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.detail).toContain('Tiny: 50 records');
  });

  it('a level the release holds no pools for is a 422 naming the levels it holds', () => {
    const postcodesOnly = {
      ...pools,
      resolve: () => err({ kind: 'unavailable' as const, held: ['postcode', 'state', 'australia'] as const }),
    } as unknown as PoolRelease;
    const refused = validateQuery(postcodesOnly, limits, q({ geography_selections: ['Hobart'] }));
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('validation_error');
      expect(refused.error.detail).toBe('This pool release has no pools at geography_level "suburb": it holds "postcode", "state", "australia". Choose one of those levels.');
    }
  });

  it('empty list is bad_request; unknown names suggest', () => {
    const empty = validateQuery(pools, limits, q({ geography_selections: [] }));
    expect(!empty.ok && empty.error.code).toBe('bad_request');
    const unknown = validateQuery(pools, limits, q({ geography_selections: ['Bog'] }));
    expect(!unknown.ok && unknown.error.detail).toContain('Did you mean "Big"');
  });

  it('property: any respelling (case, spaces) of a listed selection is a duplicate; distinct ones are priced by creditCost', () => {
    const respell = fc.tuple(fc.constantFrom('Big', 'Other', 'Tiny'), fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }), fc.nat(3), fc.nat(3)).map(
      ([name, upper, before, after]) => ' '.repeat(before) + [...name].map((c, i) => (upper[i % 5] ? c.toUpperCase() : c.toLowerCase())).join('') + ' '.repeat(after),
    );
    fc.assert(
      fc.property(respell, fc.integer({ min: 1, max: 50 }), fc.constantFrom('none', 'hierarchical'), (selection, n, geo) => {
        const dup = validateQuery(pools, limits, q({ geography_selections: [selection.trim().replace(/\s+/g, ' '), selection], n_observations: n }));
        expect(!dup.ok && dup.error.detail).toContain('listed twice');
        const single = validateQuery(pools, limits, q({ geography_selections: [selection], n_observations: n, include_geography: geo }));
        expect(single.ok && single.value.creditCost).toBe(creditCost(n, 1, geo as 'none' | 'hierarchical'));
      }),
    );
  });
});
