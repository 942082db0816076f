/**
 * Issue 40, item 3: the worst case of every per-process memory (the preview memo, the key cache,
 * the balance cache) driven over HTTP: 10,000 distinct previews that are each remembered, refused
 * previews of a thousand unknown names among them (never remembered), from many keys. The heap
 * after a full collection may grow by at most HEAP_CEILING_MIB over the heap before: the memo's
 * 8 MiB and as much again for the caches and what V8 keeps of compiled code. Measured 2026-12-07:
 * 11.6 MiB; with the memo unbounded, 23.3 MiB (the fixture's queries are small: ~2.3 kB a
 * remembered preview). Before the bounds, the fourth probe's 1.1 MB previews killed a 600 MB
 * instance after 447 of them.
 */
import { setFlagsFromString, getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SUBURBS } from '../adapters/pools/fixture.ts';
import { startTestServer, type TestServer } from './harness.ts';

const HEAP_CEILING_MIB = 16;
const PREVIEWS = 10_000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapUsedAfterCollection = (): number => {
  gc();
  gc();
  return getHeapStatistics().used_heap_size;
};

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ rateLimits: { perMinute: 1_000_000, paidPerHour: 1_000_000, freePerHour: 1_000_000 } });
});
afterAll(async () => s?.close());

describe.runIf(process.env.SPQ_TEST_STACK !== 'scaleout')('memory stays bounded under the worst case', () => {
  it(`10,000 distinct previews (and refused ones) from 50 keys: the heap grows by at most ${HEAP_CEILING_MIB} MiB`, { timeout: 240_000 }, async () => {
    const keys = await Promise.all(Array.from({ length: 50 }, async () => (await s.account({ grant: 10 })).key));
    const places = FIXTURE_SUBURBS.map((f) => `${f.suburb.name} (${f.suburb.state})`);
    const base = { geography_level: 'suburb', dataset_type: 'persons', n_observations: 1 };
    // Query k: a subset of the fixture's suburbs, a size, a format and a geography option of its own (every one valid).
    const distinctQuery = (k: number) => ({
      ...base,
      geography_selections: places.filter((_, i) => ((Math.floor(k / 300) % 63) + 1) & (1 << i)),
      n_observations: (k % 50) + 1,
      output_format: (['parquet', 'csv', 'xlsx'] as const)[Math.floor(k / 50) % 3],
      include_geography: (['none', 'hierarchical'] as const)[Math.floor(k / 150) % 2],
    });
    const unknown = Array.from({ length: 1000 }, (_, i) => `Nowhere place number ${i} of the flood`);
    const warm = await s.call('/query/preview', { key: keys[0]!, body: { geography_level: 'suburb', geography_selections: places, dataset_type: 'persons', n_observations: 1 } });
    expect(warm.status).toBe(200);
    await warm.arrayBuffer();
    const before = heapUsedAfterCollection();
    let next = 0;
    const statuses = new Map<number, number>();
    const worker = async () => {
      for (let k = next++; k < PREVIEWS; k = next++) {
        const refused = k % 20 === 0;
        const body = refused ? { ...base, geography_selections: unknown.map((u) => `${u} ${k}`) } : distinctQuery(k);
        const res = await s.call('/query/preview', { key: keys[k % keys.length]!, body });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const grown = (heapUsedAfterCollection() - before) / (1024 * 1024);
    expect(statuses.get(200), JSON.stringify([...statuses])).toBeGreaterThanOrEqual(PREVIEWS * 0.9);
    expect([...statuses.keys()].every((status) => status === 200 || status === 422), JSON.stringify([...statuses])).toBe(true);
    expect(grown, `heap grew ${grown.toFixed(1)} MiB`).toBeLessThanOrEqual(HEAP_CEILING_MIB);
  });
});
