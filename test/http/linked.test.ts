/**
 * Linked records, joined (issue 11, item 1b): a person comes with their family's and dwelling's
 * variables as family_* and dwelling_* columns; priced and previewed like hierarchical geography.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE_VARIABLES, fileColumnsOf } from '../adapters/pools/fixture.ts';
import { download, readTable } from './files.ts';
import { query, serverWithAccount } from './harness.ts';

const ctx = serverWithAccount(50);

describe('linked_records "joined"', () => {
  it('gives persons their family and dwelling columns, at 1.5 times the rate, echoed in the metadata', async () => {
    const body = query({ geography_selections: ['Fitzroy'], n_observations: 250, output_format: 'csv', linked_records: 'joined' });
    const preview = await (await ctx.s.call('/query/preview', { key: ctx.key, body })).json();
    expect(preview.credit_cost).toBe(1); // ceil(250 × 1.5 / 500)
    const heavy = await (await ctx.s.call('/query/preview', { key: ctx.key, body: { ...body, n_observations: 280, include_geography: 'hierarchical' } })).json();
    expect(heavy.credit_cost).toBe(2); // ceil(280 × 2 / 500)
    const res = await ctx.s.call('/query/execute', { key: ctx.key, body });
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    expect(json.metadata.linked_records).toBe('joined');
    const table = await readTable((await download(json.download_url, ctx.s.dataDir, 'joined.csv')).path, 'csv');
    // Each joined variable with its missing-code companion where it has missing codes (Fitzroy is not small: no coarse ones).
    const joined = [...CATALOGUE_VARIABLES.families.flatMap((v) => fileColumnsOf(v, false, 'family_')), ...CATALOGUE_VARIABLES.dwellings.flatMap((v) => fileColumnsOf(v, false, 'dwelling_'))];
    expect(table.columns.slice(-joined.length)).toEqual(joined);
    // A person without a family has no family_* values; everyone has a dwelling: a tenure, or the reason it has none.
    for (const row of table.rows) {
      if (!row.family_id) expect(joined.filter((c) => c.startsWith('family_') && row[c])).toEqual([]);
      expect(Boolean(row.dwelling_TEND) !== Boolean(row.dwelling_TEND_missing)).toBe(true);
    }
  });

  it('refuses dwellings, which have nothing above them to join, before charging', async () => {
    const res = await ctx.s.call('/query/execute', { key: ctx.key, body: query({ geography_selections: ['Fitzroy'], dataset_type: 'dwellings', n_observations: 10, linked_records: 'joined' }) });
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toMatch(/dwellings have neither above them/);
  });
});
