/**
 * Issue 41 in a real browser (Debian's Chromium through playwright-core, as account-browser.test.ts):
 * a free holder opens "Buy credits", buys a bundle on the checkout of a local stand-in for Stripe
 * (the official library pointed at it; the stand-in sends the signed webhook as Stripe would) and
 * comes back to the success page on the paid tier with the new balance; then finds the purchase
 * with its amount and receipt on the credits page and downloads the ledger as csv. Cancelling at
 * the checkout changes nothing. With payments off the page says how to reach the operator. Every
 * page passes the account area's checks (axe, no sideways scroll, 24 px targets) at 1280 and 390
 * px, light and dark.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripePayments } from '../../src/adapters/payments/stripe.ts';
import { issueOneTimeLink } from '../../src/app/web/sign-in.ts';
import { loadConfig } from '../../src/config.ts';
import { startTestServer, type TestServer } from '../http/harness.ts';
import { acceptInvitation, checkAccountPage, chromiumForTests, DESKTOP, launchChromium } from '../support/chromium.ts';
import { SECRET_KEY, startStripeStandIn, WEBHOOK_SECRET, type StripeStandIn } from '../support/stripe-stand-in.ts';

const available = chromiumForTests();
const PASSWORD = 'copper lantern meadow 7';

let standIn: StripeStandIn;
let s: TestServer;
let off: TestServer;
let browser: Browser;
let page: Page;
const checked: string[] = [];
/** Clicks the holder makes, from the menu's "Buy credits" to the paid tier. */
let clicks = 0;

const check = async (name: string) => checked.push(...(await checkAccountPage(page, name, { dark: true })));
const nav = (name: string) => page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name, exact: true });

async function signInNewHolder(server: TestServer, email: string): Promise<string> {
  const { accountId } = await server.store.createAccount({ email, now: server.clock.now() });
  const link = await issueOneTimeLink({ ...server.deps, credentials: server.store }, { accountId, purpose: 'invitation' });
  if (!link.ok) throw new Error(link.error.detail);
  await acceptInvitation(page, `${server.baseUrl}${link.value.path}`, PASSWORD);
  return accountId;
}

describe.skipIf(!available)('Buy credits in Chromium', () => {
  beforeAll(async () => {
    standIn = await startStripeStandIn(() => `${s.baseUrl}/webhooks/stripe`);
    const payments = loadConfig({ SPQ_PAYMENTS: 'stripe', SPQ_STRIPE_SECRET_KEY: SECRET_KEY, SPQ_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, SPQ_STRIPE_API_URL: standIn.url }).payments;
    s = await startTestServer({ config: { payments }, payments: createStripePayments(payments.stripe!) });
    off = await startTestServer({ config: { payments: loadConfig({ SPQ_OPERATOR_CONTACT: 'sales@example.org' }).payments } });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true, timezoneId: 'Australia/Melbourne', locale: 'en-AU', bypassCSP: true });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await off?.close();
    await standIn?.close();
  });

  it('"Buy credits" → Stripe’s checkout (stand-in) → paid tier with the new balance in 3 clicks; purchase, receipt and csv on the credits page', async () => {
    const accountId = await signInNewHolder(s, 'buyer@example.org');
    await nav('Buy credits').click();
    clicks++;
    expect(await page.textContent('h1')).toBe('Buy credits');
    expect(await page.textContent('main')).toContain('Starter');
    await check('buy credits');
    // The page may send its form on to the checkout (form-action applies to the redirect too); this test's browser skips CSP for axe.
    const csp = (await page.request.get(`${s.baseUrl}/console/buy`)).headers()['content-security-policy'];
    expect(csp).toContain(`form-action 'self' ${standIn.url}`);

    await page.getByRole('button', { name: 'Buy for $25.00' }).click();
    clicks++;
    await page.waitForURL(`${standIn.url}/pay/**`);
    await page.getByRole('button', { name: 'Pay' }).click();
    clicks++;
    await page.waitForURL('**/console/buy/success?checkout=cs_test_*');
    const main = (await page.textContent('main'))!;
    expect(main).toMatch(/Payment received: 100 credits added, paid tier until \d{1,2} \w{3} 20\d\d/);
    expect(main).toContain('Credits available105');
    expect(main).toContain('Tierpaid');
    expect(clicks).toBe(3);
    await check('payment received');
    expect(await s.store.credits(accountId, s.clock.now())).toMatchObject({ tier: 'paid', creditsRemaining: 105 });

    await nav('Credits').click();
    const purchases = page.getByRole('region', { name: 'Purchases' });
    expect(await purchases.textContent()).toContain('$25.00 AUD');
    expect(await purchases.getByRole('link', { name: /Receipt/ }).getAttribute('href')).toMatch(new RegExp(`^${standIn.url}/receipts/pi_`));
    await check('credits with a purchase');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'ledger (csv)' }).click()]);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv.split('\n')[0]).toBe('created_at,entry_id,kind,free_credits,purchased_credits,balance_after,query_id,note');
    expect(csv).toMatch(/bundle_purchase,0,100,105,,"pi_[0-9a-f]+: starter, 100 credits, 30 days, paid 25.00 AUD"/);

    // Giving up at the checkout: back on the cancel page, nothing changed.
    await nav('Buy credits').click();
    await page.getByRole('button', { name: 'Buy for $100.00' }).click();
    await page.waitForURL(`${standIn.url}/pay/**`);
    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL('**/console/buy/cancel');
    expect(await page.textContent('main')).toContain('No payment was taken');
    await check('payment cancelled');
    expect((await s.store.credits(accountId, s.clock.now())).creditsRemaining).toBe(105);
  }, 120_000);

  it('with payments off, the page lists the bundles and says how to reach the operator', async () => {
    await signInNewHolder(off, 'asker@example.org');
    await nav('Buy credits').click();
    const main = (await page.textContent('main'))!;
    expect(main).toContain('Bundles are sold by the service’s operator: sales@example.org');
    expect(await page.getByRole('button', { name: /^Buy/ }).count()).toBe(0);
    await check('buy credits, payments off');
    expect(checked.length).toBeGreaterThanOrEqual(20);
  });
});
