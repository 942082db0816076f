/**
 * The account area in a real browser: Debian's Chromium driven by playwright-core (no browser
 * download). A holder accepts the invitation, signs in, creates a key and calls the API with it,
 * revokes it and sees 401, builds a query, prices and runs it, downloads the file, and finds the
 * charge in the ledger. With SPQ_SCREENSHOTS_DIR set it saves a screenshot of each page
 * (docs/screenshots, shown in the README). Without Chromium it is skipped, except under CI,
 * where .ci/run installs it and its absence is a failure.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueOneTimeLink } from '../../src/app/web/sign-in.ts';
import { startTestServer, type TestServer } from '../http/harness.ts';

const CHROMIUM = process.env.SPQ_CHROMIUM ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`Chromium is not at ${CHROMIUM}: install Debian's chromium package (.ci/run does) or set SPQ_CHROMIUM`);
const SHOTS = process.env.SPQ_SCREENSHOTS_DIR;
const PASSWORD = 'copper lantern meadow 7';

let s: TestServer;
let browser: Browser;
let page: Page;

const nav = (name: string) => page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name, exact: true });

async function shot(name: string, options: { mask?: string[] } = {}): Promise<void> {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true, mask: (options.mask ?? []).map((selector) => page.locator(selector)) });
}

/** Every visible form control has an accessible name (a label, aria-label or aria-labelledby). */
async function unlabelledControls(): Promise<string[]> {
  return page.$$eval('input:not([type=hidden]), select, textarea', (controls) =>
    controls
      .filter((c) => !(c as unknown as { labels?: { length: number } }).labels?.length && !c.getAttribute('aria-label') && !c.getAttribute('aria-labelledby'))
      .map((c) => c.outerHTML),
  );
}

describe.skipIf(!available)('account area in Chromium', () => {
  beforeAll(async () => {
    s = await startTestServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1100, height: 800 }, acceptDownloads: true, timezoneId: 'Australia/Melbourne', locale: 'en-AU' });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('invitation → sign in → key (API 200) → revoke (API 401) → builder → preview → execute → download → ledger', async () => {
    const email = 'researcher@example.org';
    const { accountId } = await s.store.createAccount({ email, now: s.clock.now() });
    await s.store.addBundle({ accountId, credits: 40, days: 30, now: s.clock.now() });
    const link = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'invitation' });
    if (!link.ok) throw new Error(link.error.detail);

    await page.goto(`${s.baseUrl}${link.value.path}`);
    expect(await page.textContent('h1')).toBe('Set your password');
    expect(await unlabelledControls()).toEqual([]);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('The same password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    expect(await page.textContent('h1')).toBe('Password set');
    await page.getByRole('link', { name: 'Sign in' }).click();

    expect(await unlabelledControls()).toEqual([]);
    await shot('sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    // Keyboard only: Enter submits the form.
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL('**/console/query');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'spq_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });

    // Keys: create one, call the API with it, revoke it.
    await nav('API keys').click();
    await page.getByLabel(/^Name/).fill('notebook');
    await page.getByRole('button', { name: 'Create key' }).click();
    const apiKey = (await page.textContent('#new-key-value'))!;
    expect(apiKey).toMatch(/^spq_live_/);
    expect(await page.isVisible('button[data-copy]')).toBe(true); // the copy button (JavaScript) is there
    await shot('keys', { mask: ['#new-key-value'] });
    expect((await s.call('/account/credits', { key: apiKey })).status).toBe(200);
    await nav('API keys').click(); // back on the page, the key is listed by prefix and last four only
    expect(await page.content()).not.toContain(apiKey);

    await page.getByRole('row', { name: /notebook/ }).getByRole('link', { name: /Revoke/ }).click();
    expect(await page.textContent('h1')).toBe('Revoke key');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    expect(await page.textContent('.notice.ok')).toContain('is revoked');
    expect((await s.call('/account/credits', { key: apiKey })).status).toBe(401);

    // The builder: suggestions, price, run, download.
    await nav('New query').click();
    expect(await unlabelledControls()).toEqual([]);
    await page.getByLabel(/^Places/).pressSequentially('Richm');
    await expect.poll(() => page.locator('#geography-suggestions option').count(), { timeout: 5000 }).toBeGreaterThan(0);
    expect(await page.$$eval('#geography-suggestions option', (o) => o.map((x) => x.getAttribute('value')))).toContain('Richmond (VIC)');
    await page.getByLabel(/^Places/).fill('Richmond (VIC)');
    await page.getByLabel('Records per place').fill('100');
    await page.getByLabel('File format').selectOption('csv');
    await shot('query-builder');
    await page.getByRole('button', { name: 'See the price' }).click();
    expect(await page.textContent('h1')).toBe('Check and run');
    await shot('query-preview');
    await page.getByRole('button', { name: /^Run for 1 credit/ }).click();
    expect(await page.textContent('h1')).toBe('Query ready');
    await shot('query-ready');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Download the csv file/ }).click()]);
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(path, 'utf8')).trim().split('\n')).toHaveLength(101);

    await nav('Queries').click();
    expect(await page.textContent('main')).toContain('Richmond (VIC)');
    await shot('queries');
    await nav('Credits').click();
    const credits = (await page.textContent('main'))!;
    expect(credits).toContain('Query charged');
    expect(credits).toContain('Bundle bought');
    expect(credits).toMatch(/AEDT|AEST|GMT\+1[01]/); // times in the holder's zone (Australia/Sydney by default)
    await shot('credits');
    await page.setViewportSize({ width: 390, height: 800 });
    await shot('credits-phone');
    // Nothing is wider than a phone screen but the tables' own scrolling boxes.
    expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // Sign out: the cookie no longer opens the pages.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/console/sign-in');
    await page.goto(`${s.baseUrl}/console/keys`);
    await page.waitForURL('**/console/sign-in');
  });
});
