/**
 * The holder's self-service in a real browser (Debian's Chromium, playwright-core, as
 * account-browser.test.ts): "Forgot your password?" mails a link through a real SMTP server, the
 * link sets a new password by keyboard, the account page changes it again and lists two browsers,
 * one of which is ended from the other. Every control is labelled, and at phone width nothing
 * scrolls sideways. Skipped without Chromium, except under CI.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../../src/adapters/mail/smtp.ts';
import { issueOneTimeLink } from '../../src/app/web/sign-in.ts';
import { startTestServer, type TestServer } from '../http/harness.ts';
import { chromiumForTests, describeViolations, launchChromium, runAxe, scrollWidth, unlabelledControls } from '../support/chromium.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';

const available = chromiumForTests();
const FIRST = 'copper lantern meadow 7';
const SECOND = 'plover turbine saffron 3';
const THIRD = 'walnut gazette orbit 58';

let s: TestServer;
let smtp: TestSmtpServer;
let browser: Browser;
/** axe's violations on the page; that axe really ran shows in what passed. */
async function axeViolations(page: Page): Promise<string[]> {
  const result = await runAxe(page);
  expect(result.passes.length).toBeGreaterThan(10);
  return describeViolations(result);
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${s.baseUrl}/console/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  await page.waitForURL('**/console/overview');
}

describe.skipIf(!available)('self-service in Chromium', () => {
  beforeAll(async () => {
    smtp = await startSmtpServer();
    s = await startTestServer({ mailer: createSmtpMailer({ url: smtp.url, from: 'spq <no-reply@spq.test>' }) });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await smtp?.close();
  });

  it('forgot password → email → new password → account page: change it, see two browsers, end the other', async () => {
    const email = 'forgetful@example.org';
    const { accountId } = await s.store.createAccount({ email, now: s.clock.now() });
    const invite = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'invitation' });
    if (!invite.ok) throw new Error(invite.error.detail);
    const laptop = await browser.newPage({ viewport: { width: 1100, height: 800 }, timezoneId: 'Australia/Melbourne', locale: 'en-AU' });
    await laptop.goto(`${s.baseUrl}${invite.value.path}`);
    await laptop.getByLabel('New password').fill(FIRST);
    await laptop.getByLabel('The same password again').fill(FIRST);
    await laptop.getByRole('button', { name: 'Set password' }).click();
    await laptop.waitForURL('**/console/overview?welcome=1');
    await laptop.getByRole('button', { name: 'Sign out' }).first().click();
    await laptop.waitForURL('**/console/sign-in');

    // Forgot it: ask for a link from the sign-in page.
    await laptop.getByRole('link', { name: 'Forgot your password?' }).click();
    expect(await laptop.textContent('h1')).toBe('Forgot your password?');
    expect(await unlabelledControls(laptop)).toEqual([]);
    await laptop.getByLabel('Email').fill(email);
    await laptop.getByLabel('Email').press('Enter');
    expect(await laptop.textContent('h1')).toBe('Check your email');
    const link = /(http:\/\/\S+\/console\/welcome\/[0-9A-Za-z]{32})/.exec((await smtp.next(email)).text)![1]!;
    await laptop.goto(link);
    await laptop.getByLabel('New password').fill(SECOND);
    await laptop.getByLabel('The same password again').fill(SECOND);
    await laptop.getByRole('button', { name: 'Set password' }).click();
    await laptop.waitForURL('**/console/overview?welcome=1'); // signed in by the link
    const phone = await browser.newPage({ viewport: { width: 390, height: 800 }, timezoneId: 'Australia/Melbourne', locale: 'en-AU', userAgent: 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36' });
    await signIn(phone, email, SECOND);

    await laptop.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Account', exact: true }).click();
    expect(await laptop.textContent('h1')).toBe('Your account');
    expect(await unlabelledControls(laptop)).toEqual([]);
    const rows = laptop.getByRole('region', { name: 'Signed-in browsers' }).getByRole('row');
    expect(await rows.count()).toBe(3); // header and two browsers (the reset link's and the phone's)
    await laptop.getByRole('row', { name: /Chrome on Android/ }).getByRole('button', { name: 'End' }).click();
    expect(await laptop.textContent('.notice.ok')).toContain('That browser is signed out');
    await phone.goto(`${s.baseUrl}/console/account`);
    await phone.waitForURL('**/console/sign-in');

    // Change the password by keyboard.
    await laptop.getByLabel('Current password').fill(SECOND);
    await laptop.getByLabel('New password', { exact: true }).fill(THIRD);
    await laptop.getByLabel('The new password again').fill(THIRD);
    await laptop.getByLabel('The new password again').press('Enter');
    expect(await laptop.textContent('.notice.ok')).toContain('Your password is changed');

    // At phone width the account page does not scroll sideways.
    await signIn(phone, email, THIRD);
    await phone.goto(`${s.baseUrl}/console/account`);
    expect(await scrollWidth(phone)).toBeLessThanOrEqual(390);
    await laptop.close();
    await phone.close();
  });

  it('axe: no violation on the forgot-password, reset-sent and account pages at 1280 and 390 px, light and dark', async () => {
    const email = 'axe@example.org';
    const { accountId } = await s.store.createAccount({ email, now: s.clock.now() });
    const invite = await issueOneTimeLink({ ...s.deps, credentials: s.store }, { accountId, purpose: 'invitation' });
    if (!invite.ok) throw new Error(invite.error.detail);
    for (const width of [1280, 390]) {
      for (const scheme of ['light', 'dark'] as const) {
        // axe is injected as a script, which the pages' CSP (rightly) refuses: this context bypasses it.
        const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme, locale: 'en-AU', bypassCSP: true });
        const page = await context.newPage();
        const where = `${width} px, ${scheme}`;
        s.clock.advance(3600_000); // reset emails are limited to three an hour per address
        await page.goto(`${s.baseUrl}/console/forgot`);
        expect(await axeViolations(page), `forgot, ${where}`).toEqual([]);
        await page.getByLabel('Email').fill(email);
        await page.getByRole('button', { name: 'Send me a reset link' }).click();
        expect(await axeViolations(page), `reset sent, ${where}`).toEqual([]);
        await smtp.next(email);
        if (width === 1280 && scheme === 'light') {
          await page.goto(`${s.baseUrl}${invite.value.path}`);
          await page.getByLabel('New password').fill(FIRST);
          await page.getByLabel('The same password again').fill(FIRST);
          await page.getByRole('button', { name: 'Set password' }).click();
          await page.waitForURL('**/console/overview?welcome=1');
        } else {
          await signIn(page, email, FIRST);
        }
        await page.goto(`${s.baseUrl}/console/account`);
        expect(await axeViolations(page), `account, ${where}`).toEqual([]);
        expect(await scrollWidth(page), where).toBeLessThanOrEqual(width);
        await context.close();
      }
    }
  });
});
