/**
 * The in-memory key cache over a real SQLite store: requests within the recheck interval read no
 * database; a revocation heard is refused at once, one not heard within the interval.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteAccountStore } from '../../src/adapters/db/sqlite.ts';
import { createAccountWithKey, revokeKey } from '../../src/app/accounts.ts';
import { KEY_ENTRY_BYTES, KeyCache } from '../../src/app/key-cache.ts';
import { InProcessRevocations } from '../../src/app/revocations.ts';
import { hashApiKey } from '../../src/core/keys.ts';
import type { AccountStore } from '../../src/ports/account-store.ts';
import { systemClock } from '../../src/ports/clock.ts';

const SECRET = 'key-cache-test-secret-0123456789abcdef';
let dir: string;
let store: AccountStore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spq-key-cache-'));
  store = createSqliteAccountStore({ file: join(dir, 'spq.sqlite') });
  await store.migrate();
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** A cache over the store with a clock the test moves, counting the store reads it makes. */
function cacheWithClock(recheckMs = 1000, maxEntries?: number) {
  // Bounded in bytes: maxEntries entries' worth.
  const clock = { ms: 0 };
  const reads: string[] = [];
  const cache = new KeyCache(
    (hash) => {
      reads.push(hash);
      return store.findKeyByHash(hash);
    },
    { recheckMs, now: () => clock.ms, ...(maxEntries !== undefined ? { maxBytes: maxEntries * KEY_ENTRY_BYTES } : {}) },
  );
  return { cache, clock, reads };
}

async function newKey(email = `k-${Math.random().toString(36).slice(2)}@example.org`) {
  const made = await createAccountWithKey({ store, serverSecret: SECRET, clock: systemClock }, { email });
  if (!made.ok) throw new Error(made.error.detail);
  return { apiKey: made.value.apiKey, keyId: made.value.key.keyId, hash: hashApiKey(made.value.apiKey, SECRET) };
}

describe('KeyCache', () => {
  it('answers from memory within the recheck interval and reads the store again after it', async () => {
    const { cache, clock, reads } = cacheWithClock(1000);
    const key = await newKey();
    expect((await cache.find(key.hash))?.keyId).toBe(key.keyId);
    clock.ms = 999;
    expect((await cache.find(key.hash))?.keyId).toBe(key.keyId);
    expect(reads).toHaveLength(1);
    clock.ms = 1000;
    await cache.find(key.hash);
    expect(reads).toHaveLength(2);
  });

  it('remembered() answers without waiting only what find() would from memory: a read that came back, fresh, revocations heard', async () => {
    const revocations = new InProcessRevocations();
    const { cache, clock, reads } = cacheWithClock(1000);
    revocations.listen(cache);
    const key = await newKey();
    expect(cache.remembered(key.hash)).toBeUndefined(); // never read
    const reading = cache.find(key.hash);
    expect(cache.remembered(key.hash)).toBeUndefined(); // the read is under way
    await reading;
    expect(cache.remembered(key.hash)).toEqual(await cache.find(key.hash));
    expect(cache.remembered(key.hash)?.keyId).toBe(key.keyId);
    clock.ms = 1000; // as old as the recheck interval: the store is asked again, through find()
    expect(cache.remembered(key.hash)).toBeUndefined();
    expect(reads).toHaveLength(1);
    await cache.find(key.hash);
    expect(cache.remembered(key.hash)?.revokedAt).toBeNull();
    await revocations.announce(key.keyId);
    expect(cache.remembered(key.hash)?.revokedAt).toBeInstanceOf(Date);
    expect(cache.remembered(hashApiKey('spq_live_unknown', SECRET))).toBeUndefined();
  });

  it('a revocation not announced is refused once the entry is rechecked (the bound); an announced one at once', async () => {
    const revocations = new InProcessRevocations();
    const { cache, clock } = cacheWithClock(1000);
    revocations.listen(cache);
    const quiet = await newKey();
    const announced = await newKey();
    for (const k of [quiet, announced]) expect((await cache.find(k.hash))?.revokedAt).toBeNull();

    expect(await store.revokeKey(quiet.keyId, new Date())).toBe(true); // behind the cache's back
    clock.ms = 1000;
    expect((await cache.find(quiet.hash))?.revokedAt).toBeInstanceOf(Date);

    clock.ms = 1001; // the other entry is 1 ms old: only the announcement can refuse it now
    expect(await revokeKey({ store, serverSecret: SECRET, clock: systemClock, keyRevocations: revocations }, announced.keyId)).toEqual({ ok: true, value: undefined });
    expect((await cache.find(announced.hash))?.revokedAt).toBeInstanceOf(Date);
  });

  it('a read under way when a revocation is heard does not bring the key back', async () => {
    const key = await newKey();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const cache = new KeyCache(async (hash) => {
      const record = await store.findKeyByHash(hash); // read before the revocation commits
      await gate;
      return record;
    }, { recheckMs: 60_000 });
    const pending = cache.find(key.hash);
    await new Promise((r) => setTimeout(r, 20));
    await store.revokeKey(key.keyId, new Date());
    cache.revoked(key.keyId);
    release();
    expect((await pending)?.revokedAt).toBeInstanceOf(Date);
    expect((await cache.find(key.hash))?.revokedAt).toBeInstanceOf(Date);
  });

  it('concurrent requests with one key share one read; unknown keys and failed reads are not remembered', async () => {
    const { cache, reads } = cacheWithClock(1000);
    const key = await newKey();
    const found = await Promise.all(Array.from({ length: 20 }, () => cache.find(key.hash)));
    expect(new Set(found.map((r) => r?.keyId))).toEqual(new Set([key.keyId]));
    expect(reads).toHaveLength(1);

    const unknown = hashApiKey('spq_live_neverissued', SECRET);
    expect(await cache.find(unknown)).toBeUndefined();
    expect(await cache.find(unknown)).toBeUndefined();
    expect(reads.filter((h) => h === unknown)).toHaveLength(2);
    expect(cache.size).toBe(1);

    let fail = true;
    const flaky = new KeyCache((hash) => (fail ? Promise.reject(new Error('database down')) : store.findKeyByHash(hash)), { recheckMs: 60_000 });
    await expect(flaky.find(key.hash)).rejects.toThrow('database down');
    fail = false;
    expect((await flaky.find(key.hash))?.keyId).toBe(key.keyId);
  });

  it('holds at most maxEntries and forgets everything when announcements were missed', async () => {
    const { cache, reads } = cacheWithClock(60_000, 2);
    const keys = [await newKey(), await newKey(), await newKey()];
    for (const k of keys) await cache.find(k.hash);
    expect(cache.size).toBe(2);
    await cache.find(keys[0]!.hash); // the oldest was dropped: read again
    expect(reads).toHaveLength(4);
    cache.missed();
    expect(cache.size).toBe(0);
    await cache.find(keys[2]!.hash);
    expect(reads).toHaveLength(5);
  });

  it('forgets expired keys as new ones arrive: what it holds is what was read within recheckMs', async () => {
    const { cache, clock } = cacheWithClock(1000, 100);
    const keys = [await newKey(), await newKey(), await newKey()];
    await cache.find(keys[0]!.hash);
    await cache.find(keys[1]!.hash);
    clock.ms += 1500;
    await cache.find(keys[2]!.hash);
    expect(cache.size).toBe(1);
  });
});
