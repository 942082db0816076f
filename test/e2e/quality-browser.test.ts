/**
 * The quality pages in a real browser (Debian's Chromium through playwright-core), on the demo
 * release as `npm start` builds it: a holder prices a query in the account area and, in one click
 * from the preview, opens the suburb's page; the suburb's, a small suburb's, a state's and the
 * release's pages are checked at 1280 and 390 px, light and dark: axe finds no violation, nothing
 * scrolls sideways, tap targets are 24 px at least (support/chromium.ts checkAccountPage). The
 * charts are drawn with no script: the page runs none. A page asked again comes from the
 * release's cache within 300 ms. Skipped without Chromium, except under CI.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueOneTimeLink } from '../../src/app/web/sign-in.ts';
import { startTestServer, type TestServer } from '../http/harness.ts';
import { acceptInvitation, checkAccountPage, chromiumForTests, DESKTOP, launchChromium } from '../support/chromium.ts';
import { buildDemoRelease } from '../support/demo-release.ts';

const available = chromiumForTests();
const PASSWORD = 'juniper anchor violet 5';

let s: TestServer;
let demo: Awaited<ReturnType<typeof buildDemoRelease>> | undefined;
let browser: Browser;
let page: Page;
const checked: string[] = [];

describe.skipIf(!available)('quality pages in Chromium', () => {
  beforeAll(async () => {
    demo = await buildDemoRelease();
    s = await startTestServer({ releaseDir: demo.releaseDir });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-AU', bypassCSP: true, javaScriptEnabled: true });
    page = await context.newPage();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await demo?.remove();
  });

  it('preview → one click → the suburb’s page; suburb, small suburb, state and release pages accessible at 1280 and 390 px, light and dark', async () => {
    const email = 'planner@example.org';
    const { accountId } = await s.store.createAccount({ email, now: s.clock.now() });
    await s.store.grantCredits({ accountId, credits: 20, now: s.clock.now() });
    const link = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'invitation' });
    if (!link.ok) throw new Error(link.error.detail);
    await acceptInvitation(page, `${s.baseUrl}${link.value.path}`, PASSWORD);

    const suburbs = s.pools.search({ query: 'a', level: 'suburb', limit: 50 }).results;
    const suburb = suburbs.find((x) => !x.smallSuburb)!;
    const small = s.pools.search({ query: 'e', level: 'suburb', limit: 50 }).results.find((x) => x.smallSuburb)!;
    await page.goto(`${s.baseUrl}/console/query`);
    await page.getByLabel(/^Places/).fill(suburb.suburbId);
    await page.getByLabel('Records per place', { exact: true }).fill('10');
    await page.getByRole('button', { name: 'See the price' }).click();
    await page.getByRole('link', { name: `fit to the census of ${suburb.suburbId}` }).click();
    await page.waitForURL(`**/console/quality/areas/suburb/${encodeURIComponent(suburb.suburbId)}`);
    expect(await page.textContent('h1')).toBe(`${suburb.suburbId}: the records beside the census`);
    // Seven charts, each an SVG image named by its caption, with its table beside it.
    expect(await page.locator('figure.chart svg[role="img"]').count()).toBe(8);
    expect(await page.locator('.chart-pair table').count()).toBe(8);
    expect(await page.locator('script:not([src])').count()).toBe(0);
    checked.push(...(await checkAccountPage(page, 'suburb quality page', { dark: true })));

    await page.goto(`${s.baseUrl}/console/quality/areas/suburb/${encodeURIComponent(small.suburbId)}`);
    expect(await page.textContent('main')).toContain('Shown in coarse categories');
    checked.push(...(await checkAccountPage(page, 'small suburb quality page', { dark: true })));

    await page.goto(`${s.baseUrl}/console/quality/areas/state/${suburb.state}`);
    checked.push(...(await checkAccountPage(page, 'state quality page', { dark: true })));

    await page.goto(`${s.baseUrl}/quality`);
    expect(await page.textContent('h1')).toBe(`Release ${s.pools.version}: fit to the census`);
    checked.push(...(await checkAccountPage(page, 'release quality page', { dark: true })));
    expect(checked).toHaveLength(16);
  }, 300_000);

  it('with the API key, the page quality_url names; asked again it comes within 300 ms', async () => {
    const { key } = await s.account();
    const search = (await (await s.call(`/geography/search?query=${encodeURIComponent('a')}&limit=1`, { key })).json()) as { results: { quality_url: string; suburb_id: string }[] };
    const url = `${s.baseUrl}${search.results[0]!.quality_url}`;
    const context = await browser.newContext({ viewport: DESKTOP, bypassCSP: true, extraHTTPHeaders: { authorization: `Bearer ${key}` } });
    const keyed = await context.newPage();
    const response = await keyed.goto(url);
    expect(response!.status()).toBe(200);
    expect(await keyed.textContent('h1')).toBe(`${search.results[0]!.suburb_id}: the records beside the census`);
    await checkAccountPage(keyed, 'suburb quality page with the key');
    await context.close();
    const started = performance.now();
    const again = await s.call(search.results[0]!.quality_url, { key });
    await again.text();
    expect(again.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(300);
  }, 120_000);
});
