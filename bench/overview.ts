/**
 * The account area's overview against its credits page, in one process on one SQLite file: an
 * account with --queries completed queries in the last 30 days (spread over the days and over 5
 * keys), then the overview's reads and sums (accountOverview: balance, bundles, keys, the
 * queries of 30 days added up by day and by key) against the credits page's (creditsOverview:
 * balance, bundles, a page of the ledger with its running balance), mean ms per call over --calls
 * sequential calls after a warm-up. The ratio is what to compare across runs.
 * Usage: node bin/run-ts.js bench/overview.ts [--queries 5000] [--calls 50]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteAccountStore } from '../src/adapters/db/sqlite.ts';
import { creditsOverview } from '../src/app/web/holder.ts';
import { accountOverview } from '../src/app/web/usage.ts';
import { newId } from '../src/core/keys.ts';
import { fmtMs, machineLine } from './lib.ts';

const { values } = parseArgs({ options: { queries: { type: 'string', default: '5000' }, calls: { type: 'string', default: '50' } } });
const queries = Number(values.queries);
const calls = Number(values.calls);
const DAY = 86_400_000;
const now = new Date('2026-11-25T03:00:00Z');
const clock = { now: () => now };

const dir = await mkdtemp(join(tmpdir(), 'spq-bench-overview-'));
const store = createSqliteAccountStore({ file: join(dir, 'spq.sqlite') });
try {
  await store.migrate();
  const { accountId } = await store.createAccount({ email: 'bench@example.org', now: new Date(now.getTime() - 40 * DAY) });
  await store.grantCredits({ accountId, credits: queries * 2, now: new Date(now.getTime() - 40 * DAY) });
  const keys = Array.from({ length: 5 }, () => newId('key'));
  for (let i = 0; i < queries; i++) {
    const at = new Date(now.getTime() - ((i * 29 * DAY) / queries + 1000));
    const queryId = newId('qry');
    const metadata = { geography_level: 'suburb', geography_selections: ['Richmond (VIC)', 'Fitzroy'], seed: '123', version: 'bench', implicate: 1 };
    await store.charge({ accountId, queryId, credits: 1, now: at, query: { executedAt: at, datasetType: 'persons', geographySelections: ['Richmond (VIC)', 'Fitzroy'], nObservations: 100, metadata, fileKey: null, downloadExpires: new Date(at.getTime() + 7 * DAY), keyId: keys[i % 5]! } });
    await store.completeQuery(queryId, `${queryId}.csv`);
  }
  const deps = { store, clock };
  const time = async (fn: () => Promise<unknown>): Promise<number> => {
    for (let i = 0; i < 5; i++) await fn();
    const start = performance.now();
    for (let i = 0; i < calls; i++) await fn();
    return (performance.now() - start) / calls;
  };
  const credits = await time(() => creditsOverview(deps, accountId, 1, 20));
  const overview = await time(() => accountOverview(deps, accountId, 'Australia/Sydney'));
  const check = await accountOverview(deps, accountId, 'Australia/Sydney');
  if (check.totals.queries !== Math.min(queries, 5000)) throw new Error(`counted ${check.totals.queries} queries, expected ${queries}`);
  process.stdout.write(`${machineLine()}\n`);
  process.stdout.write(`| queries in 30 days | credits page (ms) | overview (ms) | overview ÷ credits page |\n|---|---|---|---|\n`);
  process.stdout.write(`| ${queries} | ${fmtMs(credits)} | ${fmtMs(overview)} | ${(overview / credits).toFixed(1)}× |\n`);
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
