/**
 * Issue 41 on real `spq serve` processes sharing one PostgreSQL, with a local stand-in for
 * Stripe's API and webhook events signed by the library's own test helper:
 *
 *   kill -9 between recording an event and granting it: the instance is killed with SIGKILL while
 *   the event is recorded and not applied (SPQ_TEST_PAYMENT_APPLY_DELAY_MS holds it there); on
 *   restart it is applied once, and Stripe's redelivery to the other instance changes nothing;
 *
 *   two instances: checkouts, partial and full refunds and disputes for several accounts,
 *   delivered duplicated, out of order and concurrently to both instances, end in the books the
 *   events say: each bundle granted once, each take-back once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresAccountStore } from '../../src/adapters/db/postgres.ts';
import type { AccountStore } from '../../src/ports/account-store.ts';
import { buildFixtureRelease, FIXTURE_VERSION } from '../adapters/pools/fixture.ts';
import { createDatabase } from '../support/postgres.ts';
import { checkoutSessionObject, SECRET_KEY, startStripeStandIn, WEBHOOK_SECRET, type StandInSession, type StripeStandIn } from '../support/stripe-stand-in.ts';
import { LIMITS } from './crash-harness.ts';
import { childEnv, freePort, sleep, startSpq, waitFor, type SpqProcess } from './stack.ts';

const cleanups: (() => Promise<void>)[] = [];
let standIn: StripeStandIn;
let store: AccountStore;
let baseEnv: Record<string, string>;
let dir: string;

afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean().catch(() => undefined);
});

/** A paid Checkout Session of the catalogue's starter bundle (A$25.00, 100 credits) for the account. */
const session = (accountId: string): StandInSession => ({
  id: `cs_test_${randomBytes(8).toString('hex')}`,
  paymentIntent: `pi_${randomBytes(8).toString('hex')}`,
  accountId,
  amount: 2500,
  currency: 'aud',
  metadata: { spq_account_id: accountId, spq_bundle_id: 'starter', spq_price: '2500', spq_currency: 'aud' },
  successUrl: '',
  cancelUrl: '',
  email: '',
});

async function post(instance: SpqProcess, payload: string): Promise<number> {
  const response = await fetch(`${instance.baseUrl}/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': standIn.sign(payload) }, body: payload });
  await response.arrayBuffer();
  return response.status;
}

/** An instance of its own data directory on the shared database. */
async function instance(name: string, extra: Record<string, string> = {}, port?: number): Promise<SpqProcess> {
  return startSpq(childEnv({ ...baseEnv, SPQ_DATA_DIR: join(dir, name), ...extra }), port ?? (await freePort()));
}

describe('payments on two instances sharing PostgreSQL', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'spq-payments-scaleout-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const database = await createDatabase('spq_pay_so');
    cleanups.push(database.drop);
    store = createPostgresAccountStore({ url: database.url });
    cleanups.push(() => store.close());
    await store.migrate();
    standIn = await startStripeStandIn(() => 'http://127.0.0.1:1/unused');
    cleanups.push(() => standIn.close());
    baseEnv = {
      DATABASE_URL: database.url,
      SPQ_POOL_DIR: await buildFixtureRelease(join(dir, 'pools')),
      SPQ_POOL_VERSION: FIXTURE_VERSION,
      SPQ_SERVER_SECRET: `payments-secret-${randomBytes(8).toString('hex')}`,
      SPQ_PAYMENTS: 'stripe',
      SPQ_STRIPE_SECRET_KEY: SECRET_KEY,
      SPQ_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      SPQ_STRIPE_API_URL: standIn.url,
      ...LIMITS,
    };
  }, 120_000);

  it('kill -9 between recording an event and granting it: applied once on restart, the redelivery changes nothing', async () => {
    const { accountId } = await store.createAccount({ email: `crash-${randomBytes(3).toString('hex')}@example.org`, now: new Date() });
    const port = await freePort();
    const held = await instance('a', { SPQ_TEST_PAYMENT_APPLY_DELAY_MS: '60000' }, port);
    const other = await instance('b');
    cleanups.push(() => other.stop());
    const payload = standIn.event('checkout.session.completed', checkoutSessionObject(session(accountId)));
    const eventId = (JSON.parse(payload) as { id: string }).id;
    const delivery = post(held, payload).catch(() => 'connection lost');
    await waitFor('the event recorded, not applied', 20_000, async () => ((await store.payments!.unappliedEvents()).some((e) => e.eventId === eventId) ? true : undefined));
    held.child.kill('SIGKILL');
    expect(await delivery).toBe('connection lost');
    await waitFor('the killed process gone', 10_000, async () => (held.exitCode() !== null ? true : undefined));
    expect((await store.credits(accountId, new Date())).creditsRemaining).toBe(5);

    const restarted = await instance('a', {}, port);
    cleanups.push(() => restarted.stop());
    expect(restarted.lines.some((l) => l.includes('applied 1 payment event recorded before an earlier stop'))).toBe(true);
    expect(await store.credits(accountId, new Date())).toMatchObject({ creditsRemaining: 105, tier: 'paid' });
    // Stripe never got its 200, so it sends the event again, here to the other instance.
    expect(await post(other, payload)).toBe(200);
    expect(await post(restarted, payload)).toBe(200);
    expect((await store.credits(accountId, new Date())).creditsRemaining).toBe(105);
    expect((await store.ledger({ accountId, page: 1, perPage: 20 })).items.filter((e) => e.kind === 'bundle_purchase')).toHaveLength(1);
    await restarted.stop();
    await other.stop();
  }, 240_000);

  it('duplicated, out-of-order and concurrent deliveries to both instances: each bundle granted once, each refund taken once', async () => {
    const a = await instance('c');
    const b = await instance('d');
    cleanups.push(() => a.stop(), () => b.stop());
    const accounts = await Promise.all(Array.from({ length: 3 }, (_, i) => store.createAccount({ email: `two-${i}-${randomBytes(3).toString('hex')}@example.org`, now: new Date() })));
    const payloads: string[] = [];
    const expected = new Map<string, number>();
    accounts.forEach(({ accountId }, i) => {
      for (let p = 0; p < 4; p++) {
        const paid = session(accountId);
        payloads.push(standIn.event('checkout.session.completed', checkoutSessionObject(paid)));
        // Per account and payment: kept whole, refunded 40 % then all, refunded 40 %, or lost in a dispute.
        const kind = (i + p) % 4;
        const charge = (refunded: number) => ({ id: `ch_${paid.paymentIntent}`, object: 'charge', payment_intent: paid.paymentIntent, amount: 2500, amount_refunded: refunded, refunded: refunded === 2500 });
        if (kind === 1) payloads.push(standIn.event('charge.refunded', charge(1000)), standIn.event('charge.refunded', charge(2500)));
        if (kind === 2) payloads.push(standIn.event('charge.refunded', charge(1000)));
        if (kind === 3) payloads.push(standIn.event('charge.dispute.closed', { id: `dp_${paid.paymentIntent}`, object: 'dispute', payment_intent: paid.paymentIntent, status: 'lost', amount: 2500 }));
        const kept = [100, 0, 60, 0][kind]!;
        expected.set(accountId, (expected.get(accountId) ?? 5) + kept);
      }
    });
    // Every event three times, reversed order first, to both instances at once.
    const deliveries = [...payloads].reverse().concat(payloads, [...payloads].sort());
    const statuses = await Promise.all(deliveries.map((payload, i) => post(i % 2 === 0 ? a : b, payload)));
    expect(statuses.every((s) => s === 200)).toBe(true);
    await sleep(100);
    for (const { accountId } of accounts) {
      const summary = await store.credits(accountId, new Date());
      expect(summary.creditsRemaining, accountId).toBe(expected.get(accountId));
      expect(await store.ledgerBalance(accountId)).toBe(summary.creditsRemaining);
      const purchases = await store.payments!.purchases(accountId);
      expect(purchases).toHaveLength(4);
      expect(purchases.every((p) => p.grantedAt !== null && p.shortfall === 0)).toBe(true);
    }
    expect(await store.payments!.unappliedEvents()).toEqual([]);
  }, 240_000);
});
