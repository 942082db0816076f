/**
 * Issue 28, item 3: the demo's suburbs carry their real links (scripts/gen-sal-links.ts, from the
 * ABS correspondences), so `spq serve` (dist/) on a fresh data directory answers as someone from
 * Melbourne expects: Richmond (VIC) is in postcode 3121 and the City of Yarra, Fitzroy in 3065,
 * Darwin City in 0800; a postcode search and a postcode query for "3121" work.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv, startSpq, type SpqProcess } from '../scaleout/stack.ts';
import { freePort } from '../support/free-port.ts';

let dir = '';
let spq: SpqProcess | undefined;
afterAll(async () => {
  await spq?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

type Item = { suburb_id: string; state: string; postcode: string; lga: string; gccsa: string; postcodes: string[]; lgas: string[] };

describe('the demo release over HTTP', () => {
  it('shows real postcodes, LGAs and GCCSAs, and serves the postcode 3121', async () => {
    dir = await mkdtemp(join(tmpdir(), 'spq-demo-links-'));
    spq = await startSpq(childEnv({ SPQ_DATA_DIR: dir, SPQ_DEMO_IMPLICATES: '1' }), await freePort(), 900_000);
    const key = spq.lines.find((l) => /^spq_live_/.test(l))!;
    const search = async (q: string) => (await (await spq!.call(`/geography/search?${q}`, { key })).json()) as { results: Item[]; total_matches: number };

    const richmond = (await search('query=Richmond&state=VIC')).results.find((r) => r.suburb_id === 'Richmond (VIC)');
    expect(richmond).toMatchObject({ postcode: '3121', lga: 'Yarra', gccsa: 'Greater Melbourne', lgas: ['Yarra'] });
    expect(richmond!.postcodes[0]).toBe('3121');
    expect((await search('query=Fitzroy&state=VIC')).results.find((r) => r.suburb_id.startsWith('Fitzroy'))).toMatchObject({ postcode: '3065', lga: 'Yarra' });
    expect((await search('query=Darwin%20City')).results[0]).toMatchObject({ suburb_id: 'Darwin City', postcode: '0800', gccsa: 'Greater Darwin' });
    const all = await search('query=a&limit=50');
    for (const r of all.results) {
      expect(r.lga, r.suburb_id).not.toBe('');
      expect(r.gccsa, r.suburb_id).not.toBe('');
    }

    const in3121 = await search('query=3121&level=postcode');
    expect(in3121.results.map((r) => r.suburb_id)).toContain('Richmond (VIC)');
    const res = await spq.call('/query/execute', {
      key,
      body: { geography_level: 'postcode', geography_selections: ['3121'], dataset_type: 'persons', n_observations: 10, output_format: 'csv', include_geography: 'hierarchical' },
    });
    const body = (await res.json()) as { geography_matches?: unknown };
    expect(res.status, JSON.stringify(body)).toBe(200);
  }, 1_200_000);
});
