import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteAccountStore } from '../../src/adapters/db/sqlite.ts';
import { addBundle, createAccountWithKey, createKey, DEFAULT_PAID_BUNDLE, grantCredits, listKeys, revokeKey, type AccountAdminDeps } from '../../src/app/accounts.ts';
import { checkKeyFormat, hashApiKey, newId } from '../../src/core/keys.ts';
import type { AccountStore } from '../../src/ports/account-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'spq-app-accounts-'));
const NOW = new Date('2026-11-25T03:00:00Z');
let store: AccountStore;
let deps: AccountAdminDeps;

beforeAll(async () => {
  store = createSqliteAccountStore({ file: join(dir, 'spq.sqlite') });
  await store.migrate();
  // A clock that moves 1 ms per reading, so records made one after another are ordered.
  let tick = 0;
  deps = { store, serverSecret: 'app-test-secret', clock: { now: () => new Date(NOW.getTime() + tick++) } };
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function created(email: string) {
  const r = await createAccountWithKey(deps, { email });
  if (!r.ok) throw new Error(r.error.detail);
  return r.value;
}

describe('account admin use cases', () => {
  it('create an account with a live key stored by hash, email normalised', async () => {
    const { account, apiKey, key } = await created('  Someone@Example.ORG ');
    expect(account.email).toBe('someone@example.org');
    expect(checkKeyFormat(apiKey)).toMatchObject({ ok: true, value: { kind: 'live' } });
    expect(await store.findKeyByHash(hashApiKey(apiKey, deps.serverSecret))).toEqual(key);
    expect(await store.credits(account.accountId, NOW)).toMatchObject({ tier: 'free', creditsRemaining: 5 });
    expect(key.createdAt.getTime()).toBeGreaterThanOrEqual(account.createdAt.getTime());
  });

  it('create a paid account with the default or a named bundle', async () => {
    const a = await createAccountWithKey(deps, { email: 'paid1@example.org', tier: 'paid' });
    const b = await createAccountWithKey(deps, { email: 'paid2@example.org', tier: 'paid', bundle: { credits: 7, days: 3 } });
    if (!a.ok || !b.ok) throw new Error('expected both to succeed');
    const soon = new Date(NOW.getTime() + 60_000);
    expect(await store.credits(a.value.account.accountId, soon)).toMatchObject({ tier: 'paid', creditsPurchased: DEFAULT_PAID_BUNDLE.credits });
    expect(await store.credits(b.value.account.accountId, soon)).toMatchObject({ tier: 'paid', creditsPurchased: 7 });
    expect((await store.credits(b.value.account.accountId, new Date(soon.getTime() + 3 * 86_400_000))).tier).toBe('free');
  });

  it('refuse bad input as bad_request or not_found, changing nothing', async () => {
    const { account } = await created('owner@example.org');
    const accountsBefore = (await store.listAccounts()).length;
    const refusals = [
      await createAccountWithKey(deps, { email: 'OWNER@example.org' }),
      await createAccountWithKey(deps, { email: 'not an email' }),
      await createAccountWithKey(deps, { email: 'free@example.org', bundle: { credits: 1, days: 1 } }),
      await createAccountWithKey(deps, { email: 'p@example.org', tier: 'paid', bundle: { credits: -1, days: 1 } }),
      await createAccountWithKey(deps, { email: 'q@example.org', tier: 'paid', bundle: { credits: 1, days: 0 } }),
      await grantCredits(deps, { accountId: account.accountId, credits: 0 }),
      await grantCredits(deps, { accountId: account.accountId, credits: 2.5 }),
      await grantCredits(deps, { accountId: account.accountId, credits: Number.NaN }),
      await grantCredits(deps, { accountId: account.accountId, credits: 1e12 }),
      await addBundle(deps, { accountId: account.accountId, credits: 5, days: 0 }),
      await addBundle(deps, { accountId: account.accountId, credits: -5, days: 10 }),
      await createKey(deps, { accountId: 'acc_bad' }),
      await listKeys(deps, 'not-an-id'),
      await revokeKey(deps, 'key_x'),
    ];
    for (const r of refusals) expect(r).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const missing = [
      await grantCredits(deps, { accountId: newId('acc'), credits: 1 }),
      await addBundle(deps, { accountId: newId('acc'), credits: 1, days: 1 }),
      await createKey(deps, { accountId: newId('acc') }),
      await listKeys(deps, newId('acc')),
      await revokeKey(deps, newId('key')),
    ];
    for (const r of missing) expect(r).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await store.listAccounts()).length).toBe(accountsBefore);
    expect(await store.credits(account.accountId, NOW)).toMatchObject({ creditsRemaining: 5, tier: 'free' });
    expect(await store.listKeys(account.accountId)).toHaveLength(1);
  });

  it('create sandbox and live keys, list them, revoke one', async () => {
    const { account, key: first } = await created('keys@example.org');
    const sandbox = await createKey(deps, { accountId: account.accountId, kind: 'test' });
    if (!sandbox.ok) throw new Error(sandbox.error.detail);
    expect(sandbox.value.apiKey.startsWith('spq_test_')).toBe(true);
    expect(sandbox.value.key.prefix).toBe('spq_test_');
    expect(await revokeKey(deps, first.keyId)).toEqual({ ok: true, value: undefined });
    expect(await revokeKey(deps, first.keyId)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const listed = await listKeys(deps, account.accountId);
    expect(listed.ok && listed.value.map((k) => [k.keyId, k.revokedAt !== null])).toEqual([
      [first.keyId, true],
      [sandbox.value.key.keyId, false],
    ]);
  });

  it('grant and bundle return the new balance', async () => {
    const { account } = await created('money@example.org');
    expect(await grantCredits(deps, { accountId: account.accountId, credits: 10, note: 'promo' })).toMatchObject({ ok: true, value: { creditsRemaining: 15, tier: 'free' } });
    expect(await addBundle(deps, { accountId: account.accountId, credits: 0, days: 30 })).toMatchObject({ ok: true, value: { creditsRemaining: 15, tier: 'paid' } });
  });
});
