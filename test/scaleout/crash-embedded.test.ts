/**
 * The crash harness (crash-harness.ts) on the embedded stack: one `spq serve` on SQLite and
 * local files, killed with SIGKILL SPQ_CRASH_KILLS times (50) under parallel load and started
 * again; start-up refunds what was pending and removes partial files.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteAccountStore } from '../../src/adapters/db/sqlite.ts';
import { buildFixtureRelease, FIXTURE_VERSION } from '../adapters/pools/fixture.ts';
import { filesUnder, generator, KILLS, LIMITS, paidAccounts, runHarness, SEED, type StackUnderTest } from './crash-harness.ts';
import { childEnv, freePort, startSpq } from './stack.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean().catch(() => undefined);
});


describe('crash harness: kill -9 at random points of executes under parallel load', () => {
  it(`embedded (SQLite, local files): ${KILLS} kills, then every key answered and the books balance`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spq-crash-embedded-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const secret = `crash-harness-secret-${randomBytes(16).toString('hex')}`;
    const dataDir = join(dir, 'data');
    const store = createSqliteAccountStore({ file: join(dataDir, 'spq.sqlite') });
    cleanups.push(() => store.close());
    const accounts = await paidAccounts(store, secret, 3);
    const env = childEnv({ SPQ_DATA_DIR: dataDir, SPQ_POOL_DIR: await buildFixtureRelease(join(dir, 'pools')), SPQ_POOL_VERSION: FIXTURE_VERSION, SPQ_SERVER_SECRET: secret, ...LIMITS });
    const port = await freePort();
    const stack: StackUnderTest = {
      name: 'embedded',
      instances: [await startSpq(env, port)],
      async restart(i) {
        this.instances[i] = await startSpq(env, port);
      },
      store,
      accounts,
      listStoredFiles: async () => (await filesUnder(join(dataDir, 'files'))).map((f) => f.slice(join(dataDir, 'files').length + 1)),
      tmpDirs: [join(dataDir, 'tmp')],
      close: async () => undefined,
    };
    cleanups.push(async () => {
      for (const p of stack.instances) await p.stop();
    });
    const random = generator(SEED);
    const figures = await runHarness(stack, random);
    process.stderr.write(`crash harness, embedded: ${JSON.stringify(figures)} (seed ${SEED})\n`);
    expect(figures.jobs).toBeGreaterThan(KILLS);
  }, 600_000);

});
