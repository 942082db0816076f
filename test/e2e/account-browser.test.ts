/**
 * The account area in a real browser: Debian's Chromium driven by playwright-core (no browser
 * download). A holder accepts the invitation (and is signed in by it), signs out and in again,
 * lands on the overview, creates a key and calls the API with it, revokes it and sees 401, builds
 * a query in test mode and for real, prices and runs it, downloads the file, opens the query's
 * page and finds the charge in the ledger. Every page is checked at 1280 and 390 px wide: axe-core
 * (injected into the page) finds no violation, nothing scrolls sideways, tap targets are at least
 * 24 px, and on a phone a table's main action (Download, Revoke) is in view; a few are checked in
 * dark mode too. With SPQ_SCREENSHOTS_DIR set it saves screenshots (docs/screenshots, shown in the
 * README). Without Chromium it is skipped, except under CI, where .ci/run installs it and its
 * absence is a failure.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueOneTimeLink } from '../../src/app/web/sign-in.ts';
import { startTestServer, type TestServer } from '../http/harness.ts';
import { acceptInvitation, checkAccountPage, chromiumForTests, describeViolations, DESKTOP, launchChromium, PHONE, runAxe, unlabelledControls } from '../support/chromium.ts';

const available = chromiumForTests();
const SHOTS = process.env.SPQ_SCREENSHOTS_DIR;
const PASSWORD = 'copper lantern meadow 7';

let s: TestServer;
let browser: Browser;
let page: Page;
/** Every page state checked, for the closing count. */
const checked: string[] = [];

const nav = (name: string) => page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name, exact: true });

async function shot(name: string, options: { mask?: string[] } = {}): Promise<void> {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true, mask: (options.mask ?? []).map((selector) => page.locator(selector)) });
}

/** axe-core's violations on the page as it is now; only violations are gathered in full, as this runs on every page state. */
const axeViolations = async (): Promise<string[]> => describeViolations(await runAxe(page, { resultTypes: ['violations'] }));

/** The page at desktop and phone width, as every account-area page is checked (support/chromium.ts). */
async function checkPage(name: string, options: { dark?: boolean } = {}): Promise<void> {
  checked.push(...(await checkAccountPage(page, name, options)));
}

describe.skipIf(!available)('account area in Chromium', () => {
  beforeAll(async () => {
    s = await startTestServer();
    browser = await launchChromium();
    // bypassCSP lets the test inject axe-core as an inline script; the pages' own CSP is tested over HTTP.
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true, timezoneId: 'Australia/Melbourne', locale: 'en-AU', bypassCSP: true });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('invitation (signed in) → overview → key (API 200) → revoke (API 401) → test-mode and real queries → query page → ledger, every page accessible at 1280 and 390 px', async () => {
    const email = 'researcher@example.org';
    const { accountId } = await s.store.createAccount({ email, now: s.clock.now() });
    await s.store.addBundle({ accountId, credits: 40, days: 30, now: s.clock.now() });
    const link = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'invitation' });
    if (!link.ok) throw new Error(link.error.detail);

    await page.goto(`${s.baseUrl}${link.value.path}`);
    expect(await page.textContent('h1')).toBe('Set your password');
    expect(await unlabelledControls(page)).toEqual([]);
    // axe does find what it should: an image without a text alternative, put in for a moment.
    await page.evaluate(() => {
      const d = (globalThis as unknown as { document: { createElement(t: string): { src: string; id: string; remove(): void }; body: { append(e: unknown): void } } }).document;
      const img = d.createElement('img');
      img.src = '/console/assets/spq.css';
      img.id = 'axe-probe';
      d.body.append(img);
    });
    expect((await axeViolations()).join('\n')).toContain('image-alt');
    await page.evaluate(() => (globalThis as unknown as { document: { getElementById(id: string): { remove(): void } } }).document.getElementById('axe-probe').remove());
    await checkPage('set password');
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('The same password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    // Signed in by the link: straight to the overview.
    await page.waitForURL('**/console/overview?welcome=1');
    expect(await page.textContent('.notice.ok')).toContain('signed in');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/console/sign-in');

    expect(await unlabelledControls(page)).toEqual([]);
    await checkPage('sign in', { dark: true });
    await shot('sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    // Keyboard only: Enter submits the form.
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL('**/console/overview');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'spq_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
    await checkPage('overview, empty');

    // Keys: create one, call the API with it, revoke it.
    await nav('API keys').click();
    await page.getByLabel(/^Name/).fill('notebook');
    await page.getByLabel(/^Your password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create key' }).click();
    const apiKey = (await page.textContent('#new-key-value'))!;
    expect(apiKey).toMatch(/^spq_live_/);
    expect(await page.isVisible('button[data-copy]')).toBe(true); // the copy button (JavaScript) is there
    await checkPage('keys, new key shown');
    await shot('keys', { mask: ['#new-key-value'] });
    const query = { geography_level: 'suburb', geography_selections: ['Fitzroy'], dataset_type: 'persons', n_observations: 20, output_format: 'csv' };
    expect((await s.call('/query/execute', { key: apiKey, body: query })).status).toBe(200);
    await nav('API keys').click(); // back on the page, the key is listed by prefix and last four only
    expect(await page.content()).not.toContain(apiKey);
    await checkPage('keys');

    await page.getByRole('row', { name: /notebook/ }).getByRole('link', { name: /Revoke/ }).click();
    expect(await page.textContent('h1')).toBe('Revoke key');
    await checkPage('revoke key');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    expect(await page.textContent('.notice.ok')).toContain('is revoked');
    expect((await s.call('/account/credits', { key: apiKey })).status).toBe(401);

    // The builder: suggestions after the ";" separator, an error in the form's words, test mode.
    await nav('New query').click();
    expect(await unlabelledControls(page)).toEqual([]);
    await page.getByLabel(/^Places/).pressSequentially('Fitzroy; Richm');
    await expect.poll(() => page.locator('#geography-suggestions option').count(), { timeout: 5000 }).toBeGreaterThan(0);
    expect(await page.$$eval('#geography-suggestions option', (o) => o.map((x) => x.getAttribute('value')))).toContain('Fitzroy; Richmond (VIC)');
    await page.getByLabel('Geography level').selectOption('postcode');
    expect(await page.textContent('#geography-hint')).toContain('e.g. 3121; 3065');
    await page.getByLabel('Geography level').selectOption('suburb');
    await checkPage('new query', { dark: true });
    await page.getByLabel(/^Places/).fill('Richmnd');
    await page.getByRole('button', { name: 'See the price' }).click();
    expect(await page.textContent('[role=alert]')).toMatch(/Did you mean “Richmond \((VIC|NSW)\)”/);
    await checkPage('new query, refused');
    await page.getByLabel(/^Places/).fill('Richmond (VIC); Fitzroy');
    await page.getByLabel('Records per place', { exact: true }).fill('40');
    await page.getByLabel('File format').selectOption('csv');
    await page.getByLabel(/^Test mode/).check();
    await page.getByRole('button', { name: 'See the price' }).click();
    expect(await page.textContent('h1')).toBe('Check and run');
    await checkPage('preview, test mode');
    await page.getByRole('button', { name: 'Run in test mode' }).click();
    expect(await page.textContent('h1')).toBe('Query ready');
    expect(await page.textContent('main')).toContain('test data');
    await checkPage('query ready, test mode');

    // The same query for real.
    await nav('New query').click();
    await page.getByLabel(/^Places/).fill('Richmond (VIC); Fitzroy');
    await page.getByLabel('Records per place', { exact: true }).fill('100');
    await page.getByLabel('File format').selectOption('csv');
    await shot('query-builder');
    await page.getByRole('button', { name: 'See the price' }).click();
    await checkPage('preview');
    await shot('query-preview');
    await page.getByRole('button', { name: /^Run for 1 credit/ }).click();
    expect(await page.textContent('h1')).toBe('Query ready');
    await checkPage('query ready', { dark: true });
    await shot('query-ready');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Download the csv file/ }).click()]);
    expect((await readFile(await download.path(), 'utf8')).trim().split('\n')).toHaveLength(201);

    // The query's page: parameters, copy as code, and "Run again" back to the price.
    await page.getByRole('link', { name: /^qry_/ }).click();
    expect(await page.textContent('h1')).toBe('Query');
    expect(await page.textContent('main')).toContain('Richmond (VIC); Fitzroy');
    await page.getByText('Python', { exact: true }).click();
    expect(await page.isVisible('#snippet-python')).toBe(true);
    await checkPage('query page', { dark: true });
    await shot('query-page');
    await page.setViewportSize(PHONE);
    await shot('query-page-phone');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'Run again (the same records)' }).click();
    expect(await page.textContent('h1')).toBe('Check and run');

    await nav('Queries').click();
    expect(await page.textContent('main')).toContain('Richmond (VIC); Fitzroy');
    expect(await page.locator('.badge', { hasText: 'test data' }).count()).toBe(1);
    await checkPage('queries');
    await shot('queries');
    await page.setViewportSize(PHONE);
    await shot('queries-phone');
    await page.setViewportSize(DESKTOP);

    await nav('Credits').click();
    const credits = (await page.textContent('main'))!;
    expect(credits).toContain('Query charged');
    expect(credits).toContain('Test-mode query (free)');
    expect(credits).toContain('Bundle bought');
    expect(credits).not.toContain('no weekly allowance while paid');
    expect(credits).toMatch(/AEDT|AEST|GMT\+1[01]/); // times in the holder's zone (Australia/Sydney by default)
    await checkPage('credits', { dark: true });
    await shot('credits');
    await page.setViewportSize(PHONE);
    await shot('credits-phone');
    await page.setViewportSize(DESKTOP);
    // The ledger's box takes the keyboard's focus (and so its arrow keys), and is named.
    await page.getByRole('region', { name: 'Ledger' }).focus();
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } } }).document.activeElement.getAttribute('aria-label'))).toBe('Ledger');

    await nav('Overview').click();
    const overview = (await page.textContent('main'))!;
    expect(overview).toContain('3 queries, 300 records, 2 credits (1 of the queries in test mode, free).');
    expect(await page.locator('svg[role=img]').count()).toBe(3);
    await checkPage('overview', { dark: true });
    await shot('overview');
    await page.setViewportSize(PHONE);
    await shot('overview-phone');
    await page.setViewportSize(DESKTOP);

    // Unknown addresses are pages too.
    const missing = await page.goto(`${s.baseUrl}/console/nope`);
    expect(missing?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('Page not found');
    await checkPage('not found');

    // Sign out: the cookie no longer opens the pages.
    await nav('Overview').click().catch(() => undefined);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/console/sign-in');
    await page.goto(`${s.baseUrl}/console/keys`);
    await page.waitForURL('**/console/sign-in');
    expect(checked.length).toBeGreaterThanOrEqual(30);
  });

  it('a free holder whose week is spent: the overview says when credits come back, the price page offers no run button but the way to credits', async () => {
    const { accountId } = await s.store.createAccount({ email: 'student@example.org', now: s.clock.now() });
    const { key } = await s.addKey(accountId);
    for (let i = 0; i < 5; i++) expect((await s.call('/query/execute', { key, body: { geography_level: 'suburb', geography_selections: ['Burnley'], dataset_type: 'persons', n_observations: 5, output_format: 'csv' } })).status).toBe(200);
    const link = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'invitation' });
    if (!link.ok) throw new Error(link.error.detail);
    await acceptInvitation(page, `${s.baseUrl}${link.value.path}`, PASSWORD);
    expect(await page.textContent('main')).toMatch(/0 of 5 free credits left this week; back to 5 on \d{1,2} \w{3} 2026/);
    await checkPage('overview, free tier spent', { dark: true });

    await nav('New query').click();
    await page.getByLabel(/^Places/).fill('Richmond (VIC)');
    await page.getByLabel('Records per place', { exact: true }).fill('50');
    await page.getByRole('button', { name: 'See the price' }).click();
    expect(await page.textContent('h1')).toBe('Check and run');
    expect(await page.getByRole('button', { name: /^Run/ }).count()).toBe(0);
    expect(await page.textContent('main')).toContain('To get credits, buy a bundle');
    await checkPage('preview, balance cannot pay');
    await shot('query-preview-no-credits');
  });
});
