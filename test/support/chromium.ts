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
