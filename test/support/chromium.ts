/**
 * What the browser tests (test/e2e/*-browser.test.ts) and bench/reference.ts share: Debian's
 * Chromium driven by playwright-core (no browser download), and axe-core injected into a page.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.SPQ_CHROMIUM ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);

/**
 * Whether a browser test can run. Without Chromium it is skipped, except under CI, where .ci/run
 * installs it: there its absence is a failure, so that a broken install cannot pass as a skip.
 */
export function chromiumForTests(): boolean {
  if (!chromiumAvailable && process.env.CI) throw new Error(`Chromium is not at ${CHROMIUM}: install Debian's chromium package (.ci/run does) or set SPQ_CHROMIUM`);
  return chromiumAvailable;
}

/** Headless Chromium without a sandbox (containers), GPU or background traffic that would add noise. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface AxeResult {
  readonly violations: readonly { id: string; impact: string; help: string; nodes: readonly { target: readonly string[] }[] }[];
  readonly passes: readonly unknown[];
}

let axeSource: Promise<string> | undefined;

/**
 * axe over the whole page as it is now, every rule axe runs by default (WCAG 2.x A and AA, best
 * practices); `options` go to axe.run. axe is injected once per document, as a script, which the
 * pages' CSP (rightly) refuses: the page's context needs bypassCSP.
 */
export async function runAxe(page: Page, options: Record<string, unknown> = {}): Promise<AxeResult> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) {
    axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(await axeSource);
  }
  return page.evaluate(
    (o) =>
      (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResult> } }).axe.run((globalThis as unknown as { document: unknown }).document, o),
    options,
  ) as Promise<AxeResult>;
}

/** One line a violation: impact, rule, what it asks and where (the first three places). */
export const describeViolations = (result: AxeResult): string[] =>
  result.violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`);

/** Every visible form control without an accessible name (a label, aria-label or aria-labelledby). */
export async function unlabelledControls(page: Page): Promise<string[]> {
  return page.$$eval('input:not([type=hidden]), select, textarea', (controls) =>
    controls
      .filter((c) => !(c as unknown as { labels?: { length: number } }).labels?.length && !c.getAttribute('aria-label') && !c.getAttribute('aria-labelledby'))
      .map((c) => c.outerHTML),
  );
}

/** The document's full width: more than the viewport means the page scrolls sideways. */
export const scrollWidth = (page: Page): Promise<number> =>
  page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);

export const DESKTOP = { width: 1280, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/** Links, buttons and checkboxes smaller than 24 × 24 px (WCAG 2.2 target size), skipping inline links in running text. */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.$$eval('header a, header button, nav a, button, input[type=checkbox], td.action a, summary, .button', (elements) =>
    elements
      .filter((e) => (e as unknown as { offsetParent: unknown }).offsetParent !== null)
      .map((e) => ({ e, r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.height < 24 || r.width < 24))
      .map(({ e, r }) => `${e.outerHTML.slice(0, 80)} ${Math.round(r.width)}×${Math.round(r.height)}`),
  );
}

/**
 * An account-area page at desktop and phone width: no axe violation, nothing wider than the
 * screen, tap targets ≥ 24 px; on the phone, each card's action link is inside the screen; with
 * `dark`, the dark palette in use and still passing. Returns the states it checked.
 */
export async function checkAccountPage(page: Page, name: string, options: { dark?: boolean } = {}): Promise<string[]> {
  const { expect } = await import('vitest');
  const violations = async () => describeViolations(await runAxe(page, { resultTypes: ['violations'] }));
  const checked: string[] = [];
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    const where = `${name} at ${viewport.width} px`;
    expect(await violations(), where).toEqual([]);
    expect(await scrollWidth(page), where).toBeLessThanOrEqual(viewport.width);
    expect(await smallTargets(page), where).toEqual([]);
    if (viewport === PHONE) {
      const offScreen = await page.$$eval('td.action a', (links, width) => links.filter((a) => a.getBoundingClientRect().right > (width as number)).map((a) => a.outerHTML), viewport.width);
      expect(offScreen, where).toEqual([]);
    }
    checked.push(where);
    if (options.dark) {
      await page.emulateMedia({ colorScheme: 'dark' });
      // The dark palette is really in use (prefers-color-scheme), and still passes (contrast included).
      expect(await page.$eval('body', (body) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(body).backgroundColor)).toBe('rgb(21, 23, 26)');
      expect(await violations(), `${where}, dark`).toEqual([]);
      checked.push(`${where}, dark`);
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }
  await page.setViewportSize(DESKTOP);
  return checked;
}

/** A holder opens their invitation link and sets their password: signed in by it, on the overview. */
export async function acceptInvitation(page: Page, url: string, password: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('The same password again').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.waitForURL('**/console/overview?welcome=1');
}
