/**
 * Overlapping selections (issue 11, item 2): postcodes 3065 and 3068 both hold Fitzroy. A record
 * is drawn once in a file, for the first selection that draws it; a `selection` column says which
 * selection each row answers; preview warns; a request the overlap cannot serve is a 422.
 */
import { describe, expect, it } from 'vitest';
import { download, readTable } from './files.ts';
import { query, serverWithAccount } from './harness.ts';

const ctx = serverWithAccount(50);

const body = (n: number, format = 'parquet') => query({ geography_level: 'postcode', geography_selections: ['3065', '3068'], n_observations: n, output_format: format });

describe('overlapping selections', () => {
  it('never give a record twice, and say which selection each row answers', async () => {
    for (const format of ['parquet', 'csv'] as const) {
      const res = await ctx.s.call('/query/execute', { key: ctx.key, body: body(100, format) });
      const json = await res.json();
      expect(res.status, JSON.stringify(json)).toBe(200);
      const table = await readTable((await download(json.download_url, ctx.s.dataDir, `overlap.${format}`)).path, format);
      expect(table.rows).toHaveLength(200);
      expect(new Set(table.rows.map((r) => r.person_id)).size).toBe(200);
      expect(table.rows.slice(0, 100).every((r) => r.selection === '3065')).toBe(true);
      expect(table.rows.slice(100).every((r) => r.selection === '3068')).toBe(true);
      // Both answer from Fitzroy's pool.
      expect(new Set(table.rows.map((r) => r.suburb_code))).toEqual(new Set(['SAL20963']));
    }
  });

  it('preview warns about the overlap', async () => {
    const preview = await (await ctx.s.call('/query/preview', { key: ctx.key, body: body(100) })).json();
    expect(preview.warnings.join(' ')).toContain('"3068" shares 1 suburb(s) with "3065": a record is drawn once in the file');
  });

  it('refuses, naming the overlap, what the shared pool cannot serve twice, and charges nothing', async () => {
    const before = (await (await ctx.s.call('/account/credits', { key: ctx.key })).json()).credits_remaining;
    // Fitzroy holds 280 persons: 150 for each postcode would need 300.
    const res = await ctx.s.call('/query/execute', { key: ctx.key, body: body(150) });
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toMatch(/"3068" shares 1 suburb\(s\) with "3065"; a record is drawn once in a file/);
    expect((await (await ctx.s.call('/account/credits', { key: ctx.key })).json()).credits_remaining).toBe(before);
  });
});
