/**
 * The authenticated path's parts in isolation, in one process on one SQLite file: the key
 * look-up through the store (Kysely) against a raw prepared read of the same row on a read-only
 * node:sqlite connection (the floor for that read), the credits summary, authenticate()
 * with and without the summary cache, and one in-memory rate-limit hit. Mean µs per call over
 * --calls sequential calls after a warm-up; machine noise moves these by ±30 %, so compare
 * within one run.
 * Usage: node bin/run-ts.js bench/auth.ts [--calls 20000]
 */
import { DatabaseSync } from 'node:sqlite';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteAccountStore } from '../src/adapters/db/sqlite.ts';
import { createMemoryRateLimiter } from '../src/adapters/ratelimit/memory.ts';
import { createAccountWithKey } from '../src/app/accounts.ts';
import { authenticate, keyPolicies } from '../src/app/auth.ts';
import { SummaryCache } from '../src/app/summary-cache.ts';
import { loadConfig } from '../src/config.ts';
import { hashApiKey } from '../src/core/keys.ts';
import { systemClock } from '../src/ports/clock.ts';
import { machineLine } from './lib.ts';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '20000' } } });
const calls = Number(values.calls);

const dir = await mkdtemp(join(tmpdir(), 'spq-bench-auth-'));
const file = join(dir, 'spq.sqlite');
const store = createSqliteAccountStore({ file });
try {
  await store.migrate();
  const secret = 'bench-auth-secret-0123456789abcdef0123';
  const created = await createAccountWithKey({ store, serverSecret: secret, clock: systemClock }, { email: 'bench@example.org', tier: 'paid' });
  if (!created.ok) throw new Error(created.error.detail);
  const { apiKey, account } = created.value;
  const keyHash = hashApiKey(apiKey, secret);
  const deps = { accounts: store, clock: systemClock, serverSecret: secret };
  const summaries = new SummaryCache();
  const limiter = createMemoryRateLimiter();
  const policies = keyPolicies(loadConfig({ SPQ_DATA_DIR: dir }).rateLimits, 'paid', 'key_bench').map((p) => ({ ...p, limit: 10_000_000 }));
  const reader = new DatabaseSync(file, { readOnly: true });
  const rawRead = reader.prepare('select * from "api_keys" where "key_hash" = ?');

  const rows: [string, () => unknown][] = [
    ['raw prepared read of the key row (read-only connection; the floor)', () => rawRead.get(keyHash)],
    ['store.findKeyByHash (Kysely, SQLite driver)', () => store.findKeyByHash(keyHash)],
    ['hashApiKey (HMAC-SHA256)', () => hashApiKey(apiKey, secret)],
    ['store.credits (balance, bundles)', () => store.credits(account.accountId, new Date())],
    ['authenticate, summary cache (as the server does)', () => authenticate(deps, `Bearer ${apiKey}`, summaries)],
    ['authenticate, no cache', () => authenticate(deps, `Bearer ${apiKey}`)],
    ['memory rate limiter hit (account and key windows)', () => limiter.hit('account:bench', policies, Date.now())],
  ];
  process.stdout.write(`| part | µs per call |\n|---|---|\n`);
  for (const [name, call] of rows) {
    for (let i = 0; i < Math.min(2000, calls); i++) await call();
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await call();
    process.stdout.write(`| ${name} | ${(((performance.now() - t0) * 1000) / calls).toFixed(1)} |\n`);
  }
  process.stdout.write(`\n${calls.toLocaleString('en-US')} calls each; ${machineLine()}\n`);
  reader.close();
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
