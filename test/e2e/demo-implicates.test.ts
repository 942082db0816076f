/**
 * Issue 21, item 7: the demo release's extra implicates are built after the service listens, so
 * the first start costs one synthesis, and served as each completes. `spq serve` (dist/) on a
 * fresh data directory with SPQ_DEMO_IMPLICATES=2 (the default 5 takes four syntheses more, the
 * same code path): it listens with implicate 1, answers implicate 2 with a 422 naming what it
 * holds, then logs implicate 2 ready and serves it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_SEED } from '../../src/release-builder/releases.ts';
import { implicateSeed } from '../../src/synthesis/pipeline/seeds.ts';
import { childEnv, startSpq, waitFor, type SpqProcess } from '../scaleout/stack.ts';
import { freePort } from '../support/free-port.ts';

let dir = '';
let spq: SpqProcess | undefined;
afterAll(async () => {
  await spq?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('spq serve on a fresh data directory', () => {
  it('listens after the first implicate and serves the demo\'s second once it is built', async () => {
    dir = await mkdtemp(join(tmpdir(), 'spq-demo-implicates-'));
    spq = await startSpq(childEnv({ SPQ_DATA_DIR: dir, SPQ_DEMO_IMPLICATES: '2', SPQ_LOG_LEVEL: 'info' }), await freePort(), 900_000);
    const key = spq.lines.find((l) => /^spq_live_/.test(l))!;
    expect(key).toBeDefined();
    const body = (implicate?: number) => ({ geography_level: 'australia', geography_selections: ['Australia'], dataset_type: 'persons', n_observations: 20, output_format: 'csv', ...(implicate ? { implicate } : {}) });
    const release = join(dir, 'pools', 'demo-2021.1');
    if (!existsSync(join(release, 'implicates', '2', 'manifest.json'))) {
      const early = await spq.call('/query/execute', { key, body: body(2) });
      expect(early.status).toBe(422);
      expect(((await early.json()) as { detail: string }).detail).toMatch(/holds implicate 1\b/);
    }
    const first = await spq.call('/query/execute', { key, body: body() });
    expect(((await first.json()) as { metadata: { implicate: number; synthesis_seed: string } }).metadata).toMatchObject({ implicate: 1, synthesis_seed: String(DEMO_SEED) });

    await waitFor('demo implicate 2', 900_000, async () => (spq!.lines.some((l) => l.includes('demo implicate 2 ready')) ? true : undefined));
    const second = await spq.call('/query/execute', { key, body: body(2) });
    const json = (await second.json()) as { metadata: { implicate: number; synthesis_seed: string; version: string } };
    expect(second.status, JSON.stringify(json)).toBe(200);
    expect(json.metadata).toMatchObject({ implicate: 2, synthesis_seed: String(implicateSeed(DEMO_SEED, 2)), version: 'demo-2021.1' });
    await spq.stop();
    expect(spq.exitCode()).toBe(0);
  }, 1_800_000);
});
