import { createThreadHasher } from '../../src/adapters/password/hasher-thread.ts';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createSqliteAccountStore } from '../../src/adapters/db/sqlite.ts';
import { createMemoryRateLimiter } from '../../src/adapters/ratelimit/memory.ts';
import { oneTimeLinkHolder, setPasswordWithLink } from '../../src/app/web/sign-in.ts';
import { loadConfig } from '../../src/config.ts';
import { systemClock } from '../../src/ports/clock.ts';
import { checkKeyFormat, hashApiKey, newId } from '../../src/core/keys.ts';
import type { AccountStore } from '../../src/ports/account-store.ts';

/**
 * `spq admin …` and `spq migrate` end to end: real processes on a temporary SPQ_DATA_DIR,
 * checked against the database they wrote. Uses bin/spq.js once the whole CLI loads, else an
 * entry with only these commands (test/cli/admin-entry.ts).
 */
const dataDir = mkdtempSync(join(tmpdir(), 'spq-admin-'));
let entry: string[] = [];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
function spq(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...entry, ...args], { env: { ...process.env, SPQ_DATA_DIR: dataDir, DATABASE_URL: '', SPQ_SERVER_SECRET: '' } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

let store: AccountStore;
const printedKeys: string[] = [];
function expectNoPlaintext(key: string): void {
  for (const file of readdirSync(dataDir)) expect(readFileSync(join(dataDir, file)).includes(key.slice(9)), file).toBe(false);
}
const secret = () => readFileSync(join(dataDir, 'server-secret'), 'utf8').trim();

beforeAll(async () => {
  // bin/spq.js loads every command module; until the other engineers' modules exist, use the stand-in.
  const all = ['serve', 'build', 'demo-inputs'].every((c) => existsSync(`src/cli/commands/${c}.ts`));
  entry = ['bin/run-ts.js', 'test/cli/admin-entry.ts'];
  if (all) {
    entry = ['bin/spq.js'];
    if ((await spq('admin', '--help')).code !== 0) entry = ['bin/run-ts.js', 'test/cli/admin-entry.ts'];
  }
}, 30_000);
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('spq admin', () => {
  let accountId = '';
  let firstKey = '';

  it('account create prints the account id and a first live key, once, and stores only its hash', async () => {
    const run = await spq('admin', 'account', 'create', '--email', 'Ops@Example.org', '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as { account_id: string; api_key: string; invitation_url: string; invitation_expires: string };
    expect(Object.keys(printed).sort()).toEqual(['account_id', 'api_key', 'invitation_expires', 'invitation_url']);
    // The account area's one-time link: on this service's base URL, valid 72 hours.
    expect(printed.invitation_url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/console\/welcome\/[0-9A-Za-z]{32}$/);
    expect(Date.parse(printed.invitation_expires) - Date.now()).toBeGreaterThan(71 * 3_600_000);
    expect(printed.account_id).toMatch(/^acc_[0-9A-Za-z]{20}$/);
    expect(checkKeyFormat(printed.api_key)).toMatchObject({ ok: true, value: { kind: 'live' } });
    accountId = printed.account_id;
    firstKey = printed.api_key;
    printedKeys.push(firstKey);

    // No plaintext key anywhere in the data directory. (Scanned before this process opens the
    // database: reading a SQLite file through another descriptor drops its POSIX locks.)
    expect(readdirSync(dataDir).sort()).toEqual(expect.arrayContaining(['server-secret', 'spq.sqlite']));
    expect(statSync(join(dataDir, 'server-secret')).mode & 0o777).toBe(0o600);
    expectNoPlaintext(firstKey);

    // The server's view: same file, same generated secret, the key findable by its hash.
    store = createSqliteAccountStore({ file: join(dataDir, 'spq.sqlite') });
    const found = await store.findKeyByHash(hashApiKey(firstKey, secret()));
    expect(found).toMatchObject({ accountId, prefix: 'spq_live_', last4: firstKey.slice(-4), revokedAt: null });
    expect((await store.getAccount(accountId))?.email).toBe('ops@example.org');
  });

  it('account invite prints a one-time link (invitation or reset) that the account area accepts once', async () => {
    const run = await spq('admin', 'account', 'invite', '--account', accountId, '--reset', '--json');
    expect(run.code).toBe(0);
    const link = JSON.parse(run.stdout) as { account_id: string; url: string; expires: string };
    expect(link.account_id).toBe(accountId);
    const token = /\/console\/welcome\/([0-9A-Za-z]{32})$/.exec(link.url)![1]!;
    const accounts = createSqliteAccountStore({ file: join(dataDir, 'spq.sqlite') });
    try {
      const passwords = createThreadHasher();
      onTestFinished(() => passwords.close());
      const deps = { credentials: accounts, clock: systemClock, serverSecret: secret(), limiter: createMemoryRateLimiter(), config: loadConfig({}), passwords };
      expect(await oneTimeLinkHolder(deps, token)).toEqual({ ok: true, value: { email: 'ops@example.org' } });
      expect((await setPasswordWithLink(deps, { token, password: 'four unrelated words', confirmation: 'four unrelated words' })).ok).toBe(true);
      expect((await setPasswordWithLink(deps, { token, password: 'four unrelated words', confirmation: 'four unrelated words' })).ok).toBe(false);
    } finally {
      await accounts.close();
    }
    const human = await spq('admin', 'account', 'invite', '--account', accountId);
    expect(human.stdout).toMatch(/^link \(works once, until .*\):\n  http:\/\/127\.0\.0\.1:8080\/console\/welcome\/[0-9A-Za-z]{32}\n$/);
    expect((await spq('admin', 'account', 'invite', '--account', 'acc_nope')).code).toBe(2);
  });

  it('refuses bad input with exit code 2 and changes nothing', async () => {
    const before = (await store.listAccounts()).length;
    // One of each kind: a commander usage error, a use-case refusal, an unknown id (the full
    // catalogue of refusals is tested in-process in test/app/accounts.test.ts).
    const runs: Run[] = [];
    for (const args of [
      ['admin', 'account', 'create', '--email', 'x@example.org', '--tier', 'gold'],
      ['admin', 'account', 'create', '--email', 'ops@example.org'],
      ['admin', 'credits', 'grant', '--account', newId('acc'), '--credits', '3'],
    ]) runs.push(await spq(...args));
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
    }
    expect(runs[0]!.stderr).toContain('gold');
    expect(runs[1]!.stderr).toContain('already exists');
    expect(runs[2]!.stderr).toContain('no account');
    expect((await store.listAccounts()).length).toBe(before);
    expect((await store.credits(accountId, new Date())).creditsRemaining).toBe(5);
  });

  it('key create, list and revoke (rotation)', async () => {
    const created = await spq('admin', 'key', 'create', '--account', accountId, '--json');
    expect(created.code).toBe(0);
    const second = JSON.parse(created.stdout) as { key_id: string; api_key: string };
    expect(checkKeyFormat(second.api_key).ok).toBe(true);
    printedKeys.push(second.api_key);
    const firstRecord = await store.findKeyByHash(hashApiKey(firstKey, secret()));

    const listed = await spq('admin', 'key', 'list', '--account', accountId);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`${firstRecord!.keyId}  spq_live_…${firstKey.slice(-4)}`);
    expect(lines[1]).toContain(second.key_id);
    expect(listed.stdout).not.toContain(firstKey);
    expect(listed.stdout).not.toContain(second.api_key);

    const revoked = await spq('admin', 'key', 'revoke', '--key-id', firstRecord!.keyId);
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked ${firstRecord!.keyId}\n` });
    expect((await store.findKeyByHash(hashApiKey(firstKey, secret())))?.revokedAt).toBeInstanceOf(Date);
    expect((await store.findKeyByHash(hashApiKey(second.api_key, secret())))?.revokedAt).toBeNull();
  });

  it('credits grant and bundle add work while a server holds the database and charges', async () => {
    // The test process plays the running server: it keeps charging while the CLI writes.
    let charging = true;
    let charged = 0;
    const server = (async () => {
      while (charging) {
        const now = new Date();
        const r = await store.charge({
          accountId,
          queryId: newId('qry'),
          credits: 0,
          now,
          query: { executedAt: now, datasetType: 'persons', geographySelections: ['Australia'], nObservations: 1, metadata: {}, fileKey: null, downloadExpires: now },
        });
        if (r.ok) charged++;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const grant = await spq('admin', 'credits', 'grant', '--account', accountId, '--credits', '10', '--note', 'welcome');
    const bundle = await spq('admin', 'bundle', 'add', '--account', accountId, '--credits', '50', '--days', '30');
    charging = false;
    await server;
    expect(grant).toMatchObject({ code: 0, stderr: '' });
    expect(grant.stdout).toContain('balance 15 credits (free 5, purchased 10), tier free');
    expect(bundle).toMatchObject({ code: 0, stderr: '' });
    expect(bundle.stdout).toContain('balance 65 credits (free 5, purchased 60), tier paid');
    expect(charged).toBeGreaterThan(0);
    const summary = await store.credits(accountId, new Date());
    expect(summary).toMatchObject({ tier: 'paid', creditsRemaining: 65, creditsPurchased: 60 });
    expect(await store.ledgerBalance(accountId)).toBe(65);
  });

  it('every admin command answers --json with one JSON document on stdout, and never a key but the one just created', async () => {
    const created = await spq('admin', 'account', 'create', '--email', 'json@example.org', '--json');
    const { account_id, api_key } = JSON.parse(created.stdout) as { account_id: string; api_key: string };
    printedKeys.push(api_key);
    const second = JSON.parse((await spq('admin', 'key', 'create', '--account', account_id, '--json')).stdout) as { key_id: string; api_key: string };
    printedKeys.push(second.api_key);
    const runs = {
      list: await spq('admin', 'key', 'list', '--account', account_id, '--json'),
      revoke: await spq('admin', 'key', 'revoke', '--key-id', second.key_id, '--json'),
      grant: await spq('admin', 'credits', 'grant', '--account', account_id, '--credits', '7', '--json'),
      bundle: await spq('admin', 'bundle', 'add', '--account', account_id, '--credits', '3', '--days', '10', '--json'),
      where: await spq('admin', 'where', '--json'),
      migrate: await spq('migrate', '--json'),
    };
    for (const [name, run] of Object.entries(runs)) {
      expect(run.code, `${name}: ${run.stderr}`).toBe(0);
      expect(() => JSON.parse(run.stdout), name).not.toThrow();
      expect(run.stdout.trim().split('\n'), name).toHaveLength(1);
      for (const key of printedKeys) expect(run.stdout, name).not.toContain(key.slice(9));
    }
    expect(JSON.parse(runs.list.stdout)).toHaveLength(2);
    expect(JSON.parse(runs.revoke.stdout)).toEqual({ key_id: second.key_id, revoked: true });
    expect(JSON.parse(runs.grant.stdout)).toMatchObject({ account_id, granted: 7, tier: 'free', credits_remaining: 12 });
    expect(JSON.parse(runs.bundle.stdout)).toMatchObject({ account_id, bundle: { credits: 3, days: 10 }, tier: 'paid', credits_remaining: 15 });
    expect(JSON.parse(runs.where.stdout)).toEqual({ kind: 'sqlite', database: `SQLite file ${join(dataDir, 'spq.sqlite')}` });
    expect(JSON.parse(runs.migrate.stdout)).toEqual({ migrated: true, database: `SQLite file ${join(dataDir, 'spq.sqlite')}` });
  });

  it('account create --tier paid gives the default bundle; migrate is idempotent', async () => {
    const run = await spq('admin', 'account', 'create', '--email', 'paid@example.org', '--tier', 'paid', '--json');
    expect(run.code).toBe(0);
    const { account_id } = JSON.parse(run.stdout) as { account_id: string };
    expect(await store.credits(account_id, new Date())).toMatchObject({ tier: 'paid', creditsPurchased: 100, freeCreditsReset: null });
    const migrate = await spq('migrate');
    expect(migrate.code).toBe(0);
    expect(migrate.stdout).toContain(`SQLite file ${join(dataDir, 'spq.sqlite')}`);
    printedKeys.push((JSON.parse(run.stdout) as { api_key: string }).api_key);
    await store.close();
    for (const key of printedKeys) expectNoPlaintext(key);
  });
});

describe('spq admin payments', () => {
  it('lists purchases with refunds and shortfalls, and the refused events with their reasons', async () => {
    const payments = createSqliteAccountStore({ file: join(dataDir, 'spq.sqlite') });
    try {
      const now = new Date();
      const { accountId } = await payments.createAccount({ email: 'buyer@example.org', now });
      const catalogue = [{ id: 'starter', credits: 100, days: 30, price: 2500, currency: 'aud' }];
      const checkout = { bundleId: 'starter', quotedPrice: 2500, quotedCurrency: 'aud', amountPaid: 2500, currency: 'aud' };
      const events = [
        { kind: 'checkout_completed', eventId: 'evt_cli_1', type: 'checkout.session.completed', paymentId: 'pi_cli_1', accountId, checkout, receiptUrl: 'https://pay.stripe.com/receipts/x', checkoutId: 'cs_test_1' },
        { kind: 'refund', eventId: 'evt_cli_2', type: 'charge.refunded', paymentId: 'pi_cli_1', amountRefunded: 2500 },
        { kind: 'checkout_completed', eventId: 'evt_cli_3', type: 'checkout.session.completed', paymentId: 'pi_cli_2', accountId, checkout: { ...checkout, currency: 'usd' }, receiptUrl: null, checkoutId: 'cs_test_2' },
      ] as const;
      await payments.payments!.recordEvent(events[0], now);
      await payments.payments!.applyEvent('evt_cli_1', catalogue, now);
      expect((await payments.charge({ accountId, queryId: newId('qry'), credits: 45, now, query: { executedAt: now, datasetType: 'persons', geographySelections: ['Fitzroy'], nObservations: 10, metadata: {}, fileKey: null, downloadExpires: now } })).ok).toBe(true);
      for (const event of events.slice(1)) {
        await payments.payments!.recordEvent(event, now);
        await payments.payments!.applyEvent(event.eventId, catalogue, now);
      }
      const run = await spq('admin', 'payments');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`pi_cli_1  ${accountId}  starter  100 credits  25.00 AUD  granted`);
      expect(run.stdout).toContain('refunded 25.00 AUD, 60 credits taken back, SHORTFALL 40 credits (already spent)');
      expect(run.stdout).toMatch(/evt_cli_3 {2}checkout\.session\.completed {2}pi_cli_2 .* currency_mismatch/);
      const json = await spq('admin', 'payments', '--shortfalls', '--json');
      expect(JSON.parse(json.stdout)).toMatchObject({ purchases: [{ paymentId: 'pi_cli_1', shortfall: 40 }], refused: [{ eventId: 'evt_cli_3' }] });
    } finally {
      await payments.close();
    }
  });
});

describe('spq admin --data-dir, --host, --port: the same resolution as spq serve', () => {
  it('writes to the data directory it is given (not ./data) and prints links for the server it names', async () => {
    const other = mkdtempSync(join(tmpdir(), 'spq-admin-other-'));
    try {
      const run = await spq('admin', '--data-dir', other, '--port', '9123', 'account', 'create', '--email', 'elsewhere@example.org', '--json');
      expect(run.code, run.stderr).toBe(0);
      const created = JSON.parse(run.stdout) as { account_id: string; invitation_url: string };
      expect(created.invitation_url).toMatch(/^http:\/\/127\.0\.0\.1:9123\/console\/welcome\//);
      expect(existsSync(join(other, 'spq.sqlite'))).toBe(true);
      // The account is in that database, not in SPQ_DATA_DIR's.
      const where = await spq('admin', '--data-dir', other, 'where', '--json');
      expect((JSON.parse(where.stdout) as { database: string }).database).toContain(other);
      const missing = await spq('admin', 'account', 'invite', '--account', created.account_id);
      expect(missing.code).toBe(2);
      const invite = await spq('admin', '--data-dir', other, '--host', '0.0.0.0', '--port', '8443', 'account', 'invite', '--account', created.account_id, '--json');
      expect(invite.code, invite.stderr).toBe(0);
      expect((JSON.parse(invite.stdout) as { url: string }).url).toMatch(/^http:\/\/0\.0\.0\.0:8443\/console\/welcome\//);
      const badPort = await spq('admin', '--port', 'eighty', 'where');
      expect(badPort.code).toBe(2);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
