/**
 * Issue 41: bundles sold through Stripe, against a local stand-in for Stripe's API (the official
 * library pointed at it with its host/port/protocol options) and webhook events signed by the
 * library's own test helper. GET /account/bundles; a checkout started through the library; the
 * webhook: a forged, stale or unsigned event is 400 and changes nothing; a paid checkout grants
 * its bundle once however often and however concurrently it is delivered; an unknown event type,
 * an unknown price, another currency, a changed price or an unknown account is recorded and
 * changes nothing; a refund after part of the bundle was spent takes back the rest and records
 * the shortfall; a lost dispute takes the bundle back. With payments off there is no webhook.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripePayments } from '../../src/adapters/payments/stripe.ts';
import { startBundleCheckout } from '../../src/app/payments.ts';
import { DEFAULT_BUNDLES, loadConfig, type Config } from '../../src/config.ts';
import { ledgerCsv, purchasesCsv } from '../../src/app/web/export.ts';
import { SECRET_KEY, startStripeStandIn, WEBHOOK_SECRET, type StandInSession, type StripeStandIn } from '../support/stripe-stand-in.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { chargeRequest } from '../adapters/store-contract-support.ts';

let standIn: StripeStandIn;
let s: TestServer;

const stripeConfig = (apiUrl: string): Config['payments'] =>
  loadConfig({ SPQ_PAYMENTS: 'stripe', SPQ_STRIPE_SECRET_KEY: SECRET_KEY, SPQ_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, SPQ_STRIPE_API_URL: apiUrl }).payments;

/** A session as the stand-in made it for the account, through the service's own checkout. */
async function checkout(accountId: string, bundleId = 'starter'): Promise<StandInSession> {
  const started = await startBundleCheckout(s.deps, { accountId, bundleId });
  if (!started.ok) throw new Error(started.error.detail);
  const sessionId = /\/pay\/(cs_test_[0-9a-f]+)$/.exec(started.value.url)![1]!;
  return standIn.sessions.get(sessionId)!;
}

const credits = async (key: string) => (await (await s.call('/account/credits', { key })).json()) as { credits_remaining: number; tier: string; credits_purchased: number; free_credits_remaining: number };
const statusOf = async (response: Response) => ({ http: response.status, body: (await response.json()) as { status?: string; error?: string; detail?: string } });

describe('payments through Stripe (stand-in)', () => {
  beforeAll(async () => {
    standIn = await startStripeStandIn(() => `${s.baseUrl}/webhooks/stripe`);
    const payments = stripeConfig(standIn.url);
    s = await startTestServer({ config: { payments }, payments: createStripePayments(payments.stripe!) });
  });
  afterAll(async () => {
    await s?.close();
    await standIn?.close();
  });

  it('GET /account/bundles lists the catalogue, bought by checkout in the account area', async () => {
    const { key } = await s.account();
    const response = await s.call('/account/bundles', { key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      bundles: DEFAULT_BUNDLES.map((b) => ({ bundle_id: b.id, name: b.name, credits: b.credits, paid_days: b.days, price: b.price, currency: b.currency, tax_note: b.taxNote })),
      purchase: 'checkout',
      buy_url: `${s.baseUrl}/console/buy`,
    });
    expect((await s.call('/account/bundles')).status).toBe(401);
  });

  it('a checkout goes through the library to Stripe’s API with the secret key, the price and what was sold', async () => {
    const { accountId } = await s.account();
    const session = await checkout(accountId, 'research');
    const request = standIn.requests.find((r) => r.path === '/v1/checkout/sessions' && r.form.client_reference_id === accountId)!;
    expect(request.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(request.form).toMatchObject({ mode: 'payment', 'line_items[0][price_data][unit_amount]': '10000', 'line_items[0][price_data][currency]': 'aud', 'metadata[spq_bundle_id]': 'research', 'metadata[spq_price]': '10000' });
    expect(session.successUrl).toBe(`${s.baseUrl}/console/buy/success?checkout={CHECKOUT_SESSION_ID}`);
    const unknown = await startBundleCheckout(s.deps, { accountId, bundleId: 'gold' });
    expect(unknown.ok).toBe(false);
  });

  it('refuses forged, stale and unsigned events with 400, recording nothing', async () => {
    const { accountId, key } = await s.account();
    const session = await checkout(accountId);
    const payload = standIn.completed(session);
    const forged = await statusOf(await standIn.deliver(payload, standIn.sign(payload, { secret: 'whsec_not_the_endpoints' })));
    expect(forged.http).toBe(400);
    expect(forged.body.error).toBe('bad_request');
    const stale = await standIn.deliver(payload, standIn.sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 }));
    expect(stale.status).toBe(400);
    expect((await standIn.deliver(payload, null)).status).toBe(400);
    const altered = payload.replace('"amount_total": 2500', '"amount_total": 1');
    expect((await standIn.deliver(altered, standIn.sign(payload))).status).toBe(400);
    expect(await credits(key)).toMatchObject({ credits_remaining: 5, tier: 'free' });
    expect(await s.store.payments!.events()).not.toContainEqual(expect.objectContaining({ paymentId: session.paymentIntent }));
  });

  it('a paid checkout grants its bundle once, however often and however concurrently it is delivered; the receipt is kept', async () => {
    const { accountId, key } = await s.account();
    const session = await checkout(accountId);
    const payload = standIn.completed(session);
    const answers = await Promise.all(Array.from({ length: 8 }, () => standIn.deliver(payload)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect((await statusOf(await standIn.deliver(payload))).body.status).toBe('applied');
    expect(await credits(key)).toMatchObject({ credits_remaining: 105, tier: 'paid', credits_purchased: 100 });
    const [purchase] = await s.store.payments!.purchases(accountId);
    expect(purchase).toMatchObject({ paymentId: session.paymentIntent, amount: 2500, currency: 'aud', checkoutId: session.id });
    expect(purchase!.receiptUrl).toBe(`${standIn.url}/receipts/${session.paymentIntent}`);
    const ledger = await ledgerCsv(s.deps, accountId);
    expect(ledger.split('\n')[0]).toBe('created_at,entry_id,kind,free_credits,purchased_credits,balance_after,query_id,note');
    expect(ledger).toContain(`bundle_purchase,0,100,105,,"${session.paymentIntent}: starter, 100 credits, 30 days, paid 25.00 AUD"`);
    expect(await purchasesCsv(s.deps, accountId)).toContain(`${session.paymentIntent},starter,100,30,2500,aud,0,,0,granted,${standIn.url}/receipts/`);
  });

  it('records and never applies: an unknown event type, an unknown price, another currency, a changed price, an unknown account', async () => {
    const { accountId, key } = await s.account();
    const other = await statusOf(await standIn.deliver(standIn.event('customer.created', { id: 'cus_1', object: 'customer' })));
    expect(other).toMatchObject({ http: 200, body: { status: 'ignored' } });
    const session = await checkout(accountId);
    const cases: [Record<string, unknown>, string][] = [
      [{ metadata: { ...session.metadata, spq_bundle_id: 'gold' } }, 'unknown_bundle'],
      [{ currency: 'usd' }, 'currency_mismatch'],
      [{ metadata: { ...session.metadata, spq_price: '2000' }, amount_total: 2000 }, 'price_changed'],
      [{ client_reference_id: 'acc_deleted00000000000000' }, 'unknown_account'],
    ];
    for (const [overrides, reason] of cases) {
      const payload = standIn.completed({ ...session, paymentIntent: `pi_${reason}${Date.now()}` }, overrides);
      const answer = await statusOf(await standIn.deliver(payload));
      expect(answer, reason).toMatchObject({ http: 200, body: { status: 'refused' } });
      const recorded = (await s.store.payments!.events('refused')).find((e) => e.eventId === JSON.parse(payload).id);
      expect(recorded?.reason, reason).toMatch(new RegExp(`^${reason}`));
    }
    expect(await credits(key)).toMatchObject({ credits_remaining: 5, tier: 'free' });
    // Paid and granted nothing: the operator is told, at error level.
    expect(s.logs.filter((l) => l.includes('payment event refused') && l.includes('"level":50'))).toHaveLength(cases.length);
  });

  it('a refund after part of the bundle was spent takes back what is left and records the shortfall; a lost dispute takes a bundle back', async () => {
    const { accountId, key } = await s.account();
    const session = await checkout(accountId);
    await standIn.deliver(standIn.completed(session));
    // 12 credits spent: the week's 5 free ones first, then 7 of the bundle's.
    expect((await s.store.charge(chargeRequest(accountId, 12, s.clock.now()))).ok).toBe(true);
    const before = await credits(key);
    const charge = { id: 'ch_refunded', object: 'charge', payment_intent: session.paymentIntent, amount: 2500, amount_refunded: 2500, refunded: true };
    expect((await statusOf(await standIn.deliver(standIn.event('charge.refunded', charge)))).body.status).toBe('applied');
    const after = await credits(key);
    // Every bought credit left is taken back; the free ones stay; what was spent of the bundle is the shortfall.
    const unspent = before.credits_remaining - before.free_credits_remaining;
    expect(unspent).toBe(93);
    expect(after.credits_remaining).toBe(before.free_credits_remaining);
    const [purchase] = await s.store.payments!.purchases(accountId);
    expect(purchase).toMatchObject({ creditsReversed: unspent, shortfall: 100 - unspent, amountRefunded: 2500 });
    expect(after.tier).toBe('free');

    const second = await s.account();
    const disputed = await checkout(second.accountId);
    await standIn.deliver(standIn.completed(disputed));
    const dispute = { id: 'dp_1', object: 'dispute', payment_intent: disputed.paymentIntent, charge: 'ch_1', status: 'lost', amount: 2500 };
    expect((await statusOf(await standIn.deliver(standIn.event('charge.dispute.closed', dispute)))).body.status).toBe('applied');
    expect(await credits(second.key)).toMatchObject({ credits_remaining: 5, tier: 'free' });
  });
});

describe('payments off (the default)', () => {
  let off: TestServer;
  beforeAll(async () => {
    off = await startTestServer();
  });
  afterAll(async () => off?.close());

  it('has no webhook, and GET /account/bundles says bundles come from the operator', async () => {
    const { key } = await off.account();
    const body = (await (await off.call('/account/bundles', { key })).json()) as { purchase: string };
    expect(body.purchase).toBe('operator');
    const hook = await fetch(`${off.baseUrl}/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' }, body: '{}' });
    expect(hook.status).toBe(404);
  });
});
