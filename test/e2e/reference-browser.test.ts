/**
 * The API reference (/docs) in a real browser: Debian's Chromium driven by playwright-core, as
 * test/e2e/account-browser.test.ts does. axe-core finds no violation at desktop and phone widths
 * in the light and the dark scheme; the page never scrolls sideways on a phone; the skip link is
 * the first stop of the keyboard; anchors land on their section; the CSP holds (the stylesheet
 * applies, nothing is refused). With SPQ_SCREENSHOTS_DIR set it saves a screenshot of each
 * width and scheme (docs/screenshots, shown in the README).
 * Without Chromium it is skipped, except under CI.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../http/harness.ts';
import { chromiumForTests, describeViolations, launchChromium, runAxe, scrollWidth } from '../support/chromium.ts';

const available = chromiumForTests();
const SHOTS = process.env.SPQ_SCREENSHOTS_DIR;

let s: TestServer;
let browser: Browser;

const WIDTHS = [1280, 390] as const;
const SCHEMES = ['light', 'dark'] as const;

async function contextFor(width: number, scheme: 'light' | 'dark', options: { bypassCSP?: boolean } = {}): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme, locale: 'en-AU', ...options });
}

describe.skipIf(!available)('API reference in Chromium', () => {
  beforeAll(async () => {
    s = await startTestServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('axe: no violation at 1280 and 390 px, light and dark; no sideways scrolling on a phone', async () => {
    for (const width of WIDTHS) {
      for (const scheme of SCHEMES) {
        // axe is injected as a script, which the page's CSP (rightly) refuses: this context bypasses it.
        const context = await contextFor(width, scheme, { bypassCSP: true });
        const page = await context.newPage();
        await page.goto(`${s.baseUrl}/docs`);
        const result = await runAxe(page);
        expect(describeViolations(result), `${width} px, ${scheme}`).toEqual([]);
        expect(result.passes.length).toBeGreaterThan(10);
        expect(await scrollWidth(page), `${width} px, ${scheme}`).toBeLessThanOrEqual(width);
        if (SHOTS) {
          await mkdir(SHOTS, { recursive: true });
          await page.goto(`${s.baseUrl}/docs#executeQuery`); // an operation says more than the contents
          await page.screenshot({ path: join(SHOTS, `reference-${width}-${scheme}.png`) });
        }
        await context.close();
      }
    }
  });

  it('follows the reader’s colour scheme', async () => {
    const backgrounds: string[] = [];
    for (const scheme of SCHEMES) {
      const context = await contextFor(1280, scheme);
      const page = await context.newPage();
      await page.goto(`${s.baseUrl}/docs`);
      backgrounds.push(await page.evaluate(() => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string }; document: { body: unknown } }).getComputedStyle((globalThis as unknown as { document: { body: unknown } }).document.body).backgroundColor));
      await context.close();
    }
    expect(backgrounds).toEqual(['rgb(255, 255, 255)', 'rgb(17, 20, 24)']);
  });

  it('under its own CSP: the stylesheet applies, nothing is refused; keyboard and anchors work', async () => {
    const context = await contextFor(390, 'light');
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') refused.push(message.text());
    });
    await page.goto(`${s.baseUrl}/docs`);
    // The stylesheet is applied: the method badges have their colour.
    expect(await page.locator('#executeQuery .endpoint .method').evaluate((e) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(e).backgroundColor)).toBe('rgb(29, 78, 216)');
    expect(refused).toEqual([]);

    // The first Tab stop is the skip link, and it leads to the content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(page.url()).toMatch(/#main$/);

    // The table of contents leads to an operation; its heading is in view.
    await page.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name: 'POST /query/execute' }).click();
    expect(page.url()).toMatch(/#executeQuery$/);
    await expect.poll(() => page.getByRole('heading', { name: 'Run a query' }).isVisible()).toBe(true);
    const top = await page.locator('#executeQuery').evaluate((e) => (e as unknown as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top);
    expect(Math.abs(top)).toBeLessThan(40);
    // A response's anchor and a schema link work the same way.
    await page.goto(`${s.baseUrl}/docs#executeQuery-402`);
    expect(await page.locator('#executeQuery-402').isVisible()).toBe(true);
    await page.locator('#executeQuery').getByRole('link', { name: 'QueryRequest' }).first().click();
    expect(page.url()).toMatch(/#schema-QueryRequest$/);
    await context.close();
  });
});
