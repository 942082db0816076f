import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ColumnReader } from '../../../src/adapters/pools/columns.ts';
import { membersOf } from '../../../src/adapters/pools/release.ts';

/** A link column in memory that counts its reads. */
function countingColumn(values: readonly number[]): ColumnReader & { reads: number } {
  const column = {
    reads: 0,
    get(row: number) {
      column.reads++;
      if (!(row >= 0 && row < values.length)) throw new RangeError(`row ${row} outside ${values.length}`);
      return values[row]!;
    },
    gather(rows: Uint32Array, count: number, out: Int32Array | Uint32Array) {
      for (let i = 0; i < count; i++) out[i] = column.get(rows[i]!);
    },
  };
  return column;
}

/** dwelling_row of each member row: dwelling d has sizes[d] members, in dwelling order. */
const linkColumn = (sizes: readonly number[]): number[] => sizes.flatMap((size, d) => Array.from({ length: size }, () => d));

describe('membersOf (a household sample’s families and persons)', () => {
  it('gives exactly the rows of the chosen dwellings, ascending, whatever the order and repeats of the dwellings asked for', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 300 }),
        fc.array(fc.nat(), { maxLength: 120 }),
        (sizes, picks) => {
          const column = linkColumn(sizes);
          const dwellings = Uint32Array.from(new Set(picks.map((p) => p % sizes.length)));
          const wanted = new Set(dwellings);
          const expected = column.flatMap((d, row) => (wanted.has(d) ? [row] : []));
          expect([...membersOf(countingColumn(column), column.length, dwellings)]).toEqual(expected);
        },
      ),
    );
  });

  it('walks the column forward: a sample of every dwelling reads each row about once, not a binary search per dwelling', () => {
    // 40,000 dwellings of 1–4 members (100,000 rows); a search per dwelling would read ~17 rows each.
    const sizes = Array.from({ length: 40_000 }, (_, d) => (d % 4) + 1);
    const column = countingColumn(linkColumn(sizes));
    const rows = membersOf(column, 100_000, Uint32Array.from(sizes.keys()));
    expect(rows.length).toBe(100_000);
    expect(column.reads).toBeLessThan(3 * 100_000);
  });

  it('reads O(log gap) rows per dwelling for a sparse sample', () => {
    const sizes = Array.from({ length: 400_000 }, () => 2);
    const column = countingColumn(linkColumn(sizes));
    const dwellings = Uint32Array.from({ length: 1000 }, (_, k) => k * 400);
    const rows = membersOf(column, 800_000, dwellings);
    expect(rows.length).toBe(2000);
    // Galloping over a gap of 800 rows: ~2·log2(800) ≈ 20 reads per dwelling, plus its members.
    expect(column.reads).toBeLessThan(1000 * 30);
  });
});
