/**
 * The authenticated path's parts in isolation, in one process on one SQLite file: the key
 * look-up through the store (Kysely) against a raw prepared read of the same row on a read-only
 * node:sqlite connection (the floor for that read), the credits summary, authenticate()
 * with and without the summary cache, and one in-memory rate-limit hit. Mean µs per call over
 * --calls sequential calls after a warm-up; machine noise moves these by ±30 %, so compare
 * within one run.
 * With --redis URL, the same two rate-limit hits through the Redis limiter (one Lua script each).
 * Usage: node bin/run-ts.js bench/auth.ts [--calls 20000] [--redis redis://127.0.0.1:6379]
 */
import { DatabaseSync } from 'node:sqlite';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteAccountStore } from '../src/adapters/db/sqlite.ts';
import { createMemoryRateLimiter } from '../src/adapters/ratelimit/memory.ts';
import { createRedisRateLimiter } from '../src/adapters/ratelimit/redis.ts';
import { createAccountWithKey } from '../src/app/accounts.ts';
import { authenticate } from '../src/app/auth.ts';
import { accountPolicies, keyPolicies } from '../src/app/rate-limits.ts';
import { SummaryCache } from '../src/app/summary-cache.ts';
import { loadConfig } from '../src/config.ts';
import { hashApiKey } from '../src/core/keys.ts';
import { systemClock } from '../src/ports/clock.ts';
import { machineLine } from './lib.ts';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '20000' }, redis: { type: 'string' } } });
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
  const limits = loadConfig({ SPQ_DATA_DIR: dir }).rateLimits;
  const policies = keyPolicies(limits, 'paid', 'key_bench').map((p) => ({ ...p, limit: 10_000_000 }));
  // The baseline: the tier's two windows alone, as every key was limited before per-account limits.
  const twoWindows = accountPolicies(limits, 'paid').map((p) => ({ ...p, limit: 10_000_000 }));
  const reader = new DatabaseSync(file, { readOnly: true });
  const rawRead = reader.prepare('select * from "api_keys" where "key_hash" = ?');

  const rows: [string, () => unknown][] = [
    ['raw prepared read of the key row (read-only connection; the floor)', () => rawRead.get(keyHash)],
    ['store.findKeyByHash (Kysely, SQLite driver)', () => store.findKeyByHash(keyHash)],
    ['hashApiKey (HMAC-SHA256)', () => hashApiKey(apiKey, secret)],
    ['store.credits (balance, bundles)', () => store.credits(account.accountId, new Date())],
    ['authenticate, summary cache (as the server does)', () => authenticate(deps, `Bearer ${apiKey}`, summaries)],
    ['authenticate, no cache', () => authenticate(deps, `Bearer ${apiKey}`)],
    ['memory rate limiter hit, the tier\'s two windows (baseline)', () => limiter.hit('key:bench', twoWindows, Date.now())],
    ['memory rate limiter hit, account and key windows (four, as served)', () => limiter.hit('account:bench', policies, Date.now())],
  ];
  const redis = values.redis === undefined ? undefined : createRedisRateLimiter({ url: values.redis, keyPrefix: `spq:bench:${process.pid}:`, log: (e) => process.stderr.write(`redis limiter: ${e.msg}${e.err ? ` (${e.err})` : ''}\n`) });
  if (redis !== undefined) {
    // The rows above never yield to I/O (their promises resolve at once): connect before they run.
    for (let i = 0; i < 50 && !(await redis.healthy()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    rows.push(
      ['Redis rate limiter hit, the tier\'s two windows (baseline)', () => redis.hit('key:bench', twoWindows, Date.now())],
      ['Redis rate limiter hit, account and key windows (four, as served)', () => redis.hit('account:bench', policies, Date.now())],
    );
  }
  process.stdout.write(`| part | µs per call |\n|---|---|\n`);
  for (const [name, call] of rows) {
    for (let i = 0; i < Math.min(2000, calls); i++) await call();
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await call();
    process.stdout.write(`| ${name} | ${(((performance.now() - t0) * 1000) / calls).toFixed(1)} |\n`);
  }
  process.stdout.write(`\n${calls.toLocaleString('en-US')} calls each; ${machineLine()}\n`);
  reader.close();
  await redis?.close();
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
