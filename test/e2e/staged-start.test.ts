/**
 * Issue 42, item 4: `spq serve --inputs` of several levels on a fresh data directory listens as
 * soon as its first level (postal areas) is written, builds the complete release in the background
 * and switches to it. Real `spq serve` processes (dist/) on the shipped Northern Territory tables
 * (68 SA2s, 34 postal areas), one data directory throughout:
 * 1. first start: postal areas serve, SA2s building (/readyz, the console), a query at sa2 gets
 *    503 service_unavailable with Retry-After; a stop during the background build exits cleanly;
 * 2. the next start serves the postal areas at once and builds the rest again; executes running
 *    across the switch finish on the release they started with, each charged once; then every level;
 * 3. the complete release is the one a plain build of the same levels and seed writes;
 * 4. a third start serves the complete release at once and removes the first level's.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRelease } from '../../src/release-builder/build-release.ts';
import { DEMO_SEED } from '../../src/release-builder/releases.ts';
import { childEnv, sleep, spqAdmin, startSpq, waitFor, type SpqProcess } from '../scaleout/stack.ts';
import { freePort } from '../support/free-port.ts';

const SHIPPED = fileURLToPath(new URL('../../census/2021-gcp/', import.meta.url));
const VERSION = 'census-2021.1';
const FIRST_VERSION = 'census-2021.1-poa-first';
/** Each export waits this long first, so that executes are really in flight when the release switches. */
const EXPORT_DELAY_MS = 2500;

/** The shipped Northern Territory SA2 and postal-area packs, beside the STE and AUS parents. */
async function territoryInputs(dir: string): Promise<string> {
  for (const level of ['SA2', 'POA']) {
    await mkdir(join(dir, level), { recursive: true });
    for (const name of await readdir(join(SHIPPED, level))) if (name.endsWith(`_NT_${level}.csv`)) await symlink(join(SHIPPED, level, name), join(dir, level, name));
  }
  for (const parent of ['STE', 'AUS']) await symlink(join(SHIPPED, parent), join(dir, parent));
  return dir;
}

interface Ready {
  readonly status: string;
  readonly version: string;
  readonly levels: string[];
  readonly building: string[];
  readonly building_seconds_left?: number;
}
interface Executed {
  readonly credit_cost: number;
  readonly credits_remaining: number;
  readonly download_url: string;
  readonly metadata: { readonly version: string; readonly geography_level: string };
}

let root = '';
let inputs = '';
let dataDir = '';
let spq: SpqProcess | undefined;
let key = '';

const env = () => childEnv({ SPQ_DATA_DIR: dataDir, SPQ_LOG_LEVEL: 'warn', SPQ_TEST_EXPORT_DELAY_MS: String(EXPORT_DELAY_MS) });
const start = async (): Promise<SpqProcess> => (spq = await startSpq(env(), await freePort(), 900_000, ['--inputs', inputs, '--levels', 'sa2,poa']));
const readyz = async (): Promise<{ status: number; body: Ready }> => {
  const response = await spq!.call('/readyz');
  return { status: response.status, body: (await response.json()) as Ready };
};
const query = (level: string, selection: string) => ({ geography_level: level, geography_selections: [selection], dataset_type: 'persons', n_observations: 50, output_format: 'csv' });
const completeManifest = () => join(dataDir, 'pools', VERSION, 'manifest.json');

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'spq-staged-'));
  inputs = await territoryInputs(join(root, 'inputs'));
  dataDir = join(root, 'data');
});
afterAll(async () => {
  await spq?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('spq serve --inputs of several levels on a fresh data directory', () => {
  it('serves the postal areas before the SA2s are built, and says so in /readyz, the console and a query at sa2', async () => {
    await start();
    key = spq!.lines.find((l) => /^spq_live_/.test(l))!;
    expect(key).toBeDefined();
    expect(spq!.lines.some((l) => l.includes('building postal areas from'))).toBe(true);
    const { status, body } = await readyz();
    expect(existsSync(completeManifest())).toBe(false);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ready', version: FIRST_VERSION, building: ['sa2'] });
    expect(body.levels).toContain('postcode');
    expect(body.levels).not.toContain('sa2');
    expect(body.building_seconds_left).toBeGreaterThanOrEqual(1);
    await waitFor('the console line', 10_000, async () => (spq!.lines.some((l) => l === 'serving postal areas now; SA2s building in the background (GET /readyz says which levels serve)') ? true : undefined));

    for (const path of ['/query/execute', '/query/preview']) {
      const early = await spq!.call(path, { key, body: query('sa2', 'Darwin City') });
      const error = (await early.json()) as { error: string; detail: string };
      expect(early.status, JSON.stringify(error)).toBe(503);
      expect(error.error).toBe('service_unavailable');
      expect(error.detail).toMatch(/geography_level "sa2" is still being built on this server.*Retry after/);
      expect(Number(early.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    const search = await spq!.call('/geography/search?query=Darwin&level=sa2', { key });
    expect(search.status).toBe(503);
    expect(((await search.json()) as { error: string }).error).toBe('service_unavailable');
    expect((await spq!.call('/geography/search?query=0800&level=postcode', { key })).status).toBe(200);
    const postcode = await spq!.call('/query/execute', { key, body: query('postcode', '0800') });
    expect(postcode.status).toBe(200);
    expect(((await postcode.json()) as Executed).metadata.version).toBe(FIRST_VERSION);
  }, 900_000);

  it('stops cleanly during the background build, leaving no half release', async () => {
    await spq!.stop();
    expect(spq!.exitCode()).toBe(0);
    expect(spq!.lines.some((l) => l.startsWith('stopped building SA2s'))).toBe(true);
    expect(existsSync(completeManifest())).toBe(false);
    // Credits for the executes below, however long the build takes on a busy machine (about one a second).
    const account = /demo account (acc_\S+) created/.exec(spq!.lines.join('\n'))![1]!;
    await spqAdmin(env(), ['bundle', 'add', '--account', account, '--credits', '1000', '--days', '30']);
  }, 120_000);

  it('serves the postal areas at once on the next start and switches to every level, executes under way finishing on their release', async () => {
    await start();
    expect(spq!.lines.some((l) => l.includes('building postal areas from'))).toBe(false);
    expect((await readyz()).body.building).toEqual(['sa2']);
    const before = (await (await spq!.call('/account/credits', { key })).json()) as { credits_remaining: number };
    // An execute every 1.5 s (inside the 60 a minute), each held EXPORT_DELAY_MS before its export, until the switch has happened and one more has run.
    const runs: { startedAt: number; finishedAt: number; status: number; body: Executed }[] = [];
    const running: Promise<void>[] = [];
    let switchedAt: number | undefined;
    const switched = waitFor('every level', 900_000, async () => (spq!.lines.some((l) => l.startsWith('ready with every level')) ? true : undefined), 20).then(() => {
      switchedAt = Date.now();
    });
    while (switchedAt === undefined || runs.filter((r) => r.startedAt > switchedAt!).length === 0) {
      const startedAt = Date.now();
      running.push(
        spq!.call('/query/execute', { key, body: query('postcode', '0800'), timeoutMs: 60_000 }).then(async (r) => {
          runs.push({ startedAt, finishedAt: Date.now(), status: r.status, body: (await r.json()) as Executed });
        }),
      );
      await sleep(1500);
      expect(running.length).toBeLessThan(900);
    }
    await switched;
    await Promise.all(running);
    for (const r of runs) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const across = runs.filter((r) => r.startedAt < switchedAt! - 200 && r.finishedAt > switchedAt!);
    expect(across.length).toBeGreaterThan(0);
    for (const r of across) {
      expect(r.body.metadata.version).toBe(FIRST_VERSION);
      const file = await fetch(r.body.download_url);
      expect(file.status).toBe(200);
      expect((await file.text()).trimEnd().split('\n')).toHaveLength(51); // a header and the 50 records
    }
    expect(runs.filter((r) => r.startedAt > switchedAt!).every((r) => r.body.metadata.version === VERSION)).toBe(true);
    const after = (await (await spq!.call('/account/credits', { key })).json()) as { credits_remaining: number };
    expect(before.credits_remaining - after.credits_remaining).toBe(runs.reduce((n, r) => n + r.body.credit_cost, 0));

    const { status, body } = await readyz();
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ready', version: VERSION, building: [] });
    expect(body.levels).toEqual(expect.arrayContaining(['sa2', 'postcode']));
    const sa2 = await spq!.call('/query/execute', { key, body: query('sa2', 'Darwin City') });
    expect(sa2.status).toBe(200);
    await spq!.stop();
    expect(spq!.exitCode()).toBe(0);
  }, 900_000);

  it('built the complete release exactly as a plain build of the same levels and seed', async () => {
    const plain = await buildRelease({ inputsDir: inputs, poolsDir: join(root, 'plain'), version: VERSION, seed: DEMO_SEED, levels: ['sa2', 'poa'], smallSuburbThreshold: 500 });
    const records = async (dir: string) => {
      const files = (JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { files: Record<string, { sha256: string }> }).files;
      return Object.fromEntries(Object.entries(files).filter(([name]) => name === 'catalog.json' || name.startsWith('columns/')));
    };
    const served = await records(join(dataDir, 'pools', VERSION));
    expect(Object.keys(served).length).toBeGreaterThan(10);
    expect(served).toEqual(await records(plain.dir));
  }, 900_000);

  it('serves the complete release at once on a later start, and removes the first level\'s', async () => {
    await start();
    const { status, body } = await readyz();
    expect(status).toBe(200);
    expect(body).toMatchObject({ version: VERSION, building: [] });
    expect(spq!.lines.some((l) => l.startsWith('serving postal areas now'))).toBe(false);
    await waitFor('the first level\'s release removed', 10_000, async () => (existsSync(join(dataDir, 'pools', '.first-level')) ? undefined : true));
    expect((await spq!.call('/query/execute', { key, body: query('sa2', 'Darwin City') })).status).toBe(200);
  }, 900_000);
});
